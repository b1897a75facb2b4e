"""The Python calls that play (or merge, or regrade) and leave a finished run folder, as the commands do.

The engine (``eval_runner``, ``surfaces``, ``merge``, ``regrade``) writes only evidence and the
checkpoint; every other file of a folder is the finisher's (``runs.finish``). A Python caller who
names a folder expects to find it complete, so each call here is the engine's step followed by the
finisher with the history off (a library call records nothing unless asked: ``finish_run_folders``
with ``FinishOptions`` does that). The commands call the engine and the finisher themselves, with
their options; they never come through here.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from copilot_eval.evalsets import EvalRun, EvalTestSet
from copilot_eval.grading.protocol import Grader
from copilot_eval.runs.eval_runner import play_eval_set
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.merge import MergedRun, comparison_beside, merge_shard_folders
from copilot_eval.runs.regrade import read_saved_run, regrade_saved_run
from copilot_eval.runs.settings import RunSettings
from copilot_eval.runs.surfaces import SurfaceRun, comparison_file, play_surfaces

_QUIET = FinishOptions(no_history=True)
P = ParamSpec("P")  # the engine function's parameters, which the public call takes as they are
R = TypeVar("R")  # what it plays (an EvalRun, the surfaces' runs)


def _then_finish(
    play: Callable[P, Coroutine[Any, Any, R]], finish: Callable[[EvalTestSet, Path, R], None], name: str, doc: str
) -> Callable[P, Coroutine[Any, Any, R]]:
    """The engine's ``play`` followed by ``finish`` into ``settings.finish.out`` (nothing when it is None).

    The call takes ``play``'s very parameters (typed through ``P``, shown by ``help()`` through
    ``__wrapped__``), so that its signature is written once, on the engine's function.
    """
    parameters = inspect.signature(play)

    @functools.wraps(play)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        played = await play(*args, **kwargs)
        given = parameters.bind(*args, **kwargs).arguments
        out = (given.get("settings") or RunSettings()).finish.out
        if out is not None:
            finish(given["test_set"], Path(out), played)
        return played

    call.__name__ = call.__qualname__ = name
    call.__module__, call.__doc__ = __name__, doc
    return call


def _finish_run(test_set: EvalTestSet, out: Path, run: EvalRun) -> None:
    finish_run_folders([FolderRun(out, run, test_set)], _QUIET)


def _finish_surfaces(test_set: EvalTestSet, out: Path, runs: list[SurfaceRun]) -> None:
    folders = [FolderRun(Path(s.output_dir or out), s.run, test_set, s.label) for s in runs]
    finish_run_folders(folders, _QUIET, beside=[comparison_file(test_set, runs, out)])


run_eval_set = _then_finish(
    play_eval_set,
    _finish_run,
    "run_eval_set",
    """Play ``test_set`` against ``agent`` (``eval_runner.play_eval_set``, same arguments) and finish its folder.

    With ``settings.finish.out`` the folder ends complete (run.json, results.csv, report.html ...),
    as ``copilot-eval run --no-history`` leaves it; without it nothing is written.
    """,
)
run_surfaces = _then_finish(
    play_surfaces,
    _finish_surfaces,
    "run_surfaces",
    """Play every surface (``surfaces.play_surfaces``, same arguments) and finish each one's folder.

    With ``settings.finish.out`` each surface's folder ends complete and ``comparison.json`` stands
    beside them; without it nothing is written.
    """,
)


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
