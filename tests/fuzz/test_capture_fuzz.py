"""``result_from_events`` over real event logs, reordered, duplicated, truncated and damaged.

Capture reads whatever the runtime (or a saved log) hands it. Whatever the damage, it returns a
result (it raises only ``TypeError`` for an item that is not an event at all) and the result keeps
its promises: counts add up, ``evidence_complete`` implies every call completed with a known
outcome, unknown usage stays ``None``, and the result survives its own JSON round trip.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copilot_eval.capture import BLOCKING_KINDS, RunFacts, load_event_log, result_from_events
from copilot_eval.evidence import STOP_REASONS, CopilotResult

from .mutations import Op, apply_recipe, recipes

DATA = Path(__file__).parent.parent / "capture" / "data"
LOGS = {path.stem: load_event_log(path) for path in sorted(DATA.glob("*.jsonl"))}
# 100 examples per test keeps the fuzz tests well under a minute in CI; raise it to search deeper.
FUZZ = settings(
    max_examples=int(os.environ.get("COPILOT_EVAL_FUZZ_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@st.composite
def damage(draw: st.DrawFn) -> tuple[str, list[Op]]:
    """A real log's name and a recipe that damages it."""
    name = draw(st.sampled_from(sorted(LOGS)))
    return name, draw(recipes(LOGS[name]))


def _usage_numbers(events: list[Any]) -> set[Any]:
    """Every number that appears in a usage-bearing event: a reported count must come from one."""
    numbers: set[Any] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            numbers.add(value)

    for event in events:
        if isinstance(event, dict) and "usage" in str(event.get("type")):
            walk(event)
    return numbers


def check_invariants(result: CopilotResult, events: list[Any]) -> None:
    """What every result promises, whatever its input."""
    numbers = _usage_numbers(events)
    text = repr(events)
    for node in result.execution_results:
        if node.evidence_complete:
            assert all(c.completion_received is True and c.success is not None for c in node.all_tool_calls)
        if node.success:
            assert not [e for e in node.capture_errors if e.kind in BLOCKING_KINDS]
        else:
            assert node.error, "a failed result says why"
        for entry in node.usage:
            for count in (entry.input_tokens, entry.output_tokens, entry.cache_read_tokens, entry.reasoning_tokens):
                # Unknown stays None: a count (a 0 included) is one the runtime really reported.
                assert count is None or count in numbers, (count, entry)
        ids = [call.call_id for call in node.all_tool_calls if call.call_id is not None]
        assert len(ids) == len(set(ids)), "a call is recorded once, however often its events repeat"
        assert all(call_id in text for call_id in ids), "no call is invented"
        user_turns = sum(turn.role == "user" for turn in node.turns)
        assert len(node.responses_per_prompt) == user_turns
        assert node.final_response is None or node.final_response in node.all_responses
    inputs, outputs, total = result.total_input_tokens, result.total_output_tokens, result.total_tokens
    if inputs is None or outputs is None:
        assert total is None, "unknown is not zero"
    else:
        assert total == inputs + outputs
        assert inputs == sum(entry.input_tokens for entry in result.all_usage)
    assert set(result.token_usage) <= {"input_tokens", "output_tokens", "total_tokens"}
    assert all(value is not None for value in result.token_usage.values())
    assert result.tool_call_count("x") == len(result.tool_calls_for("x"))
    outcomes = [call.outcome for call in result.all_tool_calls]
    assert len(outcomes) == sum(outcomes.count(word) for word in ("ok", "failed", "unknown"))
    assert CopilotResult.model_validate_json(result.model_dump_json()).model_dump() == result.model_dump()


def damaged(name: str, recipe: list[Op]) -> list[dict[str, Any]]:
    """The named real log with the recipe applied."""
    return apply_recipe(LOGS[name], recipe)


@FUZZ
@given(damage=damage())
def test_damaged_real_logs_give_a_result_that_keeps_its_promises(damage: tuple[str, list[Op]]) -> None:
    events = damaged(*damage)
    check_invariants(result_from_events(events), events)


@FUZZ
@given(damage=damage(), stop=st.sampled_from(STOP_REASONS), error=st.one_of(st.none(), st.text(max_size=20)))
def test_damaged_logs_with_runner_facts_keep_their_promises(damage, stop, error) -> None:
    events = damaged(*damage)
    facts = RunFacts(
        stop_reason=stop,
        error=error,
        abandoned_call_ids=frozenset({"call_1"}),
        tool_exceptions={"call_2": "ValueError: boom"},
    )
    result = result_from_events(events, facts=facts)
    check_invariants(result, events)
    if stop not in ("completed", "cleanup_error"):
        assert result.success is False


@pytest.mark.parametrize("item", [None, 3, "session.idle", ["type", "x"]])
def test_an_item_that_is_not_an_event_is_the_documented_type_error(item: Any) -> None:
    with pytest.raises(TypeError, match="not a session event"):
        result_from_events([*LOGS["simple_tool"][:3], item])
