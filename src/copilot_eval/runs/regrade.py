"""Grade a finished run again with other graders, from its saved answers and evidence, without the agent.

Regrade reads the run folder as every reader does (``reports.run_folder.read_run_folder``): the
run from ``run.json``, the exact set it played from ``test-set.json`` (each result is matched with
its own case by conversationNumber and turn, so turn 2 is graded against turn 2's reference), and
each session's evidence through the one rule that resolves a stored evidence path. Every case
then goes through the grading step the runner uses (``runs.case_runner.graded_result``) and a
complete new run folder is written; the agent is never called (a judge grader still calls its
judge model, and keeps its evidence in the new folder).
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

# The same names as security/record.py and triggers/record.py import, and only names: this module reads
# a saved run back to grade it again, they make a run of their own plays; no logic is shared.
from copilot_eval.evalsets import (
    CaseStatus,
    EvalCaseResult,
    EvalDataType,
    EvalRun,
    EvalTestCase,
    EvalTestSet,
    RunFingerprints,
)
from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.errors import EvalSetError
from copilot_eval.evidence.result import CopilotResult, trace_file_for
from copilot_eval.grading.protocol import CaseEvidence, Grader
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.run_folder import RUN_JSON, TEST_SET_JSON, RunFolder, read_run_folder
from copilot_eval.runs.case_runner import graded_result
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.fingerprints import test_set_fingerprint
from copilot_eval.runs.run_budget import usage_of
from copilot_eval.runs.target import PlayedEvidence, load_played, played_by_platform

__all__ = ["RegradeError", "read_saved_run", "regrade_saved_run"]

_NO_EVIDENCE = "no evidence was saved for this case"


class RegradeError(ValueError):
    """A run folder that cannot be regraded; the message names the file and what is missing."""


def _read_folder(run_dir: Path) -> tuple[RunFolder, EvalTestSet]:
    try:
        folder = read_run_folder(run_dir)
    except EvalSetError as exc:
        raise RegradeError(str(exc)) from None
    run_json = folder.folder / RUN_JSON
    if not folder.run.results:
        raise RegradeError(f"{run_json}: holds no per-case results to grade again")
    if folder.test_set is None:
        # Run folders kept their test set from run.json schemaVersion 1 on; before that only
        # results.csv held the questions, and it cannot say which reference belongs to which turn.
        why = (
            f"this folder was written before run folders kept their test set ({RUN_JSON} has no schemaVersion)"
            if folder.run.schema_version is None
            else f"{RUN_JSON} has schemaVersion {folder.run.schema_version}, which keeps one: it was removed"
        )
        raise RegradeError(
            f"{folder.folder / TEST_SET_JSON}: not found, so the answers cannot be matched with their reference "
            f"answers ({why}); run the test set again with `copilot-eval run --out DIR` and regrade that folder"
        )
    return folder, folder.test_set


def read_saved_run(run_dir: str | Path) -> tuple[EvalRun, EvalTestSet]:
    """The run and the exact test set it played, read from the run folder (``run.json``, ``test-set.json``)."""
    folder, test_set = _read_folder(Path(run_dir))
    return folder.run, test_set


def _case_of(result: EvalCaseResult, cases: dict[tuple[int, int], EvalTestCase], run_json: Path) -> EvalTestCase:
    case = cases.get((result.conversation_number, result.turn or 1))
    if case is None:
        turn = f" turn {result.turn}" if (result.turn or 1) > 1 else ""
        raise RegradeError(
            f"{run_json}: the result for conversationNumber {result.conversation_number}{turn} has no case in "
            f"{TEST_SET_JSON}; the folder's files do not belong together"
        )
    return case


class _Sessions:
    """Each session's evidence loaded once and copied once into the new folder's ``evidence/``."""

    def __init__(self, folder: RunFolder, out: Path) -> None:
        self.folder, self.out = folder, out
        self.loaded: dict[Path, tuple[PlayedEvidence, Path]] = {}

    def file_of(self, result: EvalCaseResult) -> Path:
        """The evidence file of ``result`` in the folder; RegradeError when it is missing or leads outside."""
        file = self.folder.evidence_file(result.evidence_path)
        if file is None and (refused := self.folder.evidence_refusal(result.evidence_path)) is not None:
            raise RegradeError(f"{self.folder.folder / RUN_JSON}: case {result.conversation_number}: {refused}")
        if file is None:
            raise RegradeError(
                f"{self.folder.folder / RUN_JSON}: the evidence of case {result.conversation_number} "
                f"({result.evidence_path}) is not in the run folder; regrading needs every session's evidence"
            )
        return file

    def get(self, result: EvalCaseResult) -> tuple[PlayedEvidence, str | None]:
        """The session evidence behind ``result`` and the path of its copy in the new folder."""
        if result.evidence_path is None:
            return CopilotResult(success=False, stop_reason="execution_error", error=_NO_EVIDENCE), None
        file = self.file_of(result)
        if file not in self.loaded:
            try:
                session = load_played(file)
            except (OSError, ValueError) as exc:
                raise RegradeError(
                    f"{file}: cannot read the evidence of case {result.conversation_number}: {exc}"
                ) from exc
            copy = self.out / LAYOUT.evidence / file.name
            copy.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(file, copy)
            if (trace := trace_file_for(file)).is_file():  # the runtime's trace goes with its evidence JSON
                shutil.copy2(trace, trace_file_for(copy))
            self.loaded[file] = (session, copy)
        session, copy = self.loaded[file]
        return session, str(copy)


async def _graded_again(
    result: EvalCaseResult,
    case: EvalTestCase,
    session: tuple[PlayedEvidence, str | None],
    graders: Sequence[Grader],
    *,
    conversation: bool,
) -> EvalCaseResult:
    """``result`` graded again by ``graders`` from its saved answer and session (and the path of its copy)."""
    played, copy = session
    evidence = CaseEvidence(
        answer=result.actual_response,
        result=played,
        # A conversation's turn t was the session's prompt t; a single-turn case was its session's only one.
        turn_index=(result.turn or 1) - 1 if conversation else 0,
        evidence_path=copy,  # judges keep their own evidence beside it, in the new folder
        turn=result.turn or 1,
        # the grades given before (a platform run's own figures tell General quality whether knowledge was used)
        recorded_grades=tuple(result.grades),
    )
    return await graded_result(
        case, evidence, graders, turn=result.turn, repeat_index=result.repeat_index, duration_ms=result.duration_ms
    )


async def regrade_saved_run(
    run_dir: str | Path, graders: Sequence[Grader], *, output_dir: str | Path, graders_fingerprint: str | None = None
) -> EvalRun:
    """Grade the saved answers of ``run_dir`` with ``graders`` and write a new run folder at ``output_dir``.

    The new run keeps what the agent did (its test set's and agent's fingerprints, repeats, shard) and
    records the graders' fingerprint given (``runs.fingerprints.graders_fingerprint`` of the specs), so
    the history and compare see the graders changed and nothing else.
    """
    run_dir, out = Path(run_dir), Path(output_dir)
    if out.resolve() == run_dir.resolve():
        raise RegradeError(f"{out}: regrading writes a new run folder; give another --out than the run itself")
    folder, test_set = _read_folder(run_dir)
    cases = case_turns(test_set)
    conversation = test_set.data_type is EvalDataType.CONVERSATION
    for result in folder.run.results or []:  # every result must have its case before anything is written
        _case_of(result, cases, folder.folder / RUN_JSON)
    sessions = _Sessions(folder, out)
    for result in folder.run.results or []:  # and its evidence in the folder (nothing outside is followed)
        if result.evidence_path is not None and result.effective_status is not CaseStatus.NOT_RUN:
            sessions.file_of(result)
    started, clock = datetime.now(UTC), time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    results = []
    for result in folder.run.results or []:
        if result.effective_status is CaseStatus.NOT_RUN:  # never played: nothing to grade, still listed
            results.append(result)
            continue
        case = _case_of(result, cases, folder.folder / RUN_JSON)
        results.append(await _graded_again(result, case, sessions.get(result), graders, conversation=conversation))
    run = summarise(
        test_set,
        results,
        agent_name=folder.run.agent_name,
        started=started,
        duration_ms=(time.monotonic() - clock) * 1000,
        note=f"regraded from {run_dir} without running the agent",
        min_pass_rate=folder.run.min_pass_rate,
        repeat_dependence=folder.run.repeat_dependence,
        platform_answers=played_by_platform(session for session, _ in sessions.loaded.values()),
    )
    before = folder.run.fingerprints or RunFingerprints(test_set=test_set_fingerprint(test_set))
    fingerprints = before.model_copy(update={"graders": graders_fingerprint})
    return run.model_copy(
        update={
            "fingerprints": fingerprints,
            "repeat": folder.run.repeat,
            "shard": folder.run.shard,
            "usage": usage_of(results),  # the agent's sessions as they were, the judges of this grading
        }
    )
