"""The history's tables, reached without importing SQLAlchemy when ``copilot_eval.history`` is imported.

The table models (``history/tables.py``) load SQLAlchemy, about 0.5 s, which a command that never
touches the history must not pay. Every reader and writer of the history asks :func:`table` for the
table it queries, so the import on use is written once, here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from sqlalchemy import Table

__all__ = ["table"]


def table(model: str) -> Table:
    """The table of the history's model class ``model`` (``"Run"``, ``"CaseResult"`` ...)."""
    # imported on use: the table models load SQLAlchemy (about 0.5 s), which `import copilot_eval.history` must not
    from copilot_eval.history import tables

    # A declarative class's table is a Table; SQLAlchemy's stubs type it as any FromClause.
    return cast("Table", getattr(tables, model).__table__)
