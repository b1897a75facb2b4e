"""Where the history is (option, env, beside the project) and which commit, branch and CI run a run is tied to."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from copilot_eval import redaction
from copilot_eval.history.location import HISTORY_ENV, HistoryLocationError, project_folder, resolve_history
from copilot_eval.history.provenance import Provenance, ci_provenance, detect_provenance, git_provenance


def test_the_option_wins_over_the_environment_which_wins_over_the_project_default(tmp_path, monkeypatch):
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "sub" / "deeper")
    monkeypatch.delenv(HISTORY_ENV, raising=False)
    assert project_folder() == tmp_path
    default = resolve_history()
    assert default is not None and default.sqlite_path == tmp_path / ".copilot-eval" / "history.db"
    monkeypatch.setenv(HISTORY_ENV, str(tmp_path / "env.db"))
    assert resolve_history().sqlite_path == tmp_path / "env.db"
    assert resolve_history(f"sqlite:///{tmp_path / 'option.db'}").sqlite_path == tmp_path / "option.db"
    monkeypatch.setenv(HISTORY_ENV, "off")
    assert resolve_history() is None
    assert resolve_history("OFF") is None


def test_pytest_passes_its_rootdir_as_the_project(tmp_path, monkeypatch):
    monkeypatch.delenv(HISTORY_ENV, raising=False)
    found = resolve_history(project_dir=tmp_path)
    assert found is not None and found.sqlite_path == tmp_path / ".copilot-eval" / "history.db"


def test_a_postgresql_url_uses_psycopg_3_and_its_password_is_never_shown(monkeypatch):
    monkeypatch.setattr(redaction, "_secrets", {})
    monkeypatch.setattr(redaction, "_known_forms", ())
    monkeypatch.setattr(redaction, "_pattern", None)
    found = resolve_history("postgresql://evals:s3cret-team-pass@db.internal:5432/history")
    assert found is not None and found.sqlite_path is None
    assert found.url == "postgresql+psycopg://evals:s3cret-team-pass@db.internal:5432/history"
    assert found.display == "postgresql+psycopg://evals:***@db.internal:5432/history"
    assert (
        redaction.redact("connect failed for s3cret-team-pass")
        == "connect failed for [redacted:COPILOT_EVAL_HISTORY_password]"
    )


def test_urls_that_cannot_hold_a_history_are_refused_naming_where_they_came_from(monkeypatch):
    with pytest.raises(HistoryLocationError, match="--history: an in-memory SQLite database would forget every run"):
        resolve_history("sqlite://")
    monkeypatch.setenv(HISTORY_ENV, "postgresql://user@host:port/db")
    with pytest.raises(
        HistoryLocationError, match=f"{HISTORY_ENV} 'postgresql://user@host:port/db' is not a database URL"
    ):
        resolve_history()


GITHUB = {
    "GITHUB_ACTIONS": "true",
    "GITHUB_SHA": "4f2c0a9d1e",
    "GITHUB_REF_NAME": "42/merge",
    "GITHUB_HEAD_REF": "fix-refunds",
    "GITHUB_SERVER_URL": "https://github.com",
    "GITHUB_REPOSITORY": "acme/bike-agent",
    "GITHUB_RUN_ID": "9001",
}


def test_a_ci_names_commit_branch_and_run_url():
    assert ci_provenance(GITHUB) == Provenance(
        "4f2c0a9d1e", "fix-refunds", "https://github.com/acme/bike-agent/actions/runs/9001"
    )
    push = {k: v for k, v in GITHUB.items() if k != "GITHUB_HEAD_REF"} | {"GITHUB_REF_NAME": "main"}
    assert ci_provenance(push).branch == "main"
    gitlab = {
        "GITLAB_CI": "true",
        "CI_COMMIT_SHA": "aa11",
        "CI_COMMIT_REF_NAME": "dev",
        "CI_PIPELINE_URL": "https://gl/p/1",
    }
    assert ci_provenance(gitlab) == Provenance("aa11", "dev", "https://gl/p/1")
    azure = {
        "TF_BUILD": "True",
        "BUILD_SOURCEVERSION": "bb22",
        "BUILD_SOURCEBRANCH": "refs/heads/release",
        "SYSTEM_COLLECTIONURI": "https://dev.azure.com/acme/",
        "SYSTEM_TEAMPROJECT": "bikes",
        "BUILD_BUILDID": "77",
    }
    assert ci_provenance(azure) == Provenance(
        "bb22", "release", "https://dev.azure.com/acme/bikes/_build/results?buildId=77"
    )
    assert ci_provenance({"CI": "true"}) is None  # a CI this module does not know names nothing


def _git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_outside_a_ci_git_answers_and_unknown_stays_none(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "feature-x")
    (repo / "a.txt").write_text("a")
    _git(repo, "add", "a.txt")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "one")
    head = _git(repo, "rev-parse", "HEAD")
    assert detect_provenance(repo, env={}) == Provenance(head, "feature-x", None)
    _git(repo, "checkout", "-q", "--detach")
    assert git_provenance(repo) == Provenance(head, None)  # a detached HEAD is on no branch
    (tmp_path / "plain").mkdir()
    assert detect_provenance(tmp_path / "plain", env={}) == Provenance(None, None, None)
    # A CI that names the commit but not the branch gets the branch from git.
    partial = {"GITHUB_ACTIONS": "true", "GITHUB_SHA": "cafe"}
    _git(repo, "checkout", "-q", "feature-x")
    assert detect_provenance(repo, env=partial) == Provenance("cafe", "feature-x", None)
