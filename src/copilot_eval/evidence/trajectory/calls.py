"""The calls a trajectory is matched against: one flat, ordered list of what the agent did.

A call is a tool call of the Copilot runtime, a subagent it started, or a step a Copilot Studio
agent reported (a topic, an action, a knowledge search). Each keeps its recorded outcome:
``succeeded`` is ``None`` when the outcome was never seen, and unknown is not success.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

CallKind = Literal["tool", "subagent", "topic", "action", "knowledge"]
CALL_KINDS: tuple[CallKind, ...] = ("tool", "subagent", "topic", "action", "knowledge")

_VALUE_WIDTH = 60  # a value longer than this is cut in a diff line; the evidence keeps it whole


def show_value(value: Any) -> str:
    """A value as JSON (so ``"1042"`` and ``1042`` look different), cut to a readable width."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= _VALUE_WIDTH else text[: _VALUE_WIDTH - 3] + "..."


@dataclass(frozen=True)
class ObservedCall:
    """One recorded step of the agent, numbered by ``position`` (1-based) in the trajectory examined.

    ``via_tool`` is the tool that carried a subagent (the runtime's ``task``), so that a step
    naming that tool matches too. ``agent`` names the subagent that made the call, ``None`` for
    the agent itself. ``turn`` is the 1-based user turn the call answered, when known.
    """

    position: int
    name: str | None
    kind: CallKind = "tool"
    arguments: Mapping[str, Any] | None = None
    succeeded: bool | None = None
    error: str | None = None
    turn: int | None = None
    agent: str | None = None
    via_tool: str | None = None
    call_id: str | None = None
    details: Mapping[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        """``lookup_order(order_id=1043)``; a subagent reads ``subagent reviewer``, a topic ``topic Greeting``."""
        name = self.name or "?"
        if self.kind in ("subagent", "topic", "knowledge"):
            return f"{self.kind} {name}"
        shown = "?" if self.arguments is None else _args(self.arguments)
        return f"{name}({shown})" if self.kind == "tool" else f"action {name}({shown})"

    def outcome_note(self) -> str:
        """Why this call does not count as succeeded, or an empty string when it succeeded."""
        if self.succeeded is True:
            return ""
        if self.succeeded is False:
            return f"failed: {self.error}" if self.error else "failed"
        return "outcome unknown (no completion recorded)"


def _args(arguments: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={show_value(value)}" for key, value in arguments.items())


def renumbered(calls: list[ObservedCall]) -> list[ObservedCall]:
    """The same calls numbered 1, 2, ... in order (after a filter such as one turn's calls)."""
    return [replace(call, position=index) for index, call in enumerate(calls, start=1)]


__all__ = ["CALL_KINDS", "CallKind", "ObservedCall", "renumbered", "show_value"]
