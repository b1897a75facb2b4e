"""examples/ci: the GitHub Actions workflow only uses commands and options copilot-eval has."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from copilot_eval.cli.app import app

WORKFLOW = Path(__file__).resolve().parents[2] / "examples" / "ci" / "copilot-eval.yml"


def _commands() -> list[tuple[str, list[str]]]:
    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["evaluate"]["steps"]
    script = "\n".join(step.get("run", "") for step in steps).replace("\\\n", " ")
    return [
        (match.group(1), re.findall(r"(--[a-z-]+)", match.group(2)))
        for match in re.finditer(r"copilot-eval (\w+)([^\n]*)", script)
    ]


def test_workflow_runs_reports_and_uploads_the_run_folder():
    commands = _commands()
    assert [name for name, _ in commands] == ["setup", "run", "report"]
    steps = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))["jobs"]["evaluate"]["steps"]
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["with"]["path"] == "eval-run/" and upload["if"] == "always()"
    assert any("$GITHUB_STEP_SUMMARY" in step.get("run", "") for step in steps)


def test_every_option_the_workflow_uses_exists():
    runner = CliRunner()
    for name, options in _commands():
        shown = runner.invoke(app, [name, "--help"], env={"COLUMNS": "200"})
        assert shown.exit_code == 0, shown.output
        for option in options:
            assert option in shown.output, f"copilot-eval {name} has no {option}"
    assert ("run", ["--agent", "--out", "--no-progress", "--junit", "--fail-under"]) in _commands()


def test_reports_public_names_resolve_and_are_documented():
    import inspect

    import copilot_eval.reports as reports

    for name in reports.__all__:
        value = getattr(reports, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"
