"""Merge shard runs into one run folder, after checking that they are parts of one run.

Merge reads run folders only (``reports.run_folder``): run.json, the kept test set and the
evidence files. Nothing is written until every folder has been checked; a refusal lists every
problem. The merged folder is a normal run folder: counts, limitation detection, pass@k / pass^k
and the flaky list are computed over the union, evidence files are copied next to it, and
``merge`` in run.json names the shards (and, for a partial merge, what was not played). The
shards' concurrency histories and retries are kept, their worker names prefixed by the shard.
Merging the same shards again writes the same files. Folders of a multi-surface run (one
sub-folder per ``--agent``) merge surface by surface, and limitations are confirmed across them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets import (
    EvalCaseResult,
    EvalRun,
    EvalSetError,
    ExecutionRecord,
    MergeRecord,
    WorkerInfo,
)
from copilot_eval.evidence.result import trace_file_for
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_files import folder_in_memory
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.merge_checks import ShardCheck, check_shards, shard_of
from copilot_eval.runs.run_budget import usage_of
from copilot_eval.runs.surfaces import SurfaceRun, comparison_file, confirm_across_surfaces
from copilot_eval.runs.target import saved_by_platform


class MergeError(ValueError):
    """The shard folders cannot be merged; ``problems`` lists every reason, one per line."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)


@dataclass(frozen=True)
class MergedRun:
    """One merged run (of one surface, ``label``; None for a single-agent run) and its folder."""

    label: str | None
    run: EvalRun
    folder: RunFolder


def _read(folders: Sequence[Path]) -> tuple[dict[str | None, list[RunFolder]], list[str]]:
    """Shard folders grouped by surface label (None: single-agent runs), and every reading problem."""
    groups: dict[str | None, list[RunFolder]] = {}
    problems: list[str] = []
    layouts: dict[str, tuple[str, ...]] = {}
    for folder in folders:
        folder = Path(folder)
        members: list[tuple[str | None, Path]]
        if not (folder / LAYOUT.run_json).is_file() and (folder / LAYOUT.comparison_json).is_file():
            labels = tuple(sorted(p.name for p in folder.iterdir() if (p / LAYOUT.run_json).is_file()))
            layouts[str(folder)] = labels
            members = [(label, folder / label) for label in labels]
        else:
            layouts[str(folder)] = ()
            members = [(None, folder)]
        for label, path in members:
            try:
                groups.setdefault(label, []).append(read_run_folder(path))
            except (EvalSetError, OSError) as exc:
                problems.append(str(exc))
    if len(set(layouts.values())) > 1:
        shown = "; ".join(f"{name}: {', '.join(labels) or 'one agent'}" for name, labels in layouts.items())
        problems.append(f"the shard folders hold different surfaces (repeated --agent): {shown}")
    return groups, problems


def _copy_evidence(stored: str | None, source: RunFolder, evidence_dir: Path) -> str | None:
    """Copy one evidence file into the merged folder (once; the same bytes are not written again)."""
    found = source.evidence_file(stored)
    if found is None:
        return stored
    target = evidence_dir / found.name
    # The runtime's trace is kept beside the evidence JSON (x.trace.jsonl): it goes with it, or the copy cannot load.
    for source_file, copy in ((found, target), (trace_file_for(found), trace_file_for(target))):
        if not source_file.is_file():
            continue
        content = source_file.read_bytes()
        if not (copy.is_file() and copy.read_bytes() == content):
            write_bytes_atomically(copy, content)  # a merge cut short leaves whole files or none
    return str(target)


def _moved(result: EvalCaseResult, source: RunFolder, evidence_dir: Path) -> EvalCaseResult:
    grades = [
        g.model_copy(update={"evidence_path": _copy_evidence(g.evidence_path, source, evidence_dir)})
        for g in result.grades
    ]
    path = _copy_evidence(result.evidence_path, source, evidence_dir)
    return result.model_copy(update={"evidence_path": path, "grades": grades})


def _execution(shards: Sequence[RunFolder]) -> ExecutionRecord | None:
    records = [(f.run.shard, f.run.execution) for f in shards if f.run.execution is not None]
    if not records:
        return None

    def tag(shard, name: str) -> str:
        return f"shard {shard.label()} {name}" if shard is not None else name

    executors = sorted({e.executor for _, e in records})
    return ExecutionRecord(
        executor=executors[0] if len(executors) == 1 else "+".join(executors),
        concurrency=max(e.concurrency for _, e in records),
        workers=[WorkerInfo(**{**w.model_dump(), "name": tag(s, w.name)}) for s, e in records for w in e.workers],
        concurrency_history=[
            c.model_copy(update={"worker": tag(s, c.worker)}) for s, e in records for c in e.concurrency_history
        ],
        retries=[r.model_copy(update={"worker": tag(s, r.worker or "?")}) for s, e in records for r in e.retries],
    )


