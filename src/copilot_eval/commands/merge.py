"""``copilot-eval merge`` on the commands floor: check the shard folders, merge them, have the finisher write the merge.

``runs.merge`` checks and merges (``MergeError`` lists every problem; nothing is written then) and
copies the shards' evidence; for shards of a trigger run, ``triggers.merge`` computes the merged
``triggers.json``, checked before anything is copied. The finisher writes every other file of each
merged surface's folder (``triggers.json`` among the data files, before the report that shows it)
and ``comparison.json`` beside them (several surfaces), and decides the verdict.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from copilot_eval.exit_codes import Verdict
from copilot_eval.history.records import SOURCE_MERGE
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.runs.finish import Finished, FinishedFolder, FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.merge import MergedRun, comparison_beside, merge_shard_folders
from copilot_eval.triggers.gates import trigger_verdict
from copilot_eval.triggers.merge import has_trigger_documents, merge_trigger_documents, merged_trigger_gates


@dataclass(frozen=True)
class MergedShards:
    """The merged runs (one per surface), the verdicts met before finishing (a trigger run's gates) and its files.

    ``files`` are the merged folder's own data files (name, text) for the finisher to write with
    the rest: a trigger run's ``triggers.json``.
    """

    runs: list[MergedRun]
    met: list[Verdict] = field(default_factory=list)
    files: tuple[tuple[str, str], ...] = ()


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
    # computed before the evidence is copied, so a problem with the shards' triggers.json writes nothing
    joined = merge_trigger_documents(folders) if triggers else None
    merged = merge_shard_folders(folders, out, allow_partial=allow_partial)
    if joined is None:
        return MergedShards(merged)
    return MergedShards(
        merged, [trigger_verdict(joined.figures, trigger_gates)], ((LAYOUT.triggers_json, joined.text()),)
    )


def finish_merge(merged: MergedShards, out: Path, finish: FinishOptions) -> Finished:
    """Every merged surface's folder and ``comparison.json`` beside them, written by the finisher; the one verdict."""
    # the shard runs already stored are linked to it, so trends count its cases once
    options = replace(finish, source=SOURCE_MERGE)
    runs = [
        # a trigger run has one surface, its folder ``out``: its triggers.json goes there
        FolderRun(m.folder.folder, m.run, m.folder.test_set, m.label, merged.files if m.label is None else ())
        for m in merged.runs
        if m.folder.test_set
    ]
    return finish_run_folders(runs, options, beside=comparison_beside(merged.runs, Path(out)), met=merged.met)


def shard_lines(item: FinishedFolder) -> list[str]:
    """The line naming the shards a finished folder merged (none for a run that is not a merge)."""
    record = item.run.merge
    return [f"merged shards {', '.join(str(i) for i in record.shards)} of {record.shard_count}"] if record else []


__all__ = ["MergedShards", "finish_merge", "merge_shards", "shard_lines"]
