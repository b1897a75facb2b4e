"""Alembic's environment for the history: migrations run on the connection copilot-eval hands over.

There is no alembic.ini: ``copilot_eval.history.schema`` builds the configuration in code and puts
an open connection in ``config.attributes["connection"]``. Batch mode lets SQLite alter tables.
"""

from __future__ import annotations

from alembic import context

from copilot_eval.history.tables import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "the history's migrations run through copilot_eval.history.schema.upgrade(engine), not the alembic command"
    )
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
