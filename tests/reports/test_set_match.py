"""compare and --baseline compare only runs of one test set (item 8 of issue 27).

Two runs of unrelated sets used to compare as "2 unchanged, 4 removed", exit 0: cases are matched
by number. Now the two fingerprints recorded in run.json must agree, or the command refuses (exit 2)
saying exactly what differs; ``--allow-other-set`` compares them anyway.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalDataType, EvalTestCase, EvalTestSet, RunFingerprints
from copilot_eval.reports.run_comparison import CompareError, compare_folders
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.fingerprints import test_set_fingerprint
from copilot_eval.runs.finish import baseline_problem


def _set(questions: list[str], references: list[str] | None = None) -> EvalTestSet:
    references = references or [f"reference {n}" for n in range(1, len(questions) + 1)]
    return EvalTestSet(
        name="set",
        data_type=EvalDataType.SINGLE_TURN,
        cases=[
            EvalTestCase(conversation_number=n, question=q, response=r)
            for n, (q, r) in enumerate(zip(questions, references, strict=True), start=1)
        ],
    )


def _folder(path: Path, test_set: EvalTestSet, *, fingerprint: bool = True) -> Path:
    results = [
        EvalCaseResult(conversation_number=c.conversation_number, passed=True, status=CaseStatus.PASS,
                       actual_response=c.response)
        for c in test_set.cases
    ]  # fmt: skip
    run = summarise(test_set, results, agent_name="a", started=None, duration_ms=1)
    if fingerprint:
        run = run.model_copy(update={"fingerprints": RunFingerprints(test_set=test_set_fingerprint(test_set))})
    write_run_outputs(run, test_set, path)
    return path


SET = _set(["Where is the shop?", "When do you open?", "Do I need a deposit?", "Can I pay by card?"])
OTHER = _set(
    ["Where is the shop?", "When do you close?", "Do I need a deposit?", "Can I pay by card?", "Is there parking?"],
    ["reference 1", "reference 2", "a new reference 3", "reference 4", "reference 5"],
)


def test_runs_of_one_set_compare(tmp_path):
    comparison = compare_folders(_folder(tmp_path / "a", SET), _folder(tmp_path / "b", SET))
    assert len(comparison.of_kind("unchanged")) == 4


def test_runs_of_different_sets_are_refused_saying_exactly_what_differs(tmp_path):
    a, b = _folder(tmp_path / "a", SET), _folder(tmp_path / "b", OTHER)
    with pytest.raises(CompareError) as refused:
        compare_folders(a, b)
    message = str(refused.value)
    assert message.startswith(f"baseline {a} and candidate {b} played different test sets (fingerprint ")
    assert "only in the second: case 5; question changed in case 2; reference changed in case 3" in message
    assert message.endswith("pass --allow-other-set to compare them anyway")
    assert len(compare_folders(a, b, allow_other_set=True).of_kind("new")) == 1


def test_a_run_without_a_recorded_fingerprint_cannot_be_checked_and_is_compared(tmp_path):
    old = _folder(tmp_path / "old", OTHER, fingerprint=False)
    assert compare_folders(old, _folder(tmp_path / "b", SET)) is not None


def test_compare_exits_2_on_another_set_and_compares_with_allow_other_set(tmp_path):
    a, b = _folder(tmp_path / "a", SET), _folder(tmp_path / "b", OTHER)
    refused = CliRunner().invoke(app, ["compare", str(a), str(b)])
    assert refused.exit_code == 2, refused.output
    lines = [line for line in refused.output.splitlines() if line.startswith("exit ")]
    assert len(lines) == 1 and "played different test sets" in lines[0]
    allowed = CliRunner().invoke(app, ["compare", str(a), str(b), "--allow-other-set"])
    assert allowed.exit_code == 0, allowed.output


def test_a_baseline_of_another_set_is_refused_before_the_run(tmp_path):
    baseline = _folder(tmp_path / "baseline", SET)
    problem = baseline_problem(baseline, test_set=OTHER, fingerprint=test_set_fingerprint(OTHER))
    assert problem is not None and problem.startswith(f"--baseline {baseline} and this run played different test sets")
    assert baseline_problem(baseline, test_set=SET, fingerprint=test_set_fingerprint(SET)) is None
    assert (
        baseline_problem(baseline, test_set=OTHER, fingerprint=test_set_fingerprint(OTHER), allow_other_set=True)
        is None
    )
