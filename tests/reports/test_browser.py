"""The reports in a real headless Chromium: offline, no console errors, drill-downs open, screenshots render."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.reports.html_run import write_run_report
from tests.reports.headless_chromium import Browser, file_url, png_size
from tests.reports.report_fixtures import build_run_folder

pytestmark = [pytest.mark.slow]


def _load_offline(browser: Browser, page: Path) -> None:
    browser.open(file_url(page))
    log = browser.log()
    assert log.console_errors == [] and log.exceptions == []
    # The page fetched nothing but itself: no CDN, no font, no image, nothing failed to load.
    assert log.requests == [file_url(page)] and log.failed_requests == []


def _open_first_drill_down(browser: Browser, selector: str) -> None:
    assert browser.evaluate(f"document.querySelector('{selector}').open") is False
    browser.evaluate(f"document.querySelector('{selector} > summary').click()")
    assert browser.evaluate(f"document.querySelector('{selector}').open") is True
    # Its content is now rendered (it has a size), not only present in the markup.
    assert browser.evaluate(f"document.querySelector('{selector} .body').getBoundingClientRect().height") > 50


def _screenshot_is_a_page(browser: Browser, path: Path) -> None:
    png = browser.screenshot()
    path.write_bytes(png)
    width, height = png_size(png)
    assert width >= 800 and height >= 600
    assert len(png) > 20_000  # a rendered page with text and charts, not a blank image


@pytest.mark.runtime
def test_real_run_report_in_chromium(browser, real_runs, tmp_path):
    page = real_runs.tools / "report.html"
    _load_offline(browser, page)
    assert browser.evaluate("document.querySelectorAll('details.case').length") == 2
    assert browser.evaluate("document.querySelectorAll('svg rect').length") >= 2  # duration and token bars drawn
    _open_first_drill_down(browser, "#case-1-r0")
    text = browser.evaluate("document.querySelector('#case-1-r0').innerText")
    assert "Created file" in text and "27.50 EUR" in text
    browser.evaluate("document.getElementById('open-all').click()")
    assert browser.evaluate("[...document.querySelectorAll('details.case')].every(d => d.open)") is True
    _screenshot_is_a_page(browser, tmp_path / "report.png")


@pytest.mark.runtime
def test_outage_report_and_comparison_in_chromium(browser, real_runs, tmp_path):
    _load_offline(browser, real_runs.outage / "report.html")
    assert browser.evaluate("document.getElementById('limitation').innerText").startswith(
        "Suspected runtime limitation"
    )
    _screenshot_is_a_page(browser, tmp_path / "outage.png")
    _load_offline(browser, real_runs.outage / "comparison.html")
    assert "regressed" in browser.evaluate("document.body.innerText")


def test_varied_report_in_chromium(browser, tmp_path):
    build_run_folder(tmp_path / "run")
    page = write_run_report(tmp_path / "run")
    _load_offline(browser, page)
    assert browser.evaluate("document.title") == "shop: evaluation run"  # the agent's <script> text did not run
    _open_first_drill_down(browser, "#case-4-r0")
    assert "Rental terms" in browser.evaluate("document.querySelector('#case-4-r0').innerText")
    _screenshot_is_a_page(browser, tmp_path / "varied.png")
