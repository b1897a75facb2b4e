"""examples/copilot-studio/studio_eval_example.py: the CI story on the fake API, as the quickstart shows it."""

from __future__ import annotations

import importlib.util
import json
import xml.etree.ElementTree as ET
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "copilot-studio" / "studio_eval_example.py"


def test_the_draft_gates_and_the_published_500_is_a_confirmed_limitation(tmp_path, capsys, monkeypatch):
    for name in ("COPILOT_EVAL_STUDIO_LEDGER", "RAYBOT_PP_TOKEN"):
        # Absent for the example (it sets them itself), and absent again after the test.
        monkeypatch.setenv(name, "")
        monkeypatch.delenv(name)
    spec = importlib.util.spec_from_file_location("studio_eval_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--out", str(tmp_path)]) == 0
    shown = capsys.readouterr().out
    assert "score 83.33% over 6 graded" in shown and "exit code 0" in shown and "exit code 3" in shown
    draft = json.loads((tmp_path / "draft" / "run.json").read_text())
    assert draft["results"][4]["actualResponse"] == "Run it on a machine with a GPU."
    suite = ET.parse(tmp_path / "draft-junit.xml").getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("6", "1", "0")
    published = json.loads((tmp_path / "published" / "run.json").read_text())
    assert published["limitationStanding"] == "confirmed"
    (by,) = published["limitationConfirmedBy"]
    assert "answered the same 6 questions well: 5 of 6 passed (83%)" in by
    assert (tmp_path / "ledger.json").is_file()  # the example keeps the user's own ledger untouched


WORKFLOW = Path(__file__).resolve().parents[2] / "examples" / "ci" / "copilot-studio-eval.yml"


def test_the_github_actions_job_gates_on_the_draft_with_options_that_exist():
    import re

    import yaml
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app

    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    steps = workflow["jobs"]["evaluate"]["steps"]
    script = "\n".join(step.get("run", "") for step in steps).replace("\\\n", " ")
    (command,) = re.findall(r"copilot-eval studio-eval run([^\n]*)", script)
    options = re.findall(r"(--[a-z-]+)", command)
    assert "--published" not in options and {"--fail-under", "--junit", "--client-id"} <= set(options)
    shown = CliRunner().invoke(app, ["studio-eval", "run", "--help"], env={"COLUMNS": "200"})
    assert all(option in shown.output for option in options), options
    assert workflow["concurrency"]["cancel-in-progress"] is False  # one run at a time per agent
    assert any("upload-artifact" in step.get("uses", "") and step["if"] == "always()" for step in steps)
