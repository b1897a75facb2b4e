"""The first schema of the history: runs, cases and case results.

Revision ID: 0001
Revises:
Create Date: 2026-12-01
"""

# A frozen record of one schema step: its lines repeat the other migrations' on purpose (the
# duplicates finder pairs them, and its tables' columns with one another's: each table is spelt
# out whole, as it was created); never change what an applied migration does, add a new one.
from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the three tables and their indexes."""
    op.create_table(
        "runs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_key", sa.String(64), nullable=False),
        sa.Column("test_set_name", sa.Text(), nullable=False),
        sa.Column("agent_name", sa.Text(), nullable=True),
        sa.Column("agent_model", sa.Text(), nullable=True),
        sa.Column("run_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("duration_ms", sa.Float(), nullable=True),
        sa.Column("passed", sa.Integer(), nullable=False),
        sa.Column("failed", sa.Integer(), nullable=False),
        sa.Column("errored", sa.Integer(), nullable=True),
        sa.Column("not_graded", sa.Integer(), nullable=True),
        sa.Column("case_count", sa.Integer(), nullable=False),
        sa.Column("score_percent", sa.Float(), nullable=True),
        sa.Column("tested_by", sa.Text(), nullable=True),
        sa.Column("confidence", sa.String(40), nullable=True),
        sa.Column("runtime_limitation", sa.Text(), nullable=True),
        sa.Column("limitation_standing", sa.String(20), nullable=True),
        sa.Column("limitation_confirmed_by", sa.JSON(), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("test_set_fingerprint", sa.String(128), nullable=True),
        sa.Column("agent_fingerprint", sa.String(128), nullable=True),
        sa.Column("graders_fingerprint", sa.String(128), nullable=True),
        sa.Column("shard_index", sa.Integer(), nullable=True),
        sa.Column("shard_count", sa.Integer(), nullable=True),
        sa.Column("git_commit", sa.String(64), nullable=True),
        sa.Column("git_branch", sa.Text(), nullable=True),
        sa.Column("ci_run_url", sa.Text(), nullable=True),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("run_folder", sa.Text(), nullable=True),
        sa.Column("report_path", sa.Text(), nullable=True),
        sa.Column("schema_version", sa.Integer(), nullable=True),
        sa.UniqueConstraint("run_key", name="uq_runs_run_key"),
    )
    op.create_index("ix_runs_series", "runs", ["test_set_name", "agent_name", "run_at"])
    op.create_table(
        "cases",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("test_set_name", sa.Text(), nullable=False),
        sa.Column("case_key", sa.Text(), nullable=False),
        sa.Column("conversation_number", sa.Integer(), nullable=True),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("question", sa.Text(), nullable=True),
        sa.UniqueConstraint("test_set_name", "case_key", name="uq_cases_set_key"),
    )
    op.create_table(
        "case_results",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("runs.id", ondelete="CASCADE"), nullable=False),
        sa.Column("case_id", sa.Integer(), sa.ForeignKey("cases.id", ondelete="CASCADE"), nullable=False),
        sa.Column("repeat_index", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(40), nullable=False),
        sa.Column("score", sa.Float(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("duration_ms", sa.Float(), nullable=True),
        sa.Column("session_tokens", sa.BigInteger(), nullable=True),
        sa.Column("session_premium_requests", sa.Float(), nullable=True),
        sa.Column("evidence_path", sa.Text(), nullable=True),
        sa.Column("report_anchor", sa.Text(), nullable=True),
        sa.UniqueConstraint("run_id", "case_id", "repeat_index", name="uq_case_results_run_case_repeat"),
    )
    op.create_index("ix_case_results_case", "case_results", ["case_id", "run_id"])


def downgrade() -> None:
    """Drop the three tables."""
    op.drop_index("ix_case_results_case", table_name="case_results")
    op.drop_table("case_results")
    op.drop_table("cases")
    op.drop_index("ix_runs_series", table_name="runs")
    op.drop_table("runs")
