"""The customization files of a saved result, shown by `inspect` and the HTML drill-down, and kept in the JSON."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evidence import CopilotResult, CustomizationFile
from copilot_eval.evidence.result import result_to_dict
from copilot_eval.reports.html_evidence import evidence_html

FILES = [
    CustomizationFile(kind="agents-md", path="AGENTS.md", scope="repository", status="delivered"),
    CustomizationFile(
        kind="instructions",
        path=".github/instructions/x.instruction.md",
        scope="repository",
        apply_to="**",
        status="not_delivered",
        reason="wrong suffix: the runtime reads only files named *.instructions.md",
    ),
]


def test_the_evidence_json_keeps_each_file_and_its_status(tmp_path):
    path = CopilotResult(customizations=FILES).save(tmp_path / "r.json")
    assert json.loads(path.read_text())["customizations"][1]["status"] == "not_delivered"
    assert CopilotResult.load(path).customizations == FILES
    assert CopilotResult.load(path).instructions_delivered("*.md") is False


def test_inspect_shows_the_files_with_why_one_was_not_delivered(tmp_path):
    path = CopilotResult(customizations=FILES).save(tmp_path / "r.json")
    out = CliRunner().invoke(app, ["inspect", str(path)], env={"COLUMNS": "250"}).output
    assert "Customization files" in out and "not_delivered" in out and "wrong suffix" in out


def test_the_html_drill_down_shows_them_escaped():
    hostile = CustomizationFile(kind="agents-md", path="<b>AGENTS.md</b>", scope="folder", status=None)
    html = evidence_html(result_to_dict(CopilotResult(customizations=[*FILES, hostile])), None)
    assert "<h3>Customization files</h3>" in html and "wrong suffix" in html
    assert "&lt;b&gt;AGENTS.md" in html and "<b>AGENTS.md" not in html and "unknown" in html
