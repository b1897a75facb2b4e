"""A lift run's own files beside its arms' folders: lift.json, lift.md (for a pull request) and lift.html.

Names of arms, cases and customizations are other people's text: the Markdown goes through the
Markdown sanitiser, the HTML through the report's escaper, the JSON through the JSON writer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.lift.figures import LiftFigures
from copilot_eval.reports.html_page import esc, link, page, table
from copilot_eval.safe_paths import path_component
from copilot_eval.untrusted.markdown import md_inline
from copilot_eval.untrusted.utf8 import json_text

if TYPE_CHECKING:
    from copilot_eval.lift.engine import LiftRun
    from copilot_eval.lift.trigger_lift import TriggerLift

__all__ = [
    "LIFT_HTML",
    "LIFT_JSON",
    "LIFT_MD",
    "lift_document",
    "lift_markdown",
    "schedule_document",
    "trigger_lift_document",
    "verdict_words",
    "write_lift_files",
    "write_trigger_lift",
]

LIFT_JSON = "lift.json"
LIFT_MD = "lift.md"
LIFT_HTML = "report.html"  # the lift folder's own report; each arm's is in its folder
SCHEMA_VERSION = 1


def _share(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.0%}"


def _points(value: float | None) -> str:
    return "unknown" if value is None else f"{value * 100:+.1f} points"


def verdict_words(figures: LiftFigures) -> str:
    """One line: the difference, its interval and what it means (``could not measure`` when it holds zero)."""
    if figures.interval is None:
        return "could not measure: no case has a counted play in both arms"
    low, high = figures.interval
    said = {
        "improved": f"{figures.treatment} is better than {figures.control}",
        "regressed": f"{figures.treatment} is worse than {figures.control}",
        "could_not_measure": "could not measure: the interval holds zero (not 'no effect')",
    }[figures.verdict]
    if figures.paired_cases < 2:
        said = "could not measure: an interval over cases needs at least two cases with plays in both arms"
    detectable = (
        f"; this run could detect about {figures.smallest_detectable * 100:.0f} points"
        if figures.smallest_detectable is not None
        else ""
    )
    return (
        f"lift {_points(figures.difference)} over {figures.paired_cases} cases "
        f"(95% interval {low * 100:+.1f} to {high * 100:+.1f}): {said}{detectable}"
    )


def _figures(f: LiftFigures) -> dict[str, Any]:
    return {
        "difference": f.difference,
        "interval95": list(f.interval) if f.interval is not None else None,
        "method": "percentile bootstrap over cases",
        "seed": f.seed,
        "resamples": f.resamples,
        "verdict": f.verdict,
        "smallestDetectable": f.smallest_detectable,
        "pairedCases": f.paired_cases,
        "passRate": f.pass_rate,
        "deltas": f.deltas,
        "apart": f.apart,
        "flippedBetter": f.flipped("better"),
        "flippedWorse": f.flipped("worse"),
    }


def _arms(arms: Any) -> list[dict[str, Any]]:
    return [
        {
            "name": arm.name,
            "agent": arm.agent.name,
            "customizations": [
                {
                    "kind": e.text.kind,
                    "name": e.text.name,
                    "sha256": e.text.sha256,
                    "marker": e.text.marker,
                    "mustReachModel": e.present,
                    "decides": e.text.required,
                }
                for e in arm.expectations
            ],
        }
        for arm in arms
    ]


def schedule_document(slots: Any, concurrency: int | None, budget_reached: str | None) -> dict[str, Any]:
    """How the plays were scheduled: the one queue of both arms in order, each place's outcome, the limit."""
    return {
        "concurrency": concurrency,
        "budgetReached": budget_reached,
        "order": [
            {
                "unit": slot.key,
                "arm": slot.arm,
                "outcome": slot.outcome,
                **({"reason": slot.reason} if slot.reason else {}),
            }
            for slot in slots
        ],
    }


def trigger_lift_document(lift: TriggerLift, trigger_set: str) -> dict[str, Any]:
    """lift.json of a trigger set: the arms, precision and recall per skill in each, and the paired choices."""
    return {
        "schemaVersion": SCHEMA_VERSION,
        "kind": "triggers",
        "triggerSet": trigger_set,
        "control": lift.paired.control,
        "treatment": lift.paired.treatment,
        "arms": _arms(lift.arms),
        "skills": [
            {
                "name": s.name,
                "precision": s.precision,
                "recall": s.recall,
                "precisionDifference": s.precision_difference,
                "recallDifference": s.recall_difference,
            }
            for s in lift.skills
        ],
        "figures": _figures(lift.paired),
        "schedule": schedule_document(lift.slots, lift.concurrency, lift.budget_reached),
    }


