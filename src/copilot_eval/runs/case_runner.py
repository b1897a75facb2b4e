"""Play one unit (a single-turn case, or one conversation) through the runtime and grade it.

A unit runs in one fresh session; ``_play`` is the one place a unit is played. Each answer is
graded against its own case's reference by ``graded_result``, the grading step that regrade and the
pytest test-set items use too. Its evidence is saved before grading, so a grader crash never loses
what the agent did. A case the session never answered is an ``error`` (``grading.combine.grade_case``
decides it): the platform failed, which says nothing about the agent's quality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase, WorkspaceRecord
from copilot_eval.evalsets.phase_record import PhaseRecord
from copilot_eval.evalsets.prompt_cases import played_prompt
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading.combine import CaseFacts, case_status, grade_case
from copilot_eval.grading.prompt_graders import gh_models_case_passed
from copilot_eval.grading.protocol import CaseEvidence, Grader
from copilot_eval.reports.evidence_names import unit_evidence_name
from copilot_eval.runs.prompt_agent import session_agent
from copilot_eval.runs.target import PlayedEvidence, as_target, runtime_agent
from copilot_eval.runs.workspaces import keep


@dataclass(frozen=True)
class Unit:
    """Cases played together in one session, for one repeat; ``key`` names it in the checkpoint.

    ``turns`` holds each case's 1-based position among the rows sharing its conversationNumber
    (what identifies a result); empty means 1, 2, ... in order.
    """

    key: str
    cases: tuple[EvalTestCase, ...]
    repeat_index: int
    turns: tuple[int, ...] = ()

    def turn_numbers(self) -> tuple[int, ...]:
        """The turn of each case, defaulting to its position in the unit."""
        return self.turns or tuple(range(1, len(self.cases) + 1))


def failed_play(prompts: Sequence[str], error: str) -> CopilotResult:
    """The evidence of a unit that could not be played at all: an execution error with ``error``."""
    return CopilotResult(success=False, stop_reason="execution_error", prompt=prompts[0], error=error)


async def play_unit(unit: Unit, agent: Any, *, pool: Any = None) -> PlayedEvidence:
    """Play ``unit`` in one fresh session and return its evidence; a failure to start is recorded, not raised.

    A prompt file's case is asked with its earlier messages before the question, in a session whose
    instructions are the row's system message (``prompt_agent``).
    """
    return await _play(session_agent(agent, unit.cases[0]), [played_prompt(case) for case in unit.cases], pool)


async def play_in_workspace(unit: Unit, agent: Any, workspaces: Any, *, pool: Any = None) -> PlayedEvidence:
    """Play ``unit`` in a fresh copy of its workspace (``runs.workspaces.RunWorkspaces``), set up first.

    A fixture that cannot be staged or a setup command that fails is the unit's execution error: the
    agent never starts, and the case is an ``error`` naming it, never a ``fail``.
    """
    prompts = [played_prompt(case) for case in unit.cases]
    try:
        prepared = await workspaces.prepare(unit.cases)
    except ValueError as exc:
        return failed_play(prompts, str(exc))
    if prepared is None:
        return await play_unit(unit, agent, pool=pool)
    where = {"working_directory": str(prepared.directory)}
    if prepared.setup_problem is not None:
        return failed_play(prompts, prepared.setup_problem).model_copy(update=where)
    runtime = runtime_agent(agent)
    if runtime is None:
        return failed_play(prompts, "a workspace needs a Copilot runtime agent (a Copilot Studio target has no files)")
    return await _play(session_agent(runtime.with_options(**where), unit.cases[0]), prompts, pool)


async def _play(agent: Any, prompts: list[str], pool: Any) -> PlayedEvidence:
    try:
        return await as_target(agent, pool=pool).play(prompts)
    except Exception as exc:
        return failed_play(prompts, f"could not start the session: {type(exc).__name__}: {exc}")


async def graded_result(
    case: EvalTestCase,
    evidence: CaseEvidence,
    graders: Sequence[Grader],
    *,
    turn: int | None,
    repeat_index: int | None,
    duration_ms: float | None,
    phases: PhaseRecord | None = None,
    workspace: WorkspaceRecord | None = None,
) -> EvalCaseResult:
    """The result of one case: the grading step's verdict on ``evidence``, with the case's place in the run
    (and the time by phase of the session that played it, and what it did to its workspace)."""
    verdict = await grade_case(case, evidence, graders)
    spent = session_usage(evidence.result)
    return EvalCaseResult(
        conversation_number=case.conversation_number,
        case_key=case.case_key,
        gh_models_passed=gh_models_case_passed(graders, verdict.grades) if case.prompt is not None else None,
        turn=turn,
        passed=verdict.status is CaseStatus.PASS,
        actual_response=evidence.answer,
        failure_reason=verdict.reason,
        status=verdict.status,
        grades=[grade.to_record() for grade in verdict.grades],
        evidence_path=evidence.evidence_path,
        duration_ms=duration_ms,
        repeat_index=repeat_index,
        phases=phases,
        workspace=workspace,
        **spent,
    )


def session_usage(result: Any) -> dict[str, Any]:
    """What the session that played a case spent, as the case result's fields (``None`` where unknown)."""
    inputs = getattr(result, "total_input_tokens", None)
    outputs = getattr(result, "total_output_tokens", None)
    return {
        "tokens": None if inputs is None or outputs is None else inputs + outputs,
        "premium_requests": getattr(result, "total_premium_requests", None),
        "ai_credits": getattr(result, "total_ai_credits", None),
    }


