"""Reading the history: the runs, the series they form, and the case results of a series.

A series is one test set against one agent (by name): trends compare like with like. Runs are
ordered by when they ran (``run_at``, or when they were recorded for a run that does not say),
oldest first, and a window keeps the last N of each series. Rows come back as plain dicts with
the columns' names; nothing is computed here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from copilot_eval.history.store import HistoryStore


@dataclass(frozen=True)
class SeriesData:
    """One series as stored: its runs (oldest first), its cases by id, and every result of those runs."""

    test_set_name: str
    agent_name: str | None
    runs: list[dict[str, Any]]
    cases: dict[int, dict[str, Any]]
    results: list[dict[str, Any]]


def _when(runs: Any) -> Any:
    from sqlalchemy import func

    return func.coalesce(runs.c.run_at, runs.c.recorded_at)


def _filtered(query: Any, runs: Any, test_set: str | None, agent: str | None) -> Any:
    if test_set is not None:
        query = query.where(runs.c.test_set_name == test_set)
    if agent is not None:
        query = query.where(runs.c.agent_name == agent)
    return query


def list_runs(
    store: HistoryStore, *, test_set: str | None = None, agent: str | None = None, last: int | None = None
) -> list[dict[str, Any]]:
    """Stored runs, newest first, optionally of one test set and/or agent, at most ``last`` of them."""
    from sqlalchemy import select

    from copilot_eval.history.models import Run

    runs = Run.__table__
    query = _filtered(select(runs), runs, test_set, agent).order_by(_when(runs).desc(), runs.c.id.desc())
    if last is not None:
        query = query.limit(last)
    with store.engine.connect() as connection:
        return [dict(row) for row in connection.execute(query).mappings()]


def series_names(
    store: HistoryStore, *, test_set: str | None = None, agent: str | None = None
) -> list[tuple[str, str | None]]:
    """The (test set, agent) series in the history, the most recently run first."""
    from sqlalchemy import func, select

    from copilot_eval.history.models import Run

    runs = Run.__table__
    latest = func.max(_when(runs))
    query = _filtered(select(runs.c.test_set_name, runs.c.agent_name, latest), runs, test_set, agent)
    query = query.group_by(runs.c.test_set_name, runs.c.agent_name).order_by(latest.desc())
    with store.engine.connect() as connection:
        return [(row[0], row[1]) for row in connection.execute(query)]


def load_series(store: HistoryStore, test_set: str, agent: str | None, *, last: int | None = None) -> SeriesData:
    """The last ``last`` runs of one series (all when None), with their cases and results."""
    from sqlalchemy import select

    from copilot_eval.history.models import Case, CaseResult, Run

    runs, cases, results = Run.__table__, Case.__table__, CaseResult.__table__
    query = select(runs).where(runs.c.test_set_name == test_set)
    query = query.where(runs.c.agent_name.is_(None) if agent is None else runs.c.agent_name == agent)
    query = query.order_by(_when(runs).desc(), runs.c.id.desc())
    if last is not None:
        query = query.limit(last)
    with store.engine.connect() as connection:
        chosen = list(reversed([dict(row) for row in connection.execute(query).mappings()]))
        ids = [run["id"] for run in chosen]
        rows: list[dict[str, Any]] = []
        # In slices: a database limits how many parameters one statement may bind.
        for start in range(0, len(ids), 500):
            picked = select(results).where(results.c.run_id.in_(ids[start : start + 500]))
            rows.extend(dict(row) for row in connection.execute(picked).mappings())
        case_query = select(cases).where(cases.c.test_set_name == test_set)
        known = {row["id"]: dict(row) for row in connection.execute(case_query).mappings()}
    used = {row["case_id"] for row in rows}
    return SeriesData(test_set, agent, chosen, {key: value for key, value in known.items() if key in used}, rows)


__all__ = ["SeriesData", "list_runs", "load_series", "series_names"]
