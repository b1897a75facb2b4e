"""What the dev extra brings into a contributor's environment: nothing that changes their other pytest sessions."""

from __future__ import annotations

import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EXTRAS = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]


def _names(specs: list[str]) -> set[str]:
    return {spec.split("[")[0].split("=")[0].split(">")[0].split("<")[0].strip().lower() for spec in specs}


def test_phoenix_and_its_pytest_plugin_are_not_in_the_dev_extra():
    # Phoenix registers a pytest plugin (a one-test suite 4 s -> 19 s, two warnings) in every session.
    assert "arize-phoenix" not in _names(EXTRAS["dev"])
    assert "arize-phoenix" in _names(EXTRAS["phoenix"])


def test_ci_installs_the_receiver_for_the_projects_own_suite():
    assert '".[dev,phoenix]"' in (REPO / ".ci" / "run").read_text(encoding="utf-8")
