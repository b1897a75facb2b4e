"""A rich table summarising saved CopilotResult files (quickstart): one row per run, tools and their outcomes."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table

from copilot_eval.evidence.result import CopilotResult


def evidence_table(paths: list[Path]) -> Table:
    """One row per saved result: execution, stop reason, tools and their outcomes, tokens, answer."""
    table = Table(title="Evidence", show_lines=True)
    for column in ("run", "executed", "stop reason", "tool calls", "evidence complete", "tokens"):
        table.add_column(column, overflow="fold")
    table.add_column("final response", overflow="fold", ratio=2)
    for path in paths:
        result = CopilotResult.load(path)
        calls = "\n".join(f"{call.name}: {call.outcome}" for call in result.all_tool_calls) or "-"
        tokens = str(result.total_tokens) if result.total_tokens is not None else "unknown"
        executed = "[green]yes[/green]" if result.success else f"[red]no[/red] {result.error or ''}"
        run_name = path.stem.split(".py_", 1)[-1]  # evidence files are named after the test id
        table.add_row(
            run_name,
            executed,
            str(result.stop_reason),
            calls,
            str(result.evidence_complete),
            tokens,
            (result.final_response or "-")[:200],
        )
    return table
