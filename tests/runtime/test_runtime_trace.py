"""The runtime's own trace through the real path: concurrent sessions on one pooled runtime each get
their own spans, the cross-check finds no disagreement, content is recorded only when asked and is
redacted, and the spans are saved beside the evidence JSON."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from copilot_eval import CopilotEval, CopilotResult, ScriptedModel, run_copilot
from copilot_eval.redaction import register_secret
from copilot_eval.runtime.process.pool import RuntimePool

pytestmark = pytest.mark.runtime

SECRET = "s3cr3t-value-for-the-trace-test-0042"
register_secret(SECRET, "TRACE_TEST_SECRET")


def account_note(account: str) -> str:
    """Return the note kept for an account."""
    return f"{account}: key {SECRET}"


def _agent(*, content: bool) -> CopilotEval:
    script = {
        "rules": [
            {
                "when": {"prompt_contains": "note"},
                "turns": [
                    {"tool_calls": [{"name": "account_note", "arguments": {"account": "A-7"}}]},
                    {"tool_calls": [{"name": "view", "arguments": {"path": "/no/such/file"}}]},
                    {"text": "noted"},
                ],
            },
            {"turns": [{"text": "hello"}]},
        ]
    }
    return CopilotEval(
        model=ScriptedModel.from_dict(script), tools=(account_note,), timeout_s=60, capture_trace_content=content
    )


@pytest.fixture(scope="module")
def runs() -> dict[str, CopilotResult]:
    async def play() -> dict[str, CopilotResult]:
        pool = RuntimePool(max_runtimes=1)
        try:
            plain = _agent(content=False)
            first, second = await asyncio.gather(
                run_copilot(plain, ["hello", "read the note"], pool=pool),
                run_copilot(plain, "read the note", pool=pool),
            )
            content = await run_copilot(_agent(content=True), "read the note", pool=pool)
            assert len(pool.processes()) == 2  # a runtime recording content is never shared with one that does not
            return {"first": first, "second": second, "content": content}
        finally:
            await pool.close()

    return asyncio.run(play())


def test_concurrent_sessions_on_one_runtime_each_get_only_their_own_spans(runs):
    for name in ("first", "second"):
        result = runs[name]
        assert result.success, result.error
        trace = result.runtime_trace
        assert trace is not None and trace.complete and not trace.content_captured
        sessions = {
            s.attributes["gen_ai.conversation.id"] for s in trace.spans if "gen_ai.conversation.id" in s.attributes
        }
        assert sessions == {result.session_id}
        assert len(trace.named("invoke_agent")) == len(result.responses_per_prompt)  # one per prompt
    assert not {s.span_id for s in runs["first"].runtime_trace.spans} & {
        s.span_id for s in runs["second"].runtime_trace.spans
    }


def test_the_real_runtime_and_capture_agree_and_the_time_is_split_by_phase(runs):
    for result in runs.values():
        assert [e for e in result.capture_errors if e.kind.startswith("trace_")] == []
        assert result.evidence_complete
        phases = result.phase_times
        assert phases is not None and phases.total_ms == result.duration_ms
        assert phases.model_ms and phases.session_start_ms and phases.tools_ms is not None
        assert phases.runtime_phases  # the runtime's own session.timing steps, by name


def test_content_only_when_asked_redacted_in_evidence_and_in_the_file_beside_it(runs, tmp_path):
    assert not any("gen_ai.tool.call.result" in s.attributes for s in runs["first"].runtime_trace.spans)
    content = runs["content"].runtime_trace
    assert content.content_captured
    results = [
        s.attributes["gen_ai.tool.call.result"] for s in content.spans if "gen_ai.tool.call.result" in s.attributes
    ]
    assert any("[redacted:TRACE_TEST_SECRET]" in text for text in results)
    saved = runs["content"].save(tmp_path / "case.json")
    beside = tmp_path / "case.trace.jsonl"
    assert beside.is_file() and SECRET not in beside.read_text() and SECRET not in saved.read_text()
    assert json.loads(saved.read_text())["runtime_trace"]["file"] == "case.trace.jsonl"
    loaded = CopilotResult.load(saved)
    assert loaded.runtime_trace is not None and loaded.runtime_trace.spans == content.spans
    Path(beside).unlink()
    with pytest.raises(ValueError, match=r"runtime_trace: the spans file .*case\.trace\.jsonl is missing"):
        CopilotResult.load(saved)