def _merge_group(shards: Sequence[RunFolder], check: ShardCheck, out: Path) -> MergedRun:
    shards = sorted(shards, key=lambda f: shard_of(f).index)
    first, test_set = shards[0], shards[0].test_set
    assert test_set is not None and check.count is not None
    evidence_dir = out / "evidence"
    evidence_dir.mkdir(parents=True, exist_ok=True)
    results = [_moved(r, f, evidence_dir) for f in shards for r in f.run.results or []]
    started = min((f.run.run_at for f in shards if f.run.run_at is not None), default=None)
    durations = [f.run.duration_ms for f in shards if f.run.duration_ms is not None]
    note = None
    if check.missing_conversations or check.missing_shards:
        missing = ", ".join(f"{i}/{check.count}" for i in check.missing_shards) or "none"
        note = (
            f"incomplete merge: shards missing: {missing}; conversations not played: "
            f"{', '.join(str(n) for n in check.missing_conversations)}"
        )
    run = summarise(
        test_set,
        results,
        agent_name=first.run.agent_name,
        started=started,
        duration_ms=max(durations) if durations else None,  # the shards ran side by side
        note=note,
        # The shards agree on both (merge_checks): one minimum pass rate, one agent whose repeats are or are not independent.
        min_pass_rate=first.run.min_pass_rate,
        repeat_dependence=first.run.repeat_dependence,
        platform_answers=saved_by_platform(out / r.evidence_path for r in results if r.evidence_path),
    )
    record = MergeRecord(
        shard_count=check.count,
        shards=[shard_of(f).index for f in shards],
        missing_shards=check.missing_shards,
        missing_conversations=check.missing_conversations,
        complete=not check.missing_conversations,
    )
    run = run.model_copy(
        update={
            "repeat": first.run.repeat,
            "fingerprints": first.run.fingerprints,
            "execution": _execution(shards),
            "merge": record,
            # each shard counted the drafts among the cases it played; unknown when no shard had a sidecar
            "draft_cases": sum(counts)
            if (counts := [f.run.draft_cases for f in shards if f.run.draft_cases is not None])
            else None,
            # each shard's sessions and judges once; a shard's run budget is its own, said as it said it
            "usage": usage_of(
                results,
                budget_reached="; ".join(r for f in shards if f.run.usage and (r := f.run.usage.budget_reached))
                or None,
            ),
        }
    )
    return MergedRun(None, run, folder_in_memory(run, test_set, out))  # the finisher writes the folder


def _refuse_out(out: Path, folders: Sequence[Path]) -> list[str]:
    resolved = out.resolve()
    if any(Path(f).resolve() == resolved for f in folders):
        return [f"--out {out}: is one of the shard folders; choose another folder"]
    existing = out / LAYOUT.run_json
    if existing.is_file():
        try:
            if read_run_folder(out).run.merge is None:
                return [f"--out {out}: holds a run that is not a merge; choose an empty folder"]
        except EvalSetError:
            return [f"--out {out}: holds an unreadable run.json; choose an empty folder"]
    return []


def merge_shard_folders(
    folders: Sequence[str | Path], out: str | Path, *, allow_partial: bool = False
) -> list[MergedRun]:
    """Check ``folders`` (shard runs) and merge them into ``out``; MergeError lists every problem.

    Returns one MergedRun, or one per surface (in label order) for multi-surface shard folders.
    """
    out = Path(out)
    paths = [Path(f) for f in folders]
    if not paths:
        raise MergeError(["no shard folders given"])
    groups, problems = _read(paths)
    problems += _refuse_out(out, paths)
    checks = {label: check_shards(group) for label, group in groups.items() if group}
    for label, check in checks.items():
        prefix = f"surface {label}: " if label is not None else ""
        problems += [prefix + p for p in check.problems]
        if not allow_partial:
            problems += [prefix + p for p in check.partial]
    if problems:
        raise MergeError(problems)
    if None in groups:
        return [_merge_group(groups[None], checks[None], out)]
    labels = sorted(label for label in groups if label is not None)  # a multi-surface run: every group has one
    merged = [
        MergedRun(label, m.run, m.folder)
        for label in labels
        for m in [_merge_group(groups[label], checks[label], out / label)]
    ]
    return _confirm_surfaces(merged, out)


def _confirm_surfaces(merged: list[MergedRun], out: Path) -> list[MergedRun]:
    test_set = merged[0].folder.test_set
    assert test_set is not None
    surface_runs = [SurfaceRun(m.label or "", m.run, m.folder.folder) for m in merged]
    confirmed = confirm_across_surfaces(surface_runs)
    return [  # a run the confirmation left as it was keeps its folder: only a changed one is read back again
        item
        if after.run is before.run
        else MergedRun(item.label, after.run, folder_in_memory(after.run, test_set, item.folder.folder))
        for before, after, item in zip(surface_runs, confirmed, merged, strict=True)
    ]


def comparison_beside(merged: Sequence[MergedRun], out: Path) -> list[tuple[Path, str]]:
    """``comparison.json`` beside a merge's surfaces (none for one agent), for the finisher to write."""
    if not merged or any(m.label is None for m in merged):
        return []
    test_set = merged[0].folder.test_set
    assert test_set is not None
    runs = [SurfaceRun(m.label or "", m.run, m.folder.folder) for m in merged]
    return [comparison_file(test_set, runs, Path(out))]


__all__ = ["MergeError", "MergedRun", "comparison_beside", "merge_shard_folders"]
