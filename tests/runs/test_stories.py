"""The three example stories of docs/evaluation-runs.md, with their exact verdicts."""

from __future__ import annotations

import pytest

from copilot_eval.agent import load_agent_file
from copilot_eval.evalsets import CaseStatus, Confidence, LimitationStanding, read_csv
from copilot_eval.runs import confirm_limitation, run_eval_set
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import EXAMPLES, KNOWLEDGE

pytestmark = pytest.mark.runtime


async def story(name: str, tmp_path):
    agent = load_agent_file(EXAMPLES / "evaluation" / f"agent-{name}.yaml")
    return await run_eval_set(read_csv(KNOWLEDGE), agent, RunSettings(out=tmp_path))


async def test_good_agent_scores_high_with_no_limitation(tmp_path):
    run = await story("good", tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (6, 0, 0, 100.0)
    assert run.runtime_limitation is None and run.limitation_standing is None
    assert run.confidence is Confidence.CONFIRMED


async def test_fallback_agent_scores_zero_with_a_runtime_limitation(tmp_path):
    run = await story("fallback", tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (0, 6, 0, 0.0)
    # As the seed's Raybot record: the zero is real (CONFIRMED), the limitation carries the reading.
    assert run.confidence is Confidence.CONFIRMED
    assert run.limitation_standing is LimitationStanding.SUSPECTED
    assert run.runtime_limitation.startswith("all 6 answers are the same text")  # the standing is a field
    assert "I'm sorry, I'm not sure how to help with that" in run.runtime_limitation  # the answer is cited
    confirmed = confirm_limitation(run, by="Preview answered the same 6 questions with citations")
    assert confirmed.limitation_standing is LimitationStanding.CONFIRMED
    assert confirmed.limitation_confirmed_by == ["Preview answered the same 6 questions with citations"]
    # Confirming changes the standing, not the words, and adds no confirmation to the evidence files.
    assert (confirmed.runtime_limitation, confirmed.evidence) == (run.runtime_limitation, run.evidence)
    assert confirmed.confidence is Confidence.CONFIRMED and confirmed.passed == 0
    again = confirm_limitation(confirmed, by="a re-run gave the same fallback")
    assert again.limitation_confirmed_by == [
        "Preview answered the same 6 questions with citations",
        "a re-run gave the same fallback",
    ]


async def test_http_500_agent_gives_errors_not_failures(tmp_path):
    run = await story("http500", tmp_path)
    assert (run.passed, run.failed, run.errored) == (0, 0, 6)
    assert all(r.effective_status is CaseStatus.ERROR for r in run.results)
    # Each conversationNumber is its own conversation, so every question met the HTTP 500 itself.
    assert all("HTTP 500" in r.failure_reason for r in run.results)
    assert "6 of 6 cases ended in execution errors" in run.runtime_limitation
    assert run.confidence is Confidence.CONFIRMED and run.limitation_standing is LimitationStanding.SUSPECTED
    assert "could not be graded" in run.note
