"""The history database: open it (creating and migrating it when writing), add runs once each.

``HistoryStore.add`` is the one way a run enters the database, whatever it came from. It is
idempotent: a run already stored (same :func:`~copilot_eval.history.records.run_key`) is not
stored again; only what may change about a finished run (its limitation's standing and what
confirmed it, the note) is updated, and what was unknown before is filled in. Every value
passes through the redactor on its way in, so no registered secret reaches the database. A
shard run and the merged run that holds it are linked as either is stored (``shard_links``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from copilot_eval.history.grade_rows import add_grades
from copilot_eval.history.lazy_tables import table
from copilot_eval.history.location import DEFAULT_HISTORY_FILE, HistoryLocation
from copilot_eval.history.records import RunRecord, run_key, supersedes, to_row
from copilot_eval.history.schema import HistorySchemaError, check_readable, upgrade
from copilot_eval.history.shard_links import link_shards
from copilot_eval.redaction import redact_data

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).

STORED, ALREADY_STORED, UPDATED = "stored", "already stored", "updated"

# Fields a later look at the same run may change (a limitation confirmed by a second surface).
_REVISABLE = ("runtime_limitation", "limitation_standing", "limitation_confirmed_by", "confidence", "note")
# Fields only filled in when they were unknown: what was recorded is never overwritten.
_FILL_IN = (
    "agent_model",
    "run_folder",
    "report_path",
    "git_commit",
    "git_branch",
    "ci_run_url",
    "test_set_fingerprint",
    "agent_fingerprint",
    "graders_fingerprint",
    "merge_shard_count",
    "merged_shards",
    "merge_complete",
    "min_pass_rate",
    "repeats_independent",
    "repeat_dependence",
    "rate_limit_retries",
    "platform_run_id",
    "tool_hashes",
)


class HistoryError(RuntimeError):
    """The history database cannot be opened, read or written; the message names it and the fix."""


@dataclass(frozen=True)
class AddOutcome:
    """What :meth:`HistoryStore.add` did with a run: its id in the database and ``stored``/``already stored``/``updated``."""

    run_id: int
    state: str


def _engine(location: HistoryLocation, *, create: bool) -> Any:
    from sqlalchemy import create_engine, event

    if location.sqlite_path is not None:
        if not location.sqlite_path.is_file():
            if not create:
                raise HistoryError(
                    f"no history database at {location.display} (nothing recorded yet: `copilot-eval run` records "
                    "every run, `copilot-eval history ingest RUN_DIR` adds earlier ones)"
                )
            folder = location.sqlite_path.parent
            # the tool makes its own .copilot-eval folder, not one a typo names
            needed = folder.parent if folder.name == DEFAULT_HISTORY_FILE.parent.name else folder
            if not location.default and not needed.is_dir():
                # A typo in --history would otherwise start a new, empty history elsewhere without a word.
                raise HistoryError(
                    f"{location.display}: the folder {needed} does not exist; make it first, or name another "
                    "database with --history (or COPILOT_EVAL_HISTORY)"
                )
            folder.mkdir(parents=True, exist_ok=True)
        # Several processes may write at once (parallel CI jobs, a dashboard reading): wait for the lock.
        engine = create_engine(location.url, connect_args={"timeout": 30})

        @event.listens_for(engine, "connect")
        def _foreign_keys(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    from sqlalchemy.exc import ArgumentError

    try:
        return create_engine(location.url, pool_pre_ping=True)
    except ModuleNotFoundError as exc:
        raise HistoryError(
            f"{location.display}: the database driver {exc.name!r} is not installed; for PostgreSQL install "
            "psycopg 3 (pip install 'copilot-eval[postgres]')"
        ) from None
    except ArgumentError as exc:
        raise HistoryError(f"{location.display}: {exc}; the history runs on SQLite and PostgreSQL") from None


def _row(record: RunRecord, key: str) -> dict[str, Any]:
    provenance, prints = record.provenance, record.fingerprints
    return {
        "run_key": key,
        "test_set_name": record.test_set_name,
        "agent_name": record.agent_name,
        "agent_model": record.agent_model,
        "run_at": record.run_at,
        "recorded_at": datetime.now(UTC),
        "duration_ms": record.duration_ms,
        "passed": record.passed,
        "failed": record.failed,
        "errored": record.errored,
        "not_graded": record.not_graded,
        "case_count": len(record.cases),
        "score_percent": record.score_percent,
        "tested_by": record.tested_by,
        "confidence": record.confidence,
        "runtime_limitation": record.runtime_limitation,
        "limitation_standing": record.limitation_standing,
        "limitation_confirmed_by": record.limitation_confirmed_by,
        "note": record.note,
        "test_set_fingerprint": prints.get("testSet"),
        "agent_fingerprint": prints.get("agent"),
        "graders_fingerprint": prints.get("graders"),
        "shard_index": record.shard_index,
        "shard_count": record.shard_count,
        "merge_shard_count": record.merge.shard_count if record.merge else None,
        "merged_shards": record.merge.shards if record.merge else None,
        "merge_complete": record.merge.complete if record.merge else None,
        "min_pass_rate": record.min_pass_rate,
        "repeats_independent": record.repeats_independent,
        "repeat_dependence": record.repeat_dependence,
        "rate_limit_retries": record.rate_limit_retries,
        "platform_run_id": record.platform_identity[-1] if record.platform_identity else None,
        "platform_state": record.platform_state,
        "git_commit": provenance.commit,
        "git_branch": provenance.branch,
        "ci_run_url": provenance.ci_run_url,
        "source": record.source,
        "run_folder": record.run_folder,
        "report_path": record.report_path,
        "schema_version": record.schema_version,
        "tool_hashes": record.tool_hashes,
        "not_run": record.not_run,
        "usage": record.usage,
        "findings": record.findings,
    }


class HistoryStore:
    """An open history database; use it as a context manager or call :meth:`close`."""

    def __init__(self, location: HistoryLocation, engine: Any) -> None:
        self.location = location
        self.engine = engine

    @classmethod
    def open(cls, location: HistoryLocation, *, create: bool = True) -> HistoryStore:
        """Open ``location``; with ``create`` a missing database is made and an old one migrated."""
        from sqlalchemy.exc import SQLAlchemyError

        engine = _engine(location, create=create)
        try:
            if create:
                upgrade(engine)
            else:
                check_readable(engine)
        except (SQLAlchemyError, HistorySchemaError, OSError) as exc:
            engine.dispose()
            raise HistoryError(f"{location.display}: {_short(exc)}") from None
        return cls(location, engine)

    def close(self) -> None:
        """Release the database connections."""
        self.engine.dispose()

    def __enter__(self) -> HistoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def add(self, record: RunRecord) -> AddOutcome:
        """Store ``record`` unless it is stored already (see the module's docstring); redacted on the way in."""
        from sqlalchemy.exc import IntegrityError, SQLAlchemyError

        try:
            try:
                return self._add(record)
            except IntegrityError:
                # Another process stored the same run or the same new cases meanwhile: look again.
                return self._add(record)
        except SQLAlchemyError as exc:
            raise HistoryError(f"{self.location.display}: {_short(exc)}") from None

    def _add(self, record: RunRecord) -> AddOutcome:
        from sqlalchemy import insert, select, update

        runs = table("Run")
        key = run_key(record)
        row = redact_data(_row(record, key))
        with self.engine.begin() as connection:
            found = connection.execute(select(runs).where(runs.c.run_key == key)).mappings().first()
            if found is None and record.platform_identity is not None:
                # Stored before a platform run's key left out its state: the same run, by the platform's run id.
                found = (
                    connection.execute(select(runs).where(runs.c.platform_run_id == row["platform_run_id"]))
                    .mappings()
                    .first()
                )
            if found is not None and record.platform_identity is not None:
                if supersedes(record.platform_state, found["platform_state"]):
                    self._replace(connection, record, found["id"], row)
                    return AddOutcome(found["id"], UPDATED)
                if record.platform_state != found["platform_state"]:
                    return AddOutcome(found["id"], ALREADY_STORED)  # a stale read of a run stored finished
            if found is not None:
                changes = {name: row[name] for name in _REVISABLE if row[name] is not None and row[name] != found[name]}
                changes |= {name: row[name] for name in _FILL_IN if found[name] is None and row[name] is not None}
                if changes:
                    connection.execute(update(runs).where(runs.c.id == found["id"]).values(**changes))
                # A run stored before verdicts (or grades) were kept gets them when it is read again.
                added = self._add_verdicts(connection, record, found["id"], missing_only=True)
                added |= add_grades(connection, record, found["id"], self._case_ids(connection, record))
                return AddOutcome(found["id"], UPDATED if changes or added else ALREADY_STORED)
            run_id = connection.execute(insert(runs).values(**row)).inserted_primary_key[0]
            self._add_results(connection, record, run_id)
            link_shards(connection, run_id)
        return AddOutcome(run_id, STORED)

    def _replace(self, connection: Any, record: RunRecord, run_id: int, row: dict[str, Any]) -> None:
        """Put ``record`` in place of the stored read of the same platform run: its row, results and verdicts."""
        from sqlalchemy import delete, update

        results, case_verdicts = table("CaseResult"), table("CaseVerdict")
        # People's verdicts hang on the case results about to be replaced (and would go with them, by
        # cascade): they are set aside and put back on the new read's results of the same case and
        # repeat. A reviewed result the new read no longer has is kept as it was, verdicts and all.
        people = self._people_verdicts(connection, run_id)
        new_keys = self._result_keys(connection, record)
        kept = [result_id for result_id, (key, _) in people.items() if key not in new_keys]
        connection.execute(delete(case_verdicts).where(case_verdicts.c.run_id == run_id))
        connection.execute(delete(results).where(results.c.run_id == run_id, results.c.id.not_in(kept)))
        runs = table("Run")
        connection.execute(update(runs).where(runs.c.id == run_id).values(**row))
        self._add_results(connection, record, run_id)
        self._restore_people_verdicts(connection, run_id, {rid: v for rid, v in people.items() if rid not in kept})

    def _result_keys(self, connection: Any, record: RunRecord) -> set[tuple[int, int]]:
        """(case id, repeat index) of every case result ``record`` holds."""
        case_ids = self._case_ids(connection, record)
        return {(case_ids[case.key], case.repeat_index) for case in record.cases}

    @staticmethod
    def _people_verdicts(connection: Any, run_id: int) -> dict[int, tuple[tuple[int, int], list[dict[str, Any]]]]:
        """People's verdicts on run ``run_id``: case result id -> ((case id, repeat), the verdicts' rows)."""
        from sqlalchemy import select

        results, verdicts = table("CaseResult"), table("HumanVerdict")
        query = (
            select(verdicts, results.c.case_id, results.c.repeat_index)
            .join(results, results.c.id == verdicts.c.case_result_id)
            .where(results.c.run_id == run_id)
        )
        found: dict[int, tuple[tuple[int, int], list[dict[str, Any]]]] = {}
        for item in connection.execute(query).mappings():
            given = {
                name: item[name]
                for name in (column.name for column in verdicts.columns)
                if name not in ("id", "case_result_id")
            }
            key = (item["case_id"], item["repeat_index"])
            found.setdefault(item["case_result_id"], (key, []))[1].append(given)
        return found

    @staticmethod
    def _restore_people_verdicts(
        connection: Any, run_id: int, people: dict[int, tuple[tuple[int, int], list[dict[str, Any]]]]
    ) -> None:
        """Put people's verdicts set aside by ``_people_verdicts`` on the new results of the same case and repeat."""
        from sqlalchemy import insert, select

        if not people:
            return
        results = table("CaseResult")
        query = select(results.c.id, results.c.case_id, results.c.repeat_index).where(results.c.run_id == run_id)
        new_ids = {(row.case_id, row.repeat_index): row.id for row in connection.execute(query)}
        rows = [given | {"case_result_id": new_ids[key]} for key, verdicts in people.values() for given in verdicts]
        connection.execute(insert(table("HumanVerdict")), rows)

    def _add_results(self, connection: Any, record: RunRecord, run_id: int) -> None:
        """Insert the record's case results, verdicts and grades under ``run_id``."""
        from sqlalchemy import insert

        results = table("CaseResult")
        case_ids = self._case_ids(connection, record)
        rows = [to_row(case, results, run_id=run_id, case_id=case_ids[case.key]) for case in record.cases]
        if rows:
            connection.execute(insert(results), redact_data(rows))
        self._add_verdicts(connection, record, run_id, case_ids=case_ids)
        add_grades(connection, record, run_id, case_ids)

    def _add_verdicts(
        self,
        connection: Any,
        record: RunRecord,
        run_id: int,
        *,
        case_ids: dict[str, int] | None = None,
        missing_only: bool = False,
    ) -> bool:
        """Insert the record's per-case verdicts for ``run_id`` (with ``missing_only``: when it has none yet)."""
        from sqlalchemy import insert, select

        if not record.verdicts:
            return False
        verdicts = table("CaseVerdict")
        if missing_only:
            if connection.execute(select(verdicts.c.id).where(verdicts.c.run_id == run_id).limit(1)).first():
                return False
            case_ids = self._case_ids(connection, record)
        assert case_ids is not None
        rows = [
            to_row(
                item,
                verdicts,
                run_id=run_id,
                case_id=case_ids[item.key],
                interval_low=item.interval[0] if item.interval else None,
                interval_high=item.interval[1] if item.interval else None,
            )
            for item in record.verdicts
            if item.key in case_ids  # a verdict of a case without a stored result (none today) is not invented
        ]
        if rows:
            connection.execute(insert(verdicts), rows)
        return bool(rows)

    def _case_ids(self, connection: Any, record: RunRecord) -> dict[str, int]:
        """The id of every case of the record, inserting new ones and keeping each question current."""
        from sqlalchemy import insert, select, update

        cases = table("Case")
        wanted = {case.key: case for case in record.cases}
        query = select(cases.c.id, cases.c.case_key, cases.c.question).where(
            cases.c.test_set_name == record.test_set_name
        )
        known = {row.case_key: row for row in connection.execute(query)}
        new = [
            {
                "test_set_name": record.test_set_name,
                "case_key": key,
                "conversation_number": case.conversation_number,
                "turn": case.turn,
                "question": case.question,
            }
            for key, case in wanted.items()
            if key not in known
        ]
        if new:
            connection.execute(insert(cases), redact_data(new))
            known = {row.case_key: row for row in connection.execute(query)}
        for key, case in wanted.items():
            question = redact_data(case.question)
            if question is not None and known[key].question != question:
                connection.execute(update(cases).where(cases.c.id == known[key].id).values(question=question))
        return {key: known[key].id for key in wanted}


def _short(exc: BaseException) -> str:
    """The first line of a database error (SQLAlchemy appends the statement and a link)."""
    text = str(getattr(exc, "orig", None) or exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


__all__ = ["ALREADY_STORED", "STORED", "UPDATED", "AddOutcome", "HistoryError", "HistoryStore"]
