"""`copilot-eval serve` in a real headless Chromium: offline, no console errors, chart and grid drawn, a click opens the run."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.reports.html_run import write_run_report
from tests.history.history_fixtures import ROWS, write_series
from tests.reports.headless_chromium import png_size

pytestmark = [pytest.mark.slow]


@pytest.fixture
def dashboard(tmp_path):
    """`copilot-eval serve --port 0` over five ingested runs (each with its report.html); stopped by its PID."""
    folders = write_series(tmp_path / "runs", ROWS, limitation_runs=[2])
    for folder in folders:
        write_run_report(folder)
    url = f"sqlite:///{tmp_path / 'history.db'}"
    assert CliRunner().invoke(app, ["history", "ingest", str(tmp_path / "runs"), "--history", url]).exit_code == 0
    server = subprocess.Popen(
        [sys.executable, "-m", "copilot_eval.cli.app", "serve", "--port", "0", "--history", url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert line.startswith("history dashboard: http://127.0.0.1:"), line + (
            server.stderr.read() if server.poll() is not None and server.stderr else ""
        )
        yield line.split()[2]
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_for_url(browser, ending: str) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        href = browser.evaluate("location.href")
        if ending in href and browser.evaluate("document.readyState") == "complete":
            return href
        time.sleep(0.1)
    raise AssertionError(f"the page did not reach {ending!r}: {browser.evaluate('location.href')}")


def test_the_dashboard_loads_offline_draws_chart_and_grid_and_opens_a_run(browser, dashboard, tmp_path):
    browser.open(dashboard)
    log = browser.log()
    assert log.console_errors == [] and log.exceptions == []
    assert log.requests == [dashboard] and log.failed_requests == []  # the page fetched nothing but itself

    # The chart: a point per run (all five had graded cases), the interval band, the limitation episode.
    assert browser.evaluate("document.querySelectorAll('#pass-rate-chart circle.point').length") == 5
    assert browser.evaluate("document.querySelectorAll('#pass-rate-chart rect.episode').length") == 1
    assert browser.evaluate("document.querySelector('#pass-rate-chart polyline.rate').getBBox().width") > 100

    # The grid: five cases by five runs, each status its own colour, the regressed and flaky cases first.
    assert browser.evaluate("document.querySelectorAll('#case-grid td.cell').length") == 25
    colours = browser.evaluate(
        "Object.fromEntries(['s-pass','s-fail','s-error'].map(c => "
        "[c, getComputedStyle(document.querySelector('#case-grid td.' + c)).backgroundColor]))"
    )
    assert len(set(colours.values())) == 3, colours
    rows = browser.evaluate("[...document.querySelectorAll('#case-grid tbody tr')].map(r => r.dataset.case)")
    assert rows[:2] == ["3.1", "2.1"]  # regressed most recently first (run 4, then run 2), steady cases last
    assert "case 3: failing since run 4" in browser.evaluate("document.getElementById('regressed').innerText")
    png = browser.screenshot()
    (tmp_path / "dashboard.png").write_bytes(png)
    assert png_size(png)[0] >= 800 and len(png) > 20_000  # a rendered page with a chart and a grid, not a blank

    # A click on a failed cell opens that run's report at the case.
    browser.evaluate("document.querySelector('#case-grid tr[data-case=\"4.1\"] td.cell.s-fail').click()")
    href = _wait_for_url(browser, "/report.html#case-4-r0")
    assert "/runs/1/report.html" in href
    assert browser.evaluate("document.title") == "shop: evaluation run"
    assert browser.evaluate("document.getElementById('case-4-r0') !== null") is True
    assert browser.log().console_errors == []
