"""run.json written before schemaVersion 2 (the limitation's standing in its text) reads as today's fields."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from copilot_eval.evalsets import (
    EvalRun,
    EvalSetReadError,
    EvalTestSet,
    LimitationStanding,
    read_run_json,
    run_from_json,
)
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import RUN_SCHEMA_VERSION
from copilot_eval.reports.run_words import limitation_line
from copilot_eval.runs.limitation import Limitation, confirm_limitation

REASON = "2 of 2 cases ended in execution errors instead of answers"
CITED = ["case 1: error, 'execution_error: 500'", "case 2: error, 'execution_error: 500'"]
PREVIEW = "surface preview answered the same 2 questions well: 2 of 2 passed (100%)"
RERUN = "a re-run at eval-runs/rerun-2 gave the same errors"  # a "/" does not make it an evidence path
# Exactly what copilot-eval wrote before schemaVersion 2: describe(), then confirm_limitation twice.
OLD_SUSPECTED = (
    f"Suspected runtime limitation: {REASON}. The score likely measures the platform, not the agent; "
    f"a re-run or another surface confirms it. Evidence: {CITED[0]} | {CITED[1]}"
)
OLD_CONFIRMED = (
    f"Confirmed runtime limitation: {REASON}. The score measures the platform, not the agent; "
    f"confirmed by: {PREVIEW}. Evidence: {CITED[0]} | {CITED[1]} Confirmed by: {RERUN}."
)
PATHS = ["evidence/case1-r0.json", "evidence/case2-r0.json"]


def _old_run(text: str, **fields) -> dict:
    return {
        "schemaVersion": 1,
        "testSetName": "shop",
        "generalQualityPercent": 0,
        "passed": 0,
        "failed": 0,
        "errored": 2,
        "runtimeLimitation": text,
        **fields,
    }


def test_an_old_suspected_limitation_reads_as_a_new_one() -> None:
    new = Limitation(reasons=[REASON], evidence=CITED).describe()
    for standing in ({"limitationStanding": "suspected"}, {}):  # older still: no standing field at all
        run = run_from_json(json.dumps(_old_run(OLD_SUSPECTED, evidence=PATHS, **standing)))
        assert run.runtime_limitation == new
        assert (run.limitation_standing, run.limitation_confirmed_by, run.evidence) == (
            LimitationStanding.SUSPECTED,
            [],
            PATHS,
        )


def test_an_old_confirmed_limitation_gives_its_confirmations_back_and_keeps_its_evidence_files() -> None:
    old = _old_run(OLD_CONFIRMED, limitationStanding="confirmed", evidence=[*PATHS, PREVIEW, RERUN])
    run = run_from_json(json.dumps(old))
    assert run.runtime_limitation == Limitation(reasons=[REASON], evidence=CITED).describe()
    assert run.limitation_standing is LimitationStanding.CONFIRMED
    assert run.limitation_confirmed_by == [PREVIEW, RERUN]
    assert run.evidence == PATHS
    # The same run recorded today reads the same, and so do the views.
    today = confirm_limitation(
        confirm_limitation(
            EvalRun(
                test_set_name="shop",
                general_quality_percent=0,
                passed=0,
                failed=0,
                errored=2,
                evidence=PATHS,
                runtime_limitation=Limitation(reasons=[REASON], evidence=CITED).describe(),
                limitation_standing=LimitationStanding.SUSPECTED,
            ),
            by=PREVIEW,
        ),
        by=RERUN,
    )
    assert (today.runtime_limitation, today.limitation_confirmed_by, today.evidence) == (
        run.runtime_limitation,
        run.limitation_confirmed_by,
        run.evidence,
    )
    assert limitation_line(run) == limitation_line(today)
    assert limitation_line(run).startswith(f"Confirmed runtime limitation: {REASON}.")
    assert limitation_line(run).endswith(f"Confirmed by: {PREVIEW}; {RERUN}.")


def test_an_old_run_written_again_is_in_todays_layout(tmp_path: Path) -> None:
    old = tmp_path / "old.json"
    old.write_text(json.dumps(_old_run(OLD_CONFIRMED, limitationStanding="confirmed", evidence=[*PATHS, PREVIEW])))
    run = read_run_json(old)
    write_run_outputs(run, EvalTestSet(name="shop", cases=[]), tmp_path / "again")
    data = json.loads((tmp_path / "again" / "run.json").read_text(encoding="utf-8"))
    assert data["schemaVersion"] == RUN_SCHEMA_VERSION == 3
    assert not data["runtimeLimitation"].startswith(("Suspected", "Confirmed"))
    assert (data["limitationStanding"], data["limitationConfirmedBy"], data["evidence"]) == (
        "confirmed",
        [PREVIEW],
        PATHS,
    )


def test_a_limitation_without_our_prefix_is_left_as_written() -> None:
    # The seed's own record words its limitation freely; nothing of it is taken for a standing.
    text = "Evaluate runtime limitation. Draft returns the system fallback; Published returns HTTP 500."
    run = run_from_json(json.dumps(_old_run(text, evidence=["Preview answered with citations"])))
    assert (run.runtime_limitation, run.limitation_standing, run.evidence) == (
        text,
        None,
        ["Preview answered with citations"],
    )


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"limitationConfirmedBy": ["x"], "limitationStanding": "suspected"}, "limitationStanding is not confirmed"),
        ({"gradedCases": 1}, "gradedCases=1 but passed + failed = 0"),
    ],
)
def test_fields_that_contradict_each_other_are_refused_naming_them(fields: dict, problem: str) -> None:
    with pytest.raises(EvalSetReadError, match=re.escape(problem)):
        run_from_json(json.dumps(_old_run("HTTP 500", **fields)))
