"""A play's workspace in the views: findings in the summaries, the patch in the report, escaped as untrusted text."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

from rich.console import Console

from copilot_eval.evalsets import (
    CaseStatus,
    EvalCaseResult,
    EvalDataType,
    EvalTestCase,
    EvalTestSet,
    WorkspaceFinding,
    WorkspaceRecord,
)
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.reports.terminal import print_summary
from copilot_eval.runs.eval_runner import summarise

PATCH = "diff --git a/tests/<b>.py b/tests/<b>.py\n--- a/tests/<b>.py\n+++ b/tests/<b>.py\n@@ -1 +1 @@\n-x\n+<script>alert(1)</script>\n"


def _folder(tmp_path: Path) -> Path:
    evidence = tmp_path / "run" / "evidence"
    evidence.mkdir(parents=True)
    (evidence / "case1-r0.workspace.patch").write_text(PATCH)
    finding = WorkspaceFinding(
        kind="protected_path_changed", path="tests/<b>.py", detail="changed; protected by 'tests/**'"
    )
    record = WorkspaceRecord(
        directory="/tmp/copilot-eval-run-x",
        patch_path=str(evidence / "case1-r0.workspace.patch"),
        changed=["tests/<b>.py"],
        files_written=["tests/<b>.py"],
        findings=[finding],
    )
    result = EvalCaseResult(
        conversation_number=1, passed=True, status=CaseStatus.PASS, actual_response="ok", workspace=record
    )
    test_set = EvalTestSet(
        name="coding", data_type=EvalDataType.SINGLE_TURN, cases=[EvalTestCase(conversation_number=1, question="fix")]
    )
    run = summarise(test_set, [result], agent_name="a", started=None, duration_ms=1.0)
    write_run_outputs(run, test_set, tmp_path / "run")
    return tmp_path / "run"


def test_the_record_is_kept_with_a_patch_path_relative_to_the_run_folder(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (stored,) = json.loads((folder / "run.json").read_text())["results"]
    assert stored["workspace"]["patchPath"] == "evidence/case1-r0.workspace.patch"
    assert stored["workspace"]["findings"][0]["kind"] == "protected_path_changed"


def test_findings_show_in_every_summary_and_the_patch_in_the_report_escaped(tmp_path: Path) -> None:
    folder = read_run_folder(_folder(tmp_path))
    html = run_report_html(folder)
    assert "Honesty findings" in html and "protected_path_changed" in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>alert(1)" not in html
    assert 'href="evidence/case1-r0.workspace.patch"' in html
    markdown = run_summary_markdown(folder.run)
    # the agent's path reaches the pull request as text: no HTML of its making (the Markdown sanitiser)
    assert "workspace findings, case 1 r0: protected_path_changed tests/&lt;b>.py" in markdown.replace("\\", "")
    out = StringIO()
    print_summary(folder.run, folder.test_set, Console(file=out, width=200))  # type: ignore[arg-type]
    assert "workspace findings, case 1 r0: protected_path_changed tests/<b>.py" in out.getvalue()
