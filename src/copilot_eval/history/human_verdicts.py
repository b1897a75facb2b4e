"""People's verdicts beside the judges': stored with who and when, and a case's effective verdict.

A person reviewing a run says pass or fail about a case result (``copilot-eval review``, an
imported labels file, the dashboard). Every verdict is kept with its reviewer, time, source and
note; the latest one on a case result is the person's verdict. A case's **effective verdict** is
the person's where one was given, the graders' otherwise, and says which it is (its provenance).
A run re-scored with people's verdicts counts how many verdicts people changed, and its score is
over the same graded cases as the run's own (pass and fail; a person's verdict makes an error case
graded). Nothing here rewrites what the graders recorded.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from copilot_eval.history.lazy_tables import table
from copilot_eval.history.records import from_row
from copilot_eval.history.store import HistoryError, HistoryStore
from copilot_eval.redaction import redact_data

if TYPE_CHECKING:
    from sqlalchemy import Table

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).

VERDICTS = ("pass", "fail")
SOURCE_REVIEW, SOURCE_IMPORT, SOURCE_DASHBOARD = "review", "import", "dashboard"


@dataclass(frozen=True)
class HumanLabel:
    """A person's verdict on one case of a run, to be stored."""

    case_key: str  # "3.1": conversation 3, turn 1 (history.records.case_key)
    verdict: str  # pass or fail
    reviewer: str
    note: str | None = None
    repeat_index: int = 0
    source: str = SOURCE_REVIEW
    given_at: datetime | None = None  # now, when not given

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"case {self.case_key}: verdict {self.verdict!r} is not pass or fail")
        if not self.reviewer.strip():
            raise ValueError(f"case {self.case_key}: a verdict needs the reviewer who gave it")


@dataclass(frozen=True)
class GivenVerdict:
    """A stored verdict of a person: on which case result, what, who, when, how and why."""

    case_key: str
    repeat_index: int
    verdict: str
    reviewer: str
    given_at: datetime
    source: str
    note: str | None = None


# Alike in shape only to other small frozen records (models/wire/answer.AnswerCall, runs/surfaces.SurfaceRun):
# their fields mean other things, so they stay apart.
@dataclass(frozen=True)
class EffectiveVerdict:
    """A case result's verdict as it now stands: the person's where given, else the graders'."""

    case_key: str
    repeat_index: int
    status: str
    graders_status: str
    by: str  # "graders", or "person" when a person's verdict stands
    person: GivenVerdict | None = None

    @property
    def changed(self) -> bool:
        """A person's verdict differs from the graders'."""
        return self.person is not None and self.status != self.graders_status


@dataclass(frozen=True)
class Rescored:
    """A run with people's verdicts: the effective verdict of every case result, and what changed."""

    run_id: int
    verdicts: list[EffectiveVerdict] = field(default_factory=list)

    def _count(self, status: str, *, graders: bool = False) -> int:
        return sum((v.graders_status if graders else v.status) == status for v in self.verdicts)

    @property
    def reviewed(self) -> int:
        """Case results a person gave a verdict on."""
        return sum(v.person is not None for v in self.verdicts)

    @property
    def changed(self) -> int:
        """Verdicts people changed."""
        return sum(v.changed for v in self.verdicts)

    def score(self, *, graders: bool = False) -> float | None:
        """Passed over graded (pass and fail), in percent; ``None`` when nothing is graded."""
        passed, failed = self._count("pass", graders=graders), self._count("fail", graders=graders)
        return round(100.0 * passed / (passed + failed), 2) if passed + failed else None

    def summary(self) -> str:
        """``people reviewed 4 of 6 cases and changed 1 verdict: score 67% by the graders, 83% with people's``."""

        def shown(value: float | None) -> str:
            return "none" if value is None else f"{value:g}%"

        head = f"people reviewed {self.reviewed} of {len(self.verdicts)} case results"
        changed = self.changed
        head += f" and changed {changed} verdict{'s' if changed != 1 else ''}"
        return f"{head}: score {shown(self.score(graders=True))} by the graders, {shown(self.score())} with people's"


def _tables() -> tuple[Table, Table, Table]:

    return (
        table("HumanVerdict"),
        table("CaseResult"),
        table("Case"),
    )


