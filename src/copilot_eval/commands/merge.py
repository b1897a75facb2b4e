"""``copilot-eval merge`` on the commands floor: check the shard folders, merge them, have the finisher write the merge.

``runs.merge`` checks and merges (``MergeError`` lists every problem; nothing is written then) and
copies the shards' evidence; the finisher writes every other file of each merged surface's folder
and ``comparison.json`` beside them (several surfaces), and decides the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from copilot_eval.exit_codes import PASSED, Verdict
from copilot_eval.history.records import SOURCE_MERGE
from copilot_eval.runs.finish import Finished, FinishedFolder, FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.merge import MergedRun, comparison_beside, merge_shard_folders
from copilot_eval.triggers.merge import (
    check_trigger_documents,
    has_trigger_documents,
    merge_trigger_documents,
    merged_trigger_gates,
    merged_trigger_verdict,
)


@dataclass(frozen=True)
class MergedShards:
    """The merged runs (one per surface) and the verdicts met before finishing (a trigger run's gates)."""

    runs: list[MergedRun]
    met: list[Verdict] = field(default_factory=list)


def merge_shards(
    folders: Sequence[Path],
    out: Path,
    *,
    allow_partial: bool,
    min_precision: Sequence[str] | None = None,
    min_recall: Sequence[str] | None = None,
) -> MergedShards:
    """Check and merge the shard ``folders`` into ``out`` (the evidence copied; the files are the finisher's).

    MergeError lists every problem of the run folders, ValueError those of trigger shards'
    ``triggers.json`` (``triggers --shard I/N``) and of ``--min-precision``/``--min-recall``; nothing
    is written then. A trigger run's gates judge every shard's plays together, as ``triggers`` judges one run.
    """
    triggers = has_trigger_documents(folders)  # shards of `triggers --shard I/N`: their triggers.json too
    trigger_gates = merged_trigger_gates(min_precision, min_recall, triggers=triggers)
    if triggers:
        check_trigger_documents(folders)
    merged = merge_shard_folders(folders, out, allow_partial=allow_partial)
    met = []
    if triggers:
        # Before finishing: the report shows its figures. The trigger layer writes it (its own file, not yet
        # among the finisher's).
        merge_trigger_documents(folders, out)
        met.append(merged_trigger_verdict(PASSED, out, trigger_gates))
    return MergedShards(merged, met)


def finish_merge(merged: MergedShards, out: Path, finish: FinishOptions) -> Finished:
    """Every merged surface's folder and ``comparison.json`` beside them, written by the finisher; the one verdict."""
    # the shard runs already stored are linked to it, so trends count its cases once
    options = replace(finish, source=SOURCE_MERGE)
    runs = [FolderRun(m.folder.folder, m.run, m.folder.test_set, m.label) for m in merged.runs if m.folder.test_set]
    return finish_run_folders(runs, options, beside=comparison_beside(merged.runs, Path(out)), met=merged.met)


def shard_lines(item: FinishedFolder) -> list[str]:
    """The line naming the shards a finished folder merged (none for a run that is not a merge)."""
    record = item.run.merge
    return [f"merged shards {', '.join(str(i) for i in record.shards)} of {record.shard_count}"] if record else []


__all__ = ["MergedShards", "finish_merge", "merge_shards", "shard_lines"]
