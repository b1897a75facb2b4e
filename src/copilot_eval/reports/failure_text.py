"""The text pytest prints when a test-set item fails or cannot be graded: question, expected, actual, verdicts.

Questions, answers and reasons are not ours: they pass the terminal sanitiser (``copilot_eval.untrusted.terminal``),
their lines kept, control characters shown as escapes and no line a workflow command."""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets.model import EvalTestCase
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult
from copilot_eval.untrusted.terminal import terminal_text


def _grade_lines(result: EvalCaseResult, indent: str) -> list[str]:
    # A grader's explanation already carries its score and pass mark; repeating them is noise.
    lines = [
        f"{indent}{grade.method} ({grade.status.value}): {grade.explanation or 'no reason given'}"
        for grade in result.grades
    ]
    if not result.grades and result.failure_reason:
        lines.append(f"{indent}reason: {result.failure_reason}")
    return lines


def describe_case(case: EvalTestCase, result: EvalCaseResult, verb: str, indent: str = "  ") -> str:
    """One case: its question, the reference, the actual answer and each grader's verdict."""
    lines = [
        f"case {case.conversation_number} {verb}: {case.question}",
        f"{indent}expected: {case.response}",
        f"{indent}actual:   {result.actual_response if result.actual_response is not None else '(no answer)'}",
    ]
    lines += _grade_lines(result, indent)
    return terminal_text("\n".join(lines), one_line=False)


def _describe_turn(case: EvalTestCase, result: EvalCaseResult) -> str:
    head = f"  turn {result.turn or 1} {result.effective_status.value.upper()}: {terminal_text(case.question)}"
    if result.effective_status is CaseStatus.PASS:
        return head
    body = describe_case(case, result, "", indent="      ").split("\n", 1)[1]  # the head names the question
    return f"{head}\n{body}"


def describe_unit(cases: Sequence[EvalTestCase], results: Sequence[EvalCaseResult], verb: str) -> str:
    """A single case, or a conversation turn by turn, followed by the evidence file when there is one."""
    if len(cases) == 1:
        text = describe_case(cases[0], results[0], verb)
    else:
        turns = "\n".join(_describe_turn(case, result) for case, result in zip(cases, results, strict=True))
        bad = sum(result.effective_status is not CaseStatus.PASS for result in results)
        text = (
            f"conversation {cases[0].conversation_number} {verb}: {bad} of {len(results)} turns did not pass\n{turns}"
        )
    evidence = results[0].evidence_path if results else None
    return text + (f"\n  evidence: {evidence}" if evidence else "")


__all__ = ["describe_case", "describe_unit"]
