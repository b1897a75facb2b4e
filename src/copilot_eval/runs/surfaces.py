"""Several surfaces of one agent in one run: the same test set against each, compared case by case.

Each surface (a draft, a published channel, Preview ...) gets its own folder with its own
``run.json``. When one surface shows a runtime limitation and another surface of the same agent
(``runs.played_agent``), free of one, passed the questions it failed, the limitation is confirmed
by that surface (its name and pass rate are written into ``limitationConfirmedBy``), so a 0 % on a
broken surface reads as the platform's failure, not the agent's. Surfaces of different agents are
an A/B comparison: none confirms another. ``comparison.json`` puts the surfaces side by side.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalRun, EvalTestSet, RunFingerprints
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.runs.eval_runner import CaseExport, play_eval_set
from copilot_eval.runs.executor import Executor
from copilot_eval.runs.fingerprints import agent_fingerprint, played_agent_fingerprint
from copilot_eval.runs.limitation import confirm_limitation
from copilot_eval.runs.played_agent import ab_line, same_agent
from copilot_eval.runs.settings import RunSettings
from copilot_eval.runs.target import load_played
from copilot_eval.safe_paths import path_component

COMPARISON_JSON = LAYOUT.comparison_json
#: A surface confirms another's limitation when it passed at least this share of the questions that failed there.
CONFIRMING_PASS_RATE = 0.5


# Alike in shape only to grading/combine.py's Verdict (a frozen record of three fields); unrelated meanings.
@dataclass(frozen=True)
class Surface:
    """One agent of a multi-surface run: its label (folder name), the loaded agent, and its file when it has one."""

    label: str
    agent: Any
    agent_file: Path | None = None


@dataclass(frozen=True)
class SurfaceRun:
    """The finished run of one surface and the folder it was written to."""

    label: str
    run: EvalRun
    output_dir: Path | None


def surface_labels(names: Sequence[str]) -> list[str]:
    """Folder-safe, unique labels from agent names (``a``, ``a-2`` for a repeated name)."""
    labels: list[str] = []
    for name in names:
        base = path_component(name, fallback="agent")  # a 300-character name still makes a folder
        label, n = base, 2
        while label in labels:
            label, n = f"{base}-{n}", n + 1
        labels.append(label)
    return labels


def _not_passed(run: EvalRun) -> set[tuple[int, int]]:
    return {
        (r.conversation_number, r.turn or 1) for r in run.results or [] if r.effective_status is not CaseStatus.PASS
    }


def _citations(run: EvalRun) -> int | None:
    """Distinct cited URLs in a surface's evidence (``None`` when no evidence could be read)."""
    urls: set[str] = set()
    seen_any = False
    for path in {r.evidence_path for r in run.results or [] if r.evidence_path}:
        try:
            result = load_played(path)
        except (OSError, ValueError):
            continue
        seen_any = True
        urls.update(c.url for c in result.citations if c.url)
    return len(urls) if seen_any else None


def confirming_note(label: str, good: EvalRun, questions: set[tuple[int, int]], *, citations: int | None) -> str | None:
    """What ``good`` (surface ``label``) shows about ``questions``, or ``None`` when it does not confirm."""
    mine = [r for r in good.results or [] if (r.conversation_number, r.turn or 1) in questions]
    graded = [r for r in mine if r.effective_status in (CaseStatus.PASS, CaseStatus.FAIL)]
    passed = sum(r.effective_status is CaseStatus.PASS for r in graded)
    if not mine or not graded or passed < CONFIRMING_PASS_RATE * len(mine):
        return None
    cited = f" with {citations} distinct citations" if citations else ""
    named = f" ({good.agent_name})" if good.agent_name and good.agent_name != label else ""
    return (
        f"surface {label}{named} answered the same {len(mine)} questions well: "
        f"{passed} of {len(mine)} passed ({100 * passed / len(mine):.0f}%){cited}"
    )


def confirm_across_surfaces(runs: Sequence[SurfaceRun]) -> list[SurfaceRun]:
    """Each run whose suspected limitation another, limitation-free surface of the same agent contradicts, confirmed by it."""
    confirmed = []
    for current in runs:
        run = current.run
        questions = _not_passed(run)
        if run.runtime_limitation is not None and questions:
            for other in runs:
                if other is current or other.run.runtime_limitation is not None or not same_agent(run, other.run):
                    continue
                note = confirming_note(other.label, other.run, questions, citations=_citations(other.run))
                if note is not None:
                    run = confirm_limitation(run, by=note)
                    break
        confirmed.append(SurfaceRun(current.label, run, current.output_dir))
    return confirmed


