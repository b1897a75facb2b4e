"""Every use of the github-copilot-sdk's private parts, in one place.

The SDK offers no public way to reach a few things copilot-eval needs: the runtime's process (to
notice its death and name its exit), the client's session map (to keep it bounded), the user
function inside a ``define_tool`` Tool (to run it off the loop and keep its exception), the
SDK's result normaliser and its exception result, two fields a wrapping WebSocket handler must
share with the one it wraps, and the JSON object each session event was parsed from (the SDK's
typed events drop fields the runtime sends: content annotations, a sampling request's messages).
Each access is a small function here, so an SDK upgrade that moves one of them breaks one
module, and every function degrades to "unknown" rather than raising when the part is gone.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import Any

from copilot_eval.capture.events import WIRE_ATTRIBUTE

# The SDK's modules are imported inside the functions that reach into them: `copilot-eval setup` and the runtime's
# locator import this module through client_factory, and must not load the SDK (about 0.6 s).


def runtime_process(client: Any) -> Any:
    """The runtime's ``subprocess.Popen`` behind a client, or ``None`` when not visible."""
    return getattr(client, "_cli_process", None) or getattr(client, "_process", None)


class _OwnProcessGroup:
    """The ``subprocess`` module as the SDK's client module sees it, with every child started in a
    process group of its own (POSIX; elsewhere unchanged)."""

    def __init__(self, module: Any) -> None:
        self._module = module

    def __getattr__(self, name: str) -> Any:
        return getattr(self._module, name)

    def Popen(self, *args: Any, **kwargs: Any) -> Any:  # the name the SDK calls
        if os.name == "posix":
            kwargs.setdefault("process_group", 0)
        return self._module.Popen(*args, **kwargs)


def start_runtimes_in_their_own_process_group() -> bool:
    """Make the SDK start each runtime in a process group of its own; False when it cannot be done.

    A terminal's Ctrl-C, or a signal a CI job sends to the command's group, reached the runtimes
    too: they ended at once (exit 0) while the command still played cases on them, and those cases
    were recorded as the agent's execution errors. In a group of their own they get no signal meant
    for the command; the command stops them itself, and they still end with their stdio pipe when
    it dies outright. The SDK calls ``subprocess.Popen`` through its client module (SDK 1.0.27), so
    that module's view of ``subprocess`` is wrapped, once per process.
    """
    import copilot.client as client_module

    current = getattr(client_module, "subprocess", None)
    if current is None or not hasattr(current, "Popen"):
        return False
    if not isinstance(current, _OwnProcessGroup):
        client_module.subprocess = _OwnProcessGroup(current)  # type: ignore[assignment]
    return True


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


def keep_wire_events() -> bool:
    """Make every session event the SDK parses carry its wire JSON object as ``WIRE_ATTRIBUTE``.

    The SDK turns each ``session.event`` notification into a typed event and keeps only the fields
    its generated classes know: the annotations of a tool's content items and the messages of a
    sampling request are lost there (measured with SDK 1.0.27 and runtime 1.0.102). The parser the
    client module calls is wrapped once per process; the typed event is unchanged. False when the
    parser is not where this SDK version keeps it (evidence then falls back to the typed form).
    """
    import copilot.client as client_module

    parse = getattr(client_module, "session_event_from_dict", None)
    if parse is None:
        return False
    if getattr(parse, "keeps_wire", False):
        return True

    def parse_keeping_wire(event_dict: Any) -> Any:
        event = parse(event_dict)
        try:
            object.__setattr__(event, WIRE_ATTRIBUTE, event_dict)
        except (AttributeError, TypeError):
            pass  # a slotted event class: the typed form is all there is
        return event

    parse_keeping_wire.keeps_wire = True  # type: ignore[attr-defined]
    client_module.session_event_from_dict = parse_keeping_wire  # type: ignore[assignment]  # returns parse's event
    return True


def _quick_timestamps(slow: Any) -> Any:
    """``slow`` (dateutil's parser) for what ``datetime.fromisoformat`` cannot read, that one otherwise."""

    def parse(value: Any) -> Any:
        if isinstance(value, str):
            try:
                return datetime.fromisoformat(value)
            except ValueError:
                pass
        return slow(value)

    parse.quick = True  # type: ignore[attr-defined]
    return parse


def parse_timestamps_quickly() -> bool:
    """Make the SDK read the runtime's timestamps with ``datetime.fromisoformat`` instead of dateutil.

    SDK 1.0.27 parses the ``timestamp`` of every session event and lifecycle event with
    ``dateutil.parser.parse``: 88 times per 2-turn scripted eval, about 11 ms of its 49 ms of
    Python CPU (measured in alternating blocks, docs/cost.md). The runtime writes ISO 8601 (``...T01:16:45.236Z``),
    which the standard library reads to the same instant; anything it cannot read still goes to
    dateutil. Only the SDK's own ``from_datetime`` names are changed (in its two generated modules,
    and in the client module, which imports rpc's by name), never dateutil itself, which the user's
    own code may use. False when they are not where this SDK version keeps them.
    """
    import copilot.client as client_module
    import copilot.generated.rpc as rpc_module
    import copilot.generated.session_events as events_module

    changed = False
    for module in (events_module, rpc_module, client_module):  # the client imports rpc's by name
        current = getattr(module, "from_datetime", None)
        if current is None:
            continue
        if not getattr(current, "quick", False):
            module.from_datetime = _quick_timestamps(current)  # type: ignore[attr-defined]
        changed = True
    return changed


def send_disable_model_invocation() -> bool:
    """Make the SDK hand a custom agent's ``disable_model_invocation`` to the runtime as ``disableModelInvocation``.

    SDK 1.0.27 sends a custom agent's ``infer`` and nothing like it; runtime 1.0.102 ignores
    ``infer`` from the SDK (measured: an agent with ``infer: false`` was still offered in the
    ``task`` tool and ran when the model called it) and reads ``disableModelInvocation`` instead,
    as its own loader sets it for an ``.agent.md`` file with ``disable-model-invocation: true`` or
    ``infer: false``. The SDK's converter is wrapped once per process; False when it is not where
    this SDK version keeps it (the agent can then still be picked by the model).
    """
    from copilot import CopilotClient

    convert = getattr(CopilotClient, "_convert_custom_agent_to_wire_format", None)
    if convert is None:
        return False
    if getattr(convert, "sends_disable_model_invocation", False):
        return True

    def convert_with_switch(self: Any, agent: Any) -> Any:
        wire = convert(self, agent)
        if isinstance(agent, dict) and agent.get("disable_model_invocation") is True:
            wire["disableModelInvocation"] = True
        return wire

    convert_with_switch.sends_disable_model_invocation = True  # type: ignore[attr-defined]
    CopilotClient._convert_custom_agent_to_wire_format = convert_with_switch  # type: ignore[method-assign]
    return True


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
    "WIRE_ATTRIBUTE",
    "define_tool_parts",
    "exception_tool_result",
    "forget_session",
    "keep_wire_events",
    "normalize_tool_result",
    "parse_timestamps_quickly",
    "pass_close_on_dispose",
    "runtime_process",
    "send_disable_model_invocation",
    "session_map_size",
    "shared_websocket_completion",
    "start_runtimes_in_their_own_process_group",
]
