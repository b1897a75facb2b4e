"""The run report's execution section: executor, retries, concurrency history, shard, merge, nodes.

Shown when run.json has any of them (runs written before issue 24 have none and show nothing).
The node that played each case is read from its evidence (``played_on``) and listed only when the
run was on Ray or its cases ran on more than one node: for a local run it would say nothing.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.evalsets.run_execution import ExecutionRecord
from copilot_eval.evalsets.run_model import EvalRun
from copilot_eval.reports.execution_words import (
    concurrency_changed,
    concurrency_lines,
    execution_line,
    merge_line,
    node_key,
    retry_summary,
    shard_line,
    shows_nodes,
)
from copilot_eval.reports.html_page import esc, table


def _retries(execution: ExecutionRecord) -> str:
    html = f'<p id="retries">{esc(retry_summary(execution))}</p>'
    if not execution.retries:
        return html
    rows = [
        [
            esc(r.unit),
            esc(r.attempt),
            esc(r.cause.replace("_", " ")),
            esc(r.worker),
            esc(None if r.wait_s is None else f"{r.wait_s:.1f} s"),
            esc("yes" if r.given_up else "no"),
            esc(r.detail or ""),
        ]
        for r in execution.retries
    ]
    return html + table(["unit", "play", "cause", "worker", "wait", "given up", "detail"], rows, cls="retries")


def _concurrency(execution: ExecutionRecord) -> str:
    lines = concurrency_lines(execution)
    if not lines:
        return ""
    stayed = "" if concurrency_changed(execution) else " (never changed)"
    items = "".join(f"<li><b>{esc(worker)}</b>: {esc(steps)}</li>" for worker, steps in lines)
    return f'<div id="concurrency">Concurrency per worker{esc(stayed)}:<ul>{items}</ul></div>'


def _nodes(execution: ExecutionRecord | None, cases: list[tuple[str, Any]]) -> str:
    by_node: dict[str, list[str]] = {}
    where: dict[str, dict[str, Any]] = {}
    for label, played_on in cases:
        key = node_key(played_on) or "unknown node"
        by_node.setdefault(key, []).append(label)
        where.setdefault(key, played_on if isinstance(played_on, dict) else {})
    if not shows_nodes(execution, {k for k in by_node if k != "unknown node"}):
        return ""
    for worker in execution.workers if execution is not None else []:
        known = worker.node_id or worker.node_address or worker.hostname
        if known and known not in by_node:
            by_node[known] = []  # a worker that played nothing is listed too: it was there
            where[known] = {"node_address": worker.node_address, "hostname": worker.hostname}
    rows = [
        [
            esc(key[:12] if key != "unknown node" else key),
            esc(where[key].get("node_address")),
            esc(where[key].get("hostname")),
            esc(len(labels)),
            esc(", ".join(labels) or "none"),
        ]
        for key, labels in by_node.items()
    ]
    return "<h3>Cases per node</h3>" + table(["node", "address", "host", "cases", "which"], rows, cls="nodes")


def execution_html(run: EvalRun, cases: list[tuple[str, Any]]) -> str:
    """The execution section; ``cases`` pairs each case's label with its evidence's ``played_on`` (or None)."""
    execution = run.execution
    facts = [(anchor, line) for anchor, line in (("shard", shard_line(run)), ("merge", merge_line(run))) if line]
    if execution is None and not facts:
        return ""
    parts = [f'<p id="{anchor}">{esc(line)}</p>' for anchor, line in facts]
    if execution is not None:
        parts += [f"<p>{esc(execution_line(execution))}</p>", _retries(execution), _concurrency(execution)]
    parts.append(_nodes(execution, cases))
    return '<h2 id="execution">Execution</h2>' + "".join(parts)


__all__ = ["execution_html"]
