"""A run as JUnit XML for CI dashboards: failures as <failure>, ungraded cases as <error>.

An agent's wrong answer is a ``<failure>``; a case that could not be graded (runtime error, no
answer, a broken judge: status ``error``) is an ``<error>``, and so is one whose verdict is unknown
(``type="unknown"``): neither is ever shown as a pass. The run's runtime limitation, score and
confidence are suite properties, so a dashboard can tell a platform outage from a bad agent.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun
from copilot_eval.reports.atomic import write_bytes_atomically
from copilot_eval.reports.run_words import NOTHING_GRADED


def _text(value: object) -> str | None:
    return None if value is None else str(getattr(value, "value", value))


def _case_name(result: EvalCaseResult, repeats: bool) -> str:
    turn = f" turn {result.turn}" if (result.turn or 1) > 1 else ""
    return f"case {result.conversation_number}{turn}" + (f" (repeat {result.repeat_index or 0})" if repeats else "")


def _detail(result: EvalCaseResult, question: str | None) -> str:
    lines = [
        f"question: {question}" if question else None,
        f"actual: {result.actual_response if result.actual_response is not None else '(no answer)'}",
    ]
    lines += [f"{g.method} ({g.status.value}): {g.explanation or 'no reason given'}" for g in result.grades]
    if result.evidence_path:
        lines.append(f"evidence: {result.evidence_path}")
    return "\n".join(line for line in lines if line)


def junit_xml(run: EvalRun, test_set: EvalTestSet | None = None) -> str:
    """The JUnit XML text of ``run`` (one testcase per result, named after its case and repeat)."""
    results = list(run.results or [])
    questions = {key: c.question for key, c in case_turns(test_set).items()} if test_set else {}
    repeats = any(r.repeat_index for r in results)
    errors = sum(r.effective_status in (CaseStatus.ERROR, CaseStatus.UNKNOWN) for r in results)
    failures = sum(r.effective_status is CaseStatus.FAIL for r in results)
    root = ET.Element(
        "testsuites", name="copilot-eval", tests=str(len(results)), failures=str(failures), errors=str(errors)
    )
    suite = ET.SubElement(
        root,
        "testsuite",
        name=run.test_set_name,
        tests=str(len(results)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{(run.duration_ms or 0) / 1000:.3f}",
    )
    if run.run_at is not None:
        suite.set("timestamp", run.run_at.isoformat())
    properties = ET.SubElement(suite, "properties")
    facts = {
        # No score when nothing could be graded: a dashboard must not chart it as 0.
        "score_percent": f"{run.general_quality_percent:g}" if run.graded else NOTHING_GRADED,
        "graded_cases": str(run.graded),
        "confidence": run.confidence.value,
        "agent": run.agent_name,
        "runtime_limitation": run.runtime_limitation,
        "runtime_limitation_standing": _text(run.limitation_standing),
        "runtime_limitation_confirmed_by": "; ".join(run.limitation_confirmed_by) or None,
    }
    for name, value in facts.items():
        if value is not None:
            ET.SubElement(properties, "property", name=name, value=value)
    for result in results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=run.test_set_name,
            name=_case_name(result, repeats),
            time=f"{(result.duration_ms or 0) / 1000:.3f}",
        )
        status = result.effective_status
        message = result.failure_reason or status.value
        detail = _detail(result, questions.get((result.conversation_number, result.turn or 1)))
        if status is CaseStatus.FAIL:
            ET.SubElement(case, "failure", message=message, type="fail").text = detail
        elif status in (CaseStatus.ERROR, CaseStatus.UNKNOWN):
            ET.SubElement(case, "error", message=f"{message} (not an agent failure)", type=status.value).text = detail
        else:
            ET.SubElement(case, "system-out").text = detail
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(run: EvalRun, path: Path | str, test_set: EvalTestSet | None = None) -> Path:
    """Write ``run`` as JUnit XML to ``path`` atomically."""
    return write_bytes_atomically(path, junit_xml(run, test_set).encode("utf-8"))


__all__ = ["junit_xml", "write_junit"]
