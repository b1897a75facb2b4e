"""The plugin costs a pytest session that never runs an agent next to nothing: it loads no Copilot SDK."""

from __future__ import annotations

import pytest

CHECK = """
import sys

def pytest_unconfigure(config):
    with open("loaded.txt", "w") as out:
        out.write(",".join(name for name in ("copilot", "copilot_eval.runtime.process.pool") if name in sys.modules))
"""


def test_a_session_without_an_agent_never_imports_the_sdk(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CHECK)
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert (pytester.path / "loaded.txt").read_text() == ""
