"""A run as JUnit XML for CI dashboards: failures as <failure>, ungraded cases as <error>.

An agent's wrong answer is a ``<failure>``; a case that could not be graded (runtime error, no
answer, a broken judge: status ``error``) is an ``<error>``, and so is one whose verdict is unknown
(``type="unknown"``): neither is ever shown as a pass. The run's runtime limitation, score and
confidence are suite properties, so a dashboard can tell a platform outage from a bad agent.
Characters XML 1.0 forbids (NUL, ESC, other controls, lone surrogates) in an answer, a reason or
a name are written as their escapes (``\\x1b``) by the one XML sanitiser, ``copilot_eval.untrusted.xml``.

With a minimum pass rate each case is one testcase carrying its verdict over its tries (the
tries are listed in its output); otherwise each try is a testcase. Either way a repeated case's
testcases carry its pass rate and Wilson interval as properties, and a case whose LLM judge
disagreed with itself says "judge unstable". A case graded by General quality (ours or the
platform's) carries each part as a property, ``general_quality.relevance`` = ``Yes`` and so on.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets.conversations import case_turns
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.quality_parts import general_quality_grade, quality_parts
from copilot_eval.evalsets.run_model import CaseRepeatRecord, CaseStatus, EvalCaseResult, EvalRun
from copilot_eval.reports.repeat_words import (
    JUDGE_UNSTABLE,
    case_label,
    case_records,
    judge_cost_line,
    percent,
    rate_text,
    shown_status,
)
from copilot_eval.reports.run_words import NOTHING_GRADED
from copilot_eval.untrusted.xml import xml_safe_tree


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
    lines += [
        f"{g.method} ({g.status.value}): {g.explanation or 'no reason given'}"
        + (f" [error reason: {g.error_reason}]" if g.error_reason else "")
        for g in result.grades
    ]
    if result.case_id:
        lines.append(f"platform test case id: {result.case_id}")
    if result.evidence_path:
        lines.append(f"evidence: {result.evidence_path}")
    return "\n".join(line for line in lines if line)


def _case_properties(case: ET.Element, record: CaseRepeatRecord | None, result: EvalCaseResult | None) -> None:
    facts: dict[str, str | None] = {}
    if record is not None:
        interval = record.pass_rate_interval
        facts = {
            "tries": str(record.tries),
            "passes": str(record.passes),
            "not_graded": str(record.errors),
            "pass_rate": None if record.pass_rate is None else f"{record.pass_rate:g}",
            "pass_rate_interval_95": None if interval is None else f"{interval[0]:g}-{interval[1]:g}",
        }
    if (record is not None and record.judge_unstable) or (result is not None and result.judge_unstable):
        facts["judge_unstable"] = "true"
    quality = general_quality_grade(result.grades) if result is not None else None
    if quality is not None:  # General quality part by part, in the platform's names: general_quality.relevance=Yes
        facts |= {f"general_quality.{part}": value for part, value in quality_parts(quality).items()}
    present = {name: value for name, value in facts.items() if value is not None}
    if present:
        properties = ET.SubElement(case, "properties")
        for name, value in present.items():
            ET.SubElement(properties, "property", name=name, value=value)


def _outcome(case: ET.Element, status: CaseStatus, message: str, detail: str, unstable: bool) -> None:
    if unstable:
        message = f"{JUDGE_UNSTABLE}: {message}"
    if status is CaseStatus.FAIL:
        ET.SubElement(case, "failure", message=message, type="fail").text = detail
    elif status in (CaseStatus.ERROR, CaseStatus.UNKNOWN):
        ET.SubElement(case, "error", message=f"{message} (not an agent failure)", type=status.value).text = detail
    else:
        ET.SubElement(case, "system-out").text = detail


def _verdict_cases(
    suite: ET.Element, run: EvalRun, records: list[CaseRepeatRecord], questions: dict[tuple[int, int], str]
) -> None:
    """One testcase per case, its status the verdict over its tries (with a minimum pass rate)."""
    tries: dict[tuple[int, int], list[EvalCaseResult]] = {}
    for result in run.results or []:
        tries.setdefault((result.conversation_number, result.turn or 1), []).append(result)
    for record in records:
        mine = tries.get((record.conversation_number, record.turn), [])
        case = ET.SubElement(
            suite,
            "testcase",
            classname=run.test_set_name,
            name=case_label(record),
            time=f"{sum(r.duration_ms or 0 for r in mine) / 1000:.3f}",
        )
        _case_properties(case, record, None)
        head = f"{rate_text(record)}; minimum pass rate {percent(run.min_pass_rate)}"
        detail = "\n\n".join(
            f"try {(r.repeat_index or 0) + 1}: {shown_status(r)}\n"
            + _detail(r, questions.get((r.conversation_number, r.turn or 1)))
            for r in mine
        )
        _outcome(case, record.verdict or CaseStatus.UNKNOWN, head, detail, record.judge_unstable)


def _suite_properties(suite: ET.Element, run: EvalRun) -> None:
    """The run's facts a dashboard reads: score (none when nothing was graded), limitation, repeats, judges."""
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
        "min_pass_rate": None if run.min_pass_rate is None else f"{run.min_pass_rate:g}",
        "repeats_independent": None if run.repeats_independent is None else str(run.repeats_independent).lower(),
        "repeat_dependence": run.repeat_dependence,
        "judge_cost": judge_cost_line(run),
    }
    for name, value in facts.items():
        if value is not None:
            ET.SubElement(properties, "property", name=name, value=value)


