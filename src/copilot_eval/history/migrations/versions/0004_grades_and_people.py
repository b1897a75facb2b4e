"""Each grader's verdict on each case result, and the verdicts people gave beside the judges.

``case_grades`` keeps one row per case result and grader (its method, status, score, pass mark
and General quality's parts in the platform's names), so agreement can be measured per grader and
a local run set beside a platform run part by part. ``human_verdicts`` keeps what a person decided
about a case result (pass or fail), who, when, with an optional note and how it was given (the
terminal review, an imported labels file, the dashboard); a later verdict on the same case result
supersedes an earlier one, and every one is kept. Only adds: runs stored before keep everything.

Revision ID: 0004
Revises: 0003
Create Date: 2027-01-10
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create case_grades and human_verdicts."""
    op.create_table(
        "case_grades",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("case_result_id", sa.Integer(), sa.ForeignKey("case_results.id", ondelete="CASCADE"), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("method", sa.Text(), nullable=False),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("passing_score", sa.Float(), nullable=True),
        sa.Column("parts", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("judge_unstable", sa.Boolean(), nullable=True),
        sa.UniqueConstraint("case_result_id", "position", name="uq_case_grades_result_position"),
    )
    op.create_index("ix_case_grades_method", "case_grades", ["method"])
    op.create_table(
        "human_verdicts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("case_result_id", sa.Integer(), sa.ForeignKey("case_results.id", ondelete="CASCADE"), nullable=False),
        sa.Column("verdict", sa.String(20), nullable=False),
        sa.Column("reviewer", sa.Text(), nullable=False),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("given_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
    )
    op.create_index("ix_human_verdicts_result", "human_verdicts", ["case_result_id", "given_at"])


def downgrade() -> None:
    """Drop the two tables."""
    op.drop_index("ix_human_verdicts_result", table_name="human_verdicts")
    op.drop_table("human_verdicts")
    op.drop_index("ix_case_grades_method", table_name="case_grades")
    op.drop_table("case_grades")
