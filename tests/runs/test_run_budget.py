"""Run budgets (fast): what the agent's sessions and the judges spent, counted apart; not_run; exit 3.

The dispatch, grading, summary and verdict are the real ones; only where the sessions were played is
made up (a worker whose evidence capture builds from events with the usage a runtime reports).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord, JudgeTally, WorkerInfo
from copilot_eval.exit_codes import PLATFORM
from copilot_eval.grading.combine import CASE_STATUS_RULES, CaseFacts, case_status
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.case_runner import Unit
from copilot_eval.runs.gates import run_verdict
from copilot_eval.runs.run_budget import RunBudget, RunSpending
from copilot_eval.runs.settings import RunSettings, SettingsError
from tests.capture.event_factory import assistant, idle, start, usage, user
from tests.runs.runs_helpers import numbered_set


def _case(tokens: int | None, *, judge: JudgeTally | None = None, number: int = 1) -> EvalCaseResult:
    grades = [GradeRecord(method="judge", status=CaseStatus.PASS, judge=judge)] if judge else []
    return EvalCaseResult(
        conversation_number=number,
        passed=True,
        status=CaseStatus.PASS,
        tokens=tokens,
        premium_requests=None if tokens is None else 0.0,
        grades=grades,
    )


def test_a_session_counts_once_and_the_judges_apart() -> None:
    spending = RunSpending(RunBudget(max_run_tokens=250, max_judge_tokens=1000))
    judge = JudgeTally(calls=1, verdicts=[CaseStatus.PASS], input_tokens=300, output_tokens=20, premium_requests=1)
    # a conversation of two turns: both cases carry the one session's total, counted once
    spending.add([_case(110, judge=judge), _case(110, judge=judge)])
    assert spending.spent["run"].tokens == 110
    assert spending.spent["judge"].tokens == 640 and spending.spent["judge"].premium_requests == 2
    assert spending.reached() is None  # the judges' 640 tokens are not the agent's
    spending.add([_case(150, number=2)])
    assert spending.reached() == "run budget reached: --max-run-tokens 250, the agent's sessions spent 260 tokens"


def test_the_judges_cap_stops_the_run_by_the_judges_spending() -> None:
    spending = RunSpending(RunBudget(max_run_tokens=10_000, max_judge_premium_requests=2))
    judge = JudgeTally(calls=2, verdicts=[CaseStatus.PASS] * 2, input_tokens=5, output_tokens=5, premium_requests=2)
    spending.add([_case(50, judge=judge)])
    assert (
        spending.reached() == "run budget reached: --max-judge-premium-requests 2, the judges spent 2 premium requests"
    )


def test_unknown_usage_is_counted_never_zero_and_said_once_per_cap() -> None:
    spending = RunSpending(RunBudget(max_run_tokens=100, max_run_ai_credits=30))
    spending.add([_case(None)])
    spending.add([_case(40, number=2)])
    spending.add([_case(None, number=3)])
    assert spending.reached() is None
    usage = spending.usage()
    assert usage.agent.tokens == 40 and usage.agent.tokens_unknown == 2
    assert usage.agent.ai_credits_unknown == 3  # a scripted or BYOK session reports no AI credits
    assert usage.unenforceable == [
        "--max-run-tokens 100 could not be enforced for 2 sessions that reported no tokens: the 40 counted is a "
        "lower bound",
        "--max-run-ai-credits 30 could not be enforced for 3 sessions that reported no ai credits: the 0 counted "
        "is a lower bound",
    ]
    # what was counted still proves a crossing
    spending.add([_case(70, number=4)])
    assert spending.reached() is not None


def test_run_budgets_must_be_more_than_zero_and_name_the_option() -> None:
    with pytest.raises(SettingsError) as refused:
        RunSettings.of(max_run_tokens=0, max_judge_ai_credits=-1)
    assert refused.value.problems == [
        "--max-run-tokens 0: must be more than 0 (leave it out for no cap); --max-judge-ai-credits -1: must be "
        "more than 0 (leave it out for no cap)"
    ]
    assert RunSettings.of(max_judge_tokens=5).budgets == RunBudget(max_judge_tokens=5)
    assert not RunSettings().budgets


def test_a_case_never_played_is_not_run_before_every_other_row() -> None:
    assert CASE_STATUS_RULES[0].status is CaseStatus.NOT_RUN
    facts = CaseFacts(not_run="run budget reached", failure="no answer", answer="")
    assert case_status(facts) == (CaseStatus.NOT_RUN, "run budget reached")


class _Worker:
    """Plays each unit as a session that answered and reported 100 input and 10 output tokens."""

    def __init__(self) -> None:
        self.info = WorkerInfo(name="w", node_id="n")
        self.played: list[str] = []

    async def play(self, unit: Unit) -> Any:
        self.played.append(unit.key)
        await asyncio.sleep(0.01)
        events = [start()]
        for case in unit.cases:
            events += [user(case.question), usage(), assistant(f"answer to: {case.question}")]
        return result_from_events([*events, idle()], facts=RunFacts(duration_ms=5.0))


class _Executor:
    name = "fake"

    def __init__(self, worker: _Worker) -> None:
        self.worker = worker

    @asynccontextmanager
    async def open(self, agent: Any, *, agent_file: Path | None, concurrency: int) -> AsyncIterator[list[Any]]:
        yield [self.worker]


async def test_a_run_budget_starts_no_new_conversation_and_lists_the_rest_as_not_run(tmp_path: Path) -> None:
    worker = _Worker()
    settings = RunSettings.of(graders=("exact",), concurrency=2, max_run_tokens=300, out=tmp_path / "run")
    run = await run_eval_set(numbered_set(8), object(), settings, executor=_Executor(worker))
    # 2 in flight at a time: the first two (220 tokens) leave the cap open, the next two finish
    # (440 >= 300); no conversation starts after that
    assert len(worker.played) == 4
    statuses = [r.effective_status for r in run.results or []]
    assert statuses == [CaseStatus.PASS] * 4 + [CaseStatus.NOT_RUN] * 4
    assert (run.passed, run.failed, run.errored, run.not_run, run.graded) == (4, 0, 0, 4, 4)
    assert run.general_quality_percent == 100.0  # the cases never played are outside the score
    not_run = (run.results or [])[-1]
    assert not_run.grades == [] and not_run.actual_response is None
    assert not_run.failure_reason == "run budget reached: --max-run-tokens 300, the agent's sessions spent 440 tokens"
    assert run.usage is not None and run.usage.agent.tokens == 440 and run.usage.judges.tokens == 0
    assert (run.results or [])[0].tokens == 110
    verdict = run_verdict(run)
    assert verdict.row is PLATFORM and verdict.code == 3
    assert verdict.line() == (
        "exit 3 (the platform or the infrastructure): 4 of 8 cases were not run (run budget reached: "
        "--max-run-tokens 300, the agent's sessions spent 440 tokens): not a verdict on the agent"
    )
    summary = run_summary_markdown(run)
    assert "4 passed, 0 failed, 0 errors (not graded), 0 unknown, 4 not run" in summary
    # the scripted sessions reported tokens but no cost: unknown, never 0
    assert (
        "spent by the agent's sessions: 440 tokens, unknown (4 reported none) premium requests, "
        "unknown (4 reported none) AI credits" in summary
    )
    assert "| 8 | 1 | 0 | not_run | run budget reached" in summary


async def test_a_resumed_run_plays_what_was_not_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    first = RunSettings.of(graders=("exact",), concurrency=1, max_run_tokens=200, out=out)
    stopped = await run_eval_set(numbered_set(4), object(), first, executor=_Executor(_Worker()))
    assert stopped.not_run == 2  # 110, then 220 >= 200: two played
    worker = _Worker()
    resumed = await run_eval_set(
        numbered_set(4), object(), RunSettings.of(graders=("exact",), out=out, resume=True), executor=_Executor(worker)
    )
    assert sorted(worker.played) == ["case3#0", "case4#0"]  # not checkpointed: played now
    assert resumed.not_run is None and resumed.passed == 4
    assert resumed.usage is not None and resumed.usage.agent.tokens == 440  # the checkpoint's spending counted


def test_the_command_refuses_a_cap_of_nothing_naming_the_option(tmp_path: Path) -> None:
    from tests.runs.runs_helpers import EXAMPLES, KNOWLEDGE, cli_here

    agent = EXAMPLES / "evaluation" / "agent-good.yaml"
    refused = cli_here("run", KNOWLEDGE, "--agent", agent, "--max-judge-tokens", "0", "--out", tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert "--max-judge-tokens 0: must be more than 0 (leave it out for no cap)" in refused.stderr


async def test_the_report_shows_what_the_run_and_each_case_spent(tmp_path: Path) -> None:
    from copilot_eval.reports.html_run import run_report_html
    from copilot_eval.reports.run_folder import read_run_folder
    from copilot_eval.runs.finish import FolderRun, finish_run_folders

    out = tmp_path / "run"
    settings = RunSettings.of(graders=("exact",), concurrency=1, max_run_tokens=200, out=out)
    test_set = numbered_set(3)
    run = await run_eval_set(test_set, object(), settings, executor=_Executor(_Worker()))
    finished = finish_run_folders([FolderRun(out, run, test_set)])
    assert finished.verdict.code == 3
    html = run_report_html(read_run_folder(out))
    assert "What the run spent" in html and "spent by the agent&#x27;s sessions: 220 tokens" in html
    assert "spent (this session): 110 tokens, premium requests unknown, AI credits unknown" in html
    assert ">not run<" in html  # the summary card


class _PricedJudge:
    """A grader that passes every answer after a judge's call of 300 input and 20 output tokens."""

    name = "priced judge"

    def __init__(self) -> None:
        self.graded = 0

    async def grade(self, case: Any, evidence: Any) -> Any:
        from copilot_eval.grading.protocol import Grade

        self.graded += 1
        await asyncio.sleep(0.05)  # slower than a play: the next conversation must wait for this count
        tally = JudgeTally(calls=1, verdicts=[CaseStatus.PASS], input_tokens=300, output_tokens=20)
        return Grade(self.name, CaseStatus.PASS, "same meaning", judge=tally)


