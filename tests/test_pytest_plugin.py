"""The pytest plugin end to end: a user's test file, the fixture, the options, the evidence files."""

from __future__ import annotations

import json

import pytest

USER_TEST = """
from copilot_eval import CopilotEval, ScriptedModel

async def test_agent(copilot_eval):
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "hi from the script"}]}]})
    result = await copilot_eval(CopilotEval(name="greeter", model=model), "say hi")
    assert result.success, result.error
    assert result.final_response == "hi from the script"

async def test_failing_agent(copilot_eval):
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "wrong answer"}]}]})
    result = await copilot_eval(CopilotEval(model=model), "say hi")
    assert result.final_response == "right answer"
"""


@pytest.mark.runtime
def test_fixture_runs_agents_and_writes_evidence(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_user=USER_TEST)
    evidence = pytester.path / "evidence"
    outcome = pytester.runpytest_subprocess(f"--copilot-evidence-dir={evidence}", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1, failed=1)
    files = sorted(p.name for p in evidence.glob("*.json"))
    assert len(files) == 2 and all(name.startswith("test_user.py") for name in files)
    saved = json.loads((evidence / next(f for f in files if "test_agent" in f)).read_text())
    assert saved["success"] is True and saved["agent_name"] == "greeter"
    assert saved["derived"]["final_response"] == "hi from the script"


def test_an_agent_without_a_model_names_the_option(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(
        test_nomodel="""
from copilot_eval import CopilotEval

async def test_no_model(copilot_eval):
    await copilot_eval(CopilotEval(), "hello")
"""
    )
    outcome = pytester.runpytest_inprocess("-p", "no:cacheprovider")  # it fails before any runtime starts
    outcome.assert_outcomes(failed=1)
    outcome.stdout.fnmatch_lines(["*model: no model given*--copilot-model*"])


@pytest.mark.runtime
def test_the_readme_example_runs_in_a_bare_folder(pytester: pytest.Pytester) -> None:
    # No ini file, no conftest, no asyncio_mode: pytest-asyncio's strict default applies.
    pytester.makepyfile(
        test_bare=USER_TEST
        + """

async def test_ab(ab_run):
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "same"}]}]})
    outcome = await ab_run("say hi", CopilotEval(model=model), CopilotEval(model=model))
    assert len(outcome.results) == 2
"""
    )
    outcome = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=2, failed=1)
