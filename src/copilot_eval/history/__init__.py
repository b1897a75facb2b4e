"""A memory across runs: every run in one database, and the questions people ask about time.

Every ``copilot-eval run`` (and every pytest session with ``--copilot-history``) appends its run
to a history database, SQLite beside the project by default or a shared PostgreSQL database for
a team; ``copilot-eval history trends`` and ``copilot-eval serve`` answer which cases became
flaky, when a case regressed, and whether a runtime limitation is an episode. See docs/history.md.

The store reads run folders (the versioned contract of ``reports.run_folder``), never the
internals of ``runs``. SQLAlchemy and Alembic are imported on first use, not with this package.
"""

from __future__ import annotations

from copilot_eval.history.ingest import HistoryNote, ingest_folders, record_after_run
from copilot_eval.history.json_forms import JSON_SCHEMA_VERSION, runs_document, trends_document
from copilot_eval.history.location import (
    DEFAULT_HISTORY_FILE,
    HISTORY_ENV,
    HistoryLocation,
    HistoryLocationError,
    resolve_history,
)
from copilot_eval.history.provenance import Provenance, detect_provenance
from copilot_eval.history.queries import SeriesData, list_runs, load_series, series_names
from copilot_eval.history.records import CaseRecord, RunRecord, run_key
from copilot_eval.history.store import AddOutcome, HistoryError, HistoryStore
from copilot_eval.history.trends import SeriesTrends, ranked, series_trends

__all__ = [
    "DEFAULT_HISTORY_FILE",
    "HISTORY_ENV",
    "JSON_SCHEMA_VERSION",
    "AddOutcome",
    "CaseRecord",
    "HistoryError",
    "HistoryLocation",
    "HistoryLocationError",
    "HistoryNote",
    "HistoryStore",
    "Provenance",
    "RunRecord",
    "SeriesData",
    "SeriesTrends",
    "detect_provenance",
    "ingest_folders",
    "list_runs",
    "load_series",
    "ranked",
    "record_after_run",
    "resolve_history",
    "run_key",
    "runs_document",
    "series_names",
    "series_trends",
    "trends_document",
]
