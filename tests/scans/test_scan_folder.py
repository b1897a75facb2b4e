"""`copilot-eval scan RUN_DIR` and the scan files: every writer's folder, older layouts, gates, run.json untouched."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.reports.findings import Finding, read_findings, write_findings
from copilot_eval.scans import BUILTIN_NAMES, scan_run_folder
from copilot_eval.scans.choice import BUILTIN_SCANNERS
from copilot_eval.targets.evidence import TargetResult, TargetTurn

from .builders import conversation
from .run_folders import write_folder

RUNNER = CliRunner()


def _folder(tmp_path):
    write_folder(
        tmp_path,
        [
            (conversation(("user", "weather?"), ("answer", "HTTP 503 Service Unavailable")), None, False),
            (conversation(("user", "save it"), ("answer", "Sunny and mild.")), None, True),
            (None, "Sorry. Error code: SystemError.", False),  # an export's answer, no evidence file
        ],
    )
    return tmp_path


def test_scan_writes_one_file_per_scanner_and_leaves_run_json_alone(tmp_path):
    folder = _folder(tmp_path)
    before = (folder / "run.json").read_bytes()
    done = RUNNER.invoke(app, ["scan", str(folder)])
    assert done.exit_code == 0, done.output
    assert "platform_error: 2 finding(s)" in done.output
    assert "1 case(s) had no readable evidence file" in done.output
    assert "of 2 case(s) not passed, 2 have findings: platform_error 2" in done.output
    assert sorted(p.stem for p in (folder / "scans").glob("*.jsonl")) == sorted(BUILTIN_NAMES)
    assert (folder / "run.json").read_bytes() == before
    found = read_findings(folder)
    errors = [(f.case, f.status) for f in found.findings if f.scanner == "platform_error"]
    assert errors == [("1.1", "fail"), ("3.1", "fail")]


def test_fail_on_finding_turns_a_scanner_into_a_gate(tmp_path):
    folder = _folder(tmp_path)
    done = RUNNER.invoke(
        app, ["scan", str(folder), "--scan", "platform_error,loop", "--fail-on-finding", "platform_error"]
    )
    assert done.exit_code == 1
    assert "exit 1 (below a gate): --fail-on-finding: findings of platform_error (2)" in done.output
    clean = RUNNER.invoke(app, ["scan", str(folder), "--scan", "loop", "--fail-on-finding", "loop"])
    assert clean.exit_code == 0, clean.output


def test_a_folder_of_runs_such_as_a_lifts_arms_is_scanned_run_by_run(tmp_path):
    # `lift` writes one run folder per arm under its own; `scan` given the lift's folder scans each.
    _folder(tmp_path / "with")
    _folder(tmp_path / "without")
    (tmp_path / "lift.json").write_text("{}", encoding="utf-8")
    done = RUNNER.invoke(
        app, ["scan", str(tmp_path), "--scan", "platform_error", "--fail-on-finding", "platform_error"]
    )
    assert done.exit_code == 1, done.output
    assert f"{tmp_path / 'with'}:" in done.output and f"{tmp_path / 'without'}:" in done.output
    assert all(read_findings(tmp_path / arm).counts()["platform_error"] == 2 for arm in ("with", "without"))


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--scan", "nonsense"], "no scanner named 'nonsense'"),
        (["--scan", "none"], "nothing to scan"),
        (["--scan", "loop", "--fail-on-finding", "refusal"], "--fail-on-finding refusal: not among the scanners"),
        (["--scan", "judge:/no/such/judge.agent.yaml"], "--scan judge:/no/such/judge.agent.yaml"),
    ],
)
def test_a_bad_choice_is_refused_naming_the_option(tmp_path, args, says):
    done = RUNNER.invoke(app, ["scan", str(_folder(tmp_path)), *args])
    assert done.exit_code == 2
    assert says in done.output


def test_a_folder_that_is_not_a_run_and_a_newer_layout_are_refused_clearly(tmp_path):
    missing = RUNNER.invoke(app, ["scan", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    folder = _folder(tmp_path / "run")
    data = json.loads((folder / "run.json").read_text())
    data["schemaVersion"] = 99
    (folder / "run.json").write_text(json.dumps(data))
    newer = RUNNER.invoke(app, ["scan", str(folder)])
    assert newer.exit_code == 2 and "upgrade copilot-eval" in newer.output


def test_an_old_layout_with_absolute_evidence_paths_is_scanned(tmp_path):
    folder = _folder(tmp_path)
    data = json.loads((folder / "run.json").read_text())
    data.pop("schemaVersion")  # the layout before schemaVersion: absolute paths, moved since
    for result in data["results"]:
        if result.get("evidencePath"):
            result["evidencePath"] = "/elsewhere/evidence/" + result["evidencePath"].split("/")[-1]
    (folder / "run.json").write_text(json.dumps(data))
    report = scan_run_folder(folder, BUILTIN_SCANNERS)
    assert report.answer_only == 1
    assert report.counts()["platform_error"] == 2


def test_a_copilot_studio_conversation_is_scanned_through_its_own_evidence(tmp_path):
    studio = TargetResult(
        target_type="directline",
        success=True,
        turns=[TargetTurn(prompt="hours?", answer="I'm sorry, but I can't help with that.")],
    )
    write_folder(tmp_path, [(studio, None, False)])
    report = scan_run_folder(tmp_path, BUILTIN_SCANNERS)
    assert report.answer_only == 0
    assert report.counts()["refusal"] == 1


def test_a_damaged_scan_line_is_counted_not_raised(tmp_path):
    write_findings(tmp_path, "loop", [Finding("loop", "1.1", "warning", "again", "x", turn=1, event="answer")])
    with (tmp_path / "scans" / "loop.jsonl").open("a") as handle:
        handle.write('{"scanner": "loop"}\nnot json\n')
    found = read_findings(tmp_path)
    assert found.unreadable == 2
    assert [(f.case, f.where) for f in found.findings] == [("1.1", "turn 1, answer")]
    assert found.counts() == {"loop": 1}
