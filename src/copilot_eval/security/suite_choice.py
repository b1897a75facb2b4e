"""Which suite a name means: a built-in one, a YAML file, or one of AgentDojo's (``agentdojo:SUITE[@VERSION]``)."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.security.dojo_suite import AGENTDOJO_VERSION, AgentDojoSuite
from copilot_eval.security.playable import PlayableSuite
from copilot_eval.security.suite import InjectionSuite
from copilot_eval.security.suite_file import SuiteError, load_suite

__all__ = ["AGENTDOJO_PREFIX", "open_suite"]

AGENTDOJO_PREFIX = "agentdojo:"


def open_suite(name: str | Path) -> InjectionSuite | PlayableSuite:
    """The suite ``name`` means; SuiteError names what is wrong (a missing ``agentdojo`` package included)."""
    if isinstance(name, str) and name.startswith(AGENTDOJO_PREFIX):
        suite, _, version = name.removeprefix(AGENTDOJO_PREFIX).partition("@")
        try:
            return AgentDojoSuite(suite, version=version or AGENTDOJO_VERSION)
        except (ImportError, KeyError, ValueError) as problem:
            known = "workspace, travel, banking, slack"
            raise SuiteError(name, [f"{problem} (AgentDojo's suites: {known})"]) from None
    return load_suite(name)
