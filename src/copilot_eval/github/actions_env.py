"""What a GitHub Actions job's environment says about the pull request a comment belongs to.

A workflow names its repository in ``GITHUB_REPOSITORY``, the API in ``GITHUB_API_URL`` (GitHub
Enterprise Server has its own) and the event that started it in the JSON file at
``GITHUB_EVENT_PATH``: ``pull_request.number`` for ``pull_request`` and ``pull_request_target``
events, ``issue.number`` for an ``issue_comment`` on a pull request. The run's page, where the
step summary and the artifacts are, is ``GITHUB_SERVER_URL/GITHUB_REPOSITORY/actions/runs/GITHUB_RUN_ID``.
Options given on the command line win over all of these.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from copilot_eval.github.errors import GitHubTokenError
from copilot_eval.redaction import register_secret


class ActionsEnvError(ValueError):
    """The job's environment names something that cannot be used; the message says which variable."""


@dataclass(frozen=True)
class PullRequestTarget:
    """Where a comment goes (repository and number), the API, and the run's page (None outside Actions)."""

    repo: str | None
    number: int | None
    api_url: str | None
    run_url: str | None


def _get(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def event_number(path: Path) -> int | None:
    """The pull request's number in the event file at ``path`` (None for an event without one)."""
    try:
        event = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ActionsEnvError(f"GITHUB_EVENT_PATH {path}: cannot be read ({exc.strerror or exc})") from None
    except ValueError as exc:
        raise ActionsEnvError(f"GITHUB_EVENT_PATH {path}: not JSON ({exc})") from None
    if not isinstance(event, dict):
        return None
    for holder in ("pull_request", "issue"):
        found = event.get(holder)
        if isinstance(found, dict) and isinstance(found.get("number"), int):
            if holder == "issue" and "pull_request" not in found:
                return None  # a comment on a plain issue: not a pull request
            return int(found["number"])
    number = event.get("number")
    return number if isinstance(number, int) and "pull_request" in event else None


def actions_target(env: Mapping[str, str] | None = None) -> PullRequestTarget:
    """The repository, pull request, API URL and run page the job's environment names (each None when not)."""
    env = os.environ if env is None else env
    repo = _get(env, "GITHUB_REPOSITORY")
    event_path = _get(env, "GITHUB_EVENT_PATH")
    number = event_number(Path(event_path)) if event_path else None
    parts = [_get(env, name) for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")]
    run_url = f"{parts[0]}/{parts[1]}/actions/runs/{parts[2]}" if all(parts) else None
    return PullRequestTarget(repo, number, _get(env, "GITHUB_API_URL"), run_url)


def comment_target(
    *,
    repo: str | None = None,
    number: int | None = None,
    api_url: str | None = None,
    env: Mapping[str, str] | None = None,
) -> PullRequestTarget:
    """Where to comment: each option given, else what the job's environment names; ActionsEnvError when unknown."""
    found = actions_target(env)
    repo = (repo or found.repo or "").strip() or None
    if repo is None:
        raise ActionsEnvError("no repository: give --repo OWNER/NAME (GitHub Actions sets GITHUB_REPOSITORY)")
    if repo.count("/") != 1 or not all(repo.split("/")):
        raise ActionsEnvError(f"--repo {repo!r}: give OWNER/NAME, for example octo-org/bike-agent")
    number = number if number is not None else found.number
    if number is None:
        raise ActionsEnvError(
            "no pull request: give --pr N (in GitHub Actions the number is read from the pull_request event in "
            "GITHUB_EVENT_PATH; this job's event has none)"
        )
    if number < 1:
        raise ActionsEnvError(f"--pr {number}: a pull request's number is 1 or more")
    return PullRequestTarget(repo, number, api_url or found.api_url, found.run_url)


def token_from_env(name: str, env: Mapping[str, str] | None = None) -> str:
    """The token in environment variable ``name``, registered with the redactor; GitHubTokenError when unset."""
    value = (os.environ if env is None else env).get(name, "").strip()
    if not value:
        raise GitHubTokenError(
            f"no token in {name}",
            hint=f"set {name} (in a workflow: `env: {name}: ${{{{ secrets.GITHUB_TOKEN }}}}`) or name another "
            "variable with --token-env",
        )
    register_secret(value, name)
    return value


__all__ = ["ActionsEnvError", "PullRequestTarget", "actions_target", "comment_target", "event_number", "token_from_env"]
