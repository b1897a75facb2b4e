"""What a run spent, and the cases a run budget left unplayed.

``runs.usage`` keeps run.json's ``usage`` (schemaVersion 3) as it is: the agent's sessions and the
judges apart, each total with how many reported none, and the run budget that stopped the run.
``runs.not_run`` counts the cases that budget left unplayed. Only adds: runs stored before keep
everything, with both unknown (NULL).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add runs.not_run and runs.usage."""
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("not_run", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("usage", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    """Drop them."""
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("usage")
        batch.drop_column("not_run")
