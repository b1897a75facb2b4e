"""The reports and `inspect` show what the evidence holds since issues 20 and 24.

Content items in order (links, embedded text and blobs, images, audio, annotations), progress,
the requests to the user and the client with the policy's answer, the node that played a case,
and the run's execution (retries, concurrency per worker, shard, merge). A server chose every
string of the evidence: each view must show it as text, never run or interpret it.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import EvalRun, ExecutionRecord
from copilot_eval.evalsets.run_provenance import MergeRecord, RunFingerprints, ShardInfo
from copilot_eval.evidence.content import ContentItem
from copilot_eval.reports.execution_words import shows_nodes
from copilot_eval.reports.html_execution import execution_html
from copilot_eval.reports.html_run import write_run_report
from copilot_eval.reports.html_session import session_report_html
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.pytest_report import SessionReport
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.reports.terminal import print_summary
from tests.reports.protocol_runs import HOSTILE, build_protocol_run, protocol_result

ESCAPED = "&lt;script&gt;document.title=&#x27;pwned&#x27;&lt;/script&gt;"


@pytest.fixture(scope="module")
def protocol_report(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("protocol") / "run"
    asyncio.run(build_protocol_run(folder))
    return write_run_report(folder)


def _case(html: str, anchor: str) -> str:
    start = html.index(f'id="{anchor}"')
    end = html.find('<details class="case"', start)
    return html[start : end if end != -1 else len(html)]


def _pages_scripts(html: str) -> int:
    return len(re.findall(r"<script\b", html, flags=re.IGNORECASE))


def test_each_calls_content_items_are_listed_in_order_with_their_facts(protocol_report):
    case = _case(protocol_report.read_text(encoding="utf-8"), "case-1-r0")
    hostile = case[case.index("docs-search") :]
    assert re.findall(r'data-type="([^"]+)"', hostile) == ["resource_link", "resource", "resource", "audio", "chart"]
    # a resource link: its name, title, URI and MIME type; its annotations as tags
    assert f"<b>resource link</b> &quot;{ESCAPED}&quot;" in hostile and "file:///handbook/returns.md" in hostile
    assert "text/markdown" in hostile and '<span class="tag">for assistant</span>' in hostile
    assert '<span class="tag">priority 0.25</span>' in hostile
    # an embedded text: cut, with its full length said; audio: MIME type, size and hash
    assert "6,300 characters of text" in hostile and "showing the first 2,000 of 6,300 characters" in hostile
    assert "audio/wav · 12 bytes · sha256 abababababab…" in hostile
    assert "<b>chart</b>" in hostile  # a type this version does not know keeps its name
    # server-everything's real items: a blob's size and hash, an image drawn from its bytes
    assert "demo://resource/dynamic/blob/3 · text/plain · 55 bytes · sha256 9ab5a6d47688…" in case
    assert case.count('<img class="tool-image"') == 2 and 'src="data:image/png;base64,iVBOR' in case
    assert '<p class="progress">3 progress notifications, last: 3.0/4.0 (75%)</p>' in case


def test_host_requests_are_shown_in_the_order_asked_with_the_policys_answer(protocol_report):
    case = _case(protocol_report.read_text(encoding="utf-8"), "case-1-r0")
    table = case[case.index('id="host-requests"') :]
    kinds = re.findall(r"<tr><td>\d+</td><td>([^<]+)</td>", table)
    assert kinds == ["question", "sampling", "elicitation (url)", "elicitation (form)", "question"]
    assert "during ask_user (call_0_0_0)" in table and "choices: A-7; free text allowed" in table
    assert "URL: https://example.com/consent" in table and "fields: name (required), check" in table
    assert "system prompt: You are a helpful test server." in table and "max tokens: 20" in table
    assert f"Pick one {ESCAPED}" in table and "no matching answer: declined" in table
    assert '<span class="tag action">decline</span>' in table


def test_nothing_a_server_wrote_becomes_markup(protocol_report):
    html = protocol_report.read_text(encoding="utf-8")
    assert HOSTILE not in html and ESCAPED in html
    assert _pages_scripts(html) == 1  # the page's own inline script, nothing the evidence held


def test_the_execution_section_says_retries_concurrency_and_nodes(protocol_report):
    html = protocol_report.read_text(encoding="utf-8")
    section = html[html.index('<h2 id="execution">') : html.index("<h2>Charts</h2>")]
    assert "executor fake, concurrency 4 per worker, 2 workers" in section
    assert "2 plays retried (1 infrastructure, 1 rate limit)" in section
    assert "HTTP 429, Retry-After 0 s" in section and "the worker&#x27;s node left" in section
    assert re.search(r"<li><b>a</b>: 4 \(start\) → 2 at [\d.]+ s \(rate limit\)", section)
    assert "(worker lost)" in section
    nodes = section[section.index("Cases per node") :]
    played = dict(re.findall(r"<tr><td>(node-[ab])</td>.*?<td>([^<]*case[^<]*)</td></tr>", nodes))
    assert sorted(played) == ["node-a", "node-b"]
    assert sorted(c for cases in played.values() for c in cases.split(", ")) == [f"case {n}" for n in range(1, 7)]
    assert "fake node node-" in _case(html, "case-2-r0")  # and each case's drill-down names its node


def _run(**fields) -> EvalRun:
    return EvalRun(test_set_name="s", general_quality_percent=0, passed=0, failed=0, **fields)


def test_shard_and_merge_facts_are_shown_and_a_local_run_names_no_node():
    prints = RunFingerprints(test_set="sha256:" + "1" * 64, agent="sha256:" + "2" * 64)
    shard = execution_html(_run(shard=ShardInfo(index=2, count=3), fingerprints=prints), [])
    assert "shard 2/3 of the set; fingerprints: test set 111111111111, agent 222222222222" in shard
    merge = MergeRecord(shard_count=3, shards=[1, 3], missing_shards=[2], missing_conversations=[4, 5], complete=False)
    merged = execution_html(_run(merge=merge), [])
    assert "merged from shards 1, 3 of 3 (incomplete; missing: shards 2; conversations 4, 5)" in merged
    local = _run(execution=ExecutionRecord(executor="local", concurrency=2))
    html = execution_html(local, [("case 1", None), ("case 2", None)])
    assert "no play was retried" in html and "Cases per node" not in html
    assert not shows_nodes(local.execution, set()) and shows_nodes(
        ExecutionRecord(executor="ray", concurrency=1), set()
    )
    assert execution_html(_run(), []) == ""  # a run of before issue 24: no section at all


def test_the_terminal_and_markdown_summaries_say_what_was_retried_and_which_part_a_run_is(protocol_report):
    folder = read_run_folder(protocol_report.parent)
    console = Console(record=True, width=200)
    print_summary(folder.run, folder.test_set, console)
    text = console.export_text()
    markdown = run_summary_markdown(folder.run)
    for summary in (text, markdown):
        assert "2 plays retried (1 infrastructure, 1 rate limit)" in summary
        assert re.search(r"concurrency of a: 4 \(start\) → 2 at [\d.]+ s \(rate limit\)", summary)
    quiet = _run(execution=ExecutionRecord(executor="local", concurrency=2))
    assert "retried" not in run_summary_markdown(quiet)  # nothing retried, nothing lowered: no line
    merge = MergeRecord(shard_count=3, shards=[1, 3], missing_shards=[2], missing_conversations=[4], complete=False)
    assert "- merged from shards 1, 3 of 3 (incomplete; missing: shards 2; conversations 4)" in run_summary_markdown(
        _run(merge=merge)
    )
    assert "- shard 2/3 of the set" in run_summary_markdown(_run(shard=ShardInfo(index=2, count=3)))


def test_the_pytest_session_report_shows_the_same_evidence(tmp_path):
    report = SessionReport(tmp_path / "session.html")
    report.add_result("tests/test_docs.py::test_returns", protocol_result(), None)
    html = session_report_html(report)
    assert 'data-type="resource_link"' in html and 'id="host-requests"' in html
    assert "showing the first 2,000 of 6,300 characters" in html and HOSTILE not in html
    assert _pages_scripts(html) == 1


def test_inspect_prints_items_progress_and_requests_as_plain_text(tmp_path):
    result = protocol_result()
    result.all_tool_calls[-1].content_items.append(ContentItem(type="text", text="red \x1b[31malert\x1b[0m [/oops]"))
    saved = result.save(tmp_path / "case-1.json")
    outcome = CliRunner().invoke(app, ["inspect", str(saved)], env={"COLUMNS": "250"})
    assert outcome.exit_code == 0, outcome.output
    out = " ".join(outcome.output.replace("│", " ").split())  # table cells fold onto further lines
    assert "Content items" in out and "resource link" in out and "file:///handbook/returns.md" in out
    assert 'title "Returns [bold]policy[/bold]"' in out  # Rich markup in a server's string stays text
    assert (
        "red \\x1b[31malert\\x1b[0m [/oops]" in out and "\x1b" not in out
    )  # no control character reaches the terminal
    assert "for user, priority 0.5" in out and "55 bytes; sha256 9ab5a6d47688…" in out
    assert "showing the first 120 of 6,300 characters" in out
    assert "3 progress notifications, last: 3.0/4.0 (75%)" in out
    assert "Requests to the user and the client" in out and "elicitation (form)" in out
    assert "no matching answer: declined" in out and "choices: A, [red]B[/red]" in out


@pytest.mark.slow
def test_protocol_report_in_chromium(browser, protocol_report, tmp_path):
    browser.open(protocol_report.as_uri())
    log = browser.log()
    assert log.console_errors == [] and log.exceptions == [] and log.failed_requests == []
    # nothing but the page itself and the images it carries inline: no network, no file beside it
    assert [url for url in log.requests if not url.startswith("data:image/png;base64,")] == [protocol_report.as_uri()]
    assert browser.evaluate("document.title") == "numbered: evaluation run"  # the evidence's <script> did not run
    assert browser.evaluate("document.querySelectorAll('main script').length") == 0
    browser.evaluate("document.querySelector('#case-1-r0 > summary').click()")
    case = "document.querySelector('#case-1-r0')"
    every_item = sum(len(call.content_items) for call in protocol_result().all_tool_calls)
    assert browser.evaluate(f"{case}.querySelectorAll('li.content-item').length") == every_item
    # both images decoded and drawn (a broken data: URI has no natural size)
    assert browser.evaluate(f"[...{case}.querySelectorAll('img.tool-image')].map(i => i.naturalWidth > 0)") == [
        True,
        True,
    ]
    texts = browser.evaluate(f"[...{case}.querySelectorAll('li.content-item')].map(li => li.innerText)")
    assert any(text.startswith("resource link \"<script>document.title='pwned'</script>\"") for text in texts)
    rows = browser.evaluate(
        "[...document.querySelectorAll('table.host-requests tbody tr')].map(r => r.cells[1].innerText)"
    )
    assert rows == ["question", "sampling", "elicitation (url)", "elicitation (form)", "question"]
    assert browser.evaluate("document.getElementById('host-requests').getBoundingClientRect().height") > 0
    section = browser.evaluate("document.getElementById('execution').nextElementSibling.innerText")
    assert section.startswith("executor fake, concurrency 4 per worker")
    assert browser.evaluate("document.querySelectorAll('table.nodes tbody tr').length") == 2
    assert browser.evaluate("document.querySelectorAll('table.retries tbody tr').length") == 2
    png = browser.screenshot()
    (tmp_path / "protocol.png").write_bytes(png)
    assert len(png) > 20_000
