"""A trigger evaluation as a normal run folder: run.json, results.csv, evidence, report.html, JUnit, triggers.json.

Each play is one case result (a prompt is a case, each run a try): it passes when the model made
the expected choice, fails when it made another (``none`` included), is ``error`` for an error or
a setup problem and ``unknown`` when a description was not delivered, so neither of the last is
ever a pass or a miss. The run carries the threshold as its minimum pass rate, so JUnit has one
test case per prompt with its verdict over the runs. ``triggers.json`` beside run.json keeps the
figures (per prompt, per skill, the confusion matrix) and the catalogue as loaded; the report
shows them (``reports.html_triggers``).
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun, EvalTestSet, GradeRecord
from copilot_eval.evalsets.model import single_turn_set
from copilot_eval.reports.html_triggers import TRIGGERS_JSON
from copilot_eval.reports.run_folder import folder_relative
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.finish import Finished, FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.independence import repeat_dependence_of
from copilot_eval.triggers.figures import NOT_RUN, PlayRecord, play_key
from copilot_eval.triggers.gates import TriggerGates, trigger_verdict
from copilot_eval.triggers.history import trigger_set_series_name
from copilot_eval.triggers.trigger_set import TriggerSet

if TYPE_CHECKING:  # the runner writes through this module
    from copilot_eval.triggers.runner import TriggerRun

__all__ = [
    "TRIGGERS_SCHEMA_VERSION",
    "play_case_result",
    "trigger_document",
    "trigger_eval_run",
    "trigger_test_set",
    "write_trigger_folder",
]

TRIGGERS_SCHEMA_VERSION = 1
_STATUS = {
    "error": CaseStatus.ERROR,
    "setup": CaseStatus.ERROR,
    "undelivered": CaseStatus.UNKNOWN,
    NOT_RUN: CaseStatus.NOT_RUN,
}


def _status(play: PlayRecord) -> CaseStatus:
    if play.chosen is None:
        return _STATUS[play.kind]
    return CaseStatus.PASS if play.chosen == play.expected else CaseStatus.FAIL


def play_case_result(play: PlayRecord, duration_ms: float | None, *, keep_play: bool = False) -> EvalCaseResult:
    """One play as a case result; ``keep_play`` puts the whole play in its grade (the checkpoint's, for --resume)."""
    status = _status(play)
    data: dict[str, Any] = {"outcome": play.label, "expected": play.expected, "path": list(play.path)}
    if keep_play:
        data["play"] = play.to_dict()
    grade = GradeRecord(method="trigger", status=status, explanation=play.reason, data=data)
    return EvalCaseResult(
        conversation_number=play.number,
        passed=status is CaseStatus.PASS,
        status=status,
        actual_response=play.label,
        failure_reason=None if status is CaseStatus.PASS else f"expected {play.expected}, {play.label}: {play.reason}",
        grades=[grade],
        evidence_path=play.evidence_path,
        duration_ms=duration_ms,
        repeat_index=play.repeat,
    )


def _note(run: TriggerRun) -> str:
    figures = run.figures
    apart = ", ".join(f"{count} {kind}" for kind, count in sorted(figures.apart.items())) or "none"
    accuracy = "unknown" if figures.accuracy is None else f"{figures.accuracy:.0%}"
    stop = "stopped at the first choice" if run.stop_at_choice else "played to the end"
    return (
        f"trigger evaluation: {figures.counted} plays counted, {accuracy} made the expected choice; "
        f"apart from the rates: {apart}; {run.runs} run(s) per prompt, {stop}"
    )


def trigger_test_set(trigger_set: TriggerSet) -> EvalTestSet:
    """The test set a trigger set is as a run folder's: one single-turn case per prompt, numbered as the prompt."""
    return single_turn_set(
        trigger_set_series_name(trigger_set.name), ((p.number, p.prompt) for p in trigger_set.prompts)
    )


def trigger_eval_run(
    run: TriggerRun, *, agent: CopilotEval, started: datetime, per_prompt: bool = False
) -> tuple[EvalRun, EvalTestSet]:
    """The EvalRun and test set of a trigger evaluation (one case per prompt, one try per run).

    ``per_prompt`` gives the run the threshold as its minimum pass rate: each prompt then has a
    verdict over its runs (what JUnit shows). The folder's run.json is written without it, so the
    finisher's gates do not turn a prompt's verdict into an exit code; the trigger gates decide.
    """
    test_set = trigger_test_set(run.trigger_set)
    durations = {**run.resumed, **{key: result.duration_ms for key, result in run.results.items()}}
    results = [play_case_result(p, durations.get(play_key(p.number, p.repeat))) for p in run.plays]
    summary = summarise(
        test_set,
        results,
        agent_name=agent.name,
        started=started,
        duration_ms=run.duration_s * 1000,
        note=_note(run),
        min_pass_rate=run.figures.threshold if per_prompt else None,
        repeat_dependence=repeat_dependence_of(agent),
    )
    update: dict[str, Any] = {"repeat": run.runs, "shard": run.shard, "usage": run.usage, "execution": run.execution}
    return summary.model_copy(update=update), test_set


def trigger_document(run: TriggerRun, folder: Path | None = None) -> dict[str, Any]:
    """``triggers.json``: the set, the catalogue as loaded, the figures and every play."""
    plays = [play.to_dict() for play in run.plays]
    if folder is not None:
        plays = [{**play, "evidence": folder_relative(play["evidence"], folder)} for play in plays]
    return {
        "schemaVersion": TRIGGERS_SCHEMA_VERSION,
        "triggerSet": {
            "name": run.trigger_set.name,
            "source": run.trigger_set.source,
            "names": list(run.trigger_set.names),
        },
        "runs": run.runs,
        "stopAtChoice": run.stop_at_choice,
        "shard": None if run.shard is None else {"index": run.shard.index, "count": run.shard.count},
        "executor": None if run.execution is None else run.execution.executor,
        "budget": {"reached": run.budget_reached, "notRun": len(run.not_run)},
        "catalogue": [
            {
                "name": e.name,
                "kind": e.kind,
                "descriptionLength": e.description_length,
                "descriptionSha256": e.description_sha256,
                "source": e.source,
                "path": e.path,
                "problems": list(e.problems),
            }
            for e in run.catalogue.entries
        ],
        "figures": run.figures.to_dict(),
        "plays": plays,
    }


def write_trigger_folder(
    run: TriggerRun,
    *,
    agent: CopilotEval,
    started: datetime,
    options: FinishOptions | None = None,
    gates: TriggerGates | None = None,
) -> Finished:
    """Finish the folder as every run's is (``runs.finish``): ``triggers.json`` with its data, JUnit one case per prompt.

    The trigger gates' verdict is handed to the finisher as one it meets (``met``), as a merge of
    trigger shards does, so the finisher alone decides the folder's verdict.
    """
    assert run.folder is not None, "write_trigger_folder needs the run's folder"
    folder = run.folder
    options = options or FinishOptions(no_history=True)
    document = json.dumps(trigger_document(run, folder), indent=2, ensure_ascii=False) + "\n"
    eval_run, test_set = trigger_eval_run(run, agent=agent, started=started)
    per_prompt = trigger_eval_run(run, agent=agent, started=started, per_prompt=True)[0] if options.junit else None
    item = FolderRun(folder, eval_run, test_set, files=((TRIGGERS_JSON, document),), junit_run=per_prompt)
    met = [trigger_verdict(run.figures, gates or TriggerGates())]
    return finish_run_folders([item], options, met=met)
