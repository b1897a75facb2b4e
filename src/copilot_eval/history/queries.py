"""Reading the history: the runs, the series they form, and the case results of a series.

A series is one test set against one agent (by name): trends compare like with like. Runs are
ordered by when they ran (``run_at``, or when they were recorded for a run that does not say),
oldest first, and a window keeps the last N of each series. Rows come back as plain dicts with
the columns' names; nothing is computed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from copilot_eval.history.lazy_tables import table
from copilot_eval.history.store import HistoryStore

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).

RESULT_FIELDS = ("run_id", "case_id", "repeat_index", "status")
"""The fields of each tuple in :attr:`SeriesData.results`, in order (tuples: a series may hold 100,000 of them)."""

DETAIL_FIELDS = ("reason", "report_anchor")
"""Added to each tuple by ``load_series(details=True)`` (the dashboard's tooltips and links)."""


@dataclass(frozen=True)
class SeriesData:
    """One series as stored: its runs (oldest first), its cases by id, and every result of those runs.

    ``results`` are tuples of :data:`RESULT_FIELDS` (then :data:`DETAIL_FIELDS` when asked for);
    :func:`run_results` gives one run's results in full.
    """

    test_set_name: str
    agent_name: str | None
    runs: list[dict[str, Any]]
    cases: dict[int, dict[str, Any]]
    results: list[tuple[Any, ...]]
    # (run id, case id) -> the case's verdict over its repeats, for runs that recorded one (case_verdicts rows)
    verdicts: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)
    # (run id, case id) -> whether an LLM judge wavered on some repeat; absent where no judge's calls were kept
    judge_unstable: dict[tuple[int, int], bool] = field(default_factory=dict)


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

    runs = table("Run")
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

    runs = table("Run")
    latest = func.max(_when(runs))
    query = _filtered(select(runs.c.test_set_name, runs.c.agent_name, latest), runs, test_set, agent)
    query = query.group_by(runs.c.test_set_name, runs.c.agent_name).order_by(latest.desc())
    with store.engine.connect() as connection:
        return [(row[0], row[1]) for row in connection.execute(query)]


def _series_runs(runs: Any, test_set: str, agent: str | None, last: int | None, *columns: Any) -> Any:
    from sqlalchemy import select

    # A shard whose results a stored merged run holds is counted there, once (see shard_links).
    query = select(*columns).where(runs.c.test_set_name == test_set, runs.c.merged_into.is_(None))
    query = query.where(runs.c.agent_name.is_(None) if agent is None else runs.c.agent_name == agent)
    query = query.order_by(_when(runs).desc(), runs.c.id.desc())
    return query.limit(last) if last is not None else query


def load_series(
    store: HistoryStore, test_set: str, agent: str | None, *, last: int | None = None, details: bool = False
) -> SeriesData:
    """The last ``last`` runs of one series (all when None), with their cases and results (``details``: reasons, anchors)."""
    from sqlalchemy import select

    runs, cases, results = table("Run"), table("Case"), table("CaseResult")
    verdicts = table("CaseVerdict")
    chosen_ids = _series_runs(runs, test_set, agent, last, runs.c.id).subquery()
    fields = RESULT_FIELDS + (DETAIL_FIELDS if details else ())
    picked = (
        select(*(results.c[name] for name in fields))
        .where(results.c.run_id.in_(select(chosen_ids.c.id)))
        # In case order: the trends sort by case and run, and a sorted input makes that sort linear.
        .order_by(results.c.case_id, results.c.run_id, results.c.repeat_index)
    )
    with store.engine.connect() as connection:
        chosen = [dict(row) for row in connection.execute(_series_runs(runs, test_set, agent, last, runs)).mappings()]
        rows = _raw_rows(connection, picked)
        case_query = select(cases).where(cases.c.test_set_name == test_set)
        known = {row["id"]: dict(row) for row in connection.execute(case_query).mappings()}
        in_window = verdicts.c.run_id.in_(select(chosen_ids.c.id))
        over_repeats = {
            (row["run_id"], row["case_id"]): dict(row)
            for row in connection.execute(select(verdicts).where(in_window)).mappings()
        }
        wavered: dict[tuple[int, int], bool] = {}
        judged = select(results.c.run_id, results.c.case_id, results.c.judge_unstable).where(
            results.c.run_id.in_(select(chosen_ids.c.id)), results.c.judge_unstable.is_not(None)
        )
        for run_id, case_id, unstable in connection.execute(judged):
            wavered[(run_id, case_id)] = wavered.get((run_id, case_id), False) or bool(unstable)
    used = {row[1] for row in rows}
    chosen.reverse()
    kept = {key: value for key, value in known.items() if key in used}
    return SeriesData(test_set, agent, chosen, kept, rows, over_repeats, wavered)


def _raw_rows(connection: Any, query: Any) -> list[tuple[Any, ...]]:
    """Fetch through the driver's own cursor: SQLAlchemy's Row objects cost more than the query for 100,000 rows."""
    compiled = query.compile(dialect=connection.dialect)
    params = compiled.construct_params()
    arguments = [params[name] for name in compiled.positiontup] if compiled.positional else params
    cursor = connection.connection.driver_connection.cursor()
    try:
        cursor.execute(str(compiled), arguments)
        return cursor.fetchall()
    finally:
        cursor.close()


def run_results(store: HistoryStore, run_id: int) -> list[dict[str, Any]]:
    """Every stored result of one run with its case's key, conversation, turn and question, in case order."""
    from sqlalchemy import select

    cases, results = table("Case"), table("CaseResult")
    query = (
        select(results, cases.c.case_key, cases.c.conversation_number, cases.c.turn, cases.c.question)
        .join(cases, cases.c.id == results.c.case_id)
        .where(results.c.run_id == run_id)
        .order_by(cases.c.conversation_number, cases.c.turn, cases.c.case_key, results.c.repeat_index)
    )
    with store.engine.connect() as connection:
        return [dict(row) for row in connection.execute(query).mappings()]


__all__ = ["DETAIL_FIELDS", "RESULT_FIELDS", "SeriesData", "list_runs", "load_series", "run_results", "series_names"]
