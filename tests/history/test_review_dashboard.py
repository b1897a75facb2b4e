"""The dashboard's review queue in a real headless Chromium: the same queue, a verdict posted and stored."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest

from copilot_eval.history import HistoryStore, resolve_history
from copilot_eval.history.human_verdicts import given_verdicts
from copilot_eval.history.review_queue import stored_folder
from copilot_eval.history.server import HistoryServer
from tests.history.people_fixtures import write_graded_run

pytestmark = [pytest.mark.slow]


@pytest.fixture
def served(tmp_path):
    folder = write_graded_run(
        tmp_path / "run",
        [["pass", "pass"], ["pass", "fail"], ["fail", "fail"]],
        methods=("General quality", "Text similarity"),
    )
    location = resolve_history(str(tmp_path / "h.db"))
    assert location is not None
    store = HistoryStore.open(location)
    _, run_id = stored_folder(store, folder)
    server = HistoryServer(store, port=0)
    server.serve_in_thread()
    try:
        yield server, store, run_id
    finally:
        server.shutdown()
        server.server_close()
        store.close()


def _wait(browser, expression: str) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if browser.evaluate(expression):
            return
        time.sleep(0.1)
    raise AssertionError(f"never true: {expression}")


def test_a_verdict_given_in_the_dashboard_is_stored_and_the_queue_moves_on(browser, served):
    server, store, run_id = served
    browser.open(f"{server.url}?series=0")
    assert browser.evaluate("document.querySelector('#review a').getAttribute('href')") == f"/runs/{run_id}/review"
    url = f"{server.url}runs/{run_id}/review"
    browser.open(url)
    log = browser.log()
    assert log.console_errors == [] and log.exceptions == [] and log.failed_requests == []
    items = browser.evaluate("[...document.querySelectorAll('.item')].map(e => e.id)")
    assert items == ["case-2.1-0", "case-1.1-0", "case-3.1-0"]  # the graders' disagreement first, as in the terminal
    assert "the graders disagree" in browser.evaluate("document.getElementById('case-2.1-0').innerText")
    browser.evaluate(
        "(() => { const f = document.querySelector('#case-2\\\\.1-0 form');"
        " f.querySelector('input[value=pass]').checked = true;"
        " f.querySelector('input[name=reviewer]').value = 'grace';"
        " f.querySelector('input[name=note]').value = 'right, worded otherwise';"
        " f.querySelector('button').click(); })()"
    )
    _wait(browser, "document.readyState === 'complete' && document.querySelectorAll('.item').length === 2")
    assert "changed 1 verdict" in browser.evaluate("document.getElementById('rescored').innerText")
    verdict = given_verdicts(store, run_id)[("2.1", 0)]
    assert (verdict.verdict, verdict.reviewer, verdict.note, verdict.source) == (
        "pass",
        "grace",
        "right, worded otherwise",
        "dashboard",
    )


def test_a_post_without_the_dashboards_token_is_refused(served):
    server, store, run_id = served
    data = b"case=1.1&repeat=0&verdict=fail&reviewer=mallory&token=guess"
    request = urllib.request.Request(f"{server.url}runs/{run_id}/review", data=data, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 403
    assert given_verdicts(store, run_id) == {}
