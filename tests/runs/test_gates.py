"""runs.gates: the one decision of a run's verdict, from the recorded facts of the run alone."""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, PlatformRunRecord, ShardInfo
from copilot_eval.exit_codes import BELOW_GATE, OK, PLATFORM
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.gates import Gates, run_verdict, runs_verdict, tally_verdict
from copilot_eval.runs.limitation import confirm_limitation

from .runs_helpers import numbered_set


def _result(number: int, status: CaseStatus, *, answer: str | None = None, repeat: int = 0) -> EvalCaseResult:
    return EvalCaseResult(
        conversation_number=number,
        passed=status is CaseStatus.PASS,
        status=status,
        actual_response=(answer or f"answer {number}.{repeat}") if status is not CaseStatus.ERROR else None,
        failure_reason=None if status is CaseStatus.PASS else f"why {number}",
        repeat_index=repeat,
        duration_ms=100.0 * number,
    )


def _run(*statuses: CaseStatus, min_pass_rate: float | None = None, answers: list[str] | None = None):
    results = [
        _result(n, status, answer=(answers[n - 1] if answers else f"answer {n}"))
        for n, status in enumerate(statuses, start=1)
    ]
    return summarise(
        numbered_set(len(statuses)), results, agent_name="a", started=None, duration_ms=1, min_pass_rate=min_pass_rate
    )


P, F, E = CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR


def test_a_run_that_met_every_gate_completed():
    assert run_verdict(_run(P, P, F, P), Gates(fail_under=75)).row is OK


def test_below_fail_under_is_the_agents_gate():
    verdict = run_verdict(_run(P, F, F, P), Gates(fail_under=75))
    assert verdict.row is BELOW_GATE
    assert verdict.why == "score 50% is below --fail-under 75"


@pytest.mark.parametrize("gate", [None, 50.0])
def test_nothing_graded_is_the_platforms_row_with_or_without_a_gate(gate):
    verdict = run_verdict(_run(E, E), Gates(fail_under=gate))
    assert verdict.row is PLATFORM
    assert (verdict.why or "").startswith("no case could be graded")


@pytest.mark.parametrize("confirmed", [False, True])
def test_a_runtime_limitation_comes_before_a_gate(confirmed):
    # every answer the same fallback text: the detection suspects the platform
    run = _run(F, F, F, answers=["Sorry, something went wrong"] * 3)
    assert run.runtime_limitation is not None
    if confirmed:
        run = confirm_limitation(run, by="surface preview answered the same 3 questions well")
    verdict = run_verdict(run, Gates(fail_under=50))
    assert verdict.row is PLATFORM
    standing = "confirmed" if confirmed else "suspected"
    assert verdict.why == f"a runtime limitation is {standing}: the score measures the platform, not the agent"


def test_a_case_below_its_minimum_pass_rate_misses_the_gate():
    results = [_result(1, P, repeat=i) for i in range(3)] + [_result(2, s, repeat=i) for i, s in enumerate((P, F, F))]
    run = summarise(numbered_set(2), results, agent_name="a", started=None, duration_ms=1, min_pass_rate=0.8)
    verdict = run_verdict(run)
    assert verdict.row is BELOW_GATE
    assert verdict.why == "1 case(s) below --min-pass-rate 80%: case 2"


def test_a_platform_run_that_did_not_complete_is_no_verdict():
    record = PlatformRunRecord(source="x", environment_id="e", bot_id="b", state="Failed")
    run = _run(P, P).model_copy(update={"platform_run": record})
    assert run_verdict(run).why == "the platform's run ended Failed, not Completed: not a verdict on the agent"


def test_a_shard_the_split_left_empty_has_nothing_to_grade_and_completes():
    empty = summarise(numbered_set(1), [], agent_name="a", started=None, duration_ms=1)
    assert run_verdict(empty.model_copy(update={"shard": ShardInfo(index=3, count=3)})).row is OK
    assert run_verdict(empty).row is PLATFORM


def test_several_surfaces_exit_with_the_worst_and_name_each():
    verdict = runs_verdict(
        [("draft", _run(F, F, P)), ("published", _run(E, E, E)), ("preview", _run(P, P, P))], Gates(fail_under=50)
    )
    assert verdict.row is PLATFORM
    assert verdict.why == (
        "published: no case could be graded; a runtime limitation is suspected: the score measures the platform, "
        "not the agent"
    )
    below = runs_verdict([("draft", _run(F, F, P)), ("preview", _run(P, P, P))], Gates(fail_under=50))
    assert below.line() == "exit 1 (below a gate): draft: score 33.33% is below --fail-under 50"


def test_counts_alone_give_the_same_rows():
    assert tally_verdict(passed=0, failed=0, not_graded=3).row is PLATFORM
    assert tally_verdict(passed=2, failed=1, not_graded=1).row is PLATFORM  # every item is gated
    assert tally_verdict(passed=2, failed=1, not_graded=0).row is BELOW_GATE
    assert tally_verdict(passed=2, failed=0, not_graded=0).row is OK
