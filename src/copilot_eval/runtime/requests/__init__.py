"""The request-handler chain of one run: every model request of a session passes here (log, stop gate, audit)."""
