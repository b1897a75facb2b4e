"""play_eval_set: play a test set against an agent, grade it, and record an honest EvalRun.

SingleTurn sets run each case in a fresh session; in a Conversation set, rows sharing a
``conversationNumber`` form one conversation, played in file order in one fresh session, and each
conversation is its own session. An executor plays the units (this process's runtime pool by
default, ``concurrency`` at a time, or Ray workers); ``runs.dispatch`` hands them out, plays
rate-limited units again and adapts the concurrency. Each finished unit is graded here and
checkpointed before it counts, so an interrupted run (Ctrl-C or a hard kill) resumes without
losing or repeating a case. On Ctrl-C the outputs of what finished are written before the
cancellation propagates.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from copilot_eval.evalsets import (
    CaseStatus,
    Confidence,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalSetError,
    EvalTestCase,
    EvalTestSet,
    ExecutionRecord,
    LimitationStanding,
    RunFingerprints,
    ShardInfo,
    play_groups,
    turn_numbers,
    validate_eval_test_set,
)
from copilot_eval.evalsets.phase_record import median_phases
from copilot_eval.evalsets.repeat_stats import repeat_records
from copilot_eval.grading.protocol import Grader
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs.case_runner import Unit, grade_unit, not_run_results, session_usage
from copilot_eval.runs.checkpoint import Checkpoint
from copilot_eval.runs.dispatch import Dispatcher
from copilot_eval.runs.executor import Executor, ExecutorError, LocalExecutor
from copilot_eval.runs.executor_choice import executor_of
from copilot_eval.runs.fingerprints import test_set_fingerprint
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.independence import repeat_dependence_of
from copilot_eval.runs.limitation import KNOWN_FALLBACK_TEXTS, detect_runtime_limitation
from copilot_eval.runs.prepare import PrepareError, check_references, resolve_graders
from copilot_eval.runs.progress import RunProgress
from copilot_eval.runs.run_budget import RunSpending
from copilot_eval.runs.settings import DEFAULT_CONCURRENCY, RunSettings
from copilot_eval.runs.shards import units_of_shard
from copilot_eval.runs.target import PlayedEvidence, runtime_agent
from copilot_eval.runs.workspaces import RunWorkspaces, uses_workspaces, with_workspaces, workspace_refusal


def unit_name(test_set: EvalTestSet, cases: Sequence[EvalTestCase], turns: Sequence[int]) -> str:
    """The repeat-free name of a unit: ``conversation3``, ``case3``, or ``case3.2`` for a repeated number."""
    number = cases[0].conversation_number
    if test_set.data_type is EvalDataType.CONVERSATION:
        return f"conversation{number}"
    return f"case{number}" if turns[0] == 1 else f"case{number}.{turns[0]}"


def plan_units(test_set: EvalTestSet, repeat: int) -> list[Unit]:
    """The sessions a run plays, per repeat: one per case (SingleTurn) or one per conversation, in file order."""
    turn_of = {id(case): turn for case, turn in zip(test_set.cases, turn_numbers(test_set.cases), strict=True)}
    groups = [(group.cases, tuple(turn_of[id(case)] for case in group.cases)) for group in play_groups(test_set)]
    return [
        Unit(f"{unit_name(test_set, cases, turns)}#{index}", cases, index, turns)
        for index in range(repeat)
        for cases, turns in groups
    ]


class CaseExport(Protocol):
    """Where graded cases go as they are delivered (an OpenTelemetry exporter): queued, never waited for."""

    def export_case(self, case: EvalTestCase, result: EvalCaseResult, evidence: Any, *, turn_index: int) -> None:
        """Take one graded case and the evidence of the session that played it."""


def _run_notes(note: str | None, count: dict[CaseStatus, int], total: int, dependence: str | None) -> list[str]:
    """The run's notes: the caller's, the results kept out of the score, why the repeats were not independent."""
    notes = [note] if note else []
    ungradable = count[CaseStatus.ERROR] + count[CaseStatus.UNKNOWN]
    if ungradable:
        notes.append(f"{ungradable} of {total} results could not be graded and are not in the score")
    if count[CaseStatus.NOT_RUN]:
        notes.append(f"{count[CaseStatus.NOT_RUN]} of {total} cases were not run and are not in the score")
    if dependence:
        notes.append(dependence)
    return notes


def summarise(
    test_set: EvalTestSet,
    results: list[EvalCaseResult],
    *,
    agent_name: str | None,
    started: datetime | None,
    duration_ms: float | None,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
    note: str | None = None,
    confidence: Confidence = Confidence.CONFIRMED,
    min_pass_rate: float | None = None,
    repeat_dependence: str | None = None,
    platform_answers: bool = True,
) -> EvalRun:
    """Build the EvalRun from case results: counts, score over graded cases, limitation and its standing.

    ``platform_answers``: whether a platform can answer in the agent's place (``False`` for an agent
    played on the local runtime; see ``runs.limitation``).

    ``confidence`` is about the record itself: CONFIRMED for a run measured from its own evidence
    (the default), SOURCE-INSPECTED for one read from an export. A suspected limitation does not
    lower it; the limitation has its own standing. A run with repeats (or a ``min_pass_rate``)
    keeps each case over its tries, and whether those tries were independent (``repeat_dependence``
    says why not).
    """
    results = sorted(results, key=lambda r: (r.repeat_index or 0, r.conversation_number, r.turn or 1))
    count = {status: sum(r.effective_status is status for r in results) for status in CaseStatus}
    graded = count[CaseStatus.PASS] + count[CaseStatus.FAIL]
    # The score is over graded cases only. With none graded there is no score: the percent stays 0
    # (the seed's field is a number) and gradedCases=0 says it is none; every view shows "n/a".
    percent = 100.0 * count[CaseStatus.PASS] / graded if graded else 0.0
    limitation = detect_runtime_limitation(results, fallback_texts=fallback_texts, platform_answers=platform_answers)
    # One session per conversation and repeat: its phases count once, however many turns it had.
    sessions = {(r.repeat_index or 0, r.conversation_number): r.phases for r in results if r.phases is not None}
    repeated = any(r.repeat_index for r in results)
    notes = _run_notes(note, count, len(results), repeat_dependence if repeated else None)
    return EvalRun(
        test_set_name=test_set.name,
        run_at=started,
        agent_name=agent_name,
        general_quality_percent=round(percent, 2),
        graded_cases=graded,
        passed=count[CaseStatus.PASS],
        failed=count[CaseStatus.FAIL],
        errored=count[CaseStatus.ERROR],
        not_graded=count[CaseStatus.UNKNOWN],
        not_run=count[CaseStatus.NOT_RUN] or None,
        duration_ms=round(duration_ms, 1) if duration_ms is not None else None,
        results=results,
        runtime_limitation=limitation.describe() if limitation else None,
        limitation_standing=LimitationStanding.SUSPECTED if limitation else None,
        confidence=confidence if results else Confidence.UNCONFIRMED,
        evidence=sorted({r.evidence_path for r in results if r.evidence_path}),
        note="; ".join(notes) or None,
        min_pass_rate=min_pass_rate,
        case_repeats=repeat_records(results, min_pass_rate) if repeated or min_pass_rate is not None else None,
        repeats_independent=(repeat_dependence is None) if repeated else None,
        repeat_dependence=repeat_dependence if repeated else None,
        phase_medians=median_phases(sessions.values()),
    )


def _header(test_set: EvalTestSet, graders: Sequence[Grader], repeat: int, shard: ShardInfo | None) -> dict[str, Any]:
    header = {
        "testSet": test_set.name,
        "dataType": test_set.data_type.value,
        "repeat": repeat,
        "cases": [[c.conversation_number, c.question] for c in test_set.cases],
        "graders": [getattr(g, "name", type(g).__name__) for g in graders],
    }
    if test_set.data_type is EvalDataType.CONVERSATION:
        # Earlier versions played a whole Conversation set as one unit; their checkpoints lack this
        # key, so --resume refuses them instead of silently replaying everything.
        header["units"] = "one session per conversationNumber"
    if shard is not None:  # only when sharded, so checkpoints of unsharded runs keep resuming
        header["shard"] = shard.label()
    return header


def _with_note(results: list[EvalCaseResult], note: str | None) -> list[EvalCaseResult]:
    """The note (why a unit was given up on) put in front of each error's reason; statuses unchanged."""
    if note is None:
        return results
    return [
        r.model_copy(update={"failure_reason": f"{note}: {r.failure_reason}" if r.failure_reason else note})
        if r.effective_status is CaseStatus.ERROR
        else r
        for r in results
    ]


