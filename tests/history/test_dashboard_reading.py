"""The dashboard reads at a glance: dates on its time axis, a legend for its lines, each case's pass rate in the
current segment, and the other series folded into one line."""

from __future__ import annotations

import json
import re
from pathlib import Path

from copilot_eval.history import HistoryStore, load_series, resolve_history, series_trends
from copilot_eval.history.dashboard import dashboard_html
from copilot_eval.history.ingest import ingest_folders
from tests.history.history_fixtures import write_series


def _graders(folder: Path, grader: str) -> None:
    path = folder / "run.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["fingerprints"] = {"testSet": "sha256:set", "agent": "sha256:a", "graders": grader}
    path.write_text(json.dumps(data), encoding="utf-8")


def test_the_dashboard_dates_its_runs_explains_its_lines_and_rates_the_current_segment(tmp_path):
    # Case 1 passed twice under the old graders, then failed twice under the new ones.
    folders = write_series(tmp_path / "runs", [["pass"], ["pass"], ["fail"], ["fail"]])
    for folder, grader in zip(folders, ["sha256:old", "sha256:old", "sha256:new", "sha256:new"], strict=True):
        _graders(folder, grader)
    location = resolve_history(str(tmp_path / "h.db"))
    assert location is not None
    with HistoryStore.open(location) as store:
        ingest_folders(store, folders)
        series = series_trends(load_series(store, "shop", "shop-agent"))
    names = [("shop", "shop-agent"), ("shop", "other-agent"), ("returns", "shop-agent")]
    html = dashboard_html(series, names=names, current=0, database="h.db", link=lambda run: None)
    # A time axis of dates (the series' runs are an hour apart from 1 March, 08:00), not "oldest"/"newest".
    ticks = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', html)
    assert ticks[0] == "Mar 01 08:00" and ticks[-1] == "Mar 01 11:00" and "oldest" not in html
    legend = html[html.index('id="chart-legend"') :]
    assert "the agent changed (a new segment)" in legend and "the test set or the graders changed" in legend
    # Over the window the case passed half the time; in the current segment (the new graders) never.
    row = re.search(r'<tr data-case="1.1".*?</tr>', html, re.S)
    assert row is not None and "<td>50%</td><td>0%</td>" in row.group(0)
    assert "<th>this segment</th>" in html
    # The other series are one folded line, the shown one named.
    assert '<b class="current">shop · shop-agent</b> <details><summary>2 other series</summary>' in html
