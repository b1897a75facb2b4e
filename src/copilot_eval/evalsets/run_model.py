"""The run model: what happened when a test set was played against an agent.

The run keeps summary counts next to the optional per-case results because the platform shows
the summary first and the detail behind a drill-down; a run rebuilt from the summary alone is an
honest, incomplete record. Errors (cases that could not be graded) are a separate count and are
never folded into ``passed`` or ``failed``: a platform failure is not an agent failure.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field, model_validator

from copilot_eval.evalsets.confidence import CamelModel, ConfidenceMixin
from copilot_eval.evalsets.phase_record import PhaseRecord
from copilot_eval.evalsets.platform_record import PlatformRunRecord
from copilot_eval.evalsets.prompt_model import GhModelsVerdict
from copilot_eval.evalsets.run_execution import ExecutionRecord
from copilot_eval.evalsets.run_layouts import upgrade_limitation
from copilot_eval.evalsets.run_provenance import MergeRecord, RunFingerprints, ShardInfo
from copilot_eval.evalsets.workspace_model import WorkspaceRecord


class CaseStatus(StrEnum):
    """Outcome of a case or of one grader on it; ``error`` and ``unknown`` are not failures."""

    PASS = "pass"
    FAIL = "fail"
    ERROR = "error"  # the case could not be graded (no answer, HTTP 500, grader crash ...)
    UNKNOWN = "unknown"  # graded outcome not known (unreadable verdict, not graded yet)
    NOT_RUN = "not_run"  # never played: a run budget was reached before its conversation started


class LimitationStanding(StrEnum):
    """How established a runtime limitation is: one run's signals, or answered by a second observation."""

    SUSPECTED = "suspected"  # signals in this run only
    CONFIRMED = "confirmed"  # a re-run or another surface answered the same questions well


class JudgeTally(CamelModel):
    """How an LLM judge reached its verdict on one answer: each call's verdict, their agreement, their cost.

    ``agreement`` is the share of the readable verdicts (pass or fail) that agree with the
    majority, ``None`` when no call gave one. Below 1 the judge is unstable on this answer: its
    verdict says as much about the judge as about the agent. Token counts are ``None`` when any
    call's count is unknown.
    """

    calls: int = Field(ge=1, description="Judge calls made for this answer (--judge-repeat).")
    verdicts: list[CaseStatus] = Field(description="Each call's verdict, in order.")
    agreement: float | None = Field(default=None, ge=0, le=1)
    input_tokens: int | None = Field(default=None, ge=0)
    output_tokens: int | None = Field(default=None, ge=0)
    premium_requests: float | None = Field(default=None, ge=0)
    ai_credits: float | None = Field(default=None, ge=0, description="AI credits of the calls; unknown for BYOK.")

    @property
    def unstable(self) -> bool:
        """The calls disagreed on pass or fail."""
        return self.agreement is not None and self.agreement < 1


class GradeRecord(CamelModel):
    """One grader's verdict on one case, as plain data (the grading layer fills it)."""

    method: str = Field(description="Test method or grader name, e.g. 'Compare meaning'.")
    status: CaseStatus
    score: float | None = None
    passing_score: float | None = None
    explanation: str | None = None
    evidence_path: str | None = Field(default=None, description="The grader's own evidence (a judge's session).")
    judge: JudgeTally | None = Field(default=None, description="An LLM judge's calls for this verdict.")
    error_reason: str | None = Field(
        default=None,
        description="Why the grader could not grade, as the platform names it (e.g. AgentResponseIsNullOrEmpty).",
    )
    data: dict[str, Any] | None = Field(
        default=None, description="The grader's own figures as the platform returned them (e.g. relevance: Yes)."
    )
    gh_models: GhModelsVerdict | None = Field(
        default=None,
        description="A prompt file's evaluator: what gh-models itself would have recorded for this answer "
        "(its score, and passed = score > 0), beside this grade's own status.",
    )


class SpentUsage(CamelModel):
    """What one side of a run spent (the agent's sessions, or the judges): totals over what was reported.

    A total is over the sessions (or judged answers) that reported it; ``*_unknown`` counts those that
    did not, so a total with unknowns is a lower bound, never a complete figure.
    """

    tokens: int = Field(default=0, ge=0, description="Input plus output tokens, over those that reported them.")
    premium_requests: float = Field(default=0, ge=0)
    ai_credits: float = Field(default=0, ge=0)
    tokens_unknown: int = Field(default=0, ge=0, description="Sessions (or judged answers) with no token count.")
    premium_requests_unknown: int = Field(default=0, ge=0)
    ai_credits_unknown: int = Field(default=0, ge=0)


