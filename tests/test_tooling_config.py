"""The pre-commit hooks check with the same tool versions as CI: the ones pinned in the dev extra."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]


def _dev_pins() -> dict[str, str]:
    dev = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    return dict(spec.split("==", 1) for spec in dev if "==" in spec)


def _hooks() -> dict[str, dict]:
    config = yaml.safe_load((REPO / ".pre-commit-config.yaml").read_text())
    return {hook["id"]: hook for repo in config["repos"] for hook in repo["hooks"]}


def test_pre_commit_runs_ruff_at_the_version_pinned_for_ci():
    pins, hooks = _dev_pins(), _hooks()
    for hook_id in ("ruff-check", "ruff-format"):
        assert hooks[hook_id]["additional_dependencies"] == [f"ruff=={pins['ruff']}"], hook_id


def test_pre_commit_runs_the_pinned_mypy_of_the_project_environment():
    hooks = _hooks()
    assert "mypy" in _dev_pins(), "mypy must be pinned exactly in the dev extra"
    assert (hooks["mypy"]["language"], hooks["mypy"]["entry"]) == ("system", "python -m mypy")
    assert hooks["mypy"]["pass_filenames"] is False, "mypy checks the package as configured, not single files"