async def play_eval_set(
    test_set: EvalTestSet,
    agent: Any,
    settings: RunSettings | None = None,
    *,
    pool: Any = None,
    executor: Executor | None = None,
    fingerprints: RunFingerprints | None = None,
    agent_file: str | Path | None = None,
    export: CaseExport | None = None,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
    validate: bool = True,
) -> EvalRun:
    """Run ``test_set`` against ``agent`` as ``settings`` say (``runs.settings.RunSettings``) and return the graded EvalRun.

    ``settings`` holds how it is graded (``grade``: graders as specs or objects, default similarity,
    ``min_pass_rate``), what and how it is played (``what.shard``; ``play``: ``repeat``, ``concurrency``,
    ``executor``, ``rate_limit_retries``, ``progress``), what it may spend (``budgets``) and where it
    is written (``finish.out``: every unit's evidence and the checkpoint, nothing else: the folder's
    files are the finisher's, ``runs.finish``, but for an interrupted run, whose finished cases it
    finishes there; ``finish.resume`` continues the run recorded there). The set is checked against rule set
    ``settings.what.profile`` unless ``validate=False`` says the caller already did (``runs.plan``).
    The keywords are what a caller has already made: a runtime ``pool``, an ``executor`` (else the one
    the settings name), the run's ``fingerprints`` (the test set's is computed when not given), the
    ``agent_file`` the agent was loaded from (for executors that load it on other machines) and an
    ``export`` that takes each graded case (OpenTelemetry). Raises EvalSetError for an invalid set,
    CheckpointError for a foreign checkpoint, ExecutorError when the executor cannot run the agent or
    loses every worker, PrepareError for a grader spec or judge file that cannot be used.
    """
    settings = settings or RunSettings()
    fingerprints = fingerprints or RunFingerprints(test_set=test_set_fingerprint(test_set))  # the set as given
    if settings.play.workspace is not None:
        test_set = with_workspaces(test_set, settings.play.workspace, None)
    graders = resolve_graders(test_set, settings.grade)
    if validate:
        problems = validate_eval_test_set(test_set, settings.what.profile) + check_references(test_set, graders)
        if problems:
            raise EvalSetError(None, problems)
    workspaces = _workspaces(test_set, settings.play.protect, executor)
    if workspaces is not None:  # a local executor plays each unit in a fresh copy of its workspace
        executor = LocalExecutor(
            pool=executor.pool if isinstance(executor, LocalExecutor) else pool, workspaces=workspaces
        )
    executor = executor or executor_of(settings.play, pool=pool)
    play = _SetPlay(test_set, agent, settings, graders, workspaces, executor.name, fingerprints, export)
    try:
        await play.dispatch(executor, Path(agent_file) if agent_file is not None else None, fallback_texts)
    finally:
        if workspaces is not None:
            workspaces.close()
    return play.summary(fallback_texts)


