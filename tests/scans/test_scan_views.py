"""Findings where people read a run: the finisher (online `--scan`), the HTML report and `compare`."""

from __future__ import annotations

import json

from copilot_eval.exit_codes import BELOW_GATE, OK
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.run_comparison import compare_folders
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from copilot_eval.scans import BUILTIN_SCANNERS, scan_run_folder

from .builders import conversation
from .run_folders import write_folder


def _played(first_answer: str):
    return [
        (conversation(("user", "weather?"), ("answer", first_answer)), None, False),
        (conversation(("user", "hours?"), ("answer", "I'm sorry, but I can't help with that.")), None, False),
        (conversation(("user", "hi"), ("answer", "Hello, how can I help?")), None, True),
    ]


def _finish(folder, **options):
    found = read_run_folder(folder)
    return finish_run_folders([FolderRun(folder, found.run, found.test_set)], FinishOptions(no_history=True, **options))


def test_the_finisher_scans_the_folder_and_a_finding_changes_no_verdict(tmp_path):
    write_folder(tmp_path, _played("HTTP 503 Service Unavailable"))
    statuses = [r["status"] for r in json.loads((tmp_path / "run.json").read_text())["results"]]
    done = _finish(tmp_path, scanners=BUILTIN_SCANNERS)
    assert done.verdict.row is OK
    assert any(line.startswith("scans: ") and "platform_error 1" in line for line in done.folders[0].lines)
    assert "scans: of 2 case(s) not passed, 2 have findings: " in "\n".join(done.folders[0].lines)
    assert [r["status"] for r in json.loads((tmp_path / "run.json").read_text())["results"]] == statuses


def test_the_markdown_summary_names_the_findings(tmp_path):
    write_folder(tmp_path, _played("HTTP 503 Service Unavailable"))
    done = _finish(tmp_path, scanners=BUILTIN_SCANNERS, markdown="-")
    assert "Findings of the transcript scanners (verdicts unchanged): platform_error 1, refusal 1." in (
        done.markdown or ""
    )


def test_fail_on_finding_makes_the_finisher_exit_below_a_gate(tmp_path):
    write_folder(tmp_path, _played("HTTP 503 Service Unavailable"))
    done = _finish(tmp_path, scanners=BUILTIN_SCANNERS, finding_gates=frozenset({"refusal"}))
    assert done.verdict.row is BELOW_GATE
    assert done.verdict.why == "--fail-on-finding: findings of refusal (1)"


def test_no_scanners_write_no_scans(tmp_path):
    write_folder(tmp_path, _played("HTTP 503 Service Unavailable"))
    _finish(tmp_path)
    assert not (tmp_path / "scans").exists()


def test_the_report_groups_failures_by_finding_and_shows_each_cases(tmp_path):
    write_folder(tmp_path, _played("HTTP 503 Service Unavailable"))
    scan_run_folder(tmp_path, BUILTIN_SCANNERS)
    page = run_report_html(read_run_folder(tmp_path))
    assert "What the scores do not say: findings" in page
    assert "<td>platform_error</td><td>1</td><td>1</td><td>1</td><td>fail 1</td>" in page.replace("\n", "")
    assert "1 finding(s): platform_error" in page
    assert "the answer is an error message" in page


def test_a_report_of_a_folder_never_scanned_has_no_findings_section(tmp_path):
    write_folder(tmp_path, _played("Sunny."))
    assert 'id="findings"' not in run_report_html(read_run_folder(tmp_path))


def test_compare_shows_findings_that_appeared_and_vanished(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    write_folder(before, _played("HTTP 503 Service Unavailable"))
    after_played = _played("x")
    after_played[2] = (conversation(*[("call", "search", {"q": "a"}, "none")] * 3, ("answer", "Hi.")), None, True)
    write_folder(after, [(conversation(("user", "w"), ("answer", "Sunny.")), None, True), *after_played[1:]])
    scan_run_folder(before, BUILTIN_SCANNERS)
    scan_run_folder(after, BUILTIN_SCANNERS)
    changes = compare_folders(before, after).findings
    assert changes is not None
    assert changes.appeared == (("loop", "3.1"),)
    assert changes.vanished == (("platform_error", "1.1"),)
    assert changes.line() == "findings: 1 appeared (loop: 3.1), 1 vanished (platform_error: 1.1)"


def test_compare_says_nothing_of_findings_unless_both_runs_were_scanned(tmp_path):
    before, after = tmp_path / "before", tmp_path / "after"
    write_folder(before, _played("HTTP 503 Service Unavailable"))
    write_folder(after, _played("Sunny."))
    scan_run_folder(after, BUILTIN_SCANNERS)
    assert compare_folders(before, after).findings is None


def test_each_repeat_of_a_case_shows_its_own_findings(tmp_path):
    from copilot_eval.reports.findings import Finding, ScanFiles

    first = Finding("loop", "1.1", "warning", "again", "x", repeat=0)
    second = Finding("refusal", "1.1", "warning", "no", "y", repeat=1)
    scans = ScanFiles(("loop", "refusal"), (first, second))
    assert scans.for_case("1.1", 0) == [first] and scans.for_case("1.1", None) == [first]
    assert scans.for_case("1.1", 1) == [second]
    assert scans.for_case("1.1", every_repeat=True) == [first, second]
