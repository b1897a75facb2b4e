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
    return await run_eval_set(read_csv(KNOWLEDGE), agent, RunSettings.of(out=tmp_path))


async def test_good_agent_scores_high_with_no_limitation(tmp_path):
    run = await story("good", tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (6, 0, 0, 100.0)
    assert run.runtime_limitation is None and run.limitation_standing is None
    assert run.confidence is Confidence.CONFIRMED


async def test_a_local_agent_giving_the_fallback_to_every_case_is_the_agents_failure(tmp_path):
    run = await story("fallback", tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (0, 6, 0, 0.0)
    # Played on the local runtime, no platform can answer in the agent's place: the same answer to
    # every case is the agent's own, so no limitation excuses the zero (a gate fails it).
    assert run.runtime_limitation is None and run.limitation_standing is None
    assert run.confidence is Confidence.CONFIRMED


async def test_http_500_agent_gives_errors_not_failures(tmp_path):
    run = await story("http500", tmp_path)
    assert (run.passed, run.failed, run.errored) == (0, 0, 6)
    assert all(r.effective_status is CaseStatus.ERROR for r in run.results)
    # Each conversationNumber is its own conversation, so every question met the HTTP 500 itself.
    assert all("HTTP 500" in r.failure_reason for r in run.results)
    assert "6 of 6 cases ended in execution errors" in run.runtime_limitation
    assert run.confidence is Confidence.CONFIRMED and run.limitation_standing is LimitationStanding.SUSPECTED
    assert "could not be graded" in run.note
    confirmed = confirm_limitation(run, by="Preview answered the same 6 questions with citations")
    assert confirmed.limitation_standing is LimitationStanding.CONFIRMED
    assert confirmed.limitation_confirmed_by == ["Preview answered the same 6 questions with citations"]
    # Confirming changes the standing, not the words, and adds no confirmation to the evidence files.
    assert (confirmed.runtime_limitation, confirmed.evidence) == (run.runtime_limitation, run.evidence)
    again = confirm_limitation(confirmed, by="a re-run met the same HTTP 500")
    assert again.limitation_confirmed_by == [
        "Preview answered the same 6 questions with citations",
        "a re-run met the same HTTP 500",
    ]
