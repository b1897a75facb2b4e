"""How a play's workspace shows in the views: the findings in the run summary, the patch in the report.

Every path, finding and patch line is the agent's doing (untrusted text): the terminal prints these
lines without markup, the Markdown cell-escapes them, and the HTML escapes them (``html_page``).
"""

from __future__ import annotations

from collections.abc import Sequence

from copilot_eval.evalsets.run_model import EvalCaseResult, EvalRun
from copilot_eval.reports.html_page import esc, pre, table
from copilot_eval.reports.run_folder import RunFolder

MAX_PATCH_SHOWN = 200_000  # characters of a patch shown inline in the report; the file keeps all of it


def _label(result: EvalCaseResult) -> str:
    turn = f" turn {result.turn}" if (result.turn or 1) > 1 else ""
    return f"case {result.conversation_number}{turn} r{result.repeat_index or 0}"


def findings_lines(run: EvalRun) -> list[str]:
    """One line per case whose play has honesty findings (the run summary's)."""
    lines = []
    for result in run.results or []:
        if result.workspace is None or not result.workspace.findings:
            continue
        found = "; ".join(f"{f.kind} {f.path} ({f.detail})" for f in result.workspace.findings)
        lines.append(f"workspace findings, {_label(result)}: {found}")
    return lines


def _paths(paths: Sequence[str]) -> str:
    return esc(", ".join(paths)) if paths else '<span class="muted">none</span>'


def workspace_html(result: EvalCaseResult, folder: RunFolder) -> str:
    """The case's workspace section: changes, files read and written, findings, and the patch."""
    record = result.workspace
    if record is None:
        return ""
    rows = [
        ["changed", _paths(record.changed)],
        ["added", _paths(record.added)],
        ["removed", _paths(record.removed)],
        ["read by the agent's file tools", _paths(record.files_read)],
        ["written by the agent's file tools", _paths(record.files_written)],
        ["working directory", esc(record.directory)],
    ]
    parts = ["<h3>Workspace</h3>", table(["", ""], rows)]
    if record.findings:
        parts.append("<h3>Honesty findings</h3>")
        parts.append(
            table(["kind", "path", "detail"], [[esc(f.kind), esc(f.path), esc(f.detail)] for f in record.findings])
        )
    patch_file = folder.evidence_file(record.patch_path)
    if patch_file is not None:
        text = patch_file.read_text(encoding="utf-8", errors="replace")
        shown = text if len(text) <= MAX_PATCH_SHOWN else text[:MAX_PATCH_SHOWN] + "\n[... cut; the file has it all]\n"
        link = folder.link(record.patch_path)
        parts.append(f'<h3>Patch (<a href="{esc(link)}">workspace.patch</a>)</h3>')
        parts.append(pre(shown) if text else '<p class="muted">the agent changed nothing</p>')
    return "".join(parts)


__all__ = ["findings_lines", "workspace_html"]
