"""The wire every in-process model source stands on: reading model requests, answering them over HTTP or a WebSocket.

The ScriptedModel, the FunctionModel and Replay/Recorder all read the runtime's chat completions
and Responses requests here and write their answers with the same renderers, so a wire detail is
fixed once for all three. Import from the modules; this package exports nothing, so that
importing it never loads the SDK.
"""
