"""Reading a ``session.error`` event: the one place its payload is turned into words."""

from __future__ import annotations

from typing import Any

from copilot_eval.capture.events import as_event_dict, event_data, int_or_none, text_or_none

UNREADABLE = "session error (payload unreadable)"


def session_error_message(data: dict[str, Any] | None) -> str:
    """``"<message> (HTTP <status>)"`` from a session.error payload; a fixed text when unreadable."""
    if data is None:
        return UNREADABLE
    message = text_or_none(data.get("message")) or text_or_none(data.get("errorType")) or "session error"
    status = int_or_none(data.get("statusCode"))
    return f"{message} (HTTP {status})" if status is not None else message


def session_error_of(event: Any) -> str:
    """The message of a session.error event, given as an SDK object or as a dict."""
    return session_error_message(event_data(as_event_dict(event)))
