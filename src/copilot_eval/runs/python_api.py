"""The Python calls that play (or merge, or regrade) and leave a finished run folder, as the commands do.

The engine (``eval_runner``, ``surfaces``, ``merge``, ``regrade``) writes only evidence and the
checkpoint; every other file of a folder is the finisher's (``runs.finish``). A Python caller who
names a folder expects to find it complete, so each call here is the engine's step followed by the
finisher with the history off (a library call records nothing unless asked: ``finish_run_folders``
with ``FinishOptions`` does that). The commands call the engine and the finisher themselves, with
their options; they never come through here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalRun, EvalTestSet
from copilot_eval.grading.protocol import Grader
from copilot_eval.runs.eval_runner import CaseExport, play_eval_set
from copilot_eval.runs.executor import Executor
from copilot_eval.runs.fingerprints import RunFingerprints
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.limitation import KNOWN_FALLBACK_TEXTS
from copilot_eval.runs.merge import MergedRun, comparison_beside, merge_shard_folders
from copilot_eval.runs.regrade import read_saved_run, regrade_saved_run
from copilot_eval.runs.settings import RunSettings
from copilot_eval.runs.surfaces import Surface, SurfaceRun, comparison_file, play_surfaces

_QUIET = FinishOptions(no_history=True)


async def run_eval_set(
    test_set: EvalTestSet,
    agent: Any,
    settings: RunSettings | None = None,
    *,
    pool: Any = None,
    executor: Executor | None = None,
    fingerprints: RunFingerprints | None = None,
    agent_file: str | Path | None = None,
    export: CaseExport | None = None,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
    validate: bool = True,
) -> EvalRun:
    """Play ``test_set`` against ``agent`` (``eval_runner.play_eval_set``, same arguments) and finish its folder.

    With ``settings.finish.out`` the folder ends complete (run.json, results.csv, report.html ...),
    as ``copilot-eval run --no-history`` leaves it; without it nothing is written.
    """
    run = await play_eval_set(
        test_set,
        agent,
        settings,
        pool=pool,
        executor=executor,
        fingerprints=fingerprints,
        agent_file=agent_file,
        export=export,
        fallback_texts=fallback_texts,
        validate=validate,
    )
    out = (settings or RunSettings()).finish.out
    if out is not None:
        finish_run_folders([FolderRun(Path(out), run, test_set)], _QUIET)
    return run


async def run_surfaces(
    test_set: EvalTestSet,
    surfaces: Sequence[Surface],
    settings: RunSettings | None = None,
    *,
    fingerprints: RunFingerprints | None = None,
    executor: Executor | None = None,
    exports: Mapping[str, CaseExport] | None = None,
    validate: bool = True,
) -> list[SurfaceRun]:
    """Play every surface (``surfaces.play_surfaces``) and finish each one's folder and ``comparison.json``."""
    runs = await play_surfaces(
        test_set, surfaces, settings, fingerprints=fingerprints, executor=executor, exports=exports, validate=validate
    )
    out = (settings or RunSettings()).finish.out
    if out is not None:
        folders = [FolderRun(Path(s.output_dir or out), s.run, test_set, s.label) for s in runs]
        finish_run_folders(folders, _QUIET, beside=[comparison_file(test_set, runs, Path(out))])
    return runs


def merge_run_folders(
    folders: Sequence[str | Path], out: str | Path, *, allow_partial: bool = False
) -> list[MergedRun]:
    """Merge shard folders into ``out`` (``merge.merge_shard_folders``) and finish the merged folders."""
    merged = merge_shard_folders(folders, out, allow_partial=allow_partial)
    runs = [FolderRun(m.folder.folder, m.run, m.folder.test_set, m.label) for m in merged if m.folder.test_set]
    finish_run_folders(runs, _QUIET, beside=comparison_beside(merged, Path(out)))
    return merged


async def regrade_run(
    run_dir: str | Path, graders: Sequence[Grader], *, output_dir: str | Path, graders_fingerprint: str | None = None
) -> EvalRun:
    """Grade a saved run's answers again (``regrade.regrade_saved_run``) and finish the new folder."""
    _, test_set = read_saved_run(run_dir)
    run = await regrade_saved_run(run_dir, graders, output_dir=output_dir, graders_fingerprint=graders_fingerprint)
    finish_run_folders([FolderRun(Path(output_dir), run, test_set)], _QUIET)
    return run


__all__ = ["merge_run_folders", "regrade_run", "run_eval_set", "run_surfaces"]
