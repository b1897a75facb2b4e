"""The history's tables (SQLAlchemy 2.x): runs, the cases of each test set, every case result and verdict.

``cases`` holds a case's identity once per test set (conversation and turn, or a pytest node id)
with its latest question; ``case_results`` holds one row per case, repeat and run;
``case_verdicts`` one row per case and run over its repeats, for runs that recorded them;
``case_grades`` each grader's verdict on a case result, ``human_verdicts`` what people decided
about case results (who, when, how), ``baselines`` the runs people blessed. Unknown stays
NULL in every column (a missing token count is not 0). The schema is created and changed only by
the Alembic migrations in ``migrations/``; these classes must describe the schema the newest
migration leaves, and a test compares the two.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class UtcDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and read back as an aware datetime (SQLite keeps no zone of its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        """Convert to UTC before writing; a naive value is taken to be UTC already."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        """Read back as an aware UTC datetime."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    """The declarative base of the history's tables."""


class Run(Base):
    """One recorded run of a test set against an agent."""

    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    run_key: Mapped[str] = mapped_column(String(64))
    test_set_name: Mapped[str] = mapped_column(Text)
    agent_name: Mapped[str | None] = mapped_column(Text)
    agent_model: Mapped[str | None] = mapped_column(Text)
    run_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    recorded_at: Mapped[datetime] = mapped_column(UtcDateTime)
    duration_ms: Mapped[float | None] = mapped_column(Float)
    passed: Mapped[int] = mapped_column(Integer)
    failed: Mapped[int] = mapped_column(Integer)
    errored: Mapped[int | None] = mapped_column(Integer)
    not_graded: Mapped[int | None] = mapped_column(Integer)
    case_count: Mapped[int] = mapped_column(Integer)
    score_percent: Mapped[float | None] = mapped_column(Float)
    tested_by: Mapped[str | None] = mapped_column(Text)
    confidence: Mapped[str | None] = mapped_column(String(40))
    runtime_limitation: Mapped[str | None] = mapped_column(Text)
    limitation_standing: Mapped[str | None] = mapped_column(String(20))
    limitation_confirmed_by: Mapped[list[str] | None] = mapped_column(JSON)  # what confirmed it, a list of texts
    note: Mapped[str | None] = mapped_column(Text)
    test_set_fingerprint: Mapped[str | None] = mapped_column(String(128))
    agent_fingerprint: Mapped[str | None] = mapped_column(String(128))
    graders_fingerprint: Mapped[str | None] = mapped_column(String(128))
    shard_index: Mapped[int | None] = mapped_column(Integer)
    shard_count: Mapped[int | None] = mapped_column(Integer)
    # A merged run (``copilot-eval merge``): how many shards the run was cut in, which were merged, complete or not.
    merge_shard_count: Mapped[int | None] = mapped_column(Integer)
    merged_shards: Mapped[list[int] | None] = mapped_column(JSON)
    merge_complete: Mapped[bool | None] = mapped_column(Boolean)
    # A shard run whose results are also stored in a merged run: trends count the merged run only.
    merged_into: Mapped[int | None] = mapped_column(
        ForeignKey("runs.id", ondelete="SET NULL", name="fk_runs_merged_into")
    )
    min_pass_rate: Mapped[float | None] = mapped_column(Float)  # a fraction 0..1, as run.json keeps it
    repeats_independent: Mapped[bool | None] = mapped_column(Boolean)
    repeat_dependence: Mapped[str | None] = mapped_column(Text)
    rate_limit_retries: Mapped[int | None] = mapped_column(Integer)  # None: the run did not record its execution
    platform_run_id: Mapped[str | None] = mapped_column(Text)
    platform_state: Mapped[str | None] = mapped_column(String(40))
    git_commit: Mapped[str | None] = mapped_column(String(64))
    git_branch: Mapped[str | None] = mapped_column(Text)
    ci_run_url: Mapped[str | None] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(20))
    run_folder: Mapped[str | None] = mapped_column(Text)
    report_path: Mapped[str | None] = mapped_column(Text)
    schema_version: Mapped[int | None] = mapped_column(Integer)
    # tool name as the model saw it -> the distinct hashes of its definition the run's sessions saw
    # (one, unless the tool changed during the run); None: no session's requests were read.
    tool_hashes: Mapped[dict[str, list[str]] | None] = mapped_column(JSON)
    not_run: Mapped[int | None] = mapped_column(Integer)  # cases a run budget left unplayed
    usage: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # run.json's usage: the agent's and the judges' apart
    # scanner -> its findings in the run folder's scans/ (0 included); None: never scanned
    findings: Mapped[dict[str, int] | None] = mapped_column(JSON)

    __table_args__ = (
        UniqueConstraint("run_key", name="uq_runs_run_key"),
        Index("ix_runs_series", "test_set_name", "agent_name", "run_at"),
    )


class Case(Base):
    """A case of a test set, identified across runs by its key (conversation.turn, or a pytest node id)."""

    __tablename__ = "cases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    test_set_name: Mapped[str] = mapped_column(Text)
    case_key: Mapped[str] = mapped_column(Text)
    conversation_number: Mapped[int | None] = mapped_column(Integer)
    turn: Mapped[int | None] = mapped_column(Integer)
    question: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (UniqueConstraint("test_set_name", "case_key", name="uq_cases_set_key"),)


