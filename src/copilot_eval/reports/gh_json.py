"""A prompt-file run in the shape of ``gh models eval --json``, so that scripts reading that output keep working.

The document is gh-models' own: ``name``, ``description``, ``model``, ``testResults`` (each with
``testCase``, the row; ``modelResponse``, the trimmed answer; ``evaluationResults`` with
``evaluatorName``, ``score``, ``passed``, and ``details`` when there are any) and ``summary``
(``totalTests``, ``passedTests``, ``failedTests``, ``passRate`` in percent). Every ``passed``
follows gh-models' rule (an evaluator passes on a score above 0; a test when every evaluator
passed), read from the verdict recorded beside ours; our own verdicts stay in the run folder.
Where gh-models would have stopped the whole run (no answer, a judge that failed), the test is
written as failed, its details saying why, rather than left out. With ``--repeat`` every try is
its own test result, the first try of every row first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets import EvalCaseResult, EvalRun, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.prompt_evaluators import evaluator_specs
from copilot_eval.evalsets.prompt_text import go_trim


def _evaluation_results(result: EvalCaseResult, names: list[str]) -> list[dict[str, Any]]:
    by_method = {grade.method: grade for grade in result.grades}
    entries = []
    for name in names:
        grade = by_method.get(name)
        verdict = grade.gh_models if grade is not None else None
        entry: dict[str, Any]
        if verdict is not None:
            entry = {"evaluatorName": name, "score": verdict.score, "passed": verdict.passed}
            if verdict.details:
                entry["details"] = verdict.details
        else:
            why = (grade.explanation if grade is not None else None) or result.failure_reason or "not graded"
            entry = {
                "evaluatorName": name,
                "score": 0.0,
                "passed": False,
                "details": f"copilot-eval: not graded, where gh-models would have stopped the run ({why})",
            }
        entries.append(entry)
    return entries


def gh_models_document(run: EvalRun, test_set: EvalTestSet) -> dict[str, Any]:
    """The run as ``gh models eval --json`` writes one (the set must come from a prompt file)."""
    record = test_set.prompt_file
    if record is None:
        raise ValueError("--gh-json: the set is not a prompt file, and gh-models' output describes one")
    names = [spec.name for spec in evaluator_specs(record.evaluators)]
    cases: dict[int, EvalTestCase] = {case.conversation_number: case for case in test_set.cases}
    ordered = sorted(run.results or [], key=lambda r: (r.repeat_index or 0, r.conversation_number))
    tests: list[dict[str, Any]] = []
    for result in ordered:
        case = cases.get(result.conversation_number)
        row = dict(case.prompt.variables) if case is not None and case.prompt is not None else {}
        tests.append(
            {
                "testCase": row,
                "modelResponse": go_trim(result.actual_response or ""),
                "evaluationResults": _evaluation_results(result, names),
            }
        )
    passed = sum(all(entry["passed"] for entry in test["evaluationResults"]) for test in tests)
    total = len(tests)
    return {
        "name": record.name,
        "description": record.description,
        "model": record.model,
        "testResults": tests,
        "summary": {
            "totalTests": total,
            "passedTests": passed,
            "failedTests": total - passed,
            "passRate": 100.0 * passed / total if total else 100.0,  # gh-models reports 100 for no tests
        },
    }


def gh_models_line(run: EvalRun) -> str | None:
    """One line saying how gh-models' own rule would have judged the run's cases, and where it and ours differ."""
    judged = [r for r in run.results or [] if r.gh_models_passed is not None]
    if not judged:
        return None
    passed = sum(bool(r.gh_models_passed) for r in judged)
    differ = [r for r in judged if r.gh_models_passed != (r.effective_status.value == "pass")]
    shown = ", ".join(r.case_key or str(r.conversation_number) for r in differ[:8])
    more = f" and {len(differ) - 8} more" if len(differ) > 8 else ""
    tail = f"; it differs from ours on {len(differ)}: {shown}{more}" if differ else "; it agrees with ours on every one"
    return (
        f"gh-models' own rule (an evaluator passes on any score above 0) passes {passed} of {len(judged)} cases{tail}"
    )


def write_gh_models_json(run: EvalRun, test_set: EvalTestSet, path: Path | str) -> Path:
    """Write the gh-models document of ``run`` to ``path`` (indented as gh-models indents it)."""
    path = Path(path)
    text = json.dumps(gh_models_document(run, test_set), indent=2, ensure_ascii=False) + "\n"
    write_text_atomically(path, text)
    return path


__all__ = ["gh_models_document", "gh_models_line", "write_gh_models_json"]