class RunUsage(CamelModel):
    """What a run spent, the agent's sessions and the judges apart, and the run budget that stopped it."""

    agent: SpentUsage = Field(default_factory=SpentUsage)
    judges: SpentUsage = Field(default_factory=SpentUsage)
    budget_reached: str | None = Field(
        default=None, description="The run budget that stopped new conversations, with what was spent."
    )
    unenforceable: list[str] = Field(
        default_factory=list, description="Run budgets that unknown usage made unenforceable, once each."
    )


class EvalCaseResult(CamelModel):
    """The outcome of one case of a run.

    ``actual_response`` is what the agent produced; the reference it is judged against is
    ``EvalTestCase.response``.
    """

    conversation_number: int
    turn: int | None = Field(
        default=None,
        ge=1,
        description="1-based position of the case among the rows sharing its conversationNumber (its turn "
        "in the conversation); absent means 1.",
    )
    passed: bool
    actual_response: str | None = None
    failure_reason: str | None = None
    status: CaseStatus | None = Field(
        default=None,
        description="Explicit outcome; when absent it is read from 'passed'.",
    )
    grades: list[GradeRecord] = Field(default_factory=list)
    # Optional fields, each with its own description: alike in shape to one another and to
    # evalsets.model's, each a different fact of run.json.
    evidence_path: str | None = None
    duration_ms: float | None = Field(default=None, ge=0)
    repeat_index: int | None = Field(default=None, ge=0)
    phases: PhaseRecord | None = Field(
        default=None,
        description="Where the time of the session that played this case went, from the runtime's own trace "
        "(the same for every case of one conversation); absent when the runtime wrote none.",
    )
    case_id: str | None = Field(
        default=None,
        description="The platform's id of the test case (Copilot Studio's evaluation API); compare matches "
        "cases by it when both runs have it.",
    )
    case_key: str | None = Field(
        default=None,
        description="The case's stable name, which golden-case files and the history use: a prompt file row's "
        "'name', else its 1-based position; '<conversationNumber>.<turn>' for a Copilot Studio set. Every run "
        "folder written since this field exists has it; read from the numbers when absent (see 'key').",
    )
    gh_models_passed: bool | None = Field(
        default=None,
        description="A prompt file's case: whether gh-models would have passed it (every evaluator's score above "
        "0); absent when gh-models would have stopped the run instead (a model or judge call that failed).",
    )
    workspace: WorkspaceRecord | None = Field(
        default=None,
        description="What the play did to its workspace (changes, patch, files read and written, honesty "
        "findings); absent when the case was played without one.",
    )
    tokens: int | None = Field(
        default=None,
        ge=0,
        description="Input plus output tokens of the session that played this case (the same for every case of "
        "one conversation); absent when unknown, never 0 for unknown.",
    )
    premium_requests: float | None = Field(
        default=None, ge=0, description="Premium requests of the session that played this case; absent when unknown."
    )
    ai_credits: float | None = Field(
        default=None, ge=0, description="AI credits of the session that played this case; absent when unknown."
    )

    @model_validator(mode="after")
    def _status_agrees_with_passed(self) -> EvalCaseResult:
        # Two fields say the same thing; refuse a record where they disagree rather than guess.
        if self.status is not None and self.passed != (self.status is CaseStatus.PASS):
            raise ValueError(
                f"conversationNumber {self.conversation_number}: passed={self.passed} "
                f"contradicts status={self.status.value!r}"
            )
        return self

    @property
    def effective_status(self) -> CaseStatus:
        """The explicit status, or pass/fail derived from ``passed`` when none was recorded."""
        if self.status is not None:
            return self.status
        return CaseStatus.PASS if self.passed else CaseStatus.FAIL

    @property
    def key(self) -> str:
        """The case's stable key: ``case_key`` when recorded, else ``"<conversationNumber>.<turn>"`` (the one rule)."""
        return self.case_key or numbered_key(self.conversation_number, self.turn)

    @property
    def judge_unstable(self) -> bool:
        """Some LLM judge's calls disagreed on this answer: the verdict is the judge's doubt, not the agent's."""
        return any(grade.judge is not None and grade.judge.unstable for grade in self.grades)


