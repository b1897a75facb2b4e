"""The cross-check of capture against the runtime's trace, on real recordings edited to disagree.

The recordings (tests/capture/record_trace_fixtures.py) are real runtime sessions: their events
and their spans agree, so every disagreement below is one the test made, in one place.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence import CopilotResult
from copilot_eval.evidence.runtime_trace import RuntimeTrace

DATA = Path(__file__).parent / "data"
Line = dict[str, Any]


def _events(name: str) -> list[dict[str, Any]]:
    text = (DATA / f"trace_{name}.events.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _lines(name: str) -> list[Line]:
    text = (DATA / f"trace_{name}.trace.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def _checked(name: str, edit: Callable[[list[Line]], None] | None = None, *, complete: bool = True) -> CopilotResult:
    lines = _lines(name)
    if edit is not None:
        edit(lines)
    trace = RuntimeTrace.from_lines([json.dumps(line) for line in lines], complete=complete)
    return result_from_events(_events(name), facts=RunFacts(runtime_trace=trace, duration_ms=500.0))


def _trace_errors(result: CopilotResult) -> list[tuple[str, str]]:
    return [(error.kind, error.message) for error in result.capture_errors if error.kind.startswith("trace_")]


def _span(lines: list[Line], *, name: str | None = None, call_id: str | None = None, index: int = 0) -> Line:
    found = [
        line
        for line in lines
        if (name is None or line["name"] == name or line["name"].startswith(name + " "))
        and (call_id is None or line["attributes"].get("gen_ai.tool.call.id") == call_id)
    ]
    return found[index]


@pytest.mark.parametrize("name", ["tools", "subagent", "background"])
def test_a_real_session_and_its_trace_agree(name):
    result = _checked(name)
    assert result.runtime_trace is not None and result.runtime_trace.spans
    assert _trace_errors(result) == []
    assert result.evidence_complete


def test_the_recording_names_python_tools_by_hash_and_they_still_match():
    # Without content capture the runtime names the agent's own tools by the SHA-256 of their name.
    hashed = hashlib.sha256(b"lookup_order").hexdigest()
    assert any(line["attributes"].get("gen_ai.tool.name") == hashed for line in _lines("tools"))
    assert _trace_errors(_checked("tools")) == []


def test_a_call_the_trace_lacks_names_the_call_on_one_side_and_nothing_on_the_other():
    result = _checked("tools", lambda lines: lines.remove(_span(lines, name="execute_tool create")))
    ((kind, message),) = _trace_errors(result)
    assert kind == "trace_tool_call_unmatched"
    assert "capture: call call_1_2_0 'create'" in message and "trace: no execute_tool span" in message
    assert not result.evidence_complete and result.success  # the evidence is in doubt, not the session


def test_a_call_only_the_trace_has_is_reported_from_the_trace_side():
    def add(lines: list[Line]) -> None:
        extra = json.loads(json.dumps(_span(lines, name="execute_tool create")))
        extra["spanId"], extra["attributes"]["gen_ai.tool.call.id"] = "feedfacefeedface", "call_lost"
        lines.append(extra)

    ((kind, message),) = _trace_errors(_checked("tools", add))
    assert kind == "trace_tool_call_unmatched"
    assert "trace: execute_tool span 'execute_tool create' (feedfacefeedface) with call id call_lost" in message
    assert "capture: no tool call with that id" in message


def test_a_cut_off_trace_does_not_count_a_missing_span_as_a_disagreement():
    result = _checked("tools", lambda lines: lines.remove(_span(lines, name="execute_tool create")), complete=False)
    assert _trace_errors(result) == []


def test_another_tool_name_and_other_arguments_name_both_sides():
    def rename(lines: list[Line]) -> None:
        span = _span(lines, name="execute_tool create")
        span["attributes"]["gen_ai.tool.name"] = "edit"
        span["attributes"]["gen_ai.tool.call.arguments"] = json.dumps({"path": "/elsewhere"})

    errors = _trace_errors(_checked("tools", rename))
    assert [kind for kind, _ in errors] == ["trace_tool_call_differs", "trace_tool_call_differs"]
    assert "capture: call call_1_2_0 'create'" in errors[0][1] and "names the tool 'edit'" in errors[0][1]
    assert '"file_text"' in errors[1][1] and '{"path": "/elsewhere"}' in errors[1][1]


def test_arguments_the_trace_left_out_are_unknown_not_different():
    # Content capture off: the recording has no gen_ai.tool.call.arguments at all.
    assert not any("gen_ai.tool.call.arguments" in line["attributes"] for line in _lines("tools"))
    assert _trace_errors(_checked("tools")) == []


@pytest.mark.parametrize(
    ("call_id", "code", "said"),
    [
        ("call_1_1_0", 0, "capture: call call_1_1_0 'lookup_order' failed; trace: "),
        ("call_1_0_0", 2, "succeeded; trace: "),
    ],
)
def test_success_in_one_and_failure_in_the_other(call_id, code, said):
    def flip(lines: list[Line]) -> None:
        _span(lines, name="execute_tool", call_id=call_id)["status"] = {"code": code}

    ((kind, message),) = _trace_errors(_checked("tools", flip))
    assert kind == "trace_tool_outcome_differs"
    assert said in message and ("failed" if code == 2 else "succeeded") in message.split("trace: ")[1]


def test_a_model_call_missing_from_the_trace_changes_the_prompts_count():
    result = _checked("tools", lambda lines: lines.remove(_span(lines, name="chat", index=1)))
    ((kind, message),) = _trace_errors(result)
    assert kind == "trace_model_calls_differ"
    assert message.startswith("prompt 2: capture: 4 model calls") and "trace: 3 chat spans" in message


def test_a_background_subagent_s_own_loop_is_a_loop_of_its_own_not_more_calls_of_the_prompt():
    # When the background helper finishes, the runtime runs the root agent again with no user
    # message; the trace gives that loop its own invoke_agent span. Both sides saw the same calls.
    events = _events("background")
    assert any(event["type"] == "system.notification" for event in events)
    roots = [line for line in _lines("background") if line["name"] == "invoke_agent" and not line.get("parentSpanId")]
    assert (
        len(roots) == 2 and sum(event["type"] == "user.message" and not event.get("agentId") for event in events) == 1
    )
    assert _trace_errors(_checked("background")) == []


def test_a_model_call_missing_from_the_runtime_s_own_loop_is_still_reported_there():
    def drop_last_loops_call(lines: list[Line]) -> None:
        roots = [line for line in lines if line["name"] == "invoke_agent" and not line.get("parentSpanId")]
        last = max(roots, key=lambda line: line["startTime"])
        lines.remove(
            next(
                line for line in lines if line["name"].startswith("chat") and line.get("parentSpanId") == last["spanId"]
            )
        )

    ((kind, message),) = _trace_errors(_checked("background", drop_last_loops_call))
    assert kind == "trace_model_calls_differ"
    assert message.startswith("prompt 2: capture: 1 model calls") and "trace: 0 chat spans" in message


def test_another_model_names_both_models():
    def other(lines: list[Line]) -> None:
        span = _span(lines, name="chat", index=0)
        span["attributes"]["gen_ai.request.model"] = span["attributes"]["gen_ai.response.model"] = "gpt-4.1"

    ((kind, message),) = _trace_errors(_checked("tools", other))
    assert kind == "trace_model_calls_differ"
    assert "capture: model call" in message and "'scripted-model'" in message and "['gpt-4.1']" in message


def test_token_counts_that_differ_name_both_counts():
    def more(lines: list[Line]) -> None:
        _span(lines, name="chat", index=2)["attributes"]["gen_ai.usage.output_tokens"] = 999

    ((kind, message),) = _trace_errors(_checked("tools", more))
    assert kind == "trace_usage_differs"
    assert "output_tokens=" in message and "gen_ai.usage.output_tokens=999" in message


def test_a_known_zero_against_a_known_count_is_a_disagreement_but_unknown_is_not():
    def zero(lines: list[Line]) -> None:
        _span(lines, name="chat", index=2)["attributes"]["gen_ai.usage.input_tokens"] = 0

    def unknown(lines: list[Line]) -> None:
        for line in lines:
            line["attributes"].pop("gen_ai.usage.input_tokens", None)

    ((kind, message),) = _trace_errors(_checked("tools", zero))
    assert kind == "trace_usage_differs" and "gen_ai.usage.input_tokens=0" in message
    assert _trace_errors(_checked("tools", unknown)) == []


def test_a_subagent_without_its_nested_invoke_agent_span():
    def drop(lines: list[Line]) -> None:
        gone = {_span(lines, name="invoke_agent general-purpose")["spanId"]}
        for line in list(lines):  # the child's invoke_agent and everything beneath it
            if line["spanId"] in gone or line.get("parentSpanId") in gone:
                gone.add(line["spanId"])
        lines[:] = [line for line in lines if line["spanId"] not in gone and line.get("parentSpanId") not in gone]

    ((kind, message),) = _trace_errors(_checked("subagent", drop))
    assert kind == "trace_subagents_differ"
    assert "capture: subagent 'general-purpose' started by call call_0_0_0" in message
    assert "trace: no invoke_agent span under span 'execute_tool task'" in message


def test_a_subagent_the_trace_names_otherwise():
    def rename(lines: list[Line]) -> None:
        _span(lines, name="invoke_agent general-purpose")["attributes"]["gen_ai.agent.name"] = "explore"

    ((kind, message),) = _trace_errors(_checked("subagent", rename))
    assert kind == "trace_subagents_differ" and "names the agent 'explore'" in message


def test_the_childs_own_calls_are_checked_against_the_spans_under_its_invoke_agent():
    def flip(lines: list[Line]) -> None:
        nested = _span(lines, name="invoke_agent general-purpose")
        child_call = next(
            line
            for line in lines
            if line["name"].startswith("execute_tool") and line.get("parentSpanId") == nested["spanId"]
        )
        child_call["status"] = {"code": 2, "message": "Tool failed"}

    ((kind, message),) = _trace_errors(_checked("subagent", flip))
    assert kind == "trace_tool_outcome_differs"
    assert "succeeded; trace:" in message and "failed (Tool failed)" in message


def test_no_trace_is_unknown_and_checks_nothing():
    result = result_from_events(_events("tools"), facts=RunFacts(duration_ms=500.0))
    assert result.runtime_trace is None and result.phase_times is None
    assert _trace_errors(result) == []
    empty = result_from_events(_events("tools"), facts=RunFacts(runtime_trace=RuntimeTrace(spans=[])))
    assert empty.runtime_trace is None  # never an empty trace
