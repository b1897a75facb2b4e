"""What the history stores of one run, as plain data: a :class:`RunRecord` with its :class:`CaseRecord` rows.

Every source becomes a RunRecord first (a run folder, a pytest session), so there is one way into
the database. Nothing here is invented: a field the source did not record stays ``None``.

The run's identity (:func:`run_key`) is a hash of what happened, not of where the folder lies or
how it was labelled afterwards: the test set, the agent, when it ran, and every result with its
verdicts. Ingesting the same run twice (after ``copilot-eval run`` recorded it, or from a copy of
its folder) finds it already stored; a run whose limitation was confirmed later is the same run,
and its standing is updated rather than stored twice.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

from copilot_eval.evalsets.platform_record import FINISHED_PLATFORM_STATES
from copilot_eval.evalsets.run_model import numbered_key
from copilot_eval.history.provenance import Provenance

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

SOURCE_RUN = "run"
SOURCE_INGEST = "ingest"
SOURCE_PYTEST = "pytest"
SOURCE_MERGE = "merge"
SOURCE_STUDIO_EVAL = "studio-eval"
SOURCE_ANALYZE = "analyze"
SOURCE_REGRADE = "regrade"  # a finished run graded again (`copilot-eval regrade`)
SOURCE_ATTACK = "attack"  # an injection suite (`copilot-eval attack`)
SOURCE_TRIGGERS = "triggers"  # a trigger evaluation (`copilot-eval triggers`)


# GradeFacts and RunRecord read like other frozen records (evidence/transcript.TranscriptEvent,
# models/scripted TurnUsage, runs/finish.FinishedFolder, targets/evidence.TargetTurn): alike in shape
# only, optional fields defaulting to None; each names facts of its own, so none shares a base.
@dataclass(frozen=True)
class GradeFacts:
    """One grader's verdict on a case result: what agreement with people is measured on."""

    method: str
    status: str
    score: float | None = None
    passing_score: float | None = None
    parts: dict[str, str] | None = None  # General quality's parts in the platform's names; None for other graders
    judge_unstable: bool | None = None  # None when no judge's calls were kept


@dataclass(frozen=True)
class CaseRecord:
    """One case and repeat of a run: identity, verdict, cost and where its evidence is."""

    key: str  # stable identity within the test set: the result's caseKey ("3.1", a prompt row's name) or a pytest node id
    status: str
    conversation_number: int | None = None
    turn: int | None = None
    repeat_index: int = 0
    question: str | None = None
    score: float | None = None
    reason: str | None = None
    duration_ms: float | None = None
    session_tokens: int | None = None  # of the session that played the case (a conversation's turns share one)
    session_premium_requests: float | None = None
    evidence_path: str | None = None
    report_anchor: str | None = None  # the case's anchor in the run's report.html
    identity: tuple[Any, ...] = ()  # what the run key hashes for this case (verdicts, answer)
    platform_case_id: str | None = None  # the platform's test-case id (Copilot Studio's evaluation API)
    judge_unstable: bool | None = None  # an LLM judge disagreed with itself; None when no judge's calls were kept
    grades: tuple[GradeFacts, ...] = ()  # each grader's verdict, in the order the case was graded


@dataclass(frozen=True)
class VerdictRecord:
    """One case of a run over its repeats (run.json's ``caseRepeats``); rates are fractions 0..1."""

    key: str
    attempts: int
    tries: int
    passes: int
    errors: int
    pass_rate: float | None = None
    interval: tuple[float, float] | None = None  # the pass rate's 95 % Wilson interval
    verdict: str | None = None  # pass / fail / error against minPassRate; None without one
    judge_unstable: bool = False
    flaky: bool = False


@dataclass(frozen=True)
class MergeFacts:
    """A merged run's shards: how many the run was cut in, which were merged, and whether nothing is missing."""

    shard_count: int
    shards: list[int]
    complete: bool