def junit_xml(run: EvalRun, test_set: EvalTestSet | None = None) -> str:
    """The JUnit XML text of ``run``: one testcase per case verdict with a minimum pass rate, else per result."""
    results = list(run.results or [])
    questions = {key: c.question for key, c in case_turns(test_set).items()} if test_set else {}
    repeats = any(r.repeat_index for r in results)
    records_list = case_records(run)
    verdicts = run.min_pass_rate is not None and records_list is not None
    statuses = [r.verdict or CaseStatus.UNKNOWN for r in records_list or []] if verdicts else None
    statuses = statuses if statuses is not None else [r.effective_status for r in results]
    errors = sum(status in (CaseStatus.ERROR, CaseStatus.UNKNOWN) for status in statuses)
    failures = sum(status is CaseStatus.FAIL for status in statuses)
    root = ET.Element(
        "testsuites", name="copilot-eval", tests=str(len(statuses)), failures=str(failures), errors=str(errors)
    )
    suite = ET.SubElement(
        root,
        "testsuite",
        name=run.test_set_name,
        tests=str(len(statuses)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{(run.duration_ms or 0) / 1000:.3f}",
    )
    if run.run_at is not None:
        suite.set("timestamp", run.run_at.isoformat())
    _suite_properties(suite, run)
    if verdicts:
        _verdict_cases(suite, run, records_list or [], questions)
    records = {(r.conversation_number, r.turn): r for r in records_list or []} if repeats else {}
    for result in [] if verdicts else results:
        case = ET.SubElement(
            suite,
            "testcase",
            classname=run.test_set_name,
            name=_case_name(result, repeats),
            time=f"{(result.duration_ms or 0) / 1000:.3f}",
        )
        _case_properties(case, records.get((result.conversation_number, result.turn or 1)), result)
        status = result.effective_status
        detail = _detail(result, questions.get((result.conversation_number, result.turn or 1)))
        _outcome(case, status, result.failure_reason or status.value, detail, result.judge_unstable)
    ET.indent(root)
    xml_safe_tree(root)  # answers, reasons and names may hold what XML 1.0 forbids: shown as escapes
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(run: EvalRun, path: Path | str, test_set: EvalTestSet | None = None) -> Path:
    """Write ``run`` as JUnit XML to ``path`` atomically."""
    return write_bytes_atomically(path, junit_xml(run, test_set).encode("utf-8"))


__all__ = ["junit_xml", "write_junit"]