class _SetPlay:
    """One play of a set under way: its units, the results finished so far, what they spent, their checkpoint."""

    def __init__(
        self,
        test_set: EvalTestSet,
        agent: Any,
        settings: RunSettings,
        graders: list[Grader],
        workspaces: RunWorkspaces | None,
        executor_name: str,
        fingerprints: RunFingerprints,
        export: CaseExport | None,
    ) -> None:
        self.test_set, self.agent, self.settings, self.graders = test_set, agent, settings, graders
        self.workspaces, self.fingerprints, self.export = workspaces, fingerprints, export
        self.started, self.clock = datetime.now(UTC), time.monotonic()
        out, repeat, shard = settings.finish.out, settings.play.repeat, settings.what.shard_info
        self.evidence_dir = out / LAYOUT.evidence if out is not None else None
        done: dict[str, list[EvalCaseResult]] = {}
        self.checkpoint = None
        if out is not None:
            out.joinpath(LAYOUT.evidence).mkdir(parents=True, exist_ok=True)
            self.checkpoint, done = Checkpoint.start(
                out, _header(test_set, graders, repeat, shard), resume=settings.finish.resume
            )
        self.units = units_of_shard(plan_units(test_set, repeat), test_set, shard)
        self.todo = [unit for unit in self.units if unit.key not in done]
        self.finished: list[EvalCaseResult] = [r for unit in self.units for r in done.get(unit.key, [])]
        self.execution = ExecutionRecord(executor=executor_name, concurrency=settings.play.concurrency)
        self.spending = RunSpending(settings.budgets)  # counted whether or not a cap is set: the run record shows it
        self.spending.add_all(done[unit.key] for unit in self.units if unit.key in done)

    async def deliver(self, unit: Unit, evidence: PlayedEvidence, note: str | None, bar: RunProgress) -> None:
        """Grade a played unit, checkpoint its results (durable before they count), export and count them."""
        graded = await grade_unit(
            unit, evidence, self.graders, evidence_dir=self.evidence_dir, workspaces=self.workspaces
        )
        results = _with_note(graded, note)
        if self.checkpoint is not None:
            self.checkpoint.append(unit.key, results)
        if self.export is not None:
            for index, (case, result) in enumerate(zip(unit.cases, results, strict=True)):
                self.export.export_case(case, result, evidence, turn_index=index)
        self.spending.add_judges(results)  # the session was counted when its play came back
        self.finished.extend(results)
        bar.add(results)

    async def skip(self, unit: Unit, reason: str, bar: RunProgress) -> None:
        """List a unit the budget stopped as not run; not checkpointed: a --resume with a larger budget plays it."""
        results = not_run_results(unit, reason)
        self.finished.extend(results)
        bar.add(results)

    async def dispatch(self, executor: Executor, agent_file: Path | None, fallback_texts: Iterable[str]) -> None:
        """Play the units not done yet; when stopped once workers started, finish what finished, then stop."""
        play, budget = self.settings.play, self.settings.budgets
        total = sum(len(u.cases) for u in self.units)
        with RunProgress(total, enabled=play.progress) as bar:
            bar.add(self.finished)
            try:
                await _dispatch(
                    executor,
                    self.agent,
                    agent_file,
                    self.todo,
                    self.execution,
                    concurrency=play.concurrency,
                    deliver=lambda unit, evidence, note: self.deliver(unit, evidence, note, bar),
                    rate_limit_retries=play.rate_limit_retries,
                    stop=self.spending.reached if budget else None,
                    skip=lambda unit, reason: self.skip(unit, reason, bar),
                    played=lambda unit, evidence: self.spending.add_session(session_usage(evidence)),
                    stop_waits_for_grading=budget.caps_judges(),
                )
            except BaseException as stop:
                if self.execution.workers:  # the workers were started: what finished is written, then the stop goes on
                    why = str(stop) if isinstance(stop, ExecutorError) else "interrupted"
                    note = f"{why}: {len(self.finished)} of {total} results finished; continue with --resume"
                    self.summary(fallback_texts, note, interrupted=True)
                raise

    def summary(self, fallback_texts: Iterable[str], note: str | None = None, *, interrupted: bool = False) -> EvalRun:
        """The EvalRun of what finished; an interrupted one is finished into its folder, for --resume."""
        settings, agent = self.settings, self.agent
        run = summarise(
            self.test_set,
            self.finished,
            agent_name=getattr(agent, "name", None),
            started=self.started,
            duration_ms=(time.monotonic() - self.clock) * 1000,
            fallback_texts=fallback_texts,
            note=note,
            min_pass_rate=settings.grade.pass_rate,
            repeat_dependence=repeat_dependence_of(agent),
            platform_answers=runtime_agent(agent) is None,
        )
        run = run.model_copy(
            update={
                "repeat": settings.play.repeat,
                "shard": settings.what.shard_info,
                "fingerprints": self.fingerprints,
                "execution": self.execution,
                "usage": self.spending.usage(),
            }
        )
        out = settings.finish.out
        if interrupted and out is not None:  # what finished is kept for --resume, through the one finisher
            finish_run_folders([FolderRun(out, run, self.test_set)], FinishOptions(no_history=True))
        return run


