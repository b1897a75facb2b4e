"""Every use of the github-copilot-sdk's private parts, in one place.

The SDK offers no public way to reach a few things copilot-eval needs: the runtime's process (to
notice its death and name its exit), the client's session map (to keep it bounded), the user
function inside a ``define_tool`` Tool (to run it off the loop and keep its exception), the
SDK's result normaliser and its exception result, and two fields a wrapping WebSocket handler must share with the one it
wraps. Each access is a small function here, so an SDK upgrade that moves one of them breaks one
module, and every function degrades to "unknown" rather than raising when the part is gone.
"""

from __future__ import annotations

from typing import Any


def runtime_process(client: Any) -> Any:
    """The runtime's ``subprocess.Popen`` behind a client, or ``None`` when not visible."""
    return getattr(client, "_cli_process", None) or getattr(client, "_process", None)


def session_map_size(client: Any) -> int | None:
    """How many sessions the client still holds in memory (``None`` when not visible)."""
    sessions = getattr(client, "_sessions", None)
    return len(sessions) if isinstance(sessions, dict) else None


def forget_session(client: Any, session_id: str) -> bool:
    """Drop a disconnected session from the client's map (``disconnect()`` leaves it there, and
    the runtime cannot delete a session that has its own config directory); without this the map
    would keep one entry per run. True if dropped."""
    sessions = getattr(client, "_sessions", None)
    lock = getattr(client, "_sessions_lock", None)
    if not isinstance(sessions, dict):
        return False
    if lock is not None:
        with lock:
            return sessions.pop(session_id, None) is not None
    return sessions.pop(session_id, None) is not None


def define_tool_parts(handler: Any) -> dict[str, Any] | None:
    """The closure cells of a ``define_tool`` handler (``fn``, ``ptype``, ``takes_params``,
    ``takes_invocation``), or ``None`` when the handler is not such a closure.

    define_tool wraps the user's function in a closure that calls it on the event loop and hides
    its exceptions; reading the cells lets copilot-eval call the function itself.
    """
    code = getattr(handler, "__code__", None)
    closure = getattr(handler, "__closure__", None) or ()
    if code is None:
        return None
    cells = dict(zip(code.co_freevars, (cell.cell_contents for cell in closure), strict=True))
    return cells if "fn" in cells else None


def normalize_tool_result(value: Any) -> Any:
    """A tool function's return value as the SDK's ``ToolResult``, the way define_tool does it."""
    from copilot.tools import ToolResult, _normalize_result

    return value if isinstance(value, ToolResult) else _normalize_result(value)


def exception_tool_result(error_text: str) -> Any:
    """The ``ToolResult`` the SDK's ``define_tool`` makes of a handler's exception, marked the way the
    SDK marks it: the session then sends the runtime only the error, and the runtime tells the
    model its standard failure text ("Failed to execute `name` tool ... Tool execution failed")."""
    from copilot.tools import ToolResult

    return ToolResult(
        text_result_for_llm="Invoking this tool produced an error. Detailed information is not available.",
        result_type="failure",
        error=error_text,
        tool_telemetry={},
        _from_exception=True,
    )


def shared_websocket_completion(inner: Any) -> Any:
    """The completion future of a WebSocket handler: the SDK waits on it, so a handler wrapping
    another must hand out the inner one."""
    return inner._completion


def pass_close_on_dispose(outer: Any, inner: Any) -> None:
    """Copy the wrapper's "suppress close on dispose" setting to the handler it wraps."""
    inner._suppress_close_on_dispose = outer._suppress_close_on_dispose


__all__ = [
    "define_tool_parts",
    "exception_tool_result",
    "forget_session",
    "normalize_tool_result",
    "pass_close_on_dispose",
    "runtime_process",
    "session_map_size",
    "shared_websocket_completion",
]
