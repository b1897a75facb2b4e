"""`copilot-eval serve` is a local tool: a foreign Host, a cross-origin write and a run folder's own script get nothing."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from copilot_eval.history import HistoryStore, resolve_history
from copilot_eval.history.human_verdicts import given_verdicts
from copilot_eval.history.local_guard import LocalGuard
from copilot_eval.history.review_queue import stored_folder
from copilot_eval.history.server import HistoryServer
from tests.history.people_fixtures import write_graded_run

VERDICT = {"case": "1.1", "repeat": "0", "verdict": "fail", "reviewer": "mallory"}


@pytest.fixture
def served(tmp_path, request):
    folder = write_graded_run(tmp_path / "run", [["pass"], ["fail"]], methods=("General quality",))
    if (
        getattr(request, "param", None) == "report links out"
    ):  # an artifact whose report.html is a link to a private file
        (tmp_path / "private.txt").write_text("PRIVATE KEY")
        (folder / "report.html").symlink_to(tmp_path / "private.txt")
    location = resolve_history(str(tmp_path / "h.db"))
    assert location is not None
    store = HistoryStore.open(location)
    _, run_id = stored_folder(store, folder)
    server = HistoryServer(store, port=0)
    server.serve_in_thread()
    try:
        yield server, store, run_id, folder
    finally:
        server.shutdown()
        server.server_close()
        store.close()


def _token(page: str) -> str:
    found = re.search(r'name="token" value="([^"]+)"', page)
    assert found, "the review page carries no token"
    return found.group(1)


def test_a_request_addressed_to_another_host_is_refused_before_anything_is_read(served):
    server, store, run_id, _ = served
    port = server.server_address[1]
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for path in ("/", "/trends.json", f"/runs/{run_id}/report.html", f"/runs/{run_id}/review"):
            refused = client.get(path, headers={"Host": f"rebound.example:{port}"})
            assert refused.status_code == 421, path
            assert f"only http://127.0.0.1:{port}/" in refused.text and "rebound.example" in refused.text
            assert "shop" not in refused.text and "token" not in refused.text
        assert client.get("/", headers={"Host": f"127.0.0.1:{port + 1}"}).status_code == 421  # another port
        posted = client.post(f"/runs/{run_id}/review", data=VERDICT, headers={"Host": "rebound.example"})
        assert posted.status_code == 421
        assert client.get("/", headers={"Host": f"localhost:{port}"}).status_code == 200
        assert client.get("/").status_code == 200
    assert given_verdicts(store, run_id) == {}


def test_a_write_from_another_origin_is_refused_even_with_a_valid_token(served):
    server, store, run_id, _ = served
    with httpx.Client(base_url=server.url, timeout=30) as client:
        token = _token(client.get(f"/runs/{run_id}/review").text)
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.server_address[1] + 1}"):
            refused = client.post(
                f"/runs/{run_id}/review", data={**VERDICT, "token": token}, headers={"Origin": origin}
            )
            assert refused.status_code == 403 and "not stored" in refused.text and origin in refused.text
        assert given_verdicts(store, run_id) == {}
        kept = client.post(
            f"/runs/{run_id}/review", data={**VERDICT, "token": token}, headers={"Origin": server.url[:-1]}
        )
        assert kept.status_code == 303
    assert given_verdicts(store, run_id)[("1.1", 0)].reviewer == "mallory"


def test_the_form_token_works_only_in_the_browser_session_it_was_served_to(served):
    server, store, run_id, _ = served
    with httpx.Client(base_url=server.url, timeout=30) as first, httpx.Client(base_url=server.url, timeout=30) as other:
        page = first.get(f"/runs/{run_id}/review")
        cookie = page.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
        token = _token(page.text)
        other.get(f"/runs/{run_id}/review")  # a session of its own, with its own token
        stolen = other.post(f"/runs/{run_id}/review", data={**VERDICT, "token": token})
        assert stolen.status_code == 403 and "this browser session" in stolen.text
        bare = httpx.post(f"{server.url}runs/{run_id}/review", data={**VERDICT, "token": token}, timeout=30)
        assert bare.status_code == 403  # the token alone, without the session's cookie
        assert given_verdicts(store, run_id) == {}
        assert _token(first.get(f"/runs/{run_id}/review").text) == token  # the same session keeps its token
        assert first.post(f"/runs/{run_id}/review", data={**VERDICT, "token": token}).status_code == 303


def test_a_run_folders_files_are_sandboxed_and_the_dashboards_pages_cannot_be_framed(served):
    server, _, run_id, _ = served
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for path in (f"/runs/{run_id}/report.html", f"/runs/{run_id}/run.json"):
            response = client.get(path)
            assert response.status_code == 200
            assert response.headers["content-security-policy"] == "sandbox allow-scripts"
            assert response.headers["x-content-type-options"] == "nosniff"
        for path in ("/", f"/runs/{run_id}/review"):
            own = client.get(path)
            assert own.headers["content-security-policy"] == "frame-ancestors 'none'"
            assert own.headers["x-frame-options"] == "DENY" and own.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("served", ["report links out"], indirect=True)
def test_a_report_html_that_links_out_of_its_folder_is_not_served(served):
    server, _, run_id, _ = served
    with httpx.Client(base_url=server.url, timeout=30) as client:
        page = client.get(f"/runs/{run_id}/report.html")
        assert "PRIVATE KEY" not in page.text
        assert client.get(f"/runs/{run_id}/../private.txt").status_code in (403, 404)


def test_the_guard_refuses_what_it_does_not_know():
    guard = LocalGuard(8737)
    assert guard.host_refusal(None) is not None and guard.host_refusal("LOCALHOST:8737") is None
    assert guard.origin_refusal(None) is None and guard.origin_refusal("http://127.0.0.1:8737") is None
    assert guard.session_of("copilot_eval_session_8737=made-up") is None
    assert guard.session_of('bad"cookie') is None
    session, cookie = guard.new_session()
    assert guard.session_of(cookie.split(";")[0]) == session
    assert guard.token_fits(session, "1", guard.form_token(session, "1"))
    assert not guard.token_fits(session, "2", guard.form_token(session, "1"))  # another run's form
    assert not guard.token_fits(None, "1", guard.form_token(session, "1"))


_HOSTILE = """<!DOCTYPE html><html><head><title>report</title></head><body><p>an ingested CI artifact</p>
<script>
(async () => {
  const out = [];
  try { const r = await fetch('/runs/RUN/review'); out.push('read ' + (await r.text()).length); }
  catch (e) { out.push('read blocked'); }
  try { out.push('cookie ' + JSON.stringify(document.cookie)); } catch (e) { out.push('cookie blocked'); }
  try {
    await fetch('/runs/RUN/review', {method: 'POST', mode: 'no-cors', credentials: 'include',
      body: new URLSearchParams({case: '1.1', repeat: '0', verdict: 'fail', reviewer: 'mallory', token: 'TOKEN'})});
    out.push('post sent');
  } catch (e) { out.push('post failed'); }
  document.body.dataset.out = out.join('|');
  try { const f = document.createElement('form'); f.method = 'post'; f.action = '/runs/RUN/review';
    document.body.appendChild(f); f.submit(); } catch (e) {}
})();
</script></body></html>
"""


@pytest.mark.slow
def test_an_ingested_folders_html_can_neither_read_nor_post_to_the_dashboard(browser, served):
    server, store, run_id, folder = served
    browser.open(f"{server.url}runs/{run_id}/review")  # the person's own session: a cookie and a real token
    token = browser.evaluate("document.querySelector('input[name=token]').value")
    # Even handed the real token (as if it had leaked), the folder's own page gets nowhere.
    (folder / "report.html").write_text(_HOSTILE.replace("RUN", str(run_id)).replace("TOKEN", token))
    browser.open(f"{server.url}runs/{run_id}/report.html")
    deadline = time.monotonic() + 30
    while not (out := browser.evaluate("document.body && document.body.dataset.out")):
        assert time.monotonic() < deadline, "the folder's script never finished (or its form navigated away)"
        time.sleep(0.1)
    assert "read blocked" in out  # an opaque origin: the dashboard's answer cannot be read
    assert "cookie blocked" in out or 'cookie ""' in out
    time.sleep(0.5)  # let a form submission, were it allowed, navigate away
    assert browser.evaluate("location.pathname") == f"/runs/{run_id}/report.html"  # the form was not submitted
    assert given_verdicts(store, run_id) == {}  # the no-cors POST was answered 403 (Origin: null)
