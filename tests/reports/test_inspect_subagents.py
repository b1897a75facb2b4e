"""`inspect` shows each subagent a session dispatched, with what its own evidence holds."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from copilot_eval.evidence.result import CopilotResult, SubagentInvocation
from copilot_eval.reports.inspect_view import render_result


def test_each_subagent_is_a_row_with_its_childs_turns_and_unknown_without_a_child_trace():
    result = CopilotResult(
        subagent_invocations=[
            SubagentInvocation(
                name="planner", kind="task", status="completed", duration_ms=12.5, result=CopilotResult()
            ),
            SubagentInvocation(name="[red]reviewer", kind="custom", status="failed"),
        ]
    )
    console = Console(record=True, width=160, color_system=None)
    render_result(result, Path("evidence.json"), console)
    lines = [line for line in console.export_text().splitlines() if "planner" in line or "reviewer" in line]
    assert len(lines) == 2
    cells = [[cell.strip() for cell in line.split("│")[1:-1]] for line in lines]
    assert cells[0] == ["planner", "task", "completed", "12.5", "0", "0"]
    # no child trace: its counts are unknown, never 0; a name is shown as written, not as markup
    assert cells[1] == ["[red]reviewer", "custom", "failed", "", "-", "-"]
