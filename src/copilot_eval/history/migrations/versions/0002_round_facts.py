"""What the history learnt from verdicts over repeats, platform runs and shards.

Runs gain the merge they came from (or the merged run a shard is part of), the minimum pass rate,
whether repeats were independent, the rate-limit retries and the platform's run id and state;
case results gain the platform's test-case id and whether a judge was unstable; ``case_verdicts``
keeps each case over its repeats. Every new column is nullable: runs stored before stay unknown.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-15
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the new columns and the case_verdicts table."""
    with op.batch_alter_table("runs") as batch:
        batch.add_column(sa.Column("merge_shard_count", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("merged_shards", sa.JSON(), nullable=True))
        batch.add_column(sa.Column("merge_complete", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("merged_into", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("min_pass_rate", sa.Float(), nullable=True))
        batch.add_column(sa.Column("repeats_independent", sa.Boolean(), nullable=True))
        batch.add_column(sa.Column("repeat_dependence", sa.Text(), nullable=True))
        batch.add_column(sa.Column("rate_limit_retries", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("platform_run_id", sa.Text(), nullable=True))
        batch.add_column(sa.Column("platform_state", sa.String(40), nullable=True))
        batch.create_foreign_key("fk_runs_merged_into", "runs", ["merged_into"], ["id"], ondelete="SET NULL")
    with op.batch_alter_table("case_results") as batch:
        batch.add_column(sa.Column("platform_case_id", sa.Text(), nullable=True))
        batch.add_column(sa.Column("judge_unstable", sa.Boolean(), nullable=True))
    op.create_table(
        "case_verdicts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("case_id", sa.Integer(), sa.ForeignKey("cases.id", ondelete="CASCADE"), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("passes", sa.Integer(), nullable=False),
        sa.Column("errors", sa.Integer(), nullable=False),
        sa.Column("pass_rate", sa.Float(), nullable=True),
        sa.Column("interval_low", sa.Float(), nullable=True),
        sa.Column("interval_high", sa.Float(), nullable=True),
        sa.Column("verdict", sa.String(40), nullable=True),
        sa.Column("judge_unstable", sa.Boolean(), nullable=False),
        sa.Column("flaky", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("run_id", "case_id", name="uq_case_verdicts_run_case"),
    )
    op.create_index("ix_case_verdicts_case", "case_verdicts", ["case_id", "run_id"])


def downgrade() -> None:
    """Drop what upgrade added."""
    op.drop_index("ix_case_verdicts_case", table_name="case_verdicts")
    op.drop_table("case_verdicts")
    with op.batch_alter_table("case_results") as batch:
        batch.drop_column("judge_unstable")
        batch.drop_column("platform_case_id")
    with op.batch_alter_table("runs") as batch:
        batch.drop_constraint("fk_runs_merged_into", type_="foreignkey")
        for name in (
            "platform_state",
            "platform_run_id",
            "rate_limit_retries",
            "repeat_dependence",
            "repeats_independent",
            "min_pass_rate",
            "merged_into",
            "merge_complete",
            "merged_shards",
            "merge_shard_count",
        ):
            batch.drop_column(name)
