"""From RunSettings to what plays: the set read once, every agent loaded once, graders built once.

``plan_run`` is everything ``copilot-eval run`` checks and loads before anything is played: the set
(its rule set, a prompt file's ``--var``), each ``--agent`` as a surface with its label (one agent:
one surface), the judge and the graders (built once, for every surface), the fingerprints, the
cassettes of ``--record``/``--replay``, the executor, the OpenTelemetry exports, the baseline of each
surface, the run folder and what finishes it. A problem is a ``PrepareError`` naming the file or the
option, raised before anything runs. One agent and several are one path: a list of surfaces.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalTestSet, RunFingerprints
from copilot_eval.evalsets.prompt_cases import played_prompt
from copilot_eval.evalsets.prompt_runtime import unapplied_parameters
from copilot_eval.models.base import ModelSource, describe
from copilot_eval.models.replay.wrap import with_test_set_cassettes
from copilot_eval.otel import OtelSettingsError, RunExporter, resolve_otel_settings
from copilot_eval.runs.executor import Executor, ExecutorError
from copilot_eval.runs.executor_choice import executor_of
from copilot_eval.runs.fingerprints import run_fingerprints
from copilot_eval.runs.finish import FinishOptions, baseline_problem, finish_options
from copilot_eval.runs.prepare import (
    CLI_OPTIONS,
    PrepareError,
    check_graders_fit,
    read_test_set,
    resolve_graders,
    surface_agent,
)
from copilot_eval.runs.settings import HowToFinish, HowToPlay, RunSettings
from copilot_eval.runs.surfaces import Surface, surface_labels
from copilot_eval.runs.target import runtime_agent
from copilot_eval.runs.workspaces import uses_workspaces, with_workspaces, workspace_refusal
from copilot_eval.scans.choice import choose_scanners, gate_names

RUNS_FOLDER = Path("eval-runs")
"""Where a run folder goes when ``--out`` names none: ``eval-runs/SET-TIME``."""


@dataclass
class PlannedRun:
    """A run ready to play: the settings (graders built), the set, its surfaces, and what finishes it."""

    settings: RunSettings
    test_set: EvalTestSet
    surfaces: list[Surface]
    fingerprints: RunFingerprints
    out: Path
    finish: FinishOptions
    executor: Executor | None = None
    exports: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def several(self) -> bool:
        """Several ``--agent``: one folder per surface under ``out``, compared side by side."""
        return len(self.surfaces) > 1

    def close(self) -> None:
        """End the OpenTelemetry exports (bounded; a collector that failed was one warning)."""
        for export in self.exports.values():
            export.close()


def _notes(test_set: EvalTestSet, agent: Any) -> list[str]:
    """Said once before the run starts: how the file was read, and what a prompt file's run does not apply."""
    # What reading the file noticed (ignored columns, a pass mark a method takes none of) is what
    # `validate` shows too: a run that grades the set must not hide it.
    read = [f"{test_set.evidence[0] if test_set.evidence else test_set.name}: {test_set.note}"] if test_set.note else []
    record = test_set.prompt_file
    if record is None:
        return read
    model = getattr(agent, "model", None)
    if model is None:
        lines = ["session model: the target's own"]
    else:
        shown = (
            describe(model) if isinstance(model, ModelSource) else f"{model} (GitHub-hosted, or the agent's provider)"
        )
        lines = [f"session model: {shown}"]
    if (parameters := unapplied_parameters(record.model_parameters)) is not None:
        lines.append(parameters)
    return [*read, *lines]


def _surfaces(test_set: EvalTestSet, agent_paths: list[Path], model: str | None) -> tuple[list[Surface], Any]:
    """Each ``--agent`` loaded once, labelled; and the session model of the first (for its fingerprint)."""
    paths: list[Path | None] = [*agent_paths] if agent_paths else [None]
    loaded = [surface_agent(test_set, path, model=model) for path in paths]
    names = [
        getattr(agent, "name", None) or (path.stem if path else test_set.name)
        for (agent, _), path in zip(loaded, paths, strict=True)
    ]
    surfaces = [
        Surface(label, agent, Path(path) if path is not None else None)
        for label, (agent, _), path in zip(surface_labels(names), loaded, paths, strict=True)
    ]
    return surfaces, loaded[0][1]


def _with_cassettes(surfaces: list[Surface], test_set: EvalTestSet, play: HowToPlay) -> list[Surface]:
    if not play.recording:
        return surfaces
    if len(surfaces) > 1:
        raise PrepareError("--record/--replay take one --agent (cassettes are per case of one agent)")
    (surface,) = surfaces
    if runtime_agent(surface.agent) is None:
        raise PrepareError(
            f"--record/--replay: {surface.agent_file or 'the agent'} is a Copilot Studio target; cassettes record "
            "the model calls of a Copilot runtime agent (a target's raw activities are kept in its evidence, and "
            "`copilot-eval regrade` grades them again)"
        )
    try:
        agent = with_test_set_cassettes(
            surface.agent,
            test_set,
            record=play.record,
            replay=play.replay,
            record_missing=play.record_missing,
            prompt_of=played_prompt,
        )
    except ValueError as exc:
        raise PrepareError(str(exc)) from None
    return [replace(surface, agent=agent)]


