"""``@pytest.mark.copilot_repeat``: K tries, one verdict, errors apart, dependence said, replay refused."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.runtime

USER_TEST = """
import itertools

import pytest

from copilot_eval import CopilotEval, ScriptedModel

scripted_tries = itertools.count()
half_tries = itertools.count()
flaky_start = itertools.count()


@pytest.mark.copilot_repeat(3, min_pass_rate=0.6)
async def test_scripted_agent_mostly_passes(copilot_eval):
    try_number = next(scripted_tries)
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "ok"}]}]})
    result = await copilot_eval(CopilotEval(model=model), "hi")
    assert result.final_response == "ok"
    assert try_number != 1, "the second try fails"


@pytest.mark.copilot_repeat(4, min_pass_rate=0.8)
def test_half_of_the_tries_fail():
    assert next(half_tries) % 2 == 0, "an odd try"


@pytest.mark.copilot_repeat(3)
def test_an_error_is_not_a_try():
    if next(flaky_start) == 0:
        raise ConnectionError("the platform broke")


@pytest.mark.copilot_repeat(2)
def test_only_errors_is_an_error():
    raise ConnectionError("always down")
"""


def test_each_marked_test_gets_one_verdict_over_its_tries(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_repeats=USER_TEST)
    junit = pytester.path / "junit.xml"
    outcome = pytester.runpytest_subprocess("-p", "no:cacheprovider", f"--junitxml={junit}", "-rA")
    outcome.assert_outcomes(passed=2, failed=2)
    text = outcome.stdout.str()
    assert "copilot_repeat: 2/4 passed (50%, 95% interval 15-85%); minimum pass rate 80%" in text, (
        "the failure names the rate, its interval and the threshold"
    )
    assert "first failed try (2):" in text and "an odd try" in text
    assert "ConnectionError: always down" in text  # no graded try: the test errors as its tries did
    assert "DependentRepeatsWarning" in text and "the agent's answers come from a ScriptedModel" in text
    xml = junit.read_text()
    assert 'name="copilot_repeat" value="copilot_repeat: 2/3 passed (67%, 95% interval 21-94%)' in xml
    assert 'value="copilot_repeat: 2/2 passed (100%, 95% interval 34-100%), 1 not graded' in xml


def test_replayed_repeats_are_refused_unless_asked_for(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(
        test_replayed="""
import pytest

@pytest.mark.copilot_repeat(3)
def test_repeated():
    pass

@pytest.mark.copilot_repeat(1)
def test_once():
    pass
"""
    )
    cassettes = pytester.path / "cassettes"
    cassettes.mkdir()
    # No test here reaches the runtime: both sessions run in this process (a subprocess costs seconds).
    refused = pytester.runpytest_inprocess("-p", "no:cacheprovider", f"--copilot-replay={cassettes}")
    refused.assert_outcomes(passed=1, failed=1)
    refused.stdout.fnmatch_lines(["*--repeat 3 with replayed answers*--copilot-allow-replayed-repeats*"])
    allowed = pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", f"--copilot-replay={cassettes}", "--copilot-allow-replayed-repeats"
    )
    allowed.assert_outcomes(passed=2)


def test_a_bad_marker_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_bad="""
import pytest

@pytest.mark.copilot_repeat(0)
def test_never():
    pass
"""
    )
    outcome = pytester.runpytest_inprocess("-p", "no:cacheprovider")  # refused before anything runs
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    outcome.stderr.fnmatch_lines(["*copilot_repeat takes k (a whole number, 1 or more)*"])
