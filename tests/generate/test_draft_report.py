"""A run of a generated set says how many drafts it graded, from run.json's one field, in every view."""

from __future__ import annotations

import io
import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets.drafts import write_provenance
from copilot_eval.evalsets.model import EvalTestCase, EvalTestSet
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun
from copilot_eval.reports.html_run import write_run_report
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.reports.run_files import write_run_outputs
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.reports.terminal import print_summary


def _folder(tmp_path: Path, drafts: int | None) -> tuple[EvalRun, EvalTestSet]:
    test_set = EvalTestSet(
        name="shop", cases=[EvalTestCase(conversation_number=n, question=f"q{n}?", response="") for n in (1, 2)]
    )
    results = [
        EvalCaseResult(conversation_number=1, passed=True, status=CaseStatus.PASS),
        EvalCaseResult(conversation_number=2, passed=False, status=CaseStatus.FAIL),
    ]
    run = EvalRun(
        test_set_name="shop",
        general_quality_percent=50,
        graded_cases=2,
        passed=1,
        failed=1,
        results=results,
        draft_cases=drafts,
    )
    write_run_outputs(run, test_set, tmp_path)
    write_run_report(tmp_path)
    return read_run_folder(tmp_path).run, test_set


def _terminal(run: EvalRun, test_set: EvalTestSet) -> str:
    out = io.StringIO()
    print_summary(run, test_set, Console(file=out, width=200, color_system=None))
    return out.getvalue()


def test_the_draft_count_is_in_run_json_report_markdown_and_terminal(tmp_path: Path) -> None:
    run, test_set = _folder(tmp_path, 2)
    assert json.loads((tmp_path / "run.json").read_text())["draftCases"] == 2
    assert run.draft_cases == 2
    assert "<b>2</b>draft cases (not truths)" in (tmp_path / "report.html").read_text()
    assert "- 2 unreviewed draft case(s) from generate" in run_summary_markdown(run)
    assert "2 unreviewed draft case(s) from generate" in _terminal(run, test_set)


def test_a_set_without_sidecar_shows_no_draft_count(tmp_path: Path) -> None:
    run, test_set = _folder(tmp_path, None)
    assert "draftCases" not in json.loads((tmp_path / "run.json").read_text())
    assert "draft" not in (tmp_path / "report.html").read_text().lower()
    assert "draft" not in run_summary_markdown(run) and "draft" not in _terminal(run, test_set)


def test_a_reviewed_generated_set_says_none_is_a_draft_not_nothing(tmp_path: Path) -> None:
    run, _ = _folder(tmp_path, 0)
    assert json.loads((tmp_path / "run.json").read_text())["draftCases"] == 0
    assert "no draft cases: every case of this generated set was reviewed" in run_summary_markdown(run)


def test_triggers_refuses_a_set_of_drafts_only_naming_the_file_and_the_option(tmp_path: Path) -> None:
    from copilot_eval.cli.triggers_cmd import _refuse_drafts_only

    (tmp_path / "s.yaml").write_text('rules:\n  - turns: [{text: "hi"}]\n')
    (tmp_path / "agent.yaml").write_text("name: a\nmodel: {scripted: s.yaml}\ninstructions: Help.\n")
    trigger_set = tmp_path / "t.csv"
    trigger_set.write_text("prompt,expected,tags\nRefund order 12,refunds,\nCapital of Peru?,none,\n")
    write_provenance(
        trigger_set, {"cases": [{"question": q, "draft": True} for q in ("Refund order 12", "Capital of Peru?")]}
    )
    args = ["triggers", str(trigger_set), "--agent", str(tmp_path / "agent.yaml"), "--no-history"]
    refused = CliRunner().invoke(app, args)
    assert refused.exit_code == 2, refused.output
    assert "t.csv" in refused.output and "--allow-drafts" in refused.output and "unreviewed draft" in refused.output
    prompts = ["Refund order 12", "Capital of Peru?"]
    _refuse_drafts_only(trigger_set, prompts, allow_drafts=True)  # given the option: no refusal
    write_provenance(trigger_set, {"cases": [{"question": "Refund order 12", "draft": True}]})
    _refuse_drafts_only(trigger_set, prompts, allow_drafts=False)  # one prompt reviewed: not drafts only
