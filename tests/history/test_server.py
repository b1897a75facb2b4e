"""The dashboard server's routes over real HTTP on loopback: reports, evidence, the JSON, and what it refuses."""

from __future__ import annotations

import shutil

import httpx
import pytest

from copilot_eval.history import HistoryStore, resolve_history
from copilot_eval.history.ingest import ingest_folders
from copilot_eval.history.provenance import Provenance
from copilot_eval.history.server import HistoryServer
from tests.history.history_fixtures import write_series


@pytest.fixture
def served(tmp_path):
    """A HistoryServer on a free port over three ingested runs; the second one's folder is moved away afterwards."""
    folders = write_series(tmp_path / "runs", [["pass", "fail"], ["fail", "fail"], ["pass", "error"]])
    location = resolve_history(str(tmp_path / "history.db"))
    store = HistoryStore.open(location)
    ingest_folders(store, folders, provenance=Provenance(None, None, "https://ci.example.invalid/runs/2"))
    shutil.rmtree(folders[1])  # a team database: that run's folder is on another machine
    server = HistoryServer(store, port=0)
    server.serve_in_thread()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            yield client, folders
    finally:
        server.shutdown()
        server.server_close()
        store.close()


def test_a_run_folder_without_report_html_gets_one_written_on_the_fly(served):
    client, _ = served
    page = client.get("/runs/1/report.html")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "shop: evaluation run" in page.text and 'id="case-2-r0"' in page.text
    evidence = client.get("/runs/1/evidence/case1-r0.json")
    assert evidence.status_code == 200 and evidence.json()["model_used"] == "scripted-history-model"


def test_nothing_outside_a_run_folder_is_served(served):
    client, _ = served
    assert client.get("/runs/1/../../history.db").status_code in (403, 404)
    assert client.get("/runs/1/%2e%2e/%2e%2e/history.db").status_code == 403
    assert client.get("/runs/99/report.html").status_code == 404
    assert client.get("/elsewhere").status_code == 404


def test_a_run_whose_folder_is_not_here_says_where_it_was_and_links_the_ci_run(served):
    client, folders = served
    page = client.get("/runs/2/report.html")
    assert page.status_code == 404
    assert str(folders[1]) in page.text and 'href="https://ci.example.invalid/runs/2"' in page.text
    dashboard = client.get("/").text
    assert 'href="https://ci.example.invalid/runs/2"' in dashboard  # the grid links that run to its CI run


def test_the_trends_json_is_the_documented_form(served):
    client, _ = served
    document = client.get("/trends.json").json()
    assert document["schemaVersion"] == 1 and document["window"] == 50
    [series] = document["series"]
    assert [run["passRate"] for run in series["runs"]] == [50.0, 0.0, 100.0]
    assert [case["key"] for case in series["cases"]] == ["1.1", "2.1"]
