"""`copilot-eval comment` as a workflow step runs it: the job's environment, the event file, exit codes."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.github import marker
from copilot_eval.testing import FakeGitHubComments, LoopbackServer


@pytest.fixture
def actions_env(tmp_path, monkeypatch):
    """A pull_request job's environment for pull request 7 of the fake's repository."""

    def set_up(fake: FakeGitHubComments, *, number: int | None = 7, token: str | None = None) -> None:
        event = tmp_path / "event.json"
        payload = {"action": "synchronize", "number": number, "pull_request": {"number": number}}
        event.write_text(json.dumps(payload if number else {"ref": "refs/heads/main"}))
        for name, value in {
            "GITHUB_ACTIONS": "true",
            "GITHUB_REPOSITORY": fake.repo,
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_API_URL": fake.url,
            "GITHUB_SERVER_URL": "https://github.example",
            "GITHUB_RUN_ID": "4242",
            "GITHUB_TOKEN": token or fake.token,
        }.items():
            monkeypatch.setenv(name, value)

    return set_up


def test_in_a_pull_request_job_the_comment_needs_no_options(tmp_path, actions_env):
    report = tmp_path / "gate.md"
    report.write_text("## copilot-eval gate\n\nno regression\n")
    fake = FakeGitHubComments(pulls=(7,))
    with LoopbackServer(fake):
        actions_env(fake)
        first = CliRunner().invoke(app, ["comment", str(report)])
        report.write_text("## copilot-eval gate\n\n1 regression\n")
        second = CliRunner().invoke(app, ["comment", str(report)])
    assert first.exit_code == 0, first.output
    assert "created the comment on octo-org/bike-agent#7" in first.output
    assert second.exit_code == 0 and "updated the comment" in second.output
    assert [c.body for c in fake.comments_on(7)] == [
        marker("gate", fake.repo) + "\n## copilot-eval gate\n\n1 regression\n"
    ]


def test_options_win_over_the_environment_and_a_cut_names_the_run(tmp_path, actions_env):
    report = tmp_path / "gate.md"
    report.write_text("\n".join(["| case | now |", "| --- | --- |", *(f"| {n} | {'x' * 100} |" for n in range(900))]))
    fake = FakeGitHubComments(repo="octo-org/other", pulls=(12,))
    with LoopbackServer(fake):
        actions_env(fake, number=None)
        result = CliRunner().invoke(app, ["comment", str(report), "--pr", "12", "--key", "nightly"])
    assert result.exit_code == 0, result.output
    body = fake.comments_on(12)[0].body
    assert body.startswith(marker("nightly", "octo-org/other") + "\n")
    assert "the full report: https://github.example/octo-org/other/actions/runs/4242" in body
    assert "table rows and 0 other lines left out" in result.output


@pytest.mark.parametrize(
    ("setup", "code", "says"),
    [
        ("no token", 2, "no token in GITHUB_TOKEN"),
        ("read-only token", 2, "permissions: pull-requests: write"),
        ("no pull request", 2, "no pull request: give --pr N"),
        ("no file", 2, "cannot be read"),
        ("rate limited", 3, "gave up after 3 retries"),
    ],
)
def test_failures_exit_with_their_row_and_say_what_is_missing(tmp_path, actions_env, monkeypatch, setup, code, says):
    report = tmp_path / "gate.md"
    report.write_text("hello")
    fake = FakeGitHubComments(pulls=(7,))
    with LoopbackServer(fake):
        actions_env(fake, number=None if setup == "no pull request" else 7, token=fake.read_only_token)
        if setup == "no token":
            monkeypatch.delenv("GITHUB_TOKEN")
        elif setup != "read-only token":
            monkeypatch.setenv("GITHUB_TOKEN", fake.token)
        if setup == "rate limited":
            fake.rate_limit(times=4, status=429, retry_after_s=0)
        target = str(tmp_path / "missing.md") if setup == "no file" else str(report)
        result = CliRunner().invoke(app, ["comment", target])
    assert result.exit_code == code, result.output
    assert says in result.output
    assert fake.token not in result.output and str(fake.read_only_token) not in result.output
