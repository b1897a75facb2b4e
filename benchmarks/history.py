"""The history store's speed and size: ingest of a 1,000-case run, trends over 100 runs of 1,000 cases.

On SQLite and on PostgreSQL (a server started for the purpose, as the tests do; skipped, saying
why, where it cannot be). Prints seconds per operation (wall clock, and this process's CPU time: the machine is shared
and the wall clock of a loaded one says more about the neighbours; a PostgreSQL server's own work
is in the wall clock only), the ratio to the 1 s target, and the database's size per 1,000 stored
case results.

- ingest: read a real run folder (run.json, the kept test set, 1,000 CopilotResult evidence files)
  and store it; first into an empty database, then a second run of the same set, then the same
  run again (found already stored).
- trends: load one series of 100 runs x 1,000 cases and compute every trend (pass rates with
  intervals, flakiness, regression points, episodes); also its JSON and the dashboard page.

    python benchmarks/history.py [--cases 1000] [--runs 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the run-folder maker and the server helper of the tests

from copilot_eval.history import HistoryStore, load_series, resolve_history, series_trends, trends_document
from copilot_eval.history.dashboard import dashboard_html
from copilot_eval.history.from_folder import record_run_folder
from copilot_eval.history.records import RunRecord
from copilot_eval.history.server import run_link
from tests.history.history_fixtures import START, write_run
from tests.history.postgres_server import PostgresServer, why_not_available

TARGET_S = 1.0


class _Clock:
    """Wall-clock and this process's CPU seconds of one operation (the machine is shared: CPU shows the work)."""

    def __enter__(self) -> _Clock:
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def _timed(function: Callable[[], Any], repeat: int) -> tuple[tuple[float, float], Any]:
    walls, cpus, value = [], [], None
    for _ in range(repeat):
        with _Clock() as clock:
            value = function()
        walls.append(clock.wall)
        cpus.append(clock.cpu)
    return (statistics.median(walls), statistics.median(cpus)), value


def _once(function: Callable[[], Any]) -> tuple[tuple[float, float], Any]:
    return _timed(function, 1)


def _line(label: str, seconds: tuple[float, float]) -> None:
    wall, cpu = seconds
    print(f"  {label:<50} {wall:7.3f} s wall {cpu:7.3f} s CPU   {wall / TARGET_S:5.2f}x of the 1 s target")


def _statuses(count: int, rng: random.Random) -> list[str]:
    # Mostly steady cases, some flaky, a few errors: what a nightly run of a real set looks like.
    return [rng.choices(["pass", "fail", "error"], weights=[80, 17, 3])[0] for _ in range(count)]


def _variant(record: RunRecord, index: int, rng: random.Random) -> RunRecord:
    statuses = _statuses(len(record.cases), rng)
    cases = [
        dataclasses.replace(case, status=status, identity=(index,))
        for case, status in zip(record.cases, statuses, strict=True)
    ]
    return dataclasses.replace(
        record,
        cases=cases,
        run_at=START + timedelta(hours=index),
        passed=statuses.count("pass"),
        failed=statuses.count("fail"),
        errored=statuses.count("error"),
    )


def _size(store: HistoryStore) -> int:
    location = store.location
    if location.sqlite_path is not None:
        return location.sqlite_path.stat().st_size
    from sqlalchemy import text

    with store.engine.connect() as connection:
        query = "SELECT sum(pg_total_relation_size(c)) FROM unnest(ARRAY['runs','cases','case_results']) AS c"
        return int(connection.execute(text(query)).scalar() or 0)


def measure(url: str, folders: list[Path], *, runs: int, repeat: int) -> None:
    """Print the figures of one database."""
    location = resolve_history(url)
    assert location is not None
    rng = random.Random(7)
    print(location.display)
    opened, store = _once(lambda: HistoryStore.open(location))
    _line("create and migrate an empty database", opened)
    with store:
        read_s, record = _timed(lambda: record_run_folder(folders[0], source="ingest"), repeat)
        _line(f"read a {len(record.cases):,}-case run folder", read_s)
        _line("store it in the empty database", _once(lambda: store.add(record))[0])
        second = _once(lambda: store.add(record_run_folder(folders[1], source="ingest")))[0]
        _line("read and store a second run of the same set", second)
        again_s, outcome = _timed(lambda: store.add(record), repeat)
        assert outcome.state == "already stored"
        _line("the same run again (found already stored)", again_s)
        started = time.perf_counter()
        for index in range(2, runs):
            store.add(_variant(record, index, rng))
        print(f"  stored {runs - 2} more runs at {(time.perf_counter() - started) / (runs - 2) * 1000:.0f} ms each")
        size = _size(store)
        results = runs * len(record.cases)
        print(f"  database size {size / 1e6:.1f} MB: {size / (results / 1000) / 1e3:.0f} kB per 1,000 case results")
        trends_s, trends = _timed(
            lambda: series_trends(load_series(store, record.test_set_name, record.agent_name)), repeat
        )
        _line(f"trends over {len(trends.runs)} runs x {len(trends.cases):,} cases", trends_s)
        json_s, _ = _timed(lambda: json.dumps(trends_document([trends], database=location.display, last=None)), repeat)
        _line("  ... and their JSON", json_s)
        window = series_trends(load_series(store, record.test_set_name, record.agent_name, last=50))
        page_s, page = _timed(
            lambda: dashboard_html(
                window, names=[(window.test_set_name, window.agent_name)], current=0, database="", link=run_link
            ),
            repeat,
        )
        _line(f"dashboard page, 50 runs ({len(page) / 1e6:.1f} MB of HTML)", page_s)


def main() -> None:
    """Print the figures for SQLite and, where a server can be started, PostgreSQL."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="copilot-eval-history-bench-") as root:
        rng = random.Random(3)
        folders = [Path(root) / f"run-{n}" for n in range(2)]
        started = time.perf_counter()
        for index, folder in enumerate(folders):
            write_run(folder, _statuses(options.cases, rng), run_at=START + timedelta(hours=index))
        print(f"setup: two {options.cases:,}-case run folders written in {time.perf_counter() - started:.1f} s")
        print(
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall clock is inflated when above that)\n"
        )
        measure(f"sqlite:///{Path(root) / 'history.db'}", folders, runs=options.runs, repeat=options.repeat)
        reason = why_not_available()
        if reason is not None:
            print(f"\nPostgreSQL skipped: {reason}")
            return
        server = PostgresServer().start()
        try:
            print()
            measure(server.create_database("bench"), folders, runs=options.runs, repeat=options.repeat)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
