"""Every writer of an output kind uses its sanitiser: hostile runs, gates and comparisons fed directly (no runtime)."""

from __future__ import annotations

import io
import re
import sys
import xml.etree.ElementTree as ET

import pytest
from markdown_it import MarkdownIt

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalDataType, EvalRun, EvalTestCase, EvalTestSet
from copilot_eval.gate import CaseSide, GateOptions, RunSide, decide, gate_junit, gate_markdown
from copilot_eval.reports.compare import compare_runs
from copilot_eval.reports.compare_views import comparison_markdown, print_comparison
from copilot_eval.reports.console import make_console
from copilot_eval.reports.junit import junit_xml
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.terminal import print_summary

HOSTILE = (
    "[/x] \x1b]0;pwned\x07\x1b[2J\x00 @octocat <img src=http://evil.invalid/p.png> </details> ```\n"
    "::error::forged\n<!-- copilot-eval:gate --> ![i](http://evil.invalid/i.png)"
)
_MD = MarkdownIt("commonmark").enable("table")
_COMMAND = re.compile(r"^[ \t]*::", re.MULTILINE)


def _run(
    *, answer: str = HOSTILE, name: str = "shop\n::error::from the agent's name", passed: bool = False
) -> tuple[EvalRun, EvalTestSet]:
    test_set = EvalTestSet(
        name="set <b>x</b>",
        data_type=EvalDataType.SINGLE_TURN,
        cases=[EvalTestCase(conversation_number=1, question=HOSTILE, response="the reference")],
    )
    result = EvalCaseResult(
        conversation_number=1,
        status=CaseStatus.PASS if passed else CaseStatus.FAIL,
        passed=passed,
        actual_response=answer,
        failure_reason=None if passed else HOSTILE,
    )
    run = EvalRun(
        test_set_name=test_set.name,
        agent_name=name,
        results=[result],
        passed=int(passed),
        failed=1 - int(passed),
        general_quality_percent=100.0 * passed,
        runtime_limitation="Suspected runtime limitation: " + HOSTILE,
    )
    return run, test_set


def _inert(markdown: str) -> None:
    tokens = _MD.parse(markdown)
    kinds = {t.type for t in tokens} | {c.type for t in tokens for c in t.children or []}
    assert not kinds & {"html_block", "html_inline", "image"}
    assert "<!-- copilot-eval" not in markdown and "@octocat" not in markdown


def test_the_terminal_summary_prints_an_answer_starting_with_markup_and_a_name_with_a_newline(monkeypatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    run, test_set = _run()
    print_summary(run, test_set, make_console())  # `[/x]` first once raised MarkupError after the run
    printed = out.getvalue()
    assert "\x1b" not in printed and "\x00" not in printed and not _COMMAND.search(printed)
    assert "shop ⏎ ::error::from the agent's name" in printed  # one line, readable
    assert "\\x1b]0;pwned" in printed


def test_the_console_net_catches_what_a_writer_forgot(monkeypatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    console = make_console()
    console.print(f"answer: {HOSTILE}")  # unsanitised on purpose: markup that does not close, controls, a command
    console.print("partial ", end="")
    console.print("::not at a line start")
    printed = out.getvalue()
    assert "\x1b" not in printed and not _COMMAND.search(printed) and "[/x]" in printed
    assert "partial ::not at a line start" in printed  # only a line's start is guarded


def test_the_run_summary_markdown_and_junit_are_inert_and_valid() -> None:
    run, test_set = _run()
    markdown = run_summary_markdown(run, label="surface\n::error::x")
    _inert(markdown)
    assert "\\\\x1b\\]0;pwned" in markdown or "\\x1b\\]0;pwned" in markdown
    root = ET.fromstring(junit_xml(run, test_set).encode("utf-8"))
    failure = root.find(".//failure")
    assert failure is not None and "\\x1b]0;pwned\\x07\\x1b[2J\\x00" in (failure.text or "")


def _gate() -> tuple[str, str]:
    then = CaseSide(key="1.1", statuses=("pass",), conversation_number=1, turn=1, steps=("search",))
    now = CaseSide(
        key="1.1",
        statuses=("fail",),
        conversation_number=1,
        turn=1,
        question=HOSTILE,
        reason=HOSTILE,
        steps=("search", "```", "````\n</details>", "@octocat <img src=x>"),
    )
    sides = {
        "baseline": RunSide("base\x1b[2J", "shop", "a", None, 1, 0, {"1.1": then}, commit="abc123`<b>"),
        "run": RunSide("now", "shop", "a", None, 0, 1, {"1.1": now}),
    }
    result = decide(sides["baseline"], sides["run"], GateOptions())
    return gate_markdown(result), gate_junit(result)


def test_the_gates_markdown_keeps_the_tool_sequence_in_one_fence_and_its_junit_parses() -> None:
    markdown, junit = _gate()
    fences = [t for t in _MD.parse(markdown) if t.type == "fence"]
    assert len(fences) == 1 and fences[0].info == "diff" and "</details>" in fences[0].content
    assert markdown.count("</details>") == 2  # ours, and the tool name's inside the fence
    html = [t.content.strip() for t in _MD.parse(markdown) if t.type == "html_block"]
    assert html and all(re.fullmatch(r"<details><summary>[^<]*</summary>|</details>", block) for block in html)
    outside = markdown.replace(fences[0].content, "")
    _inert(re.sub(r"</?details>|</?summary>", "", outside))  # our own <details> aside, nothing is HTML
    assert "abc123`<b>" not in markdown  # a commit that is not hex is not put in a code span
    ET.fromstring(junit.encode("utf-8"))


def test_the_comparison_is_inert_in_markdown_and_in_the_terminal(monkeypatch) -> None:
    base, _ = _run(answer="fine", passed=True)
    now, _ = _run()
    comparison = compare_runs(base, now)
    _inert(comparison_markdown(comparison))
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    print_comparison(comparison, make_console())
    assert "\x1b" not in out.getvalue() and not _COMMAND.search(out.getvalue())


@pytest.mark.parametrize("field", ["agent_name", "test_set_name", "agent_model", "git_branch"])
def test_the_history_table_shows_names_as_text(field: str, monkeypatch) -> None:
    from copilot_eval.history.terminal import runs_table

    row = {
        "id": 1, "run_at": None, "recorded_at": None, "test_set_name": "s", "agent_name": "a", "agent_model": "m",
        "passed": 1, "failed": 0, "errored": 0, "not_graded": 0, "score_percent": 100.0, "limitation_standing": None,
        "runtime_limitation": None, "git_commit": "abc", "git_branch": "main", "usage": None,
    }  # fmt: skip
    row[field] = "x [/x]\n::error::y \x1b]0;t\x07"
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    make_console().print(runs_table([row], title="runs"))
    assert "\x1b" not in out.getvalue() and not _COMMAND.search(out.getvalue())


def test_tools_shows_an_mcp_tools_description_and_name_as_text(monkeypatch) -> None:
    from copilot_eval.cli.tools_cmd import _render
    from copilot_eval.runtime.offered_tools import OfferedTool, ToolListing

    listing = ToolListing(
        tools=[OfferedTool(name="srv-look[/x]", description=HOSTILE, kind="mcp", server="srv\x1b[2J")],
        warnings=["server said: " + HOSTILE],
    )
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    _render(listing)
    printed = out.getvalue()
    assert "\x1b" not in printed and not _COMMAND.search(printed)
    assert "srv-look[/x]" in printed and "\\x1b]0;pwned" in printed
