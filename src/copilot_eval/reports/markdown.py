"""A run's summary as Markdown, for a pull-request comment or ``$GITHUB_STEP_SUMMARY``.

Every text that is not ours (names, reasons, limitations) goes through the one Markdown
sanitiser, ``copilot_eval.untrusted.markdown.md_inline``: shown as written, never rendered."""

from __future__ import annotations

from copilot_eval.evalsets.run_model import CaseStatus, EvalRun
from copilot_eval.reports.execution_words import merge_line, retry_notes, shard_line
from copilot_eval.reports.repeat_words import (
    # The same words as reports/terminal.py imports, on purpose: each report renders them for its own
    # output kind, through that kind's one sanitiser.
    case_flag,
    case_label,
    case_records,
    judge_cost_line,
    rate_text,
    repeat_lines,
    shown_status,
    shows_repeats,
)
from copilot_eval.reports.run_words import confirmed_by_text, drafts_text, limitation_heading, score_over_graded
from copilot_eval.reports.usage_words import case_usage_text, usage_lines
from copilot_eval.reports.workspace_words import findings_lines
from copilot_eval.untrusted.markdown import md_inline


def _cell(text: str | None, limit: int = 120) -> str:
    return md_inline(text, limit=limit)


def run_summary_markdown(run: EvalRun, *, label: str | None = None) -> str:
    """Score, counts, confidence, the limitation if any, and every case that did not pass.

    ``label`` names the surface in the heading (several ``--agent`` in one summary).
    """
    on = f" on {_cell(label)}" if label else ""
    lines = [
        f"### {_cell(run.test_set_name)}{on}: {score_over_graded(run)}",
        "",
        f"{run.passed} passed, {run.failed} failed, {run.errored or 0} errors (not graded), "
        f"{run.not_graded or 0} unknown"
        + (f", {run.not_run} not run" if run.not_run else "")
        + f"; confidence {run.confidence.value}",
    ]
    if (heading := limitation_heading(run)) is not None:
        confirmed = confirmed_by_text(run)
        lines += [
            "",
            f"> **{heading}:** {_cell(run.runtime_limitation, 600)}" + (f" {_cell(confirmed)}" if confirmed else ""),
        ]
    part = [merge_line(run) or shard_line(run)]  # a shard's or a merge's summary says which part it is
    notes = [
        line
        for line in [
            *part,
            *repeat_lines(run),
            judge_cost_line(run),
            *usage_lines(run),
            *retry_notes(run),
            *findings_lines(run),
            drafts_text(run),
        ]
        if line
    ]
    lines += ["", *(f"- {_cell(line, 600)}" for line in notes)] if notes else []
    if shows_repeats(run):
        lines += ["", "| case | attempts | pass rate over graded tries | verdict |", "| --- | --- | --- | --- |"]
        lines += [
            f"| {_cell(case_label(r))} | {r.attempts} | {_cell(rate_text(r))} | {_cell(case_flag(r))} |"
            for r in case_records(run) or []
        ]
    bad = [r for r in run.results or [] if r.effective_status is not CaseStatus.PASS or r.judge_unstable]
    if bad:
        lines += [
            "",
            "| case | turn | repeat | status | reason | spent |",
            "| --- | --- | --- | --- | --- | --- |",
        ]
        lines += [
            f"| {r.conversation_number} | {r.turn or 1} | {r.repeat_index or 0} | {shown_status(r)} | "
            f"{_cell(r.failure_reason)} | {'' if r.effective_status is CaseStatus.NOT_RUN else case_usage_text(r)} |"
            for r in bad
        ]
    return "\n".join(lines) + "\n"


__all__ = ["run_summary_markdown"]
