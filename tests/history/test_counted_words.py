"""The history's terminal views count in words a person writes: "1 run", not "1 runs"."""

from __future__ import annotations

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from tests.history.people_fixtures import write_graded_run


def test_one_run_is_one_run(tmp_path):
    folder = write_graded_run(tmp_path / "run", [["pass"], ["fail"]])
    history = str(tmp_path / "h.db")
    runner = CliRunner()
    assert runner.invoke(app, ["history", "ingest", str(folder), "--history", history]).exit_code == 0
    listed = runner.invoke(app, ["history", "runs", "--history", history], env={"COLUMNS": "200"})
    assert listed.exit_code == 0, listed.output
    assert "1 run in" in listed.output and "1 runs" not in listed.output
    trends = runner.invoke(app, ["history", "trends", "--history", history], env={"COLUMNS": "200"})
    assert trends.exit_code == 0, trends.output
    assert ": 1 run, 2 cases" in trends.output and "1 runs" not in trends.output
