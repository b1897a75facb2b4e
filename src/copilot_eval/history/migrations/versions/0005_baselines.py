"""Baselines: a run someone blessed as what a test set and agent are compared with, and who, when, on which commit.

One row per name. A baseline moves only when someone blesses another run under its name
(``copilot-eval baseline bless``), never by itself. It keeps the fingerprints and runtime version
of the run it names, so that a gate can say how stale it is, and each case's tool sequence, so
that a gate in a job without the baseline's run folder can still show what the agent did then.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-21
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the baselines table."""
    op.create_table(
        "baselines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("test_set_name", sa.Text(), nullable=False),
        sa.Column("agent_name", sa.Text(), nullable=True),
        sa.Column("blessed_by", sa.Text(), nullable=True),
        sa.Column("blessed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("git_commit", sa.String(64), nullable=True),
        sa.Column("git_branch", sa.Text(), nullable=True),
        sa.Column("test_set_fingerprint", sa.String(128), nullable=True),
        sa.Column("agent_fingerprint", sa.String(128), nullable=True),
        sa.Column("graders_fingerprint", sa.String(128), nullable=True),
        sa.Column("runtime_version", sa.String(40), nullable=True),
        sa.Column("case_steps", sa.JSON(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.UniqueConstraint("name", name="uq_baselines_name"),
    )
    op.create_index("ix_baselines_series", "baselines", ["test_set_name", "agent_name"])


def downgrade() -> None:
    """Drop the baselines table."""
    op.drop_index("ix_baselines_series", table_name="baselines")
    op.drop_table("baselines")
