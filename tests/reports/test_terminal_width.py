"""The run table uses the width it has: a 200-column CI log keeps whole questions that 80 columns cut."""

from __future__ import annotations

import io

from rich.console import Console

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun, EvalTestCase, EvalTestSet
from copilot_eval.reports.terminal import print_summary

QUESTION = "Can I return a bike to another branch than the one I rented it from, and what does it cost?"


def _printed(width: int) -> str:
    test_set = EvalTestSet(name="shop", cases=[EvalTestCase(conversation_number=1, question=QUESTION, response="Yes.")])
    result = EvalCaseResult(conversation_number=1, passed=False, status=CaseStatus.FAIL, actual_response="No.")
    run = EvalRun(test_set_name="shop", general_quality_percent=0.0, passed=0, failed=1, results=[result])
    out = io.StringIO()
    print_summary(run, test_set, Console(file=out, width=width, soft_wrap=True))
    return " ".join(out.getvalue().replace("│", " ").split())


def test_a_wide_log_keeps_the_whole_question_and_a_narrow_terminal_cuts_it():
    assert QUESTION in _printed(200)
    narrow = _printed(80)
    assert QUESTION not in narrow and "Can I return a bike to another branch" in narrow