def _workspaces(test_set: EvalTestSet, protect: tuple[str, ...], executor: Executor | None) -> RunWorkspaces | None:
    """The run's workspaces when any case has one, checked (PrepareError naming each case that cannot be played)."""
    if (refusal := workspace_refusal(test_set, protect)) is not None:
        raise PrepareError(refusal)
    if not uses_workspaces(test_set):
        return None
    if executor is not None and not isinstance(executor, LocalExecutor):
        raise PrepareError("--workspace: workspaces are played with --executor local only")
    return RunWorkspaces(protect=protect)


def finished_before(test_set: EvalTestSet, settings: RunSettings) -> EvalRun | None:
    """With ``resume``: the run ``settings.finish.out`` holds when it already finished (every unit checkpointed, run.json
    written), to be left as it is; None when there is something left to play.

    A checkpoint of another run is refused (CheckpointError) as ``play_eval_set`` refuses it.
    """
    out = settings.finish.out
    if (
        not settings.finish.resume
        or out is None
        or not (out / LAYOUT.run_json).is_file()
        or not (out / LAYOUT.checkpoint).is_file()
    ):
        return None
    graders = resolve_graders(test_set, settings.grade)
    header = _header(test_set, graders, settings.play.repeat, settings.what.shard_info)
    _, done = Checkpoint.start(out, header, resume=True)
    units = units_of_shard(plan_units(test_set, settings.play.repeat), test_set, settings.what.shard_info)
    if any(unit.key not in done for unit in units):
        return None
    return read_run_folder(out).run