def not_run_results(unit: Unit, reason: str) -> list[EvalCaseResult]:
    """The results of a unit that was never played (a run budget reached first): listed, never graded."""
    status, why = case_status(CaseFacts(not_run=reason))
    return [
        EvalCaseResult(
            conversation_number=case.conversation_number,
            case_key=case.case_key,
            turn=turn,
            passed=False,
            failure_reason=why,
            status=status,
            repeat_index=unit.repeat_index,
        )
        for case, turn in zip(unit.cases, unit.turn_numbers(), strict=True)
    ]


def phase_record_of(result: PlayedEvidence) -> PhaseRecord | None:
    """The run record's form of a session's time by phase; ``None`` for a target or a session without a trace."""
    times = result.phase_times
    if times is None:
        return None
    return PhaseRecord.model_validate(
        {"total_ms": times.total_ms, **{f"{phase}_ms": ms for phase, ms in times.by_phase().items()}}
    )


def _evidence_path(evidence_dir: Path | None, unit: Unit) -> Path | None:
    if evidence_dir is None:
        return None

    return evidence_dir / unit_evidence_name(unit.key)


async def run_unit(
    unit: Unit, agent: Any, graders: Sequence[Grader], *, pool: Any = None, evidence_dir: Path | None = None
) -> list[EvalCaseResult]:
    """Run ``unit`` in one session, save its evidence, and grade each of its cases."""
    result = await play_unit(unit, agent, pool=pool)
    return await grade_unit(unit, result, graders, evidence_dir=evidence_dir)


async def grade_unit(
    unit: Unit,
    result: PlayedEvidence,
    graders: Sequence[Grader],
    *,
    evidence_dir: Path | None = None,
    workspaces: Any = None,
) -> list[EvalCaseResult]:
    """Save the evidence of a played ``unit`` (wherever it was played), then grade each of its cases.

    A unit played in a workspace has what it left measured first (before any grader runs a command in
    it): the patch and the setup's output are kept beside the evidence, and the graders see the outcome.
    """
    path = _evidence_path(evidence_dir, unit)
    saved = str(result.save(path)) if path is not None else None
    outcome = await workspaces.conclude(result) if workspaces is not None else None
    record = keep(outcome, evidence_dir, unit.key) if outcome is not None else None
    answers = result.responses_per_prompt
    phases = phase_record_of(result)
    outcomes = []
    for index, (case, turn) in enumerate(zip(unit.cases, unit.turn_numbers(), strict=True)):
        answer = answers[index] if index < len(answers) else None
        evidence = CaseEvidence(
            answer=answer,
            result=result,
            turn_index=index,
            evidence_path=saved,
            turn=turn,
            workspace=outcome,
        )
        outcomes.append(
            await graded_result(
                case,
                evidence,
                graders,
                turn=turn,
                repeat_index=unit.repeat_index,
                duration_ms=result.duration_ms,
                phases=phases,
                workspace=record,
            )
        )
    return outcomes


__all__ = [
    "Unit",
    "failed_play",
    "grade_unit",
    "graded_result",
    "not_run_results",
    "phase_record_of",
    "play_in_workspace",
    "play_unit",
    "run_unit",
    "session_usage",
]