def numbered_key(conversation_number: int, turn: int | None) -> str:
    """The key of a case named by its numbers: ``"<conversationNumber>.<turn>"`` (turn 1 when absent)."""
    return f"{conversation_number}.{turn or 1}"


class CaseRepeatRecord(CamelModel):
    """One case over the repeats of a run, as run.json keeps it (``caseRepeats``); see evalsets.repeat_stats.

    ``tries`` are the graded attempts (pass or fail); ``errors`` (error or unknown) are reported
    apart and are not tries. Rates are fractions 0..1, ``None`` without a graded try.
    """

    conversation_number: int
    turn: int = Field(default=1, ge=1)
    attempts: int = Field(ge=0, description="Times the case was played.")
    tries: int = Field(ge=0, description="Attempts with a pass or fail verdict: what the pass rate is over.")
    passes: int = Field(ge=0)
    errors: int = Field(ge=0, description="Attempts that could not be graded (error or unknown), not tries.")
    pass_rate: float | None = Field(default=None, ge=0, le=1)
    pass_rate_interval: list[float] | None = Field(
        default=None, description="The pass rate's 95 % Wilson score interval [low, high], fractions 0..1."
    )
    verdict: CaseStatus | None = Field(
        default=None,
        description="With a minimum pass rate (minPassRate): pass when at least that share of the tries "
        "passed, fail below, error with no try; absent without one.",
    )
    judge_unstable: bool = Field(
        default=False,
        description="An LLM judge disagreed with itself on some try: the judge's variance, not a flaky agent.",
    )
    flaky: bool = Field(default=False, description="Passed some tries and failed others, the judge steady.")