@dataclass(frozen=True)
class RunRecord:
    """One run as the history stores it."""

    test_set_name: str
    source: str
    passed: int
    failed: int
    score_percent: float | None
    cases: list[CaseRecord] = field(default_factory=list)
    errored: int | None = None
    not_graded: int | None = None
    agent_name: str | None = None
    agent_model: str | None = None
    run_at: datetime | None = None
    duration_ms: float | None = None
    tested_by: str | None = None
    confidence: str | None = None
    runtime_limitation: str | None = None
    limitation_standing: str | None = None
    limitation_confirmed_by: list[str] | None = None  # what confirmed the limitation (run.json's limitationConfirmedBy)
    note: str | None = None
    fingerprints: dict[str, str | None] = field(default_factory=dict)  # testSet, agent, graders
    shard_index: int | None = None
    shard_count: int | None = None
    merge: MergeFacts | None = None
    min_pass_rate: float | None = None  # a fraction 0..1
    repeats_independent: bool | None = None
    repeat_dependence: str | None = None
    rate_limit_retries: int | None = None  # None: the run recorded no execution (platform runs, older runs)
    verdicts: list[VerdictRecord] = field(default_factory=list)
    # (source, API, environment, bot, run id) of a run the platform made: its identity, whatever was joined to it
    platform_identity: tuple[str | None, ...] | None = None
    platform_state: str | None = None
    provenance: Provenance = field(default_factory=Provenance)
    run_folder: str | None = None
    report_path: str | None = None
    schema_version: int | None = None
    # tool name -> the distinct definition hashes its sessions saw; None when no evidence recorded them
    tool_hashes: dict[str, list[str]] | None = None
    not_run: int | None = None  # cases a run budget left unplayed (run.json's notRun)
    usage: dict[str, Any] | None = None  # run.json's usage, as it is: None for a run that recorded none
    findings: dict[str, int] | None = None  # scanner -> findings in scans/; None: the run was never scanned


_Row = TypeVar("_Row", bound="DataclassInstance")


def from_row(cls: type[_Row], row: Any, **given: Any) -> _Row:
    """A ``cls`` dataclass whose fields are ``given`` or else read from the row's column of the same name."""
    return cls(**{item.name: given[item.name] if item.name in given else row[item.name] for item in fields(cls)})


def to_row(item: DataclassInstance, table: Any, **given: Any) -> dict[str, Any]:
    """The row of ``table`` for the dataclass ``item``: each column is ``given`` or else the item's field of that name.

    :func:`from_row` the other way round. The database makes the primary key; any other column the
    item has no field for must be given, so a new column without a source fails here, not as NULLs.
    """
    return {
        column.name: given[column.name] if column.name in given else getattr(item, column.name)
        for column in table.columns
        if not column.primary_key
    }


def supersedes(new_state: str | None, stored_state: str | None) -> bool:
    """Whether a new read of a platform run in ``new_state`` replaces the stored read in ``stored_state``.

    A finished read (``FINISHED_PLATFORM_STATES``) replaces one made while the run was going; a read
    made while it was going never replaces a finished one (a stale copy ingested later); between two
    reads of a run still going, the later one has more of it.
    """
    if new_state == stored_state:
        return False
    return new_state in FINISHED_PLATFORM_STATES or stored_state not in FINISHED_PLATFORM_STATES


def case_key(conversation_number: int, turn: int | None) -> str:
    """The key of a case named by its numbers, ``"<conversationNumber>.<turn>"``: run.json's rule (``numbered_key``)."""
    return numbered_key(conversation_number, turn)


def run_key(record: RunRecord) -> str:
    """The run's identity: a SHA-256 of what happened (set, agent, time, shard, every result and verdict).

    A run the platform made is the platform's run: its key is the platform's ids alone, so reading it
    again (``studio-eval get`` twice, while it runs and once it has finished, with or without the
    export's text, or ``history ingest`` of a copy) finds it stored; which read the record keeps is
    :func:`supersedes`'s to say.
    """
    if record.platform_identity is not None:
        text = json.dumps({"platform": list(record.platform_identity)}, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    identity = {
        "testSet": record.test_set_name,
        "agent": record.agent_name,
        "runAt": record.run_at.isoformat() if record.run_at else None,
        "durationMs": record.duration_ms,
        "shard": [record.shard_index, record.shard_count],
        "cases": [[case.key, case.repeat_index, case.status, *case.identity] for case in record.cases],
    }
    text = json.dumps(identity, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


__all__ = [
    "SOURCE_ANALYZE",
    "SOURCE_ATTACK",
    "SOURCE_INGEST",
    "SOURCE_MERGE",
    "SOURCE_PYTEST",
    "SOURCE_REGRADE",
    "SOURCE_RUN",
    "SOURCE_STUDIO_EVAL",
    "SOURCE_TRIGGERS",
    "CaseRecord",
    "GradeFacts",
    "MergeFacts",
    "RunRecord",
    "VerdictRecord",
    "case_key",
    "from_row",
    "run_key",
    "supersedes",
    "to_row",
]
