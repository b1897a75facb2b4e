"""Baselines: the run a team blessed as what its test set and agent are gated against.

A baseline is a name pointing at one stored run, with who blessed it, when, the commit that run
tested, its fingerprints and runtime version, and each case's tool sequence (so a gate in a job
that has the database but not the baseline's run folder can still show what the agent did then).
It never moves by itself: only blessing another run under the same name moves it, and the
blessing says which run it replaced. The default name is the series', ``TEST_SET@AGENT``.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from copilot_eval.history.lazy_tables import table
from copilot_eval.history.provenance import Provenance
from copilot_eval.history.records import RunRecord, from_row
from copilot_eval.history.store import HistoryError, HistoryStore
from copilot_eval.redaction import redact_data

if TYPE_CHECKING:
    from sqlalchemy import Table

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).


@dataclass(frozen=True)
class Baseline:
    """A blessed baseline as stored, with the stored row of the run it names."""

    name: str
    run_id: int
    test_set_name: str
    agent_name: str | None
    blessed_by: str | None
    blessed_at: datetime
    git_commit: str | None
    git_branch: str | None
    fingerprints: dict[str, str | None]
    runtime_version: str | None
    case_steps: dict[str, list[str]] | None
    note: str | None = None
    run: dict[str, Any] = field(default_factory=dict)  # the runs row: score, counts, runAt, folder, report

    def age_days(self, now: datetime | None = None) -> float | None:
        """How old the baseline's run is (when it ran, else when it was blessed), in days."""
        when = self.run.get("run_at") or self.blessed_at
        return ((now or datetime.now(UTC)) - when).total_seconds() / 86400


@dataclass(frozen=True)
class Blessing:
    """What ``bless`` did: the baseline now, the run it named before (None when new), and how the run was stored."""

    baseline: Baseline
    replaced_run_id: int | None
    run_state: str


def default_name(test_set_name: str, agent_name: str | None) -> str:
    """The name of a series' baseline when none is given: ``TEST_SET@AGENT``."""
    return f"{test_set_name}@{agent_name}" if agent_name else test_set_name


def who_blesses(env: dict[str, str] | None = None) -> str | None:
    """Who is blessing: the Actions actor in a workflow, else the login name (None when neither is known)."""
    env = dict(os.environ) if env is None else env
    if env.get("GITHUB_ACTOR"):
        return env["GITHUB_ACTOR"]
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return None


def _baseline(row: Any, run: dict[str, Any]) -> Baseline:
    fingerprints = {
        "testSet": row["test_set_fingerprint"],
        "agent": row["agent_fingerprint"],
        "graders": row["graders_fingerprint"],
    }
    return from_row(Baseline, row, fingerprints=fingerprints, run=run)


def _tables() -> tuple[Table, Table]:
    return table("Baseline"), table("Run")


def bless(
    store: HistoryStore,
    record: RunRecord,
    *,
    name: str | None = None,
    blessed_by: str | None = None,
    provenance: Provenance | None = None,
    runtime_version: str | None = None,
    case_steps: dict[str, list[str]] | None = None,
    note: str | None = None,
) -> Blessing:
    """Store ``record``'s run (once) and make it the baseline ``name`` (default: its series'); redacted on the way in.

    The commit is the one the run tested when the history knows it, else ``provenance``'s.
    """
    from sqlalchemy import insert, select, update
    from sqlalchemy.exc import SQLAlchemyError

    outcome = store.add(record)
    baselines, runs = _tables()
    name = (name or default_name(record.test_set_name, record.agent_name)).strip()
    if not name:
        raise ValueError("--name: a baseline needs a name (or none, for TEST_SET@AGENT)")
    try:
        with store.engine.begin() as connection:
            run = dict(connection.execute(select(runs).where(runs.c.id == outcome.run_id)).mappings().one())
            given = provenance or Provenance()
            values = redact_data(
                {
                    "name": name,
                    "run_id": outcome.run_id,
                    "test_set_name": run["test_set_name"],
                    "agent_name": run["agent_name"],
                    "blessed_by": blessed_by,
                    "blessed_at": datetime.now(UTC),
                    "git_commit": run["git_commit"] or given.commit,
                    "git_branch": run["git_branch"] or given.branch,
                    "test_set_fingerprint": run["test_set_fingerprint"],
                    "agent_fingerprint": run["agent_fingerprint"],
                    "graders_fingerprint": run["graders_fingerprint"],
                    "runtime_version": runtime_version,
                    "case_steps": case_steps,
                    "note": note,
                }
            )
            found = connection.execute(select(baselines).where(baselines.c.name == name)).mappings().first()
            if found is None:
                connection.execute(insert(baselines).values(**values))
            else:
                connection.execute(update(baselines).where(baselines.c.id == found["id"]).values(**values))
            row = connection.execute(select(baselines).where(baselines.c.name == name)).mappings().one()
    except SQLAlchemyError as exc:
        raise HistoryError(f"{store.location.display}: {str(getattr(exc, 'orig', exc)).splitlines()[0]}") from None
    replaced = None if found is None or found["run_id"] == outcome.run_id else found["run_id"]
    return Blessing(_baseline(row, run), replaced, outcome.state)


def list_baselines(store: HistoryStore) -> list[Baseline]:
    """Every baseline, by name."""
    from sqlalchemy import select

    baselines, runs = _tables()
    with store.engine.connect() as connection:
        rows = list(connection.execute(select(baselines).order_by(baselines.c.name)).mappings())
        ids = {row["run_id"] for row in rows}
        stored = {r["id"]: dict(r) for r in connection.execute(select(runs).where(runs.c.id.in_(ids))).mappings()}
    return [_baseline(row, stored.get(row["run_id"], {})) for row in rows]


def get_baseline(store: HistoryStore, name: str) -> Baseline | None:
    """The baseline called ``name``, or None."""
    return next((b for b in list_baselines(store) if b.name == name), None)


def series_baseline(store: HistoryStore, test_set_name: str, agent_name: str | None) -> Baseline | None:
    """The baseline of a series: the one of its default name, else the one blessed last for that set and agent."""
    found = [b for b in list_baselines(store) if b.test_set_name == test_set_name and b.agent_name == agent_name]
    named = [b for b in found if b.name == default_name(test_set_name, agent_name)]
    ranked = named or sorted(found, key=lambda b: b.blessed_at, reverse=True)
    return ranked[0] if ranked else None


def baseline_json(baseline: Baseline) -> dict[str, Any]:
    """One baseline in the stable JSON form of ``baseline list --json`` and ``baseline show --json``."""
    run = baseline.run
    return {
        "name": baseline.name,
        "run": baseline.run_id,
        "testSet": baseline.test_set_name,
        "agent": baseline.agent_name,
        "blessedBy": baseline.blessed_by,
        "blessedAt": baseline.blessed_at.isoformat(),
        "git": {"commit": baseline.git_commit, "branch": baseline.git_branch},
        "fingerprints": baseline.fingerprints,
        "runtimeVersion": baseline.runtime_version,
        "runAt": run["run_at"].isoformat() if run.get("run_at") else None,
        "scorePercent": run.get("score_percent"),
        "passed": run.get("passed"),
        "failed": run.get("failed"),
        "errored": run.get("errored"),
        "runFolder": run.get("run_folder"),
        "report": run.get("report_path"),
        "casesWithSteps": None if baseline.case_steps is None else len(baseline.case_steps),
        "note": baseline.note,
    }


__all__ = [
    "Baseline",
    "Blessing",
    "baseline_json",
    "bless",
    "default_name",
    "get_baseline",
    "list_baselines",
    "series_baseline",
    "who_blesses",
]