def _result_ids(connection: Any, run_id: int) -> dict[tuple[str, int], tuple[int, str]]:
    """(case key, repeat) -> (case result id, the graders' status) of a stored run."""
    from sqlalchemy import select

    _, results, cases = _tables()
    query = (
        select(results.c.id, results.c.repeat_index, results.c.status, cases.c.case_key)
        .join(cases, cases.c.id == results.c.case_id)
        .where(results.c.run_id == run_id)
    )
    return {(row.case_key, row.repeat_index): (row.id, row.status) for row in connection.execute(query)}


def add_verdicts(store: HistoryStore, run_id: int, labels: Iterable[HumanLabel]) -> int:
    """Store people's verdicts on cases of run ``run_id``; HistoryError names cases the run does not have."""
    from sqlalchemy import insert
    from sqlalchemy.exc import SQLAlchemyError

    labels = list(labels)
    verdicts, _, _ = _tables()
    try:
        with store.engine.begin() as connection:
            ids = _result_ids(connection, run_id)
            unknown = sorted({label.case_key for label in labels if (label.case_key, label.repeat_index) not in ids})
            if unknown:
                known = ", ".join(sorted({key for key, _ in ids}))
                raise HistoryError(f"run {run_id} has no case {', '.join(unknown)} (its cases: {known})")
            now = datetime.now(UTC)
            rows = [
                {
                    "case_result_id": ids[(label.case_key, label.repeat_index)][0],
                    "verdict": label.verdict,
                    "reviewer": label.reviewer,
                    "note": label.note or None,
                    "given_at": label.given_at or now,
                    "source": label.source,
                }
                for label in labels
            ]
            if rows:
                connection.execute(insert(verdicts), redact_data(rows))
    except SQLAlchemyError as exc:
        raise HistoryError(f"{store.location.display}: {exc}") from None
    return len(labels)


def given_verdicts(store: HistoryStore, run_id: int) -> dict[tuple[str, int], GivenVerdict]:
    """The latest verdict a person gave on each case result of run ``run_id``: (case key, repeat) -> verdict."""
    from sqlalchemy import select

    verdicts, results, cases = _tables()
    query = (
        select(verdicts, results.c.repeat_index, cases.c.case_key)
        .join(results, results.c.id == verdicts.c.case_result_id)
        .join(cases, cases.c.id == results.c.case_id)
        .where(results.c.run_id == run_id)
        .order_by(verdicts.c.given_at, verdicts.c.id)
    )
    latest: dict[tuple[str, int], GivenVerdict] = {}
    with store.engine.connect() as connection:
        for row in connection.execute(query).mappings():
            latest[(row["case_key"], row["repeat_index"])] = from_row(GivenVerdict, row)
    return latest


def rescore(store: HistoryStore, run_id: int) -> Rescored:
    """Run ``run_id`` with people's verdicts: each case result's effective verdict and its provenance."""
    given = given_verdicts(store, run_id)
    with store.engine.connect() as connection:
        ids = _result_ids(connection, run_id)
    effective = []
    for (key, repeat), (_, status) in sorted(ids.items(), key=lambda item: (_order(item[0][0]), item[0][1])):
        person = given.get((key, repeat))
        effective.append(
            EffectiveVerdict(
                case_key=key,
                repeat_index=repeat,
                status=person.verdict if person is not None else status,
                graders_status=status,
                by="person" if person is not None else "graders",
                person=person,
            )
        )
    return Rescored(run_id, effective)


def _order(key: str) -> tuple[Any, ...]:
    """Case keys in case order: ``2.1`` before ``10.1``; other keys (pytest node ids) after, by name."""
    number, _, turn = key.partition(".")
    if number.isdigit() and turn.isdigit():
        return (0, int(number), int(turn), "")
    return (1, 0, 0, key)


__all__ = [
    "SOURCE_DASHBOARD",
    "SOURCE_IMPORT",
    "SOURCE_REVIEW",
    "VERDICTS",
    "EffectiveVerdict",
    "GivenVerdict",
    "HumanLabel",
    "Rescored",
    "add_verdicts",
    "given_verdicts",
    "rescore",
]
