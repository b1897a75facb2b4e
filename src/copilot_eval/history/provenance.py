"""Which commit and branch a run tested, and the CI run that made it: from the CI's environment, else git.

A CI names the commit it checked out in its environment (GitHub Actions ``GITHUB_SHA``, GitLab
``CI_COMMIT_SHA`` ...); that is the truth even where the checkout is shallow or detached. Outside a
CI, ``git`` in the project folder answers. Whatever neither says stays ``None``. This is read when
a run is recorded, so it describes that run; an old run folder ingested later gets it only when
the caller asks (``history ingest --commit/--branch/--ci-url``).
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Provenance:
    """The commit and branch a run tested and the URL of the CI run; each ``None`` when unknown."""

    commit: str | None = None
    branch: str | None = None
    ci_run_url: str | None = None


def _get(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _github(env: Mapping[str, str]) -> Provenance:
    # On a pull request GITHUB_REF_NAME is "123/merge"; the branch people mean is GITHUB_HEAD_REF.
    branch = _get(env, "GITHUB_HEAD_REF") or _get(env, "GITHUB_REF_NAME")
    parts = [_get(env, name) for name in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID")]
    url = f"{parts[0]}/{parts[1]}/actions/runs/{parts[2]}" if all(parts) else None
    return Provenance(_get(env, "GITHUB_SHA"), branch, url)


def _gitlab(env: Mapping[str, str]) -> Provenance:
    branch = _get(env, "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME") or _get(env, "CI_COMMIT_REF_NAME")
    return Provenance(_get(env, "CI_COMMIT_SHA"), branch, _get(env, "CI_PIPELINE_URL") or _get(env, "CI_JOB_URL"))


def _azure(env: Mapping[str, str]) -> Provenance:
    branch = _get(env, "SYSTEM_PULLREQUEST_SOURCEBRANCH") or _get(env, "BUILD_SOURCEBRANCH")
    if branch:
        branch = branch.removeprefix("refs/heads/")
    collection, project, build = (
        _get(env, name) for name in ("SYSTEM_COLLECTIONURI", "SYSTEM_TEAMPROJECT", "BUILD_BUILDID")
    )
    url = (
        f"{collection.rstrip('/')}/{project}/_build/results?buildId={build}"
        if collection and project and build
        else None
    )
    return Provenance(_get(env, "BUILD_SOURCEVERSION"), branch, url)


def _circle(env: Mapping[str, str]) -> Provenance:
    return Provenance(_get(env, "CIRCLE_SHA1"), _get(env, "CIRCLE_BRANCH"), _get(env, "CIRCLE_BUILD_URL"))


def _jenkins(env: Mapping[str, str]) -> Provenance:
    branch = _get(env, "CHANGE_BRANCH") or _get(env, "BRANCH_NAME") or _get(env, "GIT_BRANCH")
    return Provenance(_get(env, "GIT_COMMIT"), branch, _get(env, "BUILD_URL"))


# (variable that says "this CI", reader): the first CI whose marker is set answers.
_CIS: tuple[tuple[str, Callable[[Mapping[str, str]], Provenance]], ...] = (
    ("GITHUB_ACTIONS", _github),
    ("GITLAB_CI", _gitlab),
    ("TF_BUILD", _azure),
    ("CIRCLECI", _circle),
    ("JENKINS_URL", _jenkins),
)


def ci_provenance(env: Mapping[str, str] | None = None) -> Provenance | None:
    """What the CI's environment names, or None outside a known CI."""
    env = os.environ if env is None else env
    for marker, reader in _CIS:
        if _get(env, marker):
            return reader(env)
    return None


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=folder, capture_output=True, text=True, timeout=5, stdin=subprocess.DEVNULL
        )
    except (OSError, subprocess.SubprocessError):
        return None
    value = done.stdout.strip()
    return value if done.returncode == 0 and value else None


def git_provenance(folder: Path) -> Provenance:
    """The commit and branch checked out in ``folder`` (a detached HEAD has no branch)."""
    branch = _git(folder, "rev-parse", "--abbrev-ref", "HEAD")
    return Provenance(_git(folder, "rev-parse", "HEAD"), None if branch == "HEAD" else branch)


def detect_provenance(folder: Path | None = None, *, env: Mapping[str, str] | None = None) -> Provenance:
    """The CI's commit, branch and run URL where it names them, filled in from git in ``folder`` otherwise."""
    ci = ci_provenance(env)
    if ci is not None and ci.commit and ci.branch:
        return ci
    local = git_provenance(folder or Path.cwd())
    if ci is None:
        return local
    return Provenance(ci.commit or local.commit, ci.branch or local.branch, ci.ci_run_url)


__all__ = ["Provenance", "ci_provenance", "detect_provenance", "git_provenance"]
