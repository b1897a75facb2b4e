"""ScriptedEndpoint: the per-run request handler that answers model calls from a script."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from copilot import CopilotRequestContext

from copilot_eval.models.wire.answer import Answer
from copilot_eval.models.wire.answering import AnsweringEndpoint
from copilot_eval.models.wire.prompt import RequestView, read_chat_request, read_responses_request
from copilot_eval.models.wire.reply import Reply

from .script import InvalidScriptError, Rule
from .turns import Choice, build_answer, choose_turn

__all__ = ["ScriptedCall", "ScriptedEndpoint"]


@dataclass(frozen=True)
class ScriptedCall:
    """One model call as the endpoint saw it (no headers: they carry the API key)."""

    wire_api: str
    transport: str
    session_id: str | None
    agent_id: str | None
    prompt: str
    position: int
    rule_index: int | None
    turn_index: int | None
    outcome: str
    """text, tool_calls, error, malformed, cut_off, no_turn_left or no_rule."""


class ScriptedEndpoint(AnsweringEndpoint):
    """Answers the runtime's model requests (HTTP and WebSocket) from a ScriptedModel's rules."""

    def __init__(self, rules: Sequence[Rule], *, model_name: str, working_directory: str | None = None) -> None:
        super().__init__(model_name=model_name, label="scripted model")
        self._rules = tuple(rules)
        self._working_directory = working_directory
        self._attempts: dict[tuple[Any, ...], int] = {}
        self._calls: list[ScriptedCall] = []

    @property
    def calls(self) -> tuple[ScriptedCall, ...]:
        """Every model call answered so far, in arrival order."""
        return tuple(self._calls)

    async def answer(self, body: dict[str, Any], *, wire_api: str, ctx: CopilotRequestContext, transport: str) -> Reply:
        """The scripted reply (the script needs no waiting to decide, so this is `reply`)."""
        return self.reply(body, wire_api=wire_api, ctx=ctx, transport=transport)

    def reply(self, body: dict[str, Any], *, wire_api: str, ctx: CopilotRequestContext, transport: str) -> Reply:
        """Choose and fill the turn for one request body (shared by every transport)."""
        try:
            if wire_api == "completions":
                view = read_chat_request(body)
                items: list[Any] = []
            else:
                items = self.full_input(body)
                view = read_responses_request(items, body.get("instructions"))
        except (TypeError, AttributeError, KeyError) as exc:
            return Reply(None, "resp_unreadable", 0.0, f"scripted model: cannot read the request: {exc}")
        key = (ctx.session_id, ctx.agent_id, view.conversation, view.position)
        choice = choose_turn(self._rules, view, lambda: self._next_attempt(key))
        response_id = f"resp_{view.conversation}_{view.prompt_number}_{view.position}"
        delay = choice.turn.delay_s if choice.turn is not None else 0.0
        try:
            answer = build_answer(
                choice, view, request_size=len(json.dumps(body)), working_directory=self._working_directory
            )
        except InvalidScriptError as exc:
            self._record(wire_api, transport, ctx, view, choice, "error")
            return Reply(
                None,
                response_id,
                delay,
                f"scripted model: rules[{choice.rule_index}].turns[{choice.turn_index}]: {exc}",
            )
        self._record(wire_api, transport, ctx, view, choice, _outcome(choice, answer))
        self.remember(response_id, items, answer, transport)
        return Reply(answer, response_id, delay)

    def _next_attempt(self, key: tuple[Any, ...]) -> int:
        attempt = self._attempts.get(key, 0)
        self._attempts[key] = attempt + 1
        return attempt

    def _record(
        self, wire: str, transport: str, ctx: CopilotRequestContext, view: RequestView, choice: Choice, outcome: str
    ) -> None:
        self._calls.append(
            ScriptedCall(
                wire,
                transport,
                ctx.session_id,
                ctx.agent_id,
                view.prompt,
                view.position,
                choice.rule_index,
                choice.turn_index,
                outcome,
            )
        )


def _outcome(choice: Choice, answer: Answer) -> str:
    if choice.turn is None:
        return "no_rule" if choice.rule_index is None else "no_turn_left"
    if answer.error is not None:
        return "error"
    if answer.malformed or answer.cut_off:
        return "malformed" if answer.malformed else "cut_off"
    return "tool_calls" if answer.tool_calls else "text"
