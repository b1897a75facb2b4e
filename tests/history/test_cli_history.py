"""`copilot-eval run` remembers its runs: real runs through the runtime (scripted models) into real databases."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.history.history_fixtures import GOOD_AGENT, HTTP500_AGENT, THREE_CASES

CLI = [sys.executable, "-m", "copilot_eval.cli.app"]
ONE_CASE = THREE_CASES.splitlines()[0] + "\n" + THREE_CASES.splitlines()[1] + "\n"
GITHUB = {
    "GITHUB_ACTIONS": "true",
    "GITHUB_SHA": "5e1f00d2c3b4a5968778695a4b3c2d1e0f9a8b7c",
    "GITHUB_REF_NAME": "main",
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "acme/bike-agent",
    "GITHUB_RUN_ID": "314",
}

pytestmark = [pytest.mark.runtime]


def _env(**extra: str) -> dict[str, str]:
    # The suite points COPILOT_EVAL_HISTORY at a throw-away file; these tests choose their own.
    env = {k: v for k, v in os.environ.items() if k != "COPILOT_EVAL_HISTORY" and not k.startswith("GITHUB_")}
    return {**env, "COLUMNS": "200", **extra}


def cli(*args: object, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run the command line in ``cwd`` and capture what it prints."""
    return subprocess.run([*CLI, *map(str, args)], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def cli_here(*args: object, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A command that only reads or stores records, in this process (a subprocess costs seconds to start):
    in ``cwd``, with exactly ``env`` (what ``env`` leaves out is unset while it runs)."""
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app

    words = [str(arg) for arg in args]
    overrides: dict[str, str | None] = {**env, **{name: None for name in os.environ if name not in env}}
    with contextlib.chdir(cwd):
        done = CliRunner().invoke(app, words, env=overrides)
    return subprocess.CompletedProcess(words, done.exit_code, done.stdout, done.stderr)


def _json(*args: object, cwd: Path, env: dict[str, str]) -> dict:
    done = cli_here(*args, cwd=cwd, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_every_run_is_remembered_beside_the_project_with_its_ci_commit(tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'bike-agent'\n")
    (project / "set.csv").write_text(THREE_CASES)
    env = _env(**GITHUB)
    done = cli("run", "set.csv", "--agent", GOOD_AGENT, "--out", "runs/first", "--no-progress", cwd=project, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    database = project / ".copilot-eval" / "history.db"
    assert f"history: stored as run 1 in {database}" in " ".join(done.stdout.split())
    again = cli_here("history", "ingest", "runs/first", cwd=project, env=env)
    assert again.returncode == 0 and "runs/first: already stored (run 1)" in again.stdout

    [run] = _json("history", "runs", "--json", cwd=project, env=env)["runs"]
    assert run["source"] == "run" and run["testSet"] == "set" and run["agent"] == "spoke-and-pedal-good"
    assert run["agentModel"] == "scripted-model"
    assert run["git"] == {"commit": GITHUB["GITHUB_SHA"], "branch": "main"}
    assert run["ciRunUrl"] == "https://github.com/acme/bike-agent/actions/runs/314"
    assert run["report"] == str(project / "runs" / "first" / "report.html")
    assert (run["passed"], run["failed"], run["errored"]) == (2, 1, 0)
    [series] = _json("history", "trends", "--json", cwd=project, env=env)["series"]
    assert [c["statuses"][0]["statuses"] for c in series["cases"]] == [["pass"], ["pass"], ["fail"]]
    assert series["cases"][2]["regression"]["commit"] == GITHUB["GITHUB_SHA"]


def test_several_surfaces_are_each_recorded_with_their_limitation_as_run_json_has_it(tmp_path):
    (tmp_path / "set.csv").write_text(THREE_CASES)
    url = f"sqlite:///{tmp_path / 'team.db'}"
    env = _env()
    done = cli(
        "run", "set.csv", "--agent", GOOD_AGENT, "--agent", HTTP500_AGENT, "--out", "both", "--no-progress",
        "--history", url, cwd=tmp_path, env=env,
    )  # fmt: skip
    # A limitation recorded on a surface: that score measures the platform, the table's row 3.
    assert done.returncode == 3, done.stdout + done.stderr
    assert f"history: stored as run 1, 2 in {tmp_path / 'team.db'}" in done.stdout
    runs = {r["agent"]: r for r in _json("history", "runs", "--json", "--history", url, cwd=tmp_path, env=env)["runs"]}
    assert set(runs) == {"spoke-and-pedal-good", "spoke-and-pedal-http500"}
    assert runs["spoke-and-pedal-good"]["limitationStanding"] is None
    assert runs["spoke-and-pedal-good"]["limitationConfirmedBy"] == []
    outage = runs["spoke-and-pedal-http500"]
    # The standing and what confirmed it are fields of run.json; the limitation's text carries neither.
    # The good agent is another agent (another script): an A/B comparison, so it confirms nothing.
    assert outage["limitationStanding"] == "suspected" and outage["limitationConfirmedBy"] == []
    assert not outage["runtimeLimitation"].lower().startswith(("suspected", "confirmed"))
    assert outage["runFolder"].endswith("both/spoke-and-pedal-http500")


def test_a_history_that_cannot_be_written_is_one_warning_and_the_run_stands(tmp_path):
    (tmp_path / "one.csv").write_text(ONE_CASE)
    blocked = tmp_path / "a-folder-not-a-database"
    blocked.mkdir()
    env = _env()
    done = cli(
        "run",
        "one.csv",
        "--agent",
        GOOD_AGENT,
        "--out",
        "out",
        "--no-progress",
        "--history",
        blocked,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and f"not recorded in the history ({blocked})" in warnings[0]
    assert (tmp_path / "out" / "run.json").is_file() and (tmp_path / "out" / "report.html").is_file()
    off = cli(
        "run",
        "one.csv",
        "--agent",
        GOOD_AGENT,
        "--out",
        "off",
        "--no-progress",
        cwd=tmp_path,
        env=_env(COPILOT_EVAL_HISTORY="off"),
    )
    assert off.returncode == 0 and "history" not in off.stdout + off.stderr
    assert not (tmp_path / ".copilot-eval").exists()
    skipped = cli(
        "run", "one.csv", "--agent", GOOD_AGENT, "--out", "skipped", "--no-progress",
        "--history", tmp_path / "wanted.db", "--no-history",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert skipped.returncode == 0 and "history" not in skipped.stdout + skipped.stderr
    assert not (tmp_path / "wanted.db").exists()
