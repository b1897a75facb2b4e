"""How far each grader agrees with people, over every case result a person reviewed.

For every stored grade (``case_grades``) of a case result that a person gave a verdict on (the
latest one counts), the grader's pass or fail is set beside the person's. Per grader (by its
method name: our ``General quality`` and the platform's ``GeneralQuality`` are two graders) the
figures of ``evalsets.agreement_stats``: true-positive and true-negative rates, accuracy and
Cohen's kappa with its 95 % interval, and the count. A grader whose kappa is below the floor
(``--min-kappa``, default 0.6) is flagged: its verdicts should not be trusted blind. Grades that
are errors or unknown are counted apart (``not_graded``), never as agreement or disagreement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from copilot_eval.evalsets.agreement_stats import Agreement, agreement
from copilot_eval.history.lazy_tables import table
from copilot_eval.history.store import HistoryStore

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).

#: A grader below this kappa agrees with people too little to be trusted blind (Landis and Koch call 0.61 "substantial").
DEFAULT_MIN_KAPPA = 0.6


@dataclass(frozen=True)
class GraderAgreement:
    """One grader against people: the agreement figures, the reviewed grades it could not count, and its flag."""

    grader: str
    agreement: Agreement
    not_graded: int  # reviewed case results where this grader gave error or unknown
    runs: int  # runs the reviewed grades come from

    def below(self, min_kappa: float) -> bool:
        """Whether the kappa is known and under ``min_kappa`` (a grader with no kappa yet is not flagged)."""
        kappa = self.agreement.kappa
        return kappa is not None and kappa < min_kappa


def latest_verdicts(connection: Any) -> dict[int, str]:
    """case result id -> the verdict a person gave last on it (by when it was given, then by when stored)."""
    from sqlalchemy import select

    verdicts = table("HumanVerdict")
    query = select(verdicts.c.case_result_id, verdicts.c.verdict).order_by(verdicts.c.given_at, verdicts.c.id)
    return {row.case_result_id: row.verdict for row in connection.execute(query)}


def grader_agreement(store: HistoryStore, *, grader: str | None = None) -> list[GraderAgreement]:
    """Every grader's agreement with people (or only ``grader``'s), by grader name."""
    from sqlalchemy import select

    grades = table("CaseGrade")
    results = table("CaseResult")
    pairs: dict[str, list[tuple[bool, bool]]] = {}
    skipped: dict[str, int] = {}
    runs: dict[str, set[Any]] = {}
    with store.engine.connect() as connection:
        people = latest_verdicts(connection)
        if not people:
            return []
        query = (
            select(grades.c.method, grades.c.status, grades.c.case_result_id, results.c.run_id)
            .join(results, results.c.id == grades.c.case_result_id)
            .where(grades.c.case_result_id.in_(list(people)))
        )
        if grader is not None:
            query = query.where(grades.c.method == grader)
        for row in connection.execute(query):
            runs.setdefault(row.method, set()).add(row.run_id)
            if row.status not in ("pass", "fail"):
                skipped[row.method] = skipped.get(row.method, 0) + 1
                continue
            pairs.setdefault(row.method, []).append((row.status == "pass", people[row.case_result_id] == "pass"))
    return [
        GraderAgreement(name, agreement(pairs.get(name, [])), skipped.get(name, 0), len(runs[name]))
        for name in sorted(runs)
    ]


def _fraction(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def agreement_document(found: list[GraderAgreement], *, database: str, min_kappa: float) -> dict[str, Any]:
    """The stable JSON form of ``history agreement --json`` (rates as fractions 0..1; unknown is null)."""
    graders = []
    for item in found:
        figures, interval = item.agreement, item.agreement.kappa_interval
        graders.append(
            {
                "grader": item.grader,
                "count": figures.count,
                "truePositiveRate": _fraction(figures.true_positive_rate),
                "trueNegativeRate": _fraction(figures.true_negative_rate),
                "accuracy": _fraction(figures.accuracy),
                "kappa": _fraction(figures.kappa),
                "kappaInterval": None
                if interval is None
                else {"low": _fraction(interval[0]), "high": _fraction(interval[1])},
                "bothPass": figures.both_pass,
                "bothFail": figures.both_fail,
                "graderPassPersonFail": figures.grader_pass_person_fail,
                "graderFailPersonPass": figures.grader_fail_person_pass,
                "notGraded": item.not_graded,
                "runs": item.runs,
                "belowMinKappa": item.below(min_kappa),
            }
        )
    return {"schemaVersion": 1, "database": database, "minKappa": min_kappa, "graders": graders}


def flagged_line(item: GraderAgreement, min_kappa: float) -> str:
    """``grader 'General quality' agrees with people at kappa 0.42 (95% 0.1-0.7, 24 reviewed) below 0.6``."""
    kappa, interval = item.agreement.kappa, item.agreement.kappa_interval
    shown = "unknown" if kappa is None else f"{kappa:.2f}"
    spread = f"95% interval {interval[0]:.2f} to {interval[1]:.2f}, " if interval else ""
    return (
        f"grader {item.grader!r} agrees with people at kappa {shown} ({spread}{item.agreement.count} reviewed), "
        f"below the floor of {min_kappa:g}: check its verdicts by hand before trusting them"
    )


__all__ = [
    "DEFAULT_MIN_KAPPA",
    "GraderAgreement",
    "agreement_document",
    "flagged_line",
    "grader_agreement",
    "latest_verdicts",
]
