"""A gate decides only over what it could check: stale recordings and graders' failures are not the platform's.

Item 8 of issue 27: a replay whose recording no longer matches made its case an ``error`` that dropped
out of the score ("100% over 5 graded", exit 0 under ``--fail-under 80``), and when every case was
stale the run blamed the platform ("Suspected runtime limitation"). A judge that failed on every
answer did the same. These tests feed ``summarise`` and ``run_verdict`` the recorded facts directly,
and give ``regrade`` and ``merge`` a folder as a stale replay leaves it (``run`` itself replays a
stale cassette through the runtime in tests/cli/test_replay_cli.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, GradeRecord, ShardInfo
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.exit_codes import OK, PLATFORM
from copilot_eval.models.replay import STALE_RECORDING
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.gates import RERECORD, Gates, run_verdict
from copilot_eval.runs.settings import RunSettings, SettingsError

from .runs_helpers import numbered_set

P, F, E = CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR
STALE = (
    f"{STALE_RECORDING} this completions request (http) in cassettes/set-3.jsonl (2 recorded, 0 not served yet); "
    "closest: call 0 (already served), differing in: body.messages[1].content"
)


def _case(number: int, status: CaseStatus, *, reason: str | None = None, answer: str | None = None, grades=()):
    answered = answer if answer is not None else (None if status is E else f"answer {number}")
    return EvalCaseResult(
        conversation_number=number,
        passed=status is P,
        status=status,
        actual_response=answered,
        failure_reason=reason if status is not P else None,
        grades=list(grades),
        evidence_path=f"evidence/{number}.json",
        duration_ms=1000.0,  # a scripted agent: every session takes the same time
    )


def _run(results: list[EvalCaseResult], **kwargs):
    return summarise(numbered_set(len(results)), results, agent_name="a", started=None, duration_ms=1, **kwargs)


def test_a_stale_recording_beyond_max_errors_leaves_the_gate_undecided_and_names_the_case():
    run = _run([_case(n, P) for n in range(1, 6)] + [_case(6, E, reason=STALE)])
    assert run.general_quality_percent == 100 and run.graded == 5  # what the score alone would have said
    verdict = run_verdict(run, Gates(fail_under=80))
    assert verdict.row is PLATFORM
    assert verdict.why == (
        "1 case(s) could not be graded, more than --max-errors 0: case 6 "
        f"(1 replayed a recording that no longer matches: {RERECORD}); the gate over the rest is undecided"
    )
    assert run_verdict(run, Gates(fail_under=80, max_errors=1)).row is OK
    assert run_verdict(run).row is OK  # no gate asked: nothing is undecided


def test_errors_and_unknowns_count_against_max_errors_with_every_gate():
    results = [_case(1, P), _case(2, E, reason="HTTP 502"), _case(3, CaseStatus.UNKNOWN, reason="no verdict")]
    run = _run(results, min_pass_rate=0.5)  # --min-pass-rate is a gate too
    verdict = run_verdict(run)
    assert verdict.row is PLATFORM and verdict.why is not None
    assert verdict.why.startswith("2 case(s) could not be graded, more than --max-errors 0: case 2, case 3;")
    assert run_verdict(run, Gates(max_errors=2)).row is OK


def test_every_case_stale_is_the_fixture_not_a_runtime_limitation():
    run = _run([_case(n, E, reason=STALE) for n in range(1, 5)])
    assert run.runtime_limitation is None
    verdict = run_verdict(run, Gates(fail_under=50))
    assert verdict.row is PLATFORM
    assert verdict.why == (
        f"no case could be graded (4 replayed a recording that no longer matches: {RERECORD}): "
        "not a verdict on the agent"
    )


def test_a_failing_judge_is_not_a_runtime_limitation():
    judge_down = GradeRecord(method="CompareMeaning", status=E, explanation="the judge's session failed: HTTP 500")
    results = [_case(n, E, reason="the judge's session failed", answer=f"answer {n}", grades=[judge_down])
               for n in range(1, 5)]  # fmt: skip
    assert _run(results).runtime_limitation is None


def test_sessions_that_failed_on_the_platform_still_raise_a_limitation():
    run = _run([_case(n, E, reason="HTTP 503 Service Unavailable") for n in range(1, 5)])
    assert run.runtime_limitation is not None and "execution errors" in run.runtime_limitation


def test_a_platform_named_grading_failure_stays_the_platforms():
    null = GradeRecord(method="CompareMeaning", status=E, error_reason="AgentResponseIsNullOrEmpty")
    results = [_case(n, E, reason="x", answer="Sorry, something went wrong", grades=[null]) for n in range(1, 4)]
    assert _run(results).runtime_limitation is not None


def test_max_errors_is_a_setting_checked_when_made():
    assert RunSettings.of(max_errors=2).finish.max_errors == 2
    with pytest.raises(SettingsError, match=r"--max-errors -1: must be 0 or more"):
        RunSettings.of(max_errors=-1)


def _played_folder(folder: Path, shard: ShardInfo | None = None) -> Path:
    """A run folder of four cases as `run --replay` leaves it when case 4's recording no longer matches."""
    test_set = numbered_set(4)
    results = []
    for case in test_set.cases:
        number, evidence = case.conversation_number, folder / "evidence" / f"case{case.conversation_number}-r0.json"
        if number < 4:
            played = CopilotResult(success=True, stop_reason="completed", prompt=case.question,
                                   turns=[Turn(role="user", content=case.question),
                                          Turn(role="assistant", content=case.response)])  # fmt: skip
            results.append(_case(number, P, answer=case.response))
        else:
            played = CopilotResult(success=False, stop_reason="execution_error", prompt=case.question, error=STALE)
            results.append(_case(number, E, reason=STALE))
        played.save(evidence)
        results[-1] = results[-1].model_copy(update={"evidence_path": str(evidence)})
    write_run_outputs(_run(results).model_copy(update={"shard": shard}), test_set, folder)
    return folder


@pytest.mark.parametrize("writer", ["regrade", "merge"])
def test_a_stale_recording_leaves_every_writers_gate_undecided(writer, tmp_path):
    played = _played_folder(tmp_path / "played", None if writer == "regrade" else ShardInfo(index=1, count=1))
    args = ["regrade", played, "--grader", "exact"] if writer == "regrade" else ["merge", played]
    done = CliRunner().invoke(
        app, [*map(str, args), "--out", str(tmp_path / "out"), "--no-history", "--fail-under", "50"]
    )
    lines = [line for line in done.output.splitlines() if line.startswith("exit ")]
    assert done.exit_code == 3, done.output
    assert lines == [
        "exit 3 (the platform or the infrastructure): 1 case(s) could not be graded, more than --max-errors 0: "
        f"case 4 (1 replayed a recording that no longer matches: {RERECORD}); the gate over the rest is undecided"
    ]


def test_a_stale_recording_beside_a_limitation_still_says_to_re_record():
    same = "Sorry, something went wrong"
    run = _run([_case(n, F, reason="differs", answer=same) for n in (1, 2, 3)] + [_case(4, E, reason=STALE)])
    assert run.runtime_limitation is not None and "case 4" not in run.runtime_limitation  # the stale case is not read
    why = run_verdict(run, Gates(fail_under=50)).why or ""
    assert why.startswith("a runtime limitation is suspected: the score measures the platform, not the agent; ")
    assert why.endswith(
        f"case 4 (1 replayed a recording that no longer matches: {RERECORD}); the gate over the rest is undecided"
    )
