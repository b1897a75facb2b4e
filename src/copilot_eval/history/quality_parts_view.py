"""General quality part by part across the runs of one test set: a local run beside the platform's.

Trends compare a series (one test set against one agent); a run Copilot Studio graded is another
agent ("Copilot Studio bot ... (draft)"), so it is a series of its own there. Here every stored run
of a test set that carries General quality's parts (ours or the platform's ``GeneralQuality``) is
set side by side, case by case: which part each run's grader judged Yes, No or NA, and where the
runs differ. Runs come newest first, at most ``last`` of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rich.table import Table

from copilot_eval.evalsets.quality_parts import QUALITY_PARTS
from copilot_eval.history.lazy_tables import table
from copilot_eval.history.store import HistoryStore

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).


@dataclass(frozen=True)
class PartsRow:
    """One run's General quality grade of one case: the run, the grader, its verdict and parts."""

    run_id: int
    source: str
    agent: str | None
    grader: str
    status: str
    parts: dict[str, str]


@dataclass(frozen=True)
class CaseParts:
    """One case with every run's parts, and the parts the runs do not all judge alike."""

    key: str
    question: str | None
    rows: list[PartsRow] = field(default_factory=list)

    @property
    def differing(self) -> list[str]:
        """Parts that two runs judged differently (NA included: NA beside Yes is a difference)."""
        return [
            part for part in QUALITY_PARTS if len({row.parts.get(part) for row in self.rows if part in row.parts}) > 1
        ]


def quality_parts_by_case(store: HistoryStore, test_set: str, *, last: int | None = 10) -> list[CaseParts]:
    """Every case of ``test_set`` with the General quality parts of its (at most ``last``) newest runs."""
    from sqlalchemy import select

    runs, cases = table("Run"), table("Case")
    results, grades = table("CaseResult"), table("CaseGrade")
    with_parts = (
        select(runs.c.id)
        .join(results, results.c.run_id == runs.c.id)
        .join(grades, grades.c.case_result_id == results.c.id)
        .where(runs.c.test_set_name == test_set, grades.c.parts.is_not(None))
        .group_by(runs.c.id)
        .order_by(runs.c.id.desc())
    )
    query = (
        select(
            cases.c.case_key,
            cases.c.question,
            cases.c.conversation_number,
            cases.c.turn,
            runs.c.id,
            runs.c.source,
            runs.c.agent_name,
            grades.c.method,
            grades.c.status,
            grades.c.parts,
        )
        .join(results, results.c.case_id == cases.c.id)
        .join(runs, runs.c.id == results.c.run_id)
        .join(grades, grades.c.case_result_id == results.c.id)
        .where(grades.c.parts.is_not(None), results.c.repeat_index == 0)
    )
    found: dict[str, CaseParts] = {}
    order: dict[str, tuple[int, int]] = {}
    with store.engine.connect() as connection:
        chosen = [row.id for row in connection.execute(with_parts.limit(last) if last else with_parts)]
        if not chosen:
            return []
        for row in connection.execute(query.where(runs.c.id.in_(chosen)).order_by(runs.c.id.desc())):
            case = found.setdefault(row.case_key, CaseParts(row.case_key, row.question))
            order[row.case_key] = (row.conversation_number or 0, row.turn or 1)
            case.rows.append(PartsRow(row.id, row.source, row.agent_name, row.method, row.status, dict(row.parts)))
    return [found[key] for key in sorted(found, key=lambda key: order[key])]


def parts_document(found: list[CaseParts], *, database: str, test_set: str) -> dict[str, Any]:
    """The JSON form of ``history parts --json``."""
    return {
        "schemaVersion": 1,
        "database": database,
        "testSet": test_set,
        "cases": [
            {
                "key": case.key,
                "question": case.question,
                "differing": case.differing,
                "runs": [
                    {
                        "run": row.run_id,
                        "source": row.source,
                        "agent": row.agent,
                        "grader": row.grader,
                        "status": row.status,
                        "parts": row.parts,
                    }
                    for row in case.rows
                ],
            }
            for case in found
        ],
    }


def parts_table(found: list[CaseParts], *, title: str) -> Any:
    """A rich Table: a row per case and run, a column per part, differing parts marked."""
    table = Table(title=title)
    for column in ("case", "run", "grader", "verdict", *QUALITY_PARTS):
        table.add_column(column, overflow="fold")
    for case in found:
        for index, row in enumerate(case.rows):
            cells = [
                f"[bold]{row.parts.get(part, '-')}[/]" if part in case.differing else row.parts.get(part, "-")
                for part in QUALITY_PARTS
            ]
            label = f"{row.run_id} ({row.source}, {row.agent or 'unnamed agent'})"
            table.add_row(case.key if index == 0 else "", label, row.grader, row.status, *cells)
    return table


__all__ = ["CaseParts", "PartsRow", "parts_document", "parts_table", "quality_parts_by_case"]
