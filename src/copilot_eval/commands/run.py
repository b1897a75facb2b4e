"""``copilot-eval run`` on the commands floor: play a planned run (``runs.plan``), then finish its folders.

One agent and several are one path: the surfaces of the same ``PlannedRun`` play with the same
settings (several: one after the other, one folder each, limitations confirmed across them), and
every folder, ``comparison.json`` beside them and ``run --gate``'s ``gate.md`` are written by the
finisher (``runs.finish``), whose verdict is the run's. What the run did besides (traces exported,
a shard's part, working directories removed, cassettes, gh-models' verdicts) comes back as lines for
the summary.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from copilot_eval.commands.gate_run import run_gate
from copilot_eval.exit_codes import Verdict
from copilot_eval.models.replay.wrap import cassette_summary
from copilot_eval.reports.gh_json import gh_models_line, write_gh_models_json
from copilot_eval.reports.usage_words import usage_lines
from copilot_eval.runs.eval_runner import finished_before, play_eval_set
from copilot_eval.runs.finish import Finished, FolderRun, finish_run_folders
from copilot_eval.runs.gates import runs_verdict
from copilot_eval.runs.passing_workdirs import discard_passing_workdirs
from copilot_eval.runs.plan import PlannedRun
from copilot_eval.runs.surfaces import SurfaceRun, comparison_file, play_surfaces


async def play_planned(planned: PlannedRun) -> list[SurfaceRun]:
    """Play every surface of ``planned`` (validated already by ``plan_run``); one run per surface."""
    if planned.several:
        return await play_surfaces(
            planned.test_set,
            planned.surfaces,
            planned.settings,
            fingerprints=planned.fingerprints,
            executor=planned.executor,
            exports=planned.exports,
            validate=False,
        )
    # one agent plays alone, not as a surface of one: its folder is --out itself, with no comparison
    # (the call looks like play_surfaces' above, and like judge_votes' record of a vote: alike in shape only)
    (surface,) = planned.surfaces
    run = await play_eval_set(
        planned.test_set,
        surface.agent,
        planned.settings,
        executor=planned.executor,
        fingerprints=planned.fingerprints,
        agent_file=surface.agent_file,
        export=planned.exports.get(surface.label),
        validate=False,
    )
    return [SurfaceRun(surface.label, run, planned.out)]


def resumed_finished(planned: PlannedRun) -> tuple[Verdict, list[str]] | None:
    """``--resume`` of a run that already finished (every surface): its verdict and what was left alone; else None.

    Nothing is played, written or recorded: run.json keeps its runAt and duration, and the history
    gets no second row for the same plays. The exit code is the recorded run's, as when it finished.
    """
    if not planned.settings.finish.resume:
        return None
    runs = []
    for surface in planned.surfaces:
        folder = planned.out / surface.label if planned.several else planned.out
        run = finished_before(planned.test_set, planned.settings.in_folder(folder))
        if run is None:
            return None
        runs.append((surface.label if planned.several else None, folder, run))
    lines = [
        f"{folder}: this run finished already ({run.run_at:%Y-%m-%d %H:%M:%S} UTC, {len(run.results or [])} results); "
        "--resume left its folder and the history as they are"
        if run.run_at is not None
        else f"{folder}: this run finished already; --resume left its folder and the history as they are"
        for _, folder, run in runs
    ]
    return runs_verdict([(label, run) for label, _, run in runs], planned.finish.gates), lines


def _after_play(planned: PlannedRun, runs: list[SurfaceRun]) -> tuple[str | None, str | None]:
    """What the run does besides its folders: passing cases' working directories removed, gh-models' JSON written
    (outside the folder, where ``--gh-json`` says); the line of each, None when not asked."""
    settings, removed, gh_json = planned.settings, None, None
    if settings.play.discard_passing_workdirs:
        count = sum(discard_passing_workdirs(s.run.results or [], s.output_dir or planned.out) for s in runs)
        removed = f"removed the working directories of {count} passing cases"
    if planned.test_set.prompt_file is not None and (path := settings.finish.gh_json) is not None:
        gh_json = f"gh-models JSON: {write_gh_models_json(runs[0].run, planned.test_set, path)}"
    return removed, gh_json


def _lines(planned: PlannedRun, runs: list[SurfaceRun], done: tuple[str | None, str | None]) -> list[str]:
    """What the run did besides playing, one line each, for the summary (``done``: what ``_after_play`` did)."""
    settings, lines = planned.settings, []
    traces = sum(export.exported_traces for export in planned.exports.values())
    if traces:
        endpoint = next(iter(planned.exports.values())).settings.endpoint
        lines.append(f"exported {traces} case traces to {endpoint}")
    if (shard := settings.what.shard_info) is not None:
        numbers = {r.conversation_number for s in runs for r in s.run.results or []}
        lines.append(
            f"shard {shard.label()}: {len(numbers)} conversations; merge the shards' folders with `copilot-eval merge`"
        )
    for played in runs:  # what each run spent, its run budget and any cap unknown usage left unenforced
        label = f"{played.label}: " if planned.several else ""
        lines.extend(label + line for line in usage_lines(played.run))
    lines.extend([done[0]] if done[0] else [])
    for surface in planned.surfaces:
        if (cassettes := getattr(getattr(surface.agent, "model", None), "cassettes", None)) is not None:
            lines.extend(cassette_summary([cassettes]))  # where --record put the calls, what --replay served
    if planned.test_set.prompt_file is not None:
        for played in runs:
            if (verdicts := gh_models_line(played.run)) is not None:
                lines.append(verdicts)
        lines.extend([done[1]] if done[1] else [])
    return lines


def finish_played(planned: PlannedRun, runs: list[SurfaceRun]) -> tuple[Finished, list[str]]:
    """Every surface's folder finished one way (its report, JUnit, baseline, gates, history, --gate); the run's lines."""
    lines = _lines(planned, runs, _after_play(planned, runs))
    options, finish = planned.finish, planned.settings.finish
    if finish.gate is not None:  # run inside the finisher, once the history holds the run
        gate = run_gate(
            planned.out,
            name=finish.gate,
            history=finish.history,
            golden=finish.golden,
            max_regressions=finish.max_regressions,
        )
        options = replace(options, gate=gate)
    folders = [
        FolderRun(Path(s.output_dir or planned.out), s.run, planned.test_set, s.label if planned.several else None)
        for s in runs
    ]
    beside = [comparison_file(planned.test_set, runs, planned.out)] if planned.several else []
    return finish_run_folders(folders, options, beside=beside), lines


def release_runtimes() -> None:
    """Stop the runtime processes the run started, gracefully (the exit hook would only kill them)."""
    # imported on use: it loads the Copilot SDK (about 0.6 s), which `run --help` must not
    from copilot_eval.runtime.process.pool import close_all_pools

    close_all_pools()


__all__ = ["finish_played", "play_planned", "release_runtimes", "resumed_finished"]
