"""After `review`, the run's report shows people's verdicts: found where every command finds the history."""

from __future__ import annotations

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.history.location import HISTORY_ENV
from tests.history.people_fixtures import write_graded_run

PEOPLE = "people reviewed 2 of 2 case results and changed 1 verdict:"


def _labels(tmp_path):
    path = tmp_path / "labels.csv"
    path.write_text("case,verdict,reviewer,note\n1,pass,ada,\n2,pass,ada,\n", encoding="utf-8")
    return path


def _project(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / ".git").mkdir(parents=True)
    monkeypatch.chdir(project)
    monkeypatch.delenv(HISTORY_ENV, raising=False)  # the project's own .copilot-eval/history.db
    return project


def test_review_rewrites_the_report_and_report_finds_the_projects_history(tmp_path, monkeypatch):
    project = _project(tmp_path, monkeypatch)
    folder = write_graded_run(project / "runs" / "one", [["pass"], ["fail"]])
    (folder / "report.html").write_text("<html>before review</html>", encoding="utf-8")
    runner = CliRunner()
    reviewed = runner.invoke(app, ["review", str(folder), "--import", str(_labels(tmp_path))])
    assert reviewed.exit_code == 0, reviewed.output
    assert (project / ".copilot-eval" / "history.db").is_file()
    assert f"report: {folder / 'report.html'} (with people's verdicts)" in reviewed.output
    assert PEOPLE in (folder / "report.html").read_text(encoding="utf-8")
    (folder / "report.html").unlink()
    # `report` run again finds the same history (the project's), not one inside the run folder.
    again = runner.invoke(app, ["report", str(folder)])
    assert again.exit_code == 0, again.output
    assert PEOPLE in (folder / "report.html").read_text(encoding="utf-8")
    assert "history:" not in again.output


def test_a_history_report_cannot_read_is_said(tmp_path, monkeypatch):
    project = _project(tmp_path, monkeypatch)
    folder = write_graded_run(project / "runs" / "one", [["pass"], ["fail"]])
    runner = CliRunner()
    missing = runner.invoke(app, ["report", str(folder)])
    assert missing.exit_code == 0, missing.output
    database = project / ".copilot-eval" / "history.db"
    assert f"history: no database at {database}; people's verdicts and low-agreement flags are left out" in (
        missing.output
    )
    assert not database.exists()  # reading creates nothing
    other = write_graded_run(project / "runs" / "two", [["fail"]], agent="another-agent")
    assert runner.invoke(app, ["history", "ingest", str(other)]).exit_code == 0
    absent = runner.invoke(app, ["report", str(folder)])
    assert f"history: this run is not in {database}" in absent.output
    assert f"copilot-eval history ingest {folder}" in absent.output


def test_a_history_in_a_folder_that_does_not_exist_is_refused(tmp_path, monkeypatch):
    _project(tmp_path, monkeypatch)
    folder = write_graded_run(tmp_path / "run", [["pass"]])
    typo = tmp_path / "histroy" / "team.db"
    done = CliRunner().invoke(app, ["review", str(folder), "--import", str(_labels(tmp_path)), "--history", str(typo)])
    assert done.exit_code == 2, done.output
    assert f"the folder {typo.parent} does not exist; make it first" in done.output
    assert not typo.parent.exists()