async def _dispatch(
    executor: Executor,
    agent: Any,
    agent_file: Path | None,
    todo: list[Unit],
    execution: ExecutionRecord,
    *,
    concurrency: int,
    deliver: Any,
    rate_limit_retries: int,
    stop: Any = None,
    skip: Any = None,
    played: Any = None,
    stop_waits_for_grading: bool = False,
) -> None:
    """Play ``todo`` on the executor's workers; their names and the dispatch log land in ``execution``, whatever happens."""
    dispatcher = None
    try:
        async with executor.open(agent, agent_file=agent_file, concurrency=concurrency) as workers:
            execution.workers = [worker.info for worker in workers]
            dispatcher = Dispatcher(
                todo,
                workers,
                concurrency=concurrency,
                deliver=deliver,
                rate_limit_retries=rate_limit_retries,
                stop=stop,
                skip=skip,
                played=played,
                stop_waits_for_grading=stop_waits_for_grading,
            )
            await dispatcher.run()
    finally:
        if dispatcher is not None:
            execution.concurrency_history = list(dispatcher.log.history)
            execution.retries = list(dispatcher.log.retries)


__all__ = [
    "DEFAULT_CONCURRENCY",
    "finished_before",
    "plan_units",
    "play_eval_set",
    "summarise",
    "unit_name",
]
