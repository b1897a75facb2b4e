"""`pytest --copilot-report report.html`: one page for the whole session, agent runs and test-set items included."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOL_AGENT = Path(__file__).resolve().parent / "data" / "receipt-agent.yaml"  # built-in tool, no MCP server
GOOD_AGENT = ROOT / "examples" / "evaluation" / "agent-good.yaml"

TESTS = f"""
import pytest
from copilot_eval import CopilotEval

AGENT = CopilotEval.from_file({str(TOOL_AGENT)!r})


async def test_receipt(copilot_eval):
    result = await copilot_eval(AGENT, "Write a receipt for order 1042.")
    assert result.success, result.error


async def test_wrong_expectation(copilot_eval):
    result = await copilot_eval(AGENT, "What can you do?")
    assert "tandem" in result.final_response, "the agent never mentions tandems"


@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")


def test_broken_setup(broken):
    pass


def test_skipped():
    pytest.skip("not today")
"""

SINGLE_TURN = """question,expectedResponse
Do I need to leave a deposit?,"Yes. We take a 150 euro deposit on a credit card for each bike, or 300 euros for an e-bike. It is released when the bike comes back undamaged."
Do you rent tandems?,"Yes, tandems cost 40 euros a day."
"""

pytestmark = [pytest.mark.runtime, pytest.mark.slow]


@pytest.fixture(scope="module")
def session_report(tmp_path_factory) -> tuple[Path, str]:
    pytester_dir = tmp_path_factory.mktemp("session")
    (pytester_dir / "test_agent.py").write_text(TESTS, encoding="utf-8")
    (pytester_dir / "single.csv").write_text(SINGLE_TURN, encoding="utf-8")
    (pytester_dir / "pytest.ini").write_text("[pytest]\nasyncio_mode = auto\n", encoding="utf-8")
    import subprocess
    import sys

    report = pytester_dir / "out" / "report.html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            f"--rootdir={pytester_dir}",
            str(pytester_dir),
            f"--copilot-agent={GOOD_AGENT}",
            f"--copilot-report={report}",
            f"--copilot-evidence-dir={pytester_dir / 'evidence'}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=pytester_dir,
    )
    assert f"copilot-eval report: {report}" in done.stdout, done.stdout + done.stderr
    return report, done.stdout


def test_every_test_has_its_outcome_and_drill_down(session_report):
    report, _ = session_report
    text = unescape(report.read_text(encoding="utf-8"))
    for nodeid, outcome in (
        ("test_agent.py::test_receipt", "pass"),
        ("test_agent.py::test_wrong_expectation", "fail"),
        ("test_agent.py::test_broken_setup", "error"),
        ("test_agent.py::test_skipped", "skipped"),
        ("single.csv::case-1", "pass"),
        ("single.csv::case-2", "fail"),
    ):
        assert f'<span class="badge {outcome}">{outcome}</span> <b>{nodeid}</b>' in text, nodeid
    assert "the agent never mentions tandems" in text and "fixture broke" in text  # failure texts
    assert "<h3>Skipped</h3><pre>Skipped: not today</pre>" in text
    assert "Do you rent tandems?" in text and "Yes, tandems cost 40 euros a day." in text  # a test-set case


def test_agent_runs_carry_their_evidence(session_report):
    report, _ = session_report
    html = report.read_text(encoding="utf-8")
    text = unescape(html)
    assert "Write a receipt for order 1042." in text and "Created file" in text and "Total: 27.50 EUR" in text
    assert 'href="../evidence/test_agent.py_test_receipt.json"' in html
    assert (report.parent / "../evidence/test_agent.py_test_receipt.json").is_file()
    assert "<svg" in html  # duration and token charts


def test_session_report_in_chromium(session_report, browser, tmp_path):
    from tests.reports.headless_chromium import file_url, png_size

    report, _ = session_report
    browser.open(file_url(report))
    log = browser.log()
    assert log.console_errors == [] and log.exceptions == [] and log.requests == [file_url(report)]
    anchor = "#test-test_agent-py-test_receipt"
    browser.evaluate(f"document.querySelector('{anchor} > summary').click()")
    assert browser.evaluate(f"document.querySelector('{anchor}').open") is True
    assert "Created file" in browser.evaluate(f"document.querySelector('{anchor}').innerText")
    png = browser.screenshot()
    assert png_size(png)[0] >= 800 and len(png) > 20_000
