"""The `runtime` marker is enforced: a test that drives the runtime without it fails and says how to fix it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.runtime

REPO = Path(__file__).resolve().parents[1]

TESTS = '''
import subprocess, sys
import pytest
from copilot_eval import CopilotEval, ScriptedModel, run_copilot_sync

AGENT = CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "hi"}]}]}), timeout_s=30)
SCRIPT = """
from copilot_eval import CopilotEval, ScriptedModel, run_copilot_sync
agent = CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "hi"}]}]}), timeout_s=30)
assert run_copilot_sync(agent, "hello").success
"""

def test_a_unmarked_first_run():
    assert run_copilot_sync(AGENT, "hello").success

@pytest.mark.runtime
def test_b_marked():
    assert run_copilot_sync(AGENT, "hello").success

def test_c_unmarked_reusing_the_pool():
    assert run_copilot_sync(AGENT, "hello").success

def test_d_unmarked_in_a_child_process():
    subprocess.run([sys.executable, "-c", SCRIPT], check=True, timeout=60)

def test_e_no_runtime_at_all():
    assert AGENT.timeout_s == 30
'''

MODULE_MARKED = """
import pytest
from copilot_eval import CopilotEval, ScriptedModel, run_copilot_sync

pytestmark = pytest.mark.runtime

def test_module_marked():
    agent = CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "hi"}]}]}), timeout_s=30)
    assert run_copilot_sync(agent, "hello").success
"""


def test_unmarked_tests_that_reach_the_runtime_fail_and_name_the_fix(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(REPO))  # the guard is the suite's own plugin, tests.runtime_guard
    pytester.makepyfile(test_guarded=TESTS, test_module_marked=MODULE_MARKED)
    # -rN: no short summary, whose lines repeat each message only when the terminal is wide enough,
    # so the count below is of the failure sections alone, on any terminal
    outcome = pytester.runpytest_subprocess("-p", "tests.runtime_guard", "-p", "no:cacheprovider", "-rN")
    outcome.assert_outcomes(passed=3, failed=3)
    text = outcome.stdout.str()
    assert "test_a_unmarked_first_run has no `runtime` marker but" in text
    assert "test_c_unmarked_reusing_the_pool has no `runtime` marker but leased a runtime from a RuntimePool" in text
    assert "test_d_unmarked_in_a_child_process has no `runtime` marker but started a Copilot runtime process" in text
    assert text.count("add @pytest.mark.runtime to the test") == 3
