"""The lift's Markdown and HTML show other people's names as text: no table cell, link or tag of theirs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from copilot_eval import CopilotEval
from copilot_eval.lift import Arm, LiftPlay, LiftRun, lift_figures
from copilot_eval.lift.record import lift_document, lift_markdown, write_lift_files

HOSTILE_CASE = "case1 | <script>alert(1)</script> [x](javascript:alert(1))"


def _run() -> LiftRun:
    plays = [
        LiftPlay(HOSTILE_CASE, "**ctl**", 0, "fail", "delivered"),
        LiftPlay(HOSTILE_CASE, "<b>trt</b>", 0, "pass", "delivered"),
        LiftPlay("case2", "**ctl**", 0, "fail", "delivered"),
        LiftPlay("case2", "<b>trt</b>", 0, "fail", "not_delivered", "never reached the model: skill-description x"),
    ]
    figures = lift_figures(plays, control="**ctl**", treatment="<b>trt</b>")
    arms = [Arm("**ctl**", CopilotEval()), Arm("<b>trt</b>", CopilotEval())]
    return LiftRun(SimpleNamespace(name="set | one"), arms, plays, figures, 1)  # type: ignore[arg-type]


def test_markdown_escapes_cells_and_links() -> None:
    text = lift_markdown(_run())
    table_rows = [line for line in text.splitlines() if line.startswith("| case1")]
    assert len(table_rows) == 1 and table_rows[0].count(" | ") == 3, "a name's pipe must not add a cell"
    assert "](javascript:" not in text.replace("\\]", "")
    assert "Set apart in &lt;b>trt&lt;/b>: 1 not_delivered" in text
    assert "needs at least two cases" in text  # one paired case: no interval verdict, and it says why


def test_html_and_json_are_written_with_names_as_text(tmp_path: Path) -> None:
    run = _run()
    write_lift_files(run, tmp_path)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "<b>trt</b>" not in html
    document = lift_document(run)
    assert document["figures"]["apart"] == {"**ctl**": {}, "<b>trt</b>": {"not_delivered": 1}}
    assert document["figures"]["flippedBetter"] == [HOSTILE_CASE]