async def test_a_judges_cap_is_decided_on_what_the_judges_spent_and_apart_from_the_agent() -> None:
    worker, judge = _Worker(), _PricedJudge()
    settings = RunSettings.of(graders=(judge,), concurrency=1, max_run_tokens=10_000, max_judge_tokens=600)
    run = await run_eval_set(numbered_set(5), object(), settings, executor=_Executor(worker))
    # 320 judge tokens per case: the second case's grading reaches 600, and no third case starts
    # although its play would have been quicker than the grading
    assert len(worker.played) == 2 and judge.graded == 2
    assert [r.effective_status for r in run.results or []] == [CaseStatus.PASS] * 2 + [CaseStatus.NOT_RUN] * 3
    assert run.usage is not None
    assert (run.usage.agent.tokens, run.usage.judges.tokens) == (220, 640)
    assert run.usage.budget_reached == "run budget reached: --max-judge-tokens 600, the judges spent 640 tokens"
    assert "the judges' share of the tokens 74 %" in run_summary_markdown(run)


async def test_a_regrade_keeps_the_cases_never_played_and_recounts_the_judges(tmp_path: Path) -> None:
    from copilot_eval.runs import regrade_run

    out, test_set = tmp_path / "run", numbered_set(3)
    settings = RunSettings.of(graders=("exact",), concurrency=1, max_run_tokens=200, out=out)
    await run_eval_set(test_set, object(), settings, executor=_Executor(_Worker()))
    judge = _PricedJudge()
    again = await regrade_run(out, [judge], output_dir=tmp_path / "again")
    assert [r.effective_status for r in again.results or []] == [CaseStatus.PASS] * 2 + [CaseStatus.NOT_RUN]
    assert judge.graded == 2 and again.not_run == 1  # the case never played is not graded now either
    assert again.usage is not None
    assert (again.usage.agent.tokens, again.usage.judges.tokens) == (220, 640)  # each session once, its new judges


def test_what_finished_results_spent_counts_each_session_once_and_no_case_never_played() -> None:
    from copilot_eval.runs.run_budget import usage_of

    turn = _case(500).model_copy(update={"evidence_path": "evidence/conversation1-0.json"})
    unplayed = EvalCaseResult(conversation_number=2, passed=False, status=CaseStatus.NOT_RUN, failure_reason="x")
    usage = usage_of([turn, turn.model_copy(update={"turn": 2}), unplayed, _case(7, number=3)], budget_reached="cap")
    assert (usage.agent.tokens, usage.agent.tokens_unknown, usage.budget_reached) == (507, 0, "cap")
