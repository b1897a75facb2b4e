"""Play one unit (a single-turn case, or one conversation) through the runtime and grade it.

A unit runs in one fresh session; ``_play`` is the one place a unit is played. Each answer is
graded against its own case's reference. Its evidence is saved before grading, so a grader crash never
loses what the agent did. A case the session never answered is an ``error``: the platform failed,
which says nothing about the agent's quality.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading.combine import combine_grades
from copilot_eval.grading.protocol import CaseEvidence, Grade, Grader
from copilot_eval.runs.target import PlayedEvidence, is_target


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


async def _play(agent: Any, prompts: list[str], pool: Any) -> PlayedEvidence:
    from copilot_eval.runtime.session.runner import run_copilot

    try:
        if is_target(agent):  # a Copilot Studio agent (or any Target) plays the conversation itself
            return await agent.play(prompts)
        return await run_copilot(agent, prompts[0] if len(prompts) == 1 else prompts, pool=pool)
    except Exception as exc:
        return CopilotResult(
            success=False,
            stop_reason="execution_error",
            prompt=prompts[0],
            error=f"could not start the session: {type(exc).__name__}: {exc}",
        )


async def _grade(grader: Grader, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
    method = getattr(grader, "name", type(grader).__name__)
    try:
        return await grader.grade(case, evidence)
    except Exception as exc:
        return Grade(method, CaseStatus.ERROR, f"grader crashed: {type(exc).__name__}: {exc}")


def _evidence_path(evidence_dir: Path | None, unit: Unit) -> Path | None:
    if evidence_dir is None:
        return None
    from copilot_eval.reports.evidence_names import unit_evidence_name

    return evidence_dir / unit_evidence_name(unit.key)


async def run_unit(
    unit: Unit, agent: Any, graders: Sequence[Grader], *, pool: Any = None, evidence_dir: Path | None = None
) -> list[EvalCaseResult]:
    """Run ``unit`` in one session, save its evidence, and grade each of its cases."""
    result = await _play(agent, [case.question for case in unit.cases], pool)
    path = _evidence_path(evidence_dir, unit)
    saved = str(result.save(path)) if path is not None else None
    answers = result.responses_per_prompt
    outcomes = []
    for index, (case, turn) in enumerate(zip(unit.cases, unit.turn_numbers(), strict=True)):
        answer = answers[index] if index < len(answers) else None
        evidence = CaseEvidence(
            answer=answer,
            # A target's evidence is not a CopilotResult; the graders that need one check what they got.
            result=result,  # type: ignore[arg-type]
            turn_index=index,
            evidence_path=saved,
        )
        grades = [await _grade(grader, case, evidence) for grader in graders]
        status, reason = combine_grades(grades)
        if evidence.runtime_error is not None:
            status, reason = CaseStatus.ERROR, evidence.runtime_error
        outcomes.append(
            EvalCaseResult(
                conversation_number=case.conversation_number,
                turn=turn,
                passed=status is CaseStatus.PASS,
                actual_response=answer,
                failure_reason=reason,
                status=status,
                grades=[grade.to_record() for grade in grades],
                evidence_path=saved,
                duration_ms=result.duration_ms,
                repeat_index=unit.repeat_index,
            )
        )
    return outcomes


__all__ = ["Unit", "run_unit"]
