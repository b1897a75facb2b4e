"""``triggers --out DIR --resume``: the plays a trigger run already recorded, kept through ``runs.checkpoint``.

Every decided play is appended to the folder's ``checkpoint.jsonl`` as soon as it is decided (one
unit per play, ``prompt<N>-r<R>``), as ``run`` records each case, so a run cut short by Ctrl-C, a
hard kill or a run budget continues with ``--resume``: the recorded plays are kept as they were
(never played again), the plays never started (``not_run``) and the missing ones are played, and
the figures are computed over all of them, as one uninterrupted run's are. The checkpoint's header
names the set (its prompts and names), the catalogue as loaded (each description's digest), the
runs, the threshold, stop-at-choice and the shard: a folder holding any other run is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalCaseResult
from copilot_eval.evidence import CopilotResult
from copilot_eval.runs.case_runner import session_usage
from copilot_eval.runs.checkpoint import CHECKPOINT_NAME, Checkpoint, CheckpointError
from copilot_eval.triggers.catalogue import Catalogue
from copilot_eval.triggers.figures import PlayRecord, play_key
from copilot_eval.triggers.record import play_case_result
from copilot_eval.triggers.trigger_set import TriggerSet

__all__ = ["forget_checkpoint", "open_trigger_checkpoint", "record_play", "trigger_checkpoint_header"]


def trigger_checkpoint_header(
    trigger_set: TriggerSet,
    catalogue: Catalogue,
    *,
    runs: int,
    stop_at_choice: bool,
    threshold: float,
    shard: str | None,
) -> dict[str, Any]:
    """What a trigger run's checkpoint must match for ``--resume`` to continue it."""
    return {
        "triggerSet": trigger_set.name,
        "names": list(trigger_set.names),
        "prompts": [[p.number, p.prompt, p.expected] for p in trigger_set.prompts],
        "catalogue": sorted([e.kind, e.name, e.description_sha256] for e in catalogue.entries),
        "runs": runs,
        "stopAtChoice": stop_at_choice,
        "threshold": threshold,
        "shard": shard,
    }


def open_trigger_checkpoint(
    folder: Path, header: dict[str, Any], *, resume: bool
) -> tuple[Checkpoint, dict[str, tuple[PlayRecord, EvalCaseResult]]]:
    """The folder's checkpoint and, with ``resume``, each recorded play by key (CheckpointError, a ValueError, names why not)."""
    try:
        checkpoint, done = Checkpoint.start(folder, header, resume=resume)
    except CheckpointError as error:
        raise CheckpointError(
            f"{error} (trigger runs: --resume continues only the same set, catalogue and options)"
        ) from None
    kept: dict[str, tuple[PlayRecord, EvalCaseResult]] = {}
    for key, results in done.items():
        try:
            data = results[0].grades[0].data or {}
            kept[key] = (PlayRecord.from_dict(data["play"]), results[0])
        except (IndexError, KeyError, TypeError, ValueError):
            raise CheckpointError(
                f"{checkpoint.path}: unit {key} is not a trigger play; the folder holds a test-set run, "
                "choose another --out"
            ) from None
    return checkpoint, kept


def record_play(checkpoint: Checkpoint, play: PlayRecord, result: CopilotResult) -> None:
    """Append one decided play durably (the record, its duration and what its session spent)."""
    case = play_case_result(play, result.duration_ms, keep_play=True)
    case = case.model_copy(update=session_usage(result))
    checkpoint.append(play_key(play.number, play.repeat), [case])


def forget_checkpoint(folder: Path) -> None:
    """Remove ``folder``'s checkpoint, for a caller that plays afresh into the same folder each time (pytest)."""
    (folder / CHECKPOINT_NAME).unlink(missing_ok=True)
