"""Usage budgets in pytest: the session's options as defaults, the marker for one test."""

from __future__ import annotations

import pytest

USER_TEST = """
import pytest
from copilot_eval import CopilotEval, ScriptedModel

TURN = {"text": "ok", "usage": {"input_tokens": 400, "output_tokens": 100}}
AGENT = CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [TURN]}]}))

async def test_the_session_default_applies(copilot_eval):
    result = await copilot_eval(AGENT, "hi")
    assert result.stop_reason == "usage_budget_exceeded", result.error
    assert result.error.startswith("usage budget exceeded: max_tokens=100, used 500 tokens")

async def test_an_agents_own_budget_wins_over_the_default(copilot_eval):
    result = await copilot_eval(AGENT.with_options(max_tokens=10_000), "hi")
    assert result.success, result.error

@pytest.mark.copilot_budget(max_tokens=499)
async def test_the_marker_sets_the_tests_budget(copilot_eval):
    result = await copilot_eval(AGENT.with_options(max_tokens=10_000), "hi")
    assert result.error.startswith("usage budget exceeded: max_tokens=499"), result.error
"""


@pytest.mark.runtime
def test_options_and_marker_set_the_budget_of_each_run(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_user=USER_TEST)
    outcome = pytester.runpytest_subprocess("--copilot-max-tokens=100", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=3)


BAD_MARKER = """
import pytest

@pytest.mark.copilot_budget(max_tokenz=10)
async def test_x(copilot_eval):
    from copilot_eval import CopilotEval
    await copilot_eval(CopilotEval(model="m"), "hi")
"""


def test_a_misspelt_marker_budget_and_a_bad_credit_limit_are_named(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_user=BAD_MARKER)
    outcome = pytester.runpytest("-p", "no:cacheprovider")
    outcome.stderr.fnmatch_lines(["*copilot_budget takes keyword arguments only*(got max_tokenz)*"])
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR, "refused before any test ran"
    (pytester.path / "test_user.py").unlink()
    pytester.makepyfile(test_other="def test_nothing():\n    pass\n")
    outcome = pytester.runpytest("--copilot-max-ai-credits=5", "-p", "no:cacheprovider")
    outcome.stderr.fnmatch_lines(
        ["*--copilot-max-ai-credits: the runtime's smallest session limit is 30 AI credits, got 5*"]
    )
