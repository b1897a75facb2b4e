"""The built-in scanners measured on the labelled set, played once through the real runtime; and `run` scanning online.

Precision and recall per scanner over every case (each case is a look-alike for the scanners it
is not about); docs/scanners.md shows the figures this test prints (`pytest -s`).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import pytest

from copilot_eval import CopilotResult, run_copilot
from copilot_eval.reports.findings import Finding, read_findings
from copilot_eval.scans import BUILTIN_NAMES, BUILTIN_SCANNERS, scan_case, transcript_of
from tests.runs.runs_helpers import CLI

from .labelled_set import LABELLED, LabelledCase

pytestmark = pytest.mark.runtime


# At most this many cases play at once. All of them at once starved the host on a loaded 2-core CI
# machine: the runtime then gave up on a delivery after its fixed 5 s ("Session host did not
# acknowledge 'permission.requested' delivery within 5 seconds"). How many play together is no part
# of what the scanners are measured on.
AT_ONCE = 6


@pytest.fixture(scope="module")
async def played() -> list[tuple[LabelledCase, CopilotResult]]:
    gate = asyncio.Semaphore(AT_ONCE)

    async def play(case: LabelledCase) -> CopilotResult:
        async with gate:
            return await run_copilot(case.agent(), case.prompt)

    results = await asyncio.gather(*(play(case) for case in LABELLED))
    for case, result in zip(LABELLED, results, strict=True):
        # What a workspace with protected paths will declare; until it exists, the case declares it.
        result.configuration = {**(result.configuration or {}), **case.declared}
    return list(zip(LABELLED, results, strict=True))


def _findings(played: list[tuple[LabelledCase, CopilotResult]]) -> dict[str, list[Finding]]:
    found: dict[str, list[Finding]] = {}
    for case, result in played:
        transcript = transcript_of(result, key=case.name, turn=1)
        found[case.name] = [f for scanner in BUILTIN_SCANNERS for f in scan_case(scanner, transcript)]
    return found


def measure(played: list[tuple[LabelledCase, CopilotResult]]) -> dict[str, tuple[float, float, int, int, int]]:
    """Per scanner: precision, recall, true positives, false positives, false negatives over the labelled set."""
    found = _findings(played)
    figures = {}
    for name in BUILTIN_NAMES:
        tp = sum(1 for case, _ in played if name in case.flags and any(f.scanner == name for f in found[case.name]))
        fp = sum(1 for case, _ in played if name not in case.flags and any(f.scanner == name for f in found[case.name]))
        fn = sum(1 for case, _ in played if name in case.flags and not any(f.scanner == name for f in found[case.name]))
        precision = tp / (tp + fp) if tp + fp else 1.0
        recall = tp / (tp + fn) if tp + fn else 1.0
        figures[name] = (precision, recall, tp, fp, fn)
    return figures


def test_every_labelled_case_played_as_scripted(played):
    for case, result in played:
        if case.name == "no-answer":
            assert not result.success and result.final_response is None
        else:
            assert result.success, (case.name, result.error)


def test_each_scanner_has_precision_and_recall_of_at_least_0_9(played):
    figures = measure(played)
    print("\nscanner            precision  recall  (tp fp fn) over", len(played), "cases")
    for name, (precision, recall, tp, fp, fn) in figures.items():
        print(f"{name:18} {precision:9.2f} {recall:7.2f}  ({tp} {fp} {fn})")
    found = _findings(played)
    wrong = {
        case.name: sorted({f.scanner for f in found[case.name]} ^ set(case.flags))
        for case, _ in played
        if {f.scanner for f in found[case.name]} != set(case.flags)
    }
    assert all(p >= 0.9 and r >= 0.9 for p, r, *_ in figures.values()), (figures, wrong)
    assert all(tp >= 2 for _, _, tp, _, _ in figures.values())  # every scanner is measured on two plants or more


def test_no_finding_comes_from_text_the_agent_only_read(played):
    for case, result in played:
        transcript = transcript_of(result, key=case.name, turn=1)
        written = " ".join(" ".join(e.text.split()) for e in transcript.authored())
        for scanner in BUILTIN_SCANNERS:
            for finding in scan_case(scanner, transcript):
                assert finding.event is None or not finding.event.startswith(("result", "prompt")), finding
                quote = finding.quote.removesuffix("...")
                assert quote in written, (case.name, finding)


AGENT_SCRIPT = """\
rules:
  - when: {prompt_contains: weather}
    turns: [{text: "HTTP 503 Service Unavailable"}]
  - turns: [{text: "We open at 8:00 every day."}]
"""
SET = (
    '"question","expectedResponse"\n"What is the weather?","Sunny."\n"When do you open?","We open at 8:00 every day."\n'
)
JUDGE_SCRIPT = """\
rules:
  - when: {prompt_contains: "Service Unavailable"}
    turns: [{text: '{"findings": [{"event": "answer", "reason": "an outage, not an answer", "quote": "503 Service", "severity": "error"}, {"event": "prompt", "reason": "only read", "quote": "What is the weather", "severity": "info"}]}'}]
  - turns: [{text: '{"findings": []}'}]
"""


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=180, env=env)


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cli")
    (folder / "agent-script.yaml").write_text(AGENT_SCRIPT, encoding="utf-8")
    (folder / "agent.yaml").write_text("name: shop\nmodel: {scripted: agent-script.yaml}\ntimeout_s: 30\n")
    (folder / "judge-script.yaml").write_text(JUDGE_SCRIPT, encoding="utf-8")
    (folder / "judge.yaml").write_text("name: judge\nmodel: {scripted: judge-script.yaml}\ntimeout_s: 30\n")
    (folder / "set.csv").write_text(SET, encoding="utf-8")
    return folder


def test_run_scans_online_by_default_and_a_gate_fails_the_run(cli_files):
    out = cli_files / "out"
    done = _cli(
        "run", str(cli_files / "set.csv"), "--agent", str(cli_files / "agent.yaml"), "--grader", "exact",
        "--out", str(out), "--no-progress", "--no-history", "--fail-on-finding", "platform_error",
    )  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "--fail-on-finding: findings of platform_error (1)" in done.stderr
    assert "scans: 1 finding(s) (platform_error 1)" in done.stdout
    scans = read_findings(out)
    assert set(scans.scanners) == set(BUILTIN_NAMES)
    assert [(f.scanner, f.case, f.status) for f in scans.findings] == [("platform_error", "1.1", "fail")]
    statuses = [r["status"] for r in json.loads((out / "run.json").read_text())["results"]]
    assert statuses == ["fail", "pass"]  # the finding changed no verdict
    assert "1 finding(s): platform_error" in (out / "report.html").read_text()


def test_a_judge_scanner_reports_a_models_opinion_on_what_the_agent_wrote_only(cli_files):
    out = cli_files / "judged"
    done = _cli(
        "run", str(cli_files / "set.csv"), "--agent", str(cli_files / "agent.yaml"), "--out", str(out),
        "--no-progress", "--no-history", "--scan", "none",
    )  # fmt: skip
    assert not (out / "scans").exists(), done.stdout + done.stderr
    scanned = _cli("scan", str(out), "--scan", f"judge:{cli_files / 'judge.yaml'}")
    assert scanned.returncode == 0, scanned.stdout + scanned.stderr
    findings = read_findings(out).findings
    # The finding quoting the prompt (text the agent only read) was dropped.
    assert [(f.scanner, f.case, f.opinion, f.reason) for f in findings] == [
        ("judge-judge", "1.1", True, "an outage, not an answer")
    ]
    assert findings[0].evidence["judgeSession"]