class _CaseOfRun:
    """The columns of a row about one case in one run (its results, its verdict): its id, the run's and the case's.

    ``sort_order`` keeps them first in the table, as the migrations made them (else a mixin's columns come last).
    """

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True, sort_order=-1)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), sort_order=-1)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id", ondelete="CASCADE"), sort_order=-1)


class CaseResult(_CaseOfRun, Base):
    """One case and repeat of one run: status, score, reason, time, cost, evidence."""

    __tablename__ = "case_results"

    repeat_index: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(40))
    score: Mapped[float | None] = mapped_column(Float)
    reason: Mapped[str | None] = mapped_column(Text)
    duration_ms: Mapped[float | None] = mapped_column(Float)
    session_tokens: Mapped[int | None] = mapped_column(BigInteger)
    session_premium_requests: Mapped[float | None] = mapped_column(Float)
    evidence_path: Mapped[str | None] = mapped_column(Text)
    report_anchor: Mapped[str | None] = mapped_column(Text)
    platform_case_id: Mapped[str | None] = mapped_column(Text)  # the platform's test-case id (Copilot Studio)
    judge_unstable: Mapped[bool | None] = mapped_column(Boolean)  # None: no LLM judge's calls were recorded

    __table_args__ = (
        UniqueConstraint("run_id", "case_id", "repeat_index", name="uq_case_results_run_case_repeat"),
        Index("ix_case_results_case", "case_id", "run_id"),
    )


class CaseVerdict(_CaseOfRun, Base):
    """One case of one run over its repeats (run.json's ``caseRepeats``): pass rate, interval, verdict."""

    __tablename__ = "case_verdicts"

    attempts: Mapped[int] = mapped_column(Integer)
    tries: Mapped[int] = mapped_column(Integer)  # attempts with a pass or fail verdict
    passes: Mapped[int] = mapped_column(Integer)
    errors: Mapped[int] = mapped_column(Integer)  # error or unknown attempts: not tries
    pass_rate: Mapped[float | None] = mapped_column(Float)  # fractions 0..1, as run.json keeps them
    interval_low: Mapped[float | None] = mapped_column(Float)
    interval_high: Mapped[float | None] = mapped_column(Float)
    verdict: Mapped[str | None] = mapped_column(String(40))  # against minPassRate; None without one
    judge_unstable: Mapped[bool] = mapped_column(Boolean)
    flaky: Mapped[bool] = mapped_column(Boolean)

    __table_args__ = (
        UniqueConstraint("run_id", "case_id", name="uq_case_verdicts_run_case"),
        Index("ix_case_verdicts_case", "case_id", "run_id"),
    )


class CaseGrade(Base):
    """One grader's verdict on one case result: method, status, score, pass mark, General quality's parts."""

    __tablename__ = "case_grades"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    case_result_id: Mapped[int] = mapped_column(ForeignKey("case_results.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)  # the grader's place among the case's grades
    method: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(40))
    score: Mapped[float | None] = mapped_column(Float)
    passing_score: Mapped[float | None] = mapped_column(Float)
    # relevance: Yes ... (General quality only); a grade without parts is SQL NULL, not JSON null
    parts: Mapped[dict[str, str] | None] = mapped_column(JSON(none_as_null=True))
    judge_unstable: Mapped[bool | None] = mapped_column(Boolean)

    __table_args__ = (
        UniqueConstraint("case_result_id", "position", name="uq_case_grades_result_position"),
        Index("ix_case_grades_method", "method"),
    )


class HumanVerdict(Base):
    """A person's verdict on one case result (pass or fail), who gave it, when, how, and why."""

    __tablename__ = "human_verdicts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    case_result_id: Mapped[int] = mapped_column(ForeignKey("case_results.id", ondelete="CASCADE"))
    verdict: Mapped[str] = mapped_column(String(20))
    reviewer: Mapped[str] = mapped_column(Text)
    note: Mapped[str | None] = mapped_column(Text)
    given_at: Mapped[datetime] = mapped_column(UtcDateTime)
    source: Mapped[str] = mapped_column(String(20))  # review (the terminal), import (a labels file), dashboard

    __table_args__ = (Index("ix_human_verdicts_result", "case_result_id", "given_at"),)


class Baseline(Base):
    """A run blessed as the baseline of its test set and agent under a name; it moves only when blessed again."""

    __tablename__ = "baselines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(Text)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    test_set_name: Mapped[str] = mapped_column(Text)
    agent_name: Mapped[str | None] = mapped_column(Text)
    blessed_by: Mapped[str | None] = mapped_column(Text)
    blessed_at: Mapped[datetime] = mapped_column(UtcDateTime)
    git_commit: Mapped[str | None] = mapped_column(String(64))
    git_branch: Mapped[str | None] = mapped_column(Text)
    test_set_fingerprint: Mapped[str | None] = mapped_column(String(128))
    agent_fingerprint: Mapped[str | None] = mapped_column(String(128))
    graders_fingerprint: Mapped[str | None] = mapped_column(String(128))
    runtime_version: Mapped[str | None] = mapped_column(String(40))
    # case key -> the names of the steps the agent took (the first repeat's); None: the evidence showed none
    case_steps: Mapped[dict[str, list[str]] | None] = mapped_column(JSON)
    note: Mapped[str | None] = mapped_column(Text)

    __table_args__ = (
        UniqueConstraint("name", name="uq_baselines_name"),
        Index("ix_baselines_series", "test_set_name", "agent_name"),
    )


__all__ = ["Base", "Baseline", "Case", "CaseGrade", "CaseResult", "CaseVerdict", "HumanVerdict", "Run", "UtcDateTime"]
