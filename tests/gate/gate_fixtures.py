"""Run folders for the gate's tests: the history tests' folders, with tool calls and a runtime version where asked."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.tool_call import ToolCall
from tests.history.history_fixtures import START, write_run


def gate_run(
    folder: Path,
    statuses: Sequence[str] | Sequence[Sequence[str]],
    *,
    run_at: datetime = START,
    tools: dict[int, list[str]] | None = None,
    runtime: str | None = "1.0.102",
    **options: object,
) -> Path:
    """A run folder whose case n has statuses[n-1]; case n's sessions called ``tools[n]`` in order."""
    write_run(folder, statuses, run_at=run_at, **options)  # type: ignore[arg-type]
    for path in sorted((folder / "evidence").glob("case*-r*.json")):
        number = int(path.name.removeprefix("case").split("-")[0])
        result = CopilotResult.load(path)
        calls = [
            ToolCall(call_id=f"c{n}", name=name, success=True) for n, name in enumerate((tools or {}).get(number, []))
        ]
        result.model_copy(update={"all_tool_calls": calls, "runtime_version": runtime}).save(path)
    return folder
