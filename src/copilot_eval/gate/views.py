"""What a gate says: the Markdown a pull request reads, the JSON a script reads, JUnit, and the terminal lines.

The Markdown opens on a headline (regressions, improvements, the score then and now with its
95 % interval), names a stale baseline, then a table of the regressed cases (question, then and
now, the grader's reason, a link to the case in the report with ``--details-url``), the tool
sequence of each regressed case that changed, every other kind of case in a short list, and the
usage and cost then and now. Text that is not ours (questions, reasons, names, tool names) goes
through the one Markdown sanitiser (``copilot_eval.untrusted.markdown``) and the JUnit through the
one XML sanitiser (``copilot_eval.untrusted.xml``): an answer cannot break the table, the comment or
the XML, mention anyone or load anything.
"""

from __future__ import annotations

import difflib
import re
import xml.etree.ElementTree as ET
from typing import Any

from copilot_eval.gate.decide import KIND_TITLES, CaseOutcome, GateResult, interval_percent
from copilot_eval.gate.sides import CaseSide, RunSide
from copilot_eval.untrusted.markdown import md_code_block, md_inline
from copilot_eval.untrusted.xml import xml_safe_tree

JSON_SCHEMA_VERSION = 1
"""The version of ``gate --json``'s document: keys are only ever added within it."""

_CELL_LIMIT = 300
_HEX = re.compile(r"[0-9a-fA-F]+")
_VERDICT_WORDS = {0: "passed", 1: "below the gate", 3: "undecidable"}


def cell(text: object, limit: int = _CELL_LIMIT) -> str:
    """``text`` as one inert Markdown table cell (see ``untrusted.markdown``), cut to ``limit`` characters."""
    return md_inline(text, limit=limit)


def case_label(side: CaseSide) -> str:
    """``case 3``, ``case 3 turn 2`` for a numbered case; the key itself for a named one."""
    numbered = f"{side.conversation_number}.{side.turn or 1}"
    if side.conversation_number is not None and side.key == numbered:
        return f"case {side.conversation_number}" + (f" turn {side.turn}" if (side.turn or 1) > 1 else "")
    return side.key


def _score(side: RunSide) -> str:
    if side.score_percent is None:
        return "n/a (nothing graded)"
    interval = interval_percent(side)
    shown = f"{side.score_percent:g}%"
    return shown + (f" (95% {interval[0]:g}-{interval[1]:g}%)" if interval else "") + f" over {side.graded}"


def _number(value: float | None) -> str:
    if value is None:
        return "unknown"
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.2f}"


def _link(outcome: CaseOutcome, details_url: str | None) -> str:
    label = cell(case_label(outcome.side), 80)
    anchor = outcome.now.anchor if outcome.now else None
    if not details_url:
        return label
    return f"[{label}]({details_url}#{anchor})" if anchor else f"[{label}]({details_url})"


def headline(result: GateResult) -> str:
    """One line: the verdict, the regressions and improvements, the score then and now."""
    counts = result.counts()
    verdict = _VERDICT_WORDS.get(result.code, str(result.code))
    return (
        f"{counts['regressed']} regressed, {counts['improved']} improved, {counts['error']} in error; "
        f"score {_score(result.baseline)} -> {_score(result.run)}; {verdict} (exit {result.code})"
    )


def _regressed_table(outcomes: list[CaseOutcome], details_url: str | None) -> list[str]:
    lines = ["| case | question | then | now | reason |", "| --- | --- | --- | --- | --- |"]
    for outcome in outcomes:
        then, now = outcome.then, outcome.now
        assert then is not None and now is not None
        p = f" (p={outcome.p_value:.3g})" if outcome.p_value is not None else ""
        golden = " **golden**" if outcome.golden else ""
        lines.append(
            f"| {_link(outcome, details_url)}{golden} | {cell(now.question or then.question, 160)} | {then.shown()} "
            f"| {now.shown()}{p} | {cell(now.reason)} |"
        )
    return lines


def _steps_diff(outcome: CaseOutcome) -> list[str]:
    then, now = outcome.then, outcome.now
    if then is None or now is None or then.steps is None or now.steps is None or then.steps == now.steps:
        return []
    diff = list(difflib.ndiff(list(then.steps), list(now.steps)))
    body = [line for line in diff if not line.startswith("?")] or ["  (no steps)"]
    return [
        f"<details><summary>{cell(case_label(outcome.side), 80)}: tool sequence</summary>",
        "",
        *md_code_block(body, info="diff"),  # a tool name holding a fence cannot close the block
        "</details>",
        "",
    ]


