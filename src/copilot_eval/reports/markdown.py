"""A run's summary as Markdown, for a pull-request comment or ``$GITHUB_STEP_SUMMARY``."""

from __future__ import annotations

from copilot_eval.evalsets.run_model import CaseStatus, EvalRun


def _cell(text: str | None, limit: int = 120) -> str:
    flat = " ".join((text or "").split()).replace("|", "\\|")
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def run_summary_markdown(run: EvalRun) -> str:
    """Score, counts, confidence, the limitation if any, and every case that did not pass."""
    graded = run.passed + run.failed
    lines = [
        f"### {_cell(run.test_set_name)}: {run.general_quality_percent:g}% over {graded} graded",
        "",
        f"{run.passed} passed, {run.failed} failed, {run.errored or 0} errors (not graded), "
        f"{run.not_graded or 0} unknown; confidence {run.confidence.value}",
    ]
    if run.runtime_limitation:
        standing = getattr(run, "limitation_standing", None)  # suspected or confirmed, where recorded
        label = f"Runtime limitation ({getattr(standing, 'value', standing)})" if standing else "Runtime limitation"
        lines += ["", f"> **{label}:** {_cell(run.runtime_limitation, 600)}"]
    bad = [r for r in run.results or [] if r.effective_status is not CaseStatus.PASS]
    if bad:
        lines += ["", "| case | turn | repeat | status | reason |", "| --- | --- | --- | --- | --- |"]
        lines += [
            f"| {r.conversation_number} | {r.turn or 1} | {r.repeat_index or 0} | {r.effective_status.value} | "
            f"{_cell(r.failure_reason)} |"
            for r in bad
        ]
    return "\n".join(lines) + "\n"


__all__ = ["run_summary_markdown"]