def write_trigger_lift(lift: TriggerLift, trigger_set: str, folder: Path) -> Path:
    """Write a trigger set's lift.json into the lift folder; its path."""
    return write_text_atomically(folder / LIFT_JSON, json_text(trigger_lift_document(lift, trigger_set), indent=2))


def lift_document(run: LiftRun) -> dict[str, Any]:
    """lift.json: the arms and what tells them apart, every play with its delivery, and the paired figures."""
    f = run.figures
    return {
        "schemaVersion": SCHEMA_VERSION,
        "testSet": run.test_set.name,
        "repeat": run.repeat,
        "control": f.control,
        "treatment": f.treatment,
        "kind": "test-set",
        "arms": _arms(run.arms),
        "figures": _figures(f),
        "schedule": schedule_document(run.slots, run.concurrency, run.budget_reached),
        "cases": [
            {"case": c.case, "passes": c.passes, "counted": c.counted, "difference": c.difference, "flip": c.flip}
            for c in f.cases
        ],
        "plays": [
            {
                "case": p.case,
                "arm": p.arm,
                "repeat": p.repeat,
                "status": p.status,
                "paired": p.paired,
                "delivery": p.delivery,
                "deliveryReason": p.delivery_reason,
                "tokens": p.tokens,
                "turns": p.turns,
                "durationMs": p.duration_ms,
            }
            for p in run.plays
        ],
    }


def lift_markdown(run: LiftRun) -> str:
    """The lift for a pull request: the verdict line, the paired table and the flipped cases."""
    f = run.figures
    a, b = md_inline(f.control, limit=60), md_inline(f.treatment, limit=60)
    lines = [
        f"### Lift of {b} over {a} on {md_inline(run.test_set.name, limit=80)}",
        "",
        md_inline(verdict_words(f)),
        "",
    ]
    if run.budget_reached is not None:
        lines += [md_inline(f"{run.budget_reached}: both arms stopped there"), ""]
    lines += [f"| case | {a} | {b} | difference |", "| --- | --- | --- | --- |"]
    for case in f.cases:
        cells = [
            md_inline(case.case, limit=60),
            f"{case.passes[f.control]}/{case.counted[f.control]}",
            f"{case.passes[f.treatment]}/{case.counted[f.treatment]}",
            _points(case.difference),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    for way in ("better", "worse"):
        flipped = ", ".join(md_inline(c, limit=60) for c in f.flipped(way)) or "none"
        lines.append(f"\nFlipped {way}: {flipped}")
    for arm, reasons in f.apart.items():
        if reasons:
            counts = ", ".join(f"{n} {md_inline(k)}" for k, n in sorted(reasons.items()))
            lines.append(f"\nSet apart in {md_inline(arm, limit=60)}: {counts}")
    return "\n".join(lines) + "\n"


def _html(run: LiftRun) -> str:
    f = run.figures
    rows = [
        [
            esc(c.case),
            esc(_share(c.rate(f.control))),
            esc(_share(c.rate(f.treatment))),
            esc(_points(c.difference)),
            esc(c.flip or ""),
        ]
        for c in f.cases
    ]
    paired = table(["case", f.control, f.treatment, "difference", "flipped"], rows)
    plays = table(
        ["case", "arm", "repeat", "status", "delivery", "why"],
        [
            [esc(p.case), esc(p.arm), str(p.repeat), esc(p.status), esc(p.delivery), esc(p.delivery_reason or "")]
            for p in run.plays
        ],
    )
    deltas = ", ".join(f"{esc(k)} {esc('unknown' if v is None else f'{v:+.1f}')}" for k, v in f.deltas.items())
    links = " ".join(
        link(f"{path_component(arm.name, fallback='arm')}/report.html", arm.name, relative=True) for arm in run.arms
    )
    body = (
        f"<p>{esc(verdict_words(f))}</p><p>Per play (treatment minus control): {deltas}</p>"
        f"<p>Each arm's report: {links}</p><h2>Paired cases</h2>{paired}<h2>Plays and delivery</h2>{plays}"
    )
    return page(f"Lift: {f.treatment} over {f.control}", esc(run.test_set.name), body)


def write_lift_files(run: LiftRun, folder: Path) -> list[Path]:
    """Write lift.json, lift.md and lift.html into the run folder; the paths written."""
    return [
        write_text_atomically(folder / LIFT_JSON, json_text(lift_document(run), indent=2)),
        write_text_atomically(folder / LIFT_MD, lift_markdown(run)),
        write_text_atomically(folder / LIFT_HTML, _html(run)),
    ]
