"""The run report's HTML as a user's browser receives it: self-contained, complete, escaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from copilot_eval.reports.html_run import run_report_html, write_run_report
from copilot_eval.reports.run_folder import read_run_folder
from tests.reports.report_fixtures import HOSTILE_ANSWER, build_run_folder


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(html: str) -> _Collector:
    collector = _Collector()
    collector.feed(html)
    return collector


@pytest.fixture
def report(tmp_path: Path) -> tuple[Path, str]:
    build_run_folder(tmp_path / "run")
    path = write_run_report(tmp_path / "run")
    return path, path.read_text(encoding="utf-8")


def test_report_is_written_next_to_run_json(report):
    path, html = report
    assert path == path.parent / "report.html" and (path.parent / "run.json").is_file()
    assert html.startswith("<!DOCTYPE html>")


def test_report_loads_nothing_from_anywhere(report):
    _, html = report
    page = _parse(html)
    # No external script, style sheet, image, font or frame; every script and style is inline.
    assert not [
        attrs
        for tag, attrs in page.tags
        if tag in ("script", "img", "iframe", "link") and (attrs.get("src") or attrs.get("href"))
    ]
    assert "@import" not in html and "url(" not in html
    assert "default-src 'none'" in html  # and the page forbids fetching anything, should a value slip in


def test_every_result_has_a_drill_down_with_its_facts(report):
    _, html = report
    page = _parse(html)
    anchors = [attrs["id"] for tag, attrs in page.tags if tag == "details"]
    # the results that did not pass first, in the run's order, then those that passed
    assert anchors == ["case-2-r0", "case-3-r0", "case-1-r1", "case-1-r0", "case-4-r0"]
    text = " ".join(page.text)
    for expected in (
        "Where is order 1042?",
        "It ships today.",  # question, reference and answer
        "Contradicts the reference.",
        "Compare meaning",  # a grader's verdict and reasoning
        "orders-lookup_order",
        '"order_id": "1042"',
        "order 1042: bike bell",  # a tool call
        "reviewer",  # a subagent
        "execution_error: HTTP 500",
        "(no answer)",
    ):  # an error case
        assert expected in text, expected
    assert re.search(r"input tokens 1200, output tokens 80, total 1280", text)


def test_summary_counts_and_limitation_banner(report):
    _, html = report
    text = " ".join(_parse(html).text)
    assert "50%" in text and "score over 4 graded" in text and "errors (not graded)" in text
    assert 'role="alert"' in html and "1 of 4 cases ended in execution errors" in text
    assert "case 3: error, 'HTTP 500'" in text  # the limitation's evidence is listed


def test_repeats_show_pass_at_k_pass_all_k_and_flaky_cases(report):
    _, html = report
    text = " ".join(_parse(html).text)
    assert "pass@2" in text and "pass^2" in text
    assert re.search(r"flaky cases:\s*1\b", text)


def test_citations_of_a_studio_target_are_shown(report):
    _, html = report
    text = " ".join(_parse(html).text)
    assert "Rental terms" in text and "Helmets are included free." in text and "a plain-text citation" in text


def test_evidence_links_are_relative_and_point_at_files(report):
    path, html = report
    links = [
        attrs["href"]
        for tag, attrs in _parse(html).tags
        if tag == "a" and attrs.get("href", "").startswith("evidence/")
    ]
    assert "evidence/case1-r0.json" in links and "evidence/case2-r0.compare-meaning.judge.json" in links
    assert all((path.parent / link).is_file() for link in links)


def test_agent_text_is_escaped_never_run(report):
    _, html = report
    assert HOSTILE_ANSWER not in html
    assert "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt; &amp; more" in html


def test_charts_are_inline_svg_with_unknown_tokens_written_not_drawn(report):
    _, html = report
    assert html.count("<svg") == 2
    tokens_chart = html[html.index("Tokens per session") :]
    tokens_chart = tokens_chart[: tokens_chart.index("</svg>")]
    assert ">1,280 tokens<" in tokens_chart  # the known total of a Copilot session
    assert ">unknown<" in tokens_chart  # the error case and the Studio target report none: not 0


def test_missing_evidence_is_said_plainly(tmp_path):
    build_run_folder(tmp_path / "run")
    (tmp_path / "run" / "evidence" / "case2-r0.json").unlink()
    html = run_report_html(read_run_folder(tmp_path / "run"))
    assert "Evidence file not found or unreadable" in html


def test_turns_of_one_conversation_have_their_own_question_and_drill_down(tmp_path):
    from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalDataType, EvalRun, EvalTestCase, EvalTestSet
    from copilot_eval.reports.run_files import write_run_outputs

    test_set = EvalTestSet(
        name="talk",
        data_type=EvalDataType.CONVERSATION,
        cases=[
            EvalTestCase(conversation_number=1, question="Hi, I need a bike.", response="Which kind?"),
            EvalTestCase(conversation_number=1, question="A city bike.", response="24 euros a day."),
        ],
    )
    results = [
        EvalCaseResult(
            conversation_number=1,
            turn=turn,
            passed=turn == 1,
            status=CaseStatus.PASS if turn == 1 else CaseStatus.FAIL,
            actual_response=answer,
        )
        for turn, answer in ((1, "Which kind?"), (2, "30 euros."))
    ]
    run = EvalRun(
        test_set_name="talk", general_quality_percent=50, passed=1, failed=1, errored=0, not_graded=0, results=results
    )
    write_run_outputs(run, test_set, tmp_path)
    html = write_run_report(tmp_path).read_text(encoding="utf-8")
    second = html[html.index('id="case-1-t2-r0"') :]
    assert 'id="case-1-r0"' in html and "case 1 turn 2" in second
    assert "A city bike." in second and "24 euros a day." in second and "30 euros." in second
