"""`pytest --copilot-history`: a session's test-set items and agent tests become runs, end to end in a subprocess."""

from __future__ import annotations

import pytest

from copilot_eval.history import HistoryStore, list_runs, resolve_history
from copilot_eval.history.queries import run_results
from tests.history.history_fixtures import GOOD_AGENT, HTTP500_AGENT, THREE_CASES

TESTS = f'''
from copilot_eval import CopilotEval

GOOD = CopilotEval.from_file(r"{GOOD_AGENT}")
BROKEN = CopilotEval.from_file(r"{HTTP500_AGENT}")


async def test_hours(copilot_eval):
    result = await copilot_eval(GOOD, "What are the opening hours of Spoke & Pedal Rentals?")
    assert "8:00" in result.final_response


async def test_claims_midnight(copilot_eval):
    result = await copilot_eval(GOOD, "What are the opening hours of Spoke & Pedal Rentals?")
    assert "midnight" in result.final_response


async def test_outage(copilot_eval):
    result = await copilot_eval(BROKEN, "What are the opening hours?")
    assert result.success, result.error


def test_no_agent_here():
    assert 1 + 1 == 2
'''


@pytest.mark.runtime
def test_a_session_records_each_test_set_and_its_agent_tests(pytester: pytest.Pytester, tmp_path):
    pytester.makefile(".csv", single=THREE_CASES)
    pytester.makepyfile(test_agents=TESTS)
    url = f"sqlite:///{tmp_path / 'history.db'}"
    outcome = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", f"--copilot-agent={GOOD_AGENT}", "--copilot-history", f"--copilot-history-url={url}"
    )
    outcome.assert_outcomes(passed=4, failed=3)
    outcome.stdout.fnmatch_lines([f"copilot-eval history: recorded as run 1, 2 in {tmp_path / 'history.db'}"])

    location = resolve_history(url)
    with HistoryStore.open(location, create=False) as store:
        runs = {run["test_set_name"]: run for run in list_runs(store)}
        assert set(runs) == {"single", f"pytest {pytester.path.name}"}
        items = runs["single"]
        assert (items["agent_name"], items["source"], items["passed"], items["failed"]) == (
            "spoke-and-pedal-good",
            "pytest",
            2,
            1,
        )
        tests = runs[f"pytest {pytester.path.name}"]
        assert (tests["passed"], tests["failed"], tests["errored"]) == (1, 1, 1)
        by_key = {row["case_key"]: row for row in run_results(store, tests["id"])}
    assert set(by_key) == {
        "test_agents.py::test_hours",
        "test_agents.py::test_claims_midnight",
        "test_agents.py::test_outage",
    }
    assert by_key["test_agents.py::test_hours"]["status"] == "pass"
    assert by_key["test_agents.py::test_hours"]["session_tokens"] > 0
    assert by_key["test_agents.py::test_claims_midnight"]["status"] == "fail"
    outage = by_key["test_agents.py::test_outage"]
    assert outage["status"] == "error"  # the session did not execute: not the agent's failure
    assert outage["reason"].startswith("a session did not execute:")


def test_without_the_option_a_session_records_nothing(pytester: pytest.Pytester, tmp_path):
    pytester.makepyfile(test_plain="def test_one():\n    assert True\n")
    url = f"sqlite:///{tmp_path / 'history.db'}"
    outcome = pytester.runpytest_inprocess("-p", "no:cacheprovider", f"--copilot-history-url={url}")
    outcome.assert_outcomes(passed=1)
    assert "copilot-eval history" not in outcome.stdout.str()
    assert not (tmp_path / "history.db").exists()
