"""The tools each run offered its model, kept in the history: a definition that changed between runs is named."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console

from copilot_eval.history import HistoryStore, list_runs, load_series, resolve_history, series_trends
from copilot_eval.history.ingest import ingest_folders
from copilot_eval.history.json_forms import series_json
from copilot_eval.history.terminal import print_series
from tests.history.history_fixtures import write_series

A1, A2, B1, C1 = ("a1" * 32), ("a2" * 32), ("b1" * 32), ("c1" * 32)


def _offer(folder: Path, *sessions: dict[str, str] | None) -> None:
    """Give the run's evidence files these tool definitions, one mapping per session (None: not read)."""
    files = sorted((folder / "evidence").glob("*.json"))
    for path, tools in zip(files, [*sessions] + [sessions[-1]] * (len(files) - len(sessions)), strict=True):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["tool_definitions"] = tools
        path.write_text(json.dumps(data), encoding="utf-8")


def test_a_changed_added_or_removed_tool_is_named_at_the_run_it_changed(history_url: str, tmp_path: Path) -> None:
    folders = write_series(tmp_path, [["pass", "pass"]] * 5)
    _offer(folders[0], {"mail-send": A1, "mail-list": B1})
    _offer(folders[1], {"mail-send": A1, "mail-list": B1})
    _offer(folders[2], None)  # a real model without the audit: the tools are unknown, not empty
    _offer(folders[3], {"mail-send": A2, "mail-list": B1, "mail-delete": C1})
    _offer(folders[4], {"mail-send": A2, "mail-list": B1}, {"mail-send": A1, "mail-list": B1})  # changed mid-run
    location = resolve_history(history_url)
    assert location is not None
    with HistoryStore.open(location) as store:
        ingest_folders(store, folders)
        stored = sorted(list_runs(store), key=lambda run: run["id"])
        series = series_trends(load_series(store, "shop", "shop-agent"))
    assert [run["tool_hashes"] for run in stored][:3] == [
        {"mail-list": [B1], "mail-send": [A1]},
        {"mail-list": [B1], "mail-send": [A1]},
        None,
    ]
    assert stored[4]["tool_hashes"]["mail-send"] == sorted([A1, A2])
    changes = [point["toolsChanged"] for point in series_json(series)["runs"]]
    assert changes == [
        None,
        {"added": [], "removed": [], "changed": []},
        None,
        {"added": ["mail-delete"], "removed": [], "changed": ["mail-send"]},  # against the last run that knew its tools
        {"added": [], "removed": ["mail-delete"], "changed": ["mail-send"]},
    ]
    console = Console(record=True, width=200)
    print_series(series, console)
    shown = console.export_text()
    assert f"tools changed in run {stored[3]['id']}: added mail-delete; changed mail-send" in shown
    assert f"tools changed in run {stored[1]['id']}" not in shown