def comparison(test_set: EvalTestSet, runs: Sequence[SurfaceRun]) -> dict[str, Any]:
    """The side-by-side record written as ``comparison.json``: one summary per surface, one row per case."""
    surfaces = [
        {
            "label": s.label,
            "agentName": s.run.agent_name,
            "runDirectory": str(s.output_dir) if s.output_dir else None,
            "generalQualityPercent": s.run.general_quality_percent,
            "gradedCases": s.run.graded,
            "passed": s.run.passed,
            "failed": s.run.failed,
            "errored": s.run.errored,
            "notGraded": s.run.not_graded,
            "runtimeLimitation": s.run.runtime_limitation,
            "limitationStanding": s.run.limitation_standing.value if s.run.limitation_standing else None,
            "limitationConfirmedBy": s.run.limitation_confirmed_by,
            "confidence": s.run.confidence.value if s.run.confidence else None,
        }
        for s in runs
    ]
    cases = []
    for case in sorted(test_set.cases, key=lambda c: c.conversation_number):
        row: dict[str, Any] = {
            "conversationNumber": case.conversation_number,
            "question": case.question,
            "surfaces": {},
        }
        for s in runs:
            mine = [r for r in s.run.results or [] if r.conversation_number == case.conversation_number]
            row["surfaces"][s.label] = [
                {
                    "status": r.effective_status.value,
                    "turn": r.turn,
                    "repeat": r.repeat_index,
                    "actualResponse": r.actual_response,
                    "failureReason": r.failure_reason,
                }
                for r in mine
            ]
        cases.append(row)
    ab = ab_line([(s.label, s.run) for s in runs])
    return {"testSet": test_set.name, "abComparison": ab is not None, "surfaces": surfaces, "cases": cases}


def comparison_file(test_set: EvalTestSet, runs: Sequence[SurfaceRun], output_dir: Path) -> tuple[Path, str]:
    """``comparison.json`` beside the surfaces' folders: its path and text, for the finisher to write."""
    return output_dir / LAYOUT.comparison_json, json.dumps(
        comparison(test_set, runs), indent=2, ensure_ascii=False
    ) + "\n"


async def play_surfaces(
    test_set: EvalTestSet,
    surfaces: Sequence[Surface],
    settings: RunSettings | None = None,
    *,
    fingerprints: RunFingerprints | None = None,
    executor: Executor | None = None,
    exports: Mapping[str, CaseExport] | None = None,
    validate: bool = True,
) -> list[SurfaceRun]:
    """Run ``test_set`` against every surface (one after the other) with the same ``settings``, confirm limitations.

    Each surface plays as one agent would (``play_eval_set``) with its own folder, ``settings.finish.out/<label>``,
    its own agent fingerprint (from its ``agent_file``, beside the shared ``fingerprints``) and its own
    ``exports[label]``; the confirmed runs come back, for the finisher to write their folders and
    ``comparison.json`` (``comparison_file``).
    """
    settings = settings or RunSettings()
    out = settings.finish.out
    finished = []
    for surface in surfaces:
        folder = out / surface.label if out is not None else None
        own = fingerprints
        if fingerprints is not None and surface.agent_file is not None:  # each surface is its own agent
            own = fingerprints.model_copy(
                update={
                    "agent": agent_fingerprint(surface.agent_file),
                    "played_agent": played_agent_fingerprint(surface.agent_file),
                }
            )
        run = await play_eval_set(
            test_set,
            surface.agent,
            settings.in_folder(folder),
            fingerprints=own,
            agent_file=surface.agent_file,
            executor=executor,
            export=(exports or {}).get(surface.label),
            validate=validate,
        )
        finished.append(SurfaceRun(surface.label, run, folder))
    return confirm_across_surfaces(finished)  # the folders and comparison.json are the finisher's


__all__ = [
    "COMPARISON_JSON",
    "Surface",
    "SurfaceRun",
    "comparison",
    "comparison_file",
    "confirm_across_surfaces",
    "confirming_note",
    "play_surfaces",
    "surface_labels",
]
