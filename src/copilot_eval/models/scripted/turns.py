"""Choosing the script's turn for a request and filling it in: text, tool calls, usage."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from copilot_eval.models.wire.answer import Answer, AnswerCall
from copilot_eval.models.wire.prompt import RequestView

from .script import COMPUTED, Rule, ScriptedTurn, render_template, render_value

__all__ = ["NO_RULE_TEXT", "NO_TURN_TEXT", "Choice", "build_answer", "choose_turn"]

NO_TURN_TEXT = "[scripted model: no turn left for this prompt]"
NO_RULE_TEXT = "[scripted model: no rule matches this prompt]"


@dataclass(frozen=True)
class Choice:
    """The rule and turn chosen for one model call (`turn` is None when the rule ran out)."""

    rule_index: int | None
    turn_index: int | None
    turn: ScriptedTurn | None


def choose_turn(rules: Sequence[Rule], view: RequestView, next_attempt: Callable[[], int]) -> Choice:
    """Pick the turn answering this call.

    Non-fault turns are indexed by the request's own position (answers already in the conversation),
    so the choice needs no memory. Fault turns sit in front of the answer they delay and are counted
    per attempt through `next_attempt` (called only when the position has fault turns): the runtime's
    retry of a failed call then gets the next turn. A fault that ends a rule answers every later call.
    """
    rule_index = next((i for i, rule in enumerate(rules) if rule.matches(view.prompt)), None)
    if rule_index is None:
        return Choice(None, None, None)
    turns = rules[rule_index].turns
    faults: list[int] = []
    answers_seen = 0
    for index, turn in enumerate(turns):
        if turn.is_fault:
            faults.append(index)
            continue
        if answers_seen == view.position:
            return _pick(turns, faults, index, next_attempt, rule_index)
        answers_seen += 1
        faults = []
    if faults:
        return _pick(turns, faults, None, next_attempt, rule_index)
    return Choice(rule_index, None, None)


def _pick(
    turns: Sequence[ScriptedTurn],
    faults: list[int],
    answer: int | None,
    next_attempt: Callable[[], int],
    rule_index: int,
) -> Choice:
    if faults:
        attempt = next_attempt()
        for index in faults:
            if attempt < turns[index].times:
                return Choice(rule_index, index, turns[index])
            attempt -= turns[index].times
        if answer is None:  # a trailing fault repeats forever: "HTTP 500 every time"
            return Choice(rule_index, faults[-1], turns[faults[-1]])
    if answer is None:
        return Choice(rule_index, None, None)
    return Choice(rule_index, answer, turns[answer])


def build_answer(choice: Choice, view: RequestView, *, request_size: int, working_directory: str | None) -> Answer:
    """Fill the chosen turn's templates and compute its usage."""
    turn = choice.turn
    if turn is None:
        placeholder = NO_RULE_TEXT if choice.rule_index is None else NO_TURN_TEXT
        return Answer(text=placeholder, tool_calls=(), usage=_usage(None, request_size, placeholder))
    values = {
        "working_directory": working_directory,
        "prompt": view.prompt,
        "last_tool_result": view.last_tool_result or "",
    }
    text = render_template(turn.text, values) if turn.text is not None else None
    calls = tuple(
        AnswerCall(
            id=call.id or f"call_{view.prompt_number}_{choice.turn_index}_{i}",
            name=call.name,
            arguments=json.dumps(render_value(call.arguments, values)),
        )
        for i, call in enumerate(turn.tool_calls)
    )
    produced = (text or "") + "".join(call.name + call.arguments for call in calls)
    return Answer(
        text=text,
        tool_calls=calls,
        usage=_usage(turn, request_size, produced),
        error=turn.error,
        malformed=turn.malformed,
        cut_off=turn.cut_off,
    )


def _usage(turn: ScriptedTurn | None, request_size: int, produced: str) -> dict[str, int] | None:
    """Usage numbers: given by the turn, omitted for `usage: null`, else about four bytes a token."""
    if turn is not None and turn.usage != COMPUTED:
        if turn.usage is None:
            return None
        given: Any = turn.usage
        out = {"input_tokens": given.input_tokens, "output_tokens": given.output_tokens}
        if given.cache_read_tokens is not None:
            out["cache_read_tokens"] = given.cache_read_tokens
        if given.reasoning_tokens is not None:
            out["reasoning_tokens"] = given.reasoning_tokens
        return out
    return {"input_tokens": max(1, math.ceil(request_size / 4)), "output_tokens": max(1, math.ceil(len(produced) / 4))}
