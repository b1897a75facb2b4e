"""Each grader's verdict on each stored case result (``case_grades``), written as a run is stored.

Agreement with people is measured per grader, so the history keeps every grade, not only the
case's combined status; General quality's parts go with its grade in the platform's names. A run
stored before the table existed gets its grades when its folder is read again.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.history.lazy_tables import table
from copilot_eval.history.records import RunRecord, to_row
from copilot_eval.redaction import redact_data

# SQLAlchemy is imported inside the functions that use it: `import copilot_eval.history` (every run's finisher) must
# not load it (about 0.5 s).


def add_grades(connection: Any, record: RunRecord, run_id: int, case_ids: dict[str, int]) -> bool:
    """Insert the grades of ``record``'s cases for stored run ``run_id`` unless it has some already."""
    from sqlalchemy import insert, select

    grades, results = table("CaseGrade"), table("CaseResult")
    stored = {
        (row.case_id, row.repeat_index): row.id
        for row in connection.execute(
            select(results.c.id, results.c.case_id, results.c.repeat_index).where(results.c.run_id == run_id)
        )
    }
    if not stored or not any(case.grades for case in record.cases):
        return False
    existing = select(grades.c.id).where(grades.c.case_result_id.in_(list(stored.values()))).limit(1)
    if connection.execute(existing).first() is not None:
        return False
    rows = [
        to_row(grade, grades, case_result_id=stored[(case_ids[case.key], case.repeat_index)], position=position)
        for case in record.cases
        if (case_ids.get(case.key), case.repeat_index) in stored
        for position, grade in enumerate(case.grades)
    ]
    if rows:
        connection.execute(insert(grades), redact_data(rows))
    return bool(rows)


__all__ = ["add_grades"]