class EvalRun(ConfidenceMixin):
    """One run of a test set: summary counts, optional per-case results, honest qualifications.

    ``evidence`` names the files that back the record (each session's evidence, or the export a
    run was read from); what confirmed a runtime limitation is ``limitation_confirmed_by``.
    """

    schema_version: int | None = Field(
        default=None,
        description="Layout version of run.json (written as schemaVersion); absent in files written before "
        "versioning, whose evidence paths are absolute.",
    )
    copilot_eval_version: str | None = Field(
        default=None,
        description="The copilot-eval that wrote run.json (`copilot-eval --version`); absent in older files.",
    )
    test_set_name: str
    run_at: datetime | None = None
    tested_by: str | None = None
    agent_name: str | None = None
    general_quality_percent: float = Field(
        ge=0,
        le=100,
        description="Passed over graded cases, in percent; 0 when nothing could be graded (see gradedCases).",
    )
    graded_cases: int | None = Field(
        default=None,
        ge=0,
        description="Cases with a pass or fail verdict, the ones generalQualityPercent is over; 0 means nothing "
        "could be graded and the percent is no score.",
    )
    passed: int = Field(ge=0)
    failed: int = Field(ge=0)
    errored: int | None = Field(default=None, ge=0, description="Cases that could not be graded.")
    not_graded: int | None = Field(default=None, ge=0, description="Cases whose outcome is unknown.")
    not_run: int | None = Field(
        default=None,
        ge=0,
        description="Cases never played: a run budget was reached first (neither failed nor errored).",
    )
    usage: RunUsage | None = Field(
        default=None, description="What the run spent: the agent's sessions and the judges', counted apart."
    )
    duration_ms: float | None = Field(default=None, ge=0)
    results: list[EvalCaseResult] | None = None
    runtime_limitation: str | None = Field(
        default=None,
        description="Why the score measures the platform rather than the agent, when it does (its standing is "
        "limitationStanding, never part of this text).",
    )
    limitation_standing: LimitationStanding | None = Field(
        default=None,
        description="Standing of runtimeLimitation: suspected (this run's signals) or confirmed (a re-run or "
        "another surface). 'confidence' stays about the record itself.",
    )
    repeat: int | None = Field(default=None, ge=1, description="How many times each case was played (--repeat).")
    shard: ShardInfo | None = Field(default=None, description="The shard of the set this run played (--shard I/N).")
    fingerprints: RunFingerprints | None = Field(
        default=None, description="Content hashes of the test set, the agent (with its files) and the graders."
    )
    execution: ExecutionRecord | None = Field(
        default=None, description="Executor, workers, concurrency history and retries of the run."
    )
    merge: MergeRecord | None = Field(default=None, description="Set when this run was merged from shard runs.")
    limitation_confirmed_by: list[str] = Field(
        default_factory=list,
        description="What confirmed runtimeLimitation, in words (a re-run, another surface that answered well).",
    )
    min_pass_rate: float | None = Field(
        default=None,
        ge=0,
        le=1,
        description="The share of its graded tries each case had to pass (--min-pass-rate), 0..1; absent without one.",
    )
    case_repeats: list[CaseRepeatRecord] | None = Field(
        default=None, description="Each case over its repeats (runs played more than once, or with minPassRate)."
    )
    repeats_independent: bool | None = Field(
        default=None,
        description="Whether the repeats could differ in the model's answers: false when they were replayed "
        "from cassettes or answered by a scripted or function model; absent for a run played once.",
    )
    repeat_dependence: str | None = Field(
        default=None, description="Why the repeats are not independent samples, when they are not."
    )
    platform_run: PlatformRunRecord | None = Field(
        default=None, description="The platform run this record was read from (absent for runs made here)."
    )
    phase_medians: PhaseRecord | None = Field(
        default=None, description="The median of each phase over the run's sessions that have a runtime trace."
    )
    draft_cases: int | None = Field(
        default=None,
        ge=0,
        description="Cases of the set that its provenance sidecar (FILE.provenance.json, written by `generate`) "
        "still marks as unreviewed drafts; absent when the set has no sidecar, never 0 for unknown.",
    )

    @model_validator(mode="before")
    @classmethod
    def _read_older_layouts(cls, data: Any) -> Any:
        # run.json before schemaVersion 2 kept the standing in the limitation's text.
        return upgrade_limitation(data) if isinstance(data, dict) else data

    @model_validator(mode="after")
    def _standing_needs_limitation(self) -> EvalRun:
        if self.limitation_standing is not None and self.runtime_limitation is None:
            raise ValueError("limitationStanding is set but there is no runtimeLimitation")
        if self.limitation_confirmed_by and self.limitation_standing is not LimitationStanding.CONFIRMED:
            raise ValueError("limitationConfirmedBy is set but limitationStanding is not confirmed")
        return self

    @model_validator(mode="after")
    def _graded_cases_match_counts(self) -> EvalRun:
        if self.graded_cases is not None and self.graded_cases != self.passed + self.failed:
            raise ValueError(
                f"gradedCases={self.graded_cases} but passed + failed = {self.passed + self.failed} "
                "(only pass and fail verdicts are graded)"
            )
        return self

    @property
    def graded(self) -> int:
        """How many cases the score is over: ``graded_cases``, or passed + failed in a record without it."""
        return self.graded_cases if self.graded_cases is not None else self.passed + self.failed

    @model_validator(mode="after")
    def _counts_match_results(self) -> EvalRun:
        # When the detail is present it must agree with the summary; this is also where the
        # rule "an error is never counted as a pass or a failure" is enforced.
        if self.results is None:
            return self
        tally = dict.fromkeys(CaseStatus, 0)
        for result in self.results:
            tally[result.effective_status] += 1
        expected = [
            ("passed", self.passed, tally[CaseStatus.PASS]),
            ("failed", self.failed, tally[CaseStatus.FAIL]),
            ("errored", self.errored, tally[CaseStatus.ERROR]),
            ("notGraded", self.not_graded, tally[CaseStatus.UNKNOWN]),
            ("notRun", self.not_run, tally[CaseStatus.NOT_RUN]),
        ]
        wrong = [
            f"{field}={stored} but results hold {counted}"
            for field, stored, counted in expected
            if stored is not None and stored != counted
        ]
        if wrong:
            raise ValueError("run counts disagree with its results: " + "; ".join(wrong))
        return self


__all__ = [
    "CaseRepeatRecord",
    "CaseStatus",
    "EvalCaseResult",
    "EvalRun",
    "GradeRecord",
    "JudgeTally",
    "LimitationStanding",
    "RunUsage",
    "SpentUsage",
    "numbered_key",
]
