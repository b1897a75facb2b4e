"""The three example stories of docs/evaluation-runs.md, with their exact verdicts."""

from __future__ import annotations

from copilot_eval.agent import load_agent_file
from copilot_eval.evalsets import CaseStatus, Confidence, read_csv
from copilot_eval.runs import run_eval_set

from runs_helpers import EXAMPLES, KNOWLEDGE


async def story(name: str, tmp_path):
    agent = load_agent_file(EXAMPLES / "evaluation" / f"agent-{name}.yaml")
    return await run_eval_set(read_csv(KNOWLEDGE), agent, output_dir=tmp_path)


async def test_good_agent_scores_high_with_no_limitation(tmp_path):
    run = await story("good", tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (6, 0, 0, 100.0)
    assert run.runtime_limitation is None and run.confidence is Confidence.CONFIRMED


async def test_fallback_agent_scores_zero_with_a_runtime_limitation(tmp_path):
    run = await story("fallback", tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (0, 6, 0, 0.0)
    assert run.confidence is Confidence.UNCONFIRMED
    assert "all 6 answers are the same text" in run.runtime_limitation
    assert "I'm sorry, I'm not sure how to help with that" in run.runtime_limitation  # the answer is cited


async def test_http_500_agent_gives_errors_not_failures(tmp_path):
    run = await story("http500", tmp_path)
    assert (run.passed, run.failed, run.errored) == (0, 0, 6)
    assert all(r.effective_status is CaseStatus.ERROR for r in run.results)
    assert "HTTP 500" in run.results[0].failure_reason
    assert "not asked" in run.results[1].failure_reason  # the conversation never reached turn 2
    assert "6 of 6 cases ended in execution errors" in run.runtime_limitation
    assert run.confidence is Confidence.UNCONFIRMED
    assert "could not be graded" in run.note
