"""The request-handler chain: every model request of a session passes here (routing, log, stop gate, audit)."""
