"""Evidence built by hand for the security layer's fast tests: a play's result with calls, answer and audit."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from copilot_eval.evidence import CopilotResult, ToolCall, Turn
from copilot_eval.evidence.audit import RequestAuditRecord
from copilot_eval.security.cases import Play, SecurityCase, plan_cases
from copilot_eval.security.suite import InjectionSuite


def result(
    *,
    calls: list[tuple[str, dict[str, Any]]] = (),  # type: ignore[assignment]
    answer: str = "",
    delivered: dict[str, bool] | None = None,
    audit: bool = True,
    success: bool = True,
    working_directory: Path | None = None,
) -> CopilotResult:
    """A completed run with these calls (all succeeded), this answer and one audited request."""
    records = None
    if audit:
        records = [RequestAuditRecord(request_id="r1", instructions_sha256="0" * 64, markers=delivered)]
    return CopilotResult(
        success=success,
        stop_reason="completed" if success else "timeout",
        error=None if success else "timed out",
        turns=[Turn(role="user", content="task"), Turn(role="assistant", content=answer)],
        all_tool_calls=[
            ToolCall(call_id=f"c{i}", name=name, arguments=args, completion_received=True, success=True, result="ok")
            for i, (name, args) in enumerate(calls)
        ],
        request_audit=records,
        working_directory=str(working_directory) if working_directory else None,
    )


def case_of(suite: InjectionSuite, case_id: str) -> SecurityCase:
    """The planned case of that id."""
    return next(case for case in plan_cases(suite) if case.id == case_id)


def play_of(suite: InjectionSuite, case_id: str, folder: Path, canary: str | None = "ce0123456789") -> Play:
    """One play of the case, in ``folder``."""
    case = case_of(suite, case_id)
    return Play(case, 0, canary if case.attacked else None, folder)