def gate_markdown(result: GateResult, *, details_url: str | None = None) -> str:
    """The gate as Markdown: for a pull request's comment and the job's step summary."""
    counts = result.counts()
    lines = [f"## copilot-eval gate: {_VERDICT_WORDS.get(result.code, result.code)}", "", f"**{headline(result)}**", ""]
    base, run = result.baseline, result.run
    commit = base.commit[:12] if base.commit and _HEX.fullmatch(base.commit[:12]) else None
    lines.append(f"Compared with {cell(base.label, 120)}" + (f" at `{commit}`" if commit else "") + ".")
    if result.why:
        lines += ["", f"> exit {result.code}: {cell(result.why, 2000)}"]
    for reason in result.stale:
        lines += ["", f"> stale baseline: {cell(reason, 2000)}"]
    if result.golden_missing:
        lines += ["", f"> golden case(s) in neither run: {', '.join(cell(k, 80) for k in result.golden_missing)}"]
    regressed = result.of_kind("regressed")
    if regressed:
        lines += ["", "### Regressed", "", *_regressed_table(regressed, details_url)]
        diffs = [line for outcome in regressed for line in _steps_diff(outcome)]
        if diffs:
            lines += ["", "### Tool sequence of the regressed cases", "", *diffs]
    for kind in ("error", "lower", "improved", "failing", "new", "removed", "ungraded_then"):
        if not counts[kind]:
            continue
        lines += ["", f"### {KIND_TITLES[kind]} ({counts[kind]})", ""]
        for outcome in result.of_kind(kind):
            then, now = outcome.then, outcome.now
            moved = f"{then.shown() if then else '-'} -> {now.shown() if now else '-'}"
            reason = f": {cell(now.reason, 200)}" if kind == "error" and now and now.reason else ""
            lines.append(f"- {_link(outcome, details_url)}{' **golden**' if outcome.golden else ''}: {moved}{reason}")
    lines += [
        "",
        "### Usage and cost",
        "",
        "| | baseline | now |",
        "| --- | --- | --- |",
        f"| tokens | {_number(base.tokens)} | {_number(run.tokens)} |",
        f"| premium requests | {_number(base.premium_requests)} | {_number(run.premium_requests)} |",
        f"| cases | {len(base.cases)} | {len(run.cases)} |",
        f"| unchanged | {counts['unchanged']} | |",
    ]
    if details_url:
        lines += ["", f"[The full report]({details_url})"]
    return "\n".join(lines) + "\n"


def _side_json(side: CaseSide | None) -> dict[str, Any] | None:
    if side is None:
        return None
    return {
        "statuses": list(side.statuses),
        "tries": side.tries,
        "passes": side.passes,
        "reason": side.reason,
        "steps": list(side.steps) if side.steps is not None else None,
    }


def _run_json(side: RunSide) -> dict[str, Any]:
    interval = interval_percent(side)
    return {
        "label": side.label,
        "testSet": side.test_set_name,
        "agent": side.agent_name,
        "runAt": side.run_at.isoformat() if side.run_at else None,
        "scorePercent": side.score_percent,
        "interval": {"low": interval[0], "high": interval[1]} if interval else None,
        "graded": side.graded,
        "fingerprints": side.fingerprints,
        "runtimeVersion": side.runtime_version,
        "tokens": side.tokens,
        "premiumRequests": side.premium_requests,
        "commit": side.commit,
    }


def gate_json(result: GateResult) -> dict[str, Any]:
    """The gate as a stable JSON document (``gate --json``)."""
    return {
        "schemaVersion": JSON_SCHEMA_VERSION,
        "exitCode": result.code,
        "verdict": _VERDICT_WORDS.get(result.code),
        "why": result.why,
        "counts": result.counts(),
        "stale": result.stale,
        "options": {
            "maxRegressions": result.options.max_regressions,
            "alpha": result.options.alpha,
            "staleDays": result.options.stale_days,
            "golden": sorted(result.options.golden),
        },
        "goldenMissing": result.golden_missing,
        "baseline": _run_json(result.baseline),
        "run": _run_json(result.run),
        "cases": [
            {
                "key": o.key,
                "kind": o.kind,
                "golden": o.golden,
                "pValue": o.p_value,
                "question": o.side.question,
                "then": _side_json(o.then),
                "now": _side_json(o.now),
            }
            for o in result.outcomes
        ],
    }


def gate_junit(result: GateResult) -> str:
    """The gate as JUnit XML: one testcase per case; a regression is a failure, an error now an error."""
    suite = ET.Element(
        "testsuite",
        name=f"copilot-eval gate: {result.run.test_set_name}",
        tests=str(len(result.outcomes)),
        failures=str(len(result.of_kind("regressed"))),
        errors=str(len(result.of_kind("error"))),
    )
    properties = ET.SubElement(suite, "properties")
    for name, value in (("baseline", result.baseline.label), ("exit_code", result.code), ("why", result.why or "")):
        ET.SubElement(properties, "property", name=name, value=str(value))
    for outcome in result.outcomes:
        case = ET.SubElement(suite, "testcase", classname="copilot-eval.gate", name=case_label(outcome.side))
        then, now = outcome.then, outcome.now
        moved = f"{then.shown() if then else '-'} -> {now.shown() if now else '-'}"
        if outcome.kind == "regressed":
            failure = ET.SubElement(case, "failure", message=f"regressed: {moved}", type="regression")
            failure.text = now.reason if now else None
        elif outcome.kind == "error":
            error = ET.SubElement(
                case, "error", message=f"not graded now: {moved} (not an agent failure)", type="error"
            )
            error.text = now.reason if now else None
        elif outcome.kind in ("new", "removed", "ungraded_then"):
            ET.SubElement(case, "skipped", message=f"{KIND_TITLES[outcome.kind].lower()}: {moved}")
    return ET.tostring(xml_safe_tree(suite), encoding="unicode", xml_declaration=True) + "\n"


__all__ = ["JSON_SCHEMA_VERSION", "case_label", "cell", "gate_json", "gate_junit", "gate_markdown", "headline"]
