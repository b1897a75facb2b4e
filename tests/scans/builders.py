"""Evidence built by hand for the scanners' fast tests: a conversation as a short list of steps."""

from __future__ import annotations

from typing import Any

from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.evidence.turn import Turn
from copilot_eval.scans import CaseTranscript, transcript_of


def conversation(*steps: Any, configuration: dict[str, Any] | None = None) -> CopilotResult:
    """``("user", text)``, ``("answer", text)``, ``("call", name, args, result[, success])`` in order."""
    turns: list[Turn] = []
    calls: list[ToolCall] = []
    for step in steps:
        kind = step[0]
        if kind == "user":
            turns.append(Turn(role="user", content=step[1]))
        elif kind == "answer":
            turns.append(Turn(role="assistant", content=step[1]))
        else:
            call_id = f"c{len(calls) + 1}"
            success = step[4] if len(step) > 4 else True
            calls.append(
                ToolCall(
                    call_id=call_id,
                    name=step[1],
                    arguments=step[2],
                    result=step[3],
                    success=success,
                    completion_received=True,
                )
            )
            turns.append(Turn(role="assistant", content="", tool_call_ids=[call_id]))
    return CopilotResult(
        success=True, stop_reason="completed", turns=turns, all_tool_calls=calls, configuration=configuration
    )


def case(*steps: Any, configuration: dict[str, Any] | None = None, turn: int | None = 1) -> CaseTranscript:
    """The transcript of ``conversation(*steps)`` as the case of its turn ``turn``."""
    return transcript_of(conversation(*steps, configuration=configuration), key="1", turn=turn)
