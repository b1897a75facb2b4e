"""`review --import`: every problem of a labels file at once, each with its line, cases the run lacks included."""

from __future__ import annotations

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from tests.history.people_fixtures import write_graded_run


def test_every_problem_is_named_by_line_cases_the_run_lacks_included(tmp_path):
    folder = write_graded_run(tmp_path / "run", [["pass"], ["fail"]])
    labels = tmp_path / "labels.csv"
    labels.write_text(
        "case,verdict,reviewer,note\n1,maybe,ada,\n9,pass,,\n7,fail,ada,\n2,pass,ada,\n", encoding="utf-8"
    )
    done = CliRunner().invoke(
        app, ["review", str(folder), "--import", str(labels), "--history", str(tmp_path / "h.db")]
    )
    assert done.exit_code == 2, done.output
    said = " ".join(done.output.split())
    for problem in (
        "line 2, verdict: 'maybe' is not pass or fail",
        "line 3, reviewer: empty",
        "line 3, case: the run has no case 9.1 (its cases: 1.1, 2.1)",
        "line 4, case: the run has no case 7.1",
    ):
        assert problem in said, said
