"""What the transcript scanners found in a run: findings counted per scanner.

``runs.findings`` maps each scanner that ran over the run folder (``scans/<scanner>.jsonl``) to
its number of findings, 0 included; NULL for a run never scanned (before this revision, or with
``--scan none``), which is unknown, not "nothing found". Only adds: runs stored before keep
everything.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add runs.findings."""
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("findings", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("runs") as batch:
        batch.drop_column("findings")
