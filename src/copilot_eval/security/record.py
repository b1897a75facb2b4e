"""A suite's run as a normal run folder: run.json, results.csv, evidence, report.html, and security.json.

Each play is one case result of the run, so reports, compare and the history read a security run
like any other: a baseline passes when the user's task was done; an attack play passes when the
agent resisted, fails when it was attacked, is ``unknown`` when the attack was not delivered and
``error`` when it could not be decided, so neither of the last two is ever a pass or a failure.
``security.json`` beside run.json keeps what a run.json has no field for: the figures (rates with
their intervals, counts apart) and every play's outcome, vector, attack text, goal and canary.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun, EvalTestSet, GradeRecord
from copilot_eval.evalsets.model import single_turn_set
from copilot_eval.evidence import CopilotResult
from copilot_eval.reports.run_folder import folder_relative
from copilot_eval.reports.security_figures import SECURITY_JSON
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from copilot_eval.runs.independence import repeat_dependence_of
from copilot_eval.safe_paths import path_component
from copilot_eval.scans.protocol import Scanner
from copilot_eval.security.cases import SecurityCase
from copilot_eval.security.outcomes import Outcome
from copilot_eval.security.playable import PlayableSuite
from copilot_eval.security.rates import PlayResult, SecuritySummary
from copilot_eval.security.words import summary_sentence

__all__ = [
    "SECURITY_JSON",
    "SECURITY_RUNS",
    "SECURITY_SCHEMA_VERSION",
    "SecurityRecord",
    "default_run_folder",
    "security_folder",
    "test_set_name",
    "write_security_folder",
]

#: Where ``copilot-eval attack`` writes a run folder when ``--out`` is not given.
SECURITY_RUNS = Path("security-runs")
SECURITY_SCHEMA_VERSION = 1


def default_run_folder(suite_name: str, when: datetime) -> Path:
    """``security-runs/<suite>-<time>``: the suite's ``name:`` (someone's text) made one safe, capped component."""
    return SECURITY_RUNS / f"{path_component(suite_name, fallback='suite')}-{when:%Y%m%d-%H%M%S}"


_STATUS = {
    Outcome.RESISTED: CaseStatus.PASS,
    Outcome.ATTACKED: CaseStatus.FAIL,
    Outcome.NOT_DELIVERED: CaseStatus.UNKNOWN,
    Outcome.ERROR: CaseStatus.ERROR,
}


def test_set_name(suite: PlayableSuite) -> str:
    """The name a suite's runs have in reports and in the history."""
    return f"injection-suite:{suite.name}"


def _utility_status(utility: bool | None) -> CaseStatus:
    return CaseStatus.ERROR if utility is None else (CaseStatus.PASS if utility else CaseStatus.FAIL)


def _case_result(play: PlayResult, result: CopilotResult) -> EvalCaseResult:
    task = GradeRecord(
        method="user task" if play.outcome is None else "user task under attack",
        status=_utility_status(play.utility),
        explanation=play.task_reason,
    )
    grades = [task]
    status = task.status
    if play.outcome is not None:
        status = _STATUS[play.outcome]
        data = {"outcome": play.outcome.value, "vector": play.vector, "attack": play.attack, "goal": play.goal}
        grades.insert(0, GradeRecord(method="attack goal", status=status, explanation=play.reason, data=data))
    return EvalCaseResult(
        conversation_number=play.number,
        passed=status is CaseStatus.PASS,
        status=status,
        actual_response=result.final_response,
        failure_reason=None if status is CaseStatus.PASS else play.reason,
        grades=grades,
        evidence_path=play.evidence_path,
        duration_ms=result.duration_ms,
        repeat_index=play.repeat,
    )


@dataclass(frozen=True)
class SecurityRecord:
    """What a suite's run writes: the run, its test set (one case per suite case) and security.json."""

    run: EvalRun
    test_set: EvalTestSet
    document: dict[str, Any]

    @classmethod
    def build(
        cls,
        suite: PlayableSuite,
        cases: list[SecurityCase],
        plays: list[tuple[PlayResult, CopilotResult]],
        summary: SecuritySummary,
        *,
        agent: CopilotEval,
        started: datetime,
        duration_ms: float,
        repeat: int,
    ) -> SecurityRecord:
        """The record of one run of ``suite``'s ``cases``."""
        test_set = single_turn_set(test_set_name(suite), ((case.number, case.prompt) for case in cases))
        run = summarise(
            test_set,
            [_case_result(play, result) for play, result in plays],
            agent_name=agent.name,
            started=started,
            duration_ms=duration_ms,
            note=summary_sentence(summary),
            repeat_dependence=repeat_dependence_of(agent),
            platform_answers=False,  # played on the local runtime: no platform answers in the agent's place
        )
        run = run.model_copy(update={"repeat": repeat})
        document = {
            "schemaVersion": SECURITY_SCHEMA_VERSION,
            "suite": suite.name,
            "description": suite.description,
            "agent": agent.name,
            "repeat": repeat,
            "summary": summary.to_dict(),
            "cases": [
                {
                    "number": case.number,
                    "id": case.id,
                    "task": case.task,
                    "vector": case.vector,
                    "attack": case.attack,
                    "goal": case.goal,
                }
                for case in cases
            ],
            "plays": [play.to_dict() for play, _ in plays],
        }
        return cls(run, test_set, document)


def security_folder(record: SecurityRecord, folder: Path) -> FolderRun:
    """The run folder to finish: the run, its set, and ``security.json`` (its evidence paths relative) among its files."""
    document = dict(record.document)
    document["plays"] = [
        {**play, "evidence": folder_relative(play.get("evidence"), folder)} for play in record.document["plays"]
    ]
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    return FolderRun(folder, record.run, record.test_set, files=((SECURITY_JSON, text),))


def write_security_folder(record: SecurityRecord, folder: Path, *, scanners: tuple[Scanner, ...] = ()) -> None:
    """Finish the run folder of a library call (``run_suite(out=...)``) through the one finisher, history off.

    ``copilot-eval attack`` finishes its folder itself (``commands.attack``), with the history and its gates.
    """
    finish_run_folders([security_folder(record, folder)], FinishOptions(no_history=True, scanners=scanners))
