"""Grade a finished run again with other graders, from its saved answers and evidence, without the agent.

A run folder holds ``run.json`` (per-case results with each answer and its evidence file),
``results.csv`` (each case's question and reference answer, in the same order) and
``evidence/`` (the CopilotResult of every session). Regrading reads those, runs the new graders
on the same answers and writes a complete new run folder; the agent is never called (a judge
grader still calls its judge model).
"""

from __future__ import annotations

import csv
import json
import shutil
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalDataType, EvalRun, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.json_io import read_run_json
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading.combine import combine_grades
from copilot_eval.grading.protocol import CaseEvidence, Grade, Grader
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import RESULTS_CSV, RUN_JSON
from copilot_eval.runs.checkpoint import CHECKPOINT_NAME
from copilot_eval.runs.eval_runner import summarise

__all__ = ["RegradeError", "read_saved_run", "regrade_run"]


class RegradeError(ValueError):
    """A run folder that cannot be regraded; the message names the file and what is missing."""


def _data_type(run_dir: Path) -> EvalDataType:
    """The set's data type from the checkpoint header; SingleTurn when there is none."""
    path = run_dir / CHECKPOINT_NAME
    try:
        header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
        return EvalDataType(header["dataType"])
    except (OSError, IndexError, ValueError, KeyError):
        return EvalDataType.SINGLE_TURN


def read_saved_run(run_dir: str | Path) -> tuple[EvalRun, EvalTestSet]:
    """The run and the test set it played, rebuilt from ``run.json`` and ``results.csv``."""
    run_dir = Path(run_dir)
    for name in (RUN_JSON, RESULTS_CSV):
        if not (run_dir / name).is_file():
            raise RegradeError(f"{run_dir / name}: not found; give the folder a `copilot-eval run` wrote (--out)")
    run = read_run_json(run_dir / RUN_JSON)
    if not run.results:
        raise RegradeError(f"{run_dir / RUN_JSON}: holds no per-case results to grade again")
    with (run_dir / RESULTS_CSV).open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    if len(rows) != len(run.results):
        raise RegradeError(f"{run_dir / RESULTS_CSV}: {len(rows)} rows but {RUN_JSON} has {len(run.results)} results")
    cases: dict[int, EvalTestCase] = {}
    for line, (row, result) in enumerate(zip(rows, run.results, strict=True), start=2):
        if "question" not in row or "expectedResponse" not in row:
            raise RegradeError(f"{run_dir / RESULTS_CSV}:{line}: no question/expectedResponse columns")
        cases.setdefault(
            result.conversation_number,
            EvalTestCase(
                conversation_number=result.conversation_number,
                question=row["question"],
                response=row["expectedResponse"],
            ),
        )
    test_set = EvalTestSet(
        name=run.test_set_name,
        data_type=_data_type(run_dir),
        cases=sorted(cases.values(), key=lambda c: c.conversation_number),
    )
    return run, test_set


def _evidence(result: EvalCaseResult, run_dir: Path, turn_index: int, cache: dict[str, CopilotResult]) -> CaseEvidence:
    path = result.evidence_path
    if path is None:
        session = CopilotResult(success=False, stop_reason="execution_error", error="no evidence was saved")
    else:
        file = Path(path) if Path(path).is_absolute() or Path(path).exists() else run_dir / "evidence" / Path(path).name
        if str(file) not in cache:
            try:
                cache[str(file)] = CopilotResult.load(file)
            except (OSError, ValueError) as exc:
                raise RegradeError(
                    f"{file}: cannot read the evidence of case {result.conversation_number}: {exc}"
                ) from exc
        session = cache[str(file)]
    return CaseEvidence(answer=result.actual_response, result=session, turn_index=turn_index, evidence_path=path)


async def _grade(grader: Grader, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
    try:
        return await grader.grade(case, evidence)
    except Exception as exc:
        return Grade(
            getattr(grader, "name", type(grader).__name__),
            CaseStatus.ERROR,
            f"grader crashed: {type(exc).__name__}: {exc}",
        )


async def regrade_run(run_dir: str | Path, graders: Sequence[Grader], *, output_dir: str | Path) -> EvalRun:
    """Grade the saved answers of ``run_dir`` with ``graders`` and write a new run folder at ``output_dir``."""
    run_dir, out = Path(run_dir), Path(output_dir)
    if out.resolve() == run_dir.resolve():
        raise RegradeError(f"{out}: regrading writes a new run folder; give another --out than the run itself")
    old, test_set = read_saved_run(run_dir)
    by_number = {case.conversation_number: case for case in test_set.cases}
    started, clock = datetime.now(UTC), time.monotonic()
    out.mkdir(parents=True, exist_ok=True)
    if (run_dir / "evidence").is_dir():
        shutil.copytree(run_dir / "evidence", out / "evidence", dirs_exist_ok=True)
    sessions: dict[str, CopilotResult] = {}
    seen_in_session: dict[tuple[str | None, int | None], int] = {}
    results = []
    for result in old.results or []:
        unit = (result.evidence_path, result.repeat_index)
        turn_index = seen_in_session.get(unit, 0) if test_set.data_type is EvalDataType.CONVERSATION else 0
        seen_in_session[unit] = turn_index + 1
        case = by_number[result.conversation_number]
        evidence = _evidence(result, run_dir, turn_index, sessions)
        grades = [await _grade(grader, case, evidence) for grader in graders]
        status, reason = combine_grades(grades)
        if evidence.runtime_error is not None:
            status, reason = CaseStatus.ERROR, evidence.runtime_error
        copied = out / "evidence" / Path(result.evidence_path).name if result.evidence_path else None
        results.append(
            result.model_copy(
                update={
                    "passed": status is CaseStatus.PASS,
                    "status": status,
                    "failure_reason": reason,
                    "grades": [grade.to_record() for grade in grades],
                    "evidence_path": str(copied) if copied is not None and copied.exists() else result.evidence_path,
                }
            )
        )
    run = summarise(
        test_set,
        results,
        agent_name=old.agent_name,
        started=started,
        duration_ms=(time.monotonic() - clock) * 1000,
        note=f"regraded from {run_dir} without running the agent",
    )
    write_run_outputs(run, test_set, out)
    return run
