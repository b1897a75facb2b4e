"""The tools each run offered its model: name -> the hashes of its definition the run's sessions saw.

From the evidence (``CopilotResult.tool_definitions``), so that a tool whose definition changed
between two runs of a series (a server that rewrote its tools overnight) is named in the trends.
Nullable: runs stored before, and runs whose requests were not read, stay unknown.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-20
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add runs.tool_hashes."""
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("tool_hashes", sa.JSON(), nullable=True))


def downgrade() -> None:
    """Drop runs.tool_hashes."""
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("tool_hashes")