def _exports(play: HowToPlay, test_set: EvalTestSet, surfaces: list[Surface]) -> dict[str, Any]:
    """One OpenTelemetry exporter per surface, when an endpoint option or variable asks for one."""
    try:
        otel = resolve_otel_settings(play.otel_endpoint, capture_content=play.otel_capture_content)
        if otel is None:
            return {}
        return {
            s.label: RunExporter(otel, test_set=test_set.name, surface=getattr(s.agent, "name", None)) for s in surfaces
        }
    except (OtelSettingsError, RuntimeError) as exc:
        raise PrepareError(str(exc)) from None


def _with_workspaces(test_set: EvalTestSet, set_path: Path, play: HowToPlay) -> EvalTestSet:
    """The cases' workspaces resolved (relative to the set's folder) and checked, before anything plays."""
    test_set = with_workspaces(test_set, play.workspace, set_path.parent)
    if (refusal := workspace_refusal(test_set, play.protect, where=f"{set_path}: ")) is not None:
        raise PrepareError(refusal)
    return test_set


def _finish(finish: HowToFinish) -> FinishOptions:
    scanners = choose_scanners(finish.scan)  # checked when the settings were made
    # the settings' fields bear the finisher's option names (the gates' too); source: SOURCE_RUN, the default
    return finish_options(vars(finish), scanners=scanners, finding_gates=gate_names(finish.fail_on_finding, scanners))


def _check_surfaces(test_set: EvalTestSet, surfaces: list[Surface], finish: HowToFinish) -> None:
    """PrepareError for surfaces the run cannot play or finish: a target on a workspace, a gate over several."""
    if uses_workspaces(test_set) and (target := next((s for s in surfaces if runtime_agent(s.agent) is None), None)):
        raise PrepareError(
            f"--agent {target.agent_file}: a Copilot Studio target has no files to work on; "
            "a workspace is played by a Copilot runtime agent"
        )
    if finish.gate is not None and len(surfaces) > 1:
        raise PrepareError("--gate takes one --agent: gate each surface's folder with `copilot-eval gate RUN_DIR`")


def _check_baseline(
    finish: HowToFinish, surfaces: list[Surface], test_set: EvalTestSet, fingerprint: str | None
) -> None:
    """PrepareError when ``--baseline`` cannot be compared with these surfaces (``finish.baseline_problem``)."""
    labels = [s.label for s in surfaces] if len(surfaces) > 1 else [None]
    problem = baseline_problem(
        finish.baseline, labels, test_set=test_set, fingerprint=fingerprint, allow_other_set=finish.allow_other_set
    )
    if problem is not None:
        raise PrepareError(problem)


def _remote_executor(play: HowToPlay, say: Callable[[str], None] | None) -> Executor | None:
    """The executor ``--executor`` names when it is not the local one (None: the engine plays here)."""
    if play.executor == "local":
        return None
    try:
        return executor_of(play, say=say)
    except ExecutorError as exc:
        raise PrepareError(f"--executor {play.executor}: {exc}") from None


def plan_run(
    set_path: str | Path,
    agent_paths: list[Path],
    settings: RunSettings,
    *,
    say: Callable[[str], None] | None = None,
) -> PlannedRun:
    """Check and load everything ``settings`` name, once; PrepareError names the file or option that cannot be used."""
    set_path = Path(set_path)
    test_set = read_test_set(
        set_path,
        profile=settings.what.profile,
        data_type=settings.what.data_type,
        variables=settings.what.variables,
        options=CLI_OPTIONS,
    )
    as_read = test_set  # fingerprinted as written: a fixture's path on this machine is not the set's content
    test_set = _with_workspaces(test_set, set_path, settings.play)
    if settings.finish.gh_json is not None and test_set.prompt_file is None:
        raise PrepareError("--gh-json: gh-models' output describes a prompt file's run; the set is not one")
    graders = resolve_graders(test_set, settings.grade)
    check_graders_fit(test_set, graders, set_path)
    surfaces, session_model = _surfaces(test_set, agent_paths, settings.what.model)
    _check_surfaces(test_set, surfaces, settings.finish)
    fingerprints = run_fingerprints(
        as_read,
        agent_path=agent_paths[0] if agent_paths else None,
        grader_specs=settings.grade.specs(),
        judge_path=settings.grade.judge,
        judge_repeat=settings.grade.judge_repeat,
        prompt_pass_scores=list(settings.grade.prompt_pass_score) or None,
        session_model=session_model,
    )
    _check_baseline(settings.finish, surfaces, test_set, fingerprints.test_set)
    surfaces = _with_cassettes(surfaces, test_set, settings.play)
    executor = _remote_executor(settings.play, say)
    out = settings.finish.out or RUNS_FOLDER / f"{set_path.stem}-{datetime.now():%Y%m%d-%H%M%S}"
    exports = _exports(settings.play, test_set, surfaces)
    out.mkdir(parents=True, exist_ok=True)
    # The graders are built once, the judge loaded once: every surface plays with these settings.
    built = replace(
        settings, grade=replace(settings.grade, graders=tuple(graders), judge=None, prompt_pass_score=())
    ).in_folder(out)
    return PlannedRun(
        built,
        test_set,
        surfaces,
        fingerprints,
        out,
        _finish(settings.finish),
        executor,
        exports,
        _notes(test_set, surfaces[0].agent),
    )


__all__ = ["RUNS_FOLDER", "PlannedRun", "plan_run"]
