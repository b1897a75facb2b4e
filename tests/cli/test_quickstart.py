"""`copilot-eval quickstart`, the main job, run the way a user runs it: a subprocess, real runtime."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from copilot_eval.evidence.result import CopilotResult
from tests.runs.runs_helpers import CLI


def quickstart(*args: object, cwd: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*CLI, "quickstart", *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd, timeout=240
    )


def test_help_names_the_real_model_option(tmp_path):
    shown = quickstart("--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "--model" in shown.stdout


@pytest.mark.runtime
def test_quickstart_writes_loadable_evidence_and_a_full_score_run_and_can_run_again(tmp_path):
    out = tmp_path / "evidence"
    out.mkdir()
    (out / "notes.json").write_text('{"mine": true}')  # a user's own file in --out: left alone, not shown
    # From a folder that is not the repository: the examples are found beside the package.
    first = quickstart("--out", out, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr

    receipt = CopilotResult.load(out / "test_quickstart.py_test_writes_a_receipt_for_an_order.json")
    assert receipt.success and "27.50" in (receipt.final_response or "")
    assert [call.name for call in receipt.all_tool_calls] == ["orders-lookup_order", "create"]
    assert all(call.success for call in receipt.all_tool_calls)
    chat = CopilotResult.load(out / "test_quickstart.py_test_answers_without_tools_when_there_is_nothing_to_do.json")
    assert chat.success and chat.final_response and not chat.all_tool_calls
    assert "notes" not in first.stdout

    assert "score 100% over 6 graded; 6 passed 0 failed 0 errors" in first.stdout
    (run_dir,) = out.glob("eval-run-*")  # the evaluation story writes into --out too
    run = json.loads((run_dir / "run.json").read_text())
    assert (run["passed"], run["failed"], run["errored"], run["generalQualityPercent"]) == (6, 0, 0, 100.0)
    assert (run_dir / "results.csv").is_file()
    # The evaluation story writes the HTML report and names it.
    assert (run_dir / "report.html").is_file()
    assert f"open the HTML report: {run_dir / 'report.html'}" in first.stdout
    # examples/evalsets/conversations.csv: three conversations of two turns, one session each.
    assert [(r["conversationNumber"], r["turn"]) for r in run["results"]] == [
        (1, 1),
        (1, 2),
        (2, 1),
        (2, 2),
        (3, 1),
        (3, 2),
    ]
    assert len({r["evidencePath"] for r in run["results"]}) == 3
    # The Copilot Studio story: three fake surfaces, both limitations confirmed by preview.
    (raybot_dir,) = out.glob("raybot-*")
    surfaces = json.loads((raybot_dir / "comparison.json").read_text())["surfaces"]
    assert [(s["label"], s["passed"], s["failed"], s["errored"], s["limitationStanding"]) for s in surfaces] == [
        ("raybot-draft", 0, 6, 0, "confirmed"),
        ("raybot-published", 0, 0, 6, "confirmed"),
        ("raybot-preview", 6, 0, 0, None),
    ]

    # Copilot Studio's own evaluation on a fake of its API: the draft gates at 83 %, the published 500 is
    # a runtime limitation confirmed by the draft.
    (studio_dir,) = out.glob("studio-eval-*")
    draft = json.loads((studio_dir / "draft" / "run.json").read_text())
    assert (draft["passed"], draft["failed"], draft["platformRun"]["exportJoin"]["matchedBy"]) == (5, 1, "explanation")
    published = json.loads((studio_dir / "published" / "run.json").read_text())
    assert published["limitationStanding"] == "confirmed" and published["platformRun"]["httpStatus"] == 500
    assert "exit code 3 (3: the platform, not the agent)" in first.stdout

    # The same --out again: a new evaluation run beside the first, not "an earlier run is recorded here".
    again = quickstart("--out", out, cwd=tmp_path)
    assert again.returncode == 0, again.stdout + again.stderr
    assert len(list(out.glob("eval-run-*/run.json"))) == 2
