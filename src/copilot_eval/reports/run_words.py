"""The words every view of a run uses for its score and its runtime limitation, derived from the fields.

The terminal, HTML, Markdown and JUnit views say the same thing because they all ask here: a run
in which nothing could be graded has no score ("n/a: nothing could be graded", never "0 %"), and
a limitation is headed by its standing (a field), with what confirmed it after the text.
"""

from __future__ import annotations

from copilot_eval.evalsets.run_model import EvalRun, LimitationStanding

NOTHING_GRADED = "n/a: nothing could be graded"
"""What a view shows instead of a score when no case got a pass or fail verdict."""

_HEADINGS = {
    LimitationStanding.SUSPECTED: "Suspected runtime limitation",
    LimitationStanding.CONFIRMED: "Confirmed runtime limitation",
}


def score_text(run: EvalRun) -> str:
    """The score as a view shows it: ``75%``, or ``n/a: nothing could be graded``."""
    return f"{run.general_quality_percent:g}%" if run.graded else NOTHING_GRADED


def score_over_graded(run: EvalRun) -> str:
    """The score with what it is over: ``75% over 4 graded``, or ``n/a: nothing could be graded``."""
    return f"{score_text(run)} over {run.graded} graded" if run.graded else NOTHING_GRADED


def limitation_heading(run: EvalRun) -> str | None:
    """``Suspected runtime limitation``, ``Confirmed runtime limitation`` (or, without a standing, just
    ``Runtime limitation``); ``None`` when the run has none."""
    if run.runtime_limitation is None:
        return None
    return _HEADINGS[run.limitation_standing] if run.limitation_standing is not None else "Runtime limitation"


def confirmed_by_text(run: EvalRun) -> str | None:
    """``Confirmed by: A; B.``, or ``None`` when nothing confirmed the limitation."""
    return f"Confirmed by: {'; '.join(run.limitation_confirmed_by)}." if run.limitation_confirmed_by else None


def limitation_line(run: EvalRun) -> str | None:
    """The limitation in one line: heading, text, and what confirmed it; ``None`` when the run has none."""
    heading = limitation_heading(run)
    if heading is None:
        return None
    confirmed = confirmed_by_text(run)
    return f"{heading}: {run.runtime_limitation}" + (f" {confirmed}" if confirmed else "")


def drafts_text(run: EvalRun) -> str | None:
    """How many cases of the run are unreviewed drafts of ``generate``; None when the set had no sidecar."""
    if run.draft_cases is None:
        return None
    if run.draft_cases == 0:
        return "no draft cases: every case of this generated set was reviewed"
    return f"{run.draft_cases} unreviewed draft case(s) from generate (SET.provenance.json): drafts, not truths"


__all__ = [
    "NOTHING_GRADED",
    "confirmed_by_text",
    "drafts_text",
    "limitation_heading",
    "limitation_line",
    "score_over_graded",
    "score_text",
]
