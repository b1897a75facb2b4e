"""Reading saved event logs, and `copilot-eval inspect`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from copilot_eval.capture import EventLogError, load_event_log
from copilot_eval.cli import inspect_cmd

DATA = Path(__file__).parent / "data"


def cli() -> typer.Typer:
    # A callback keeps Typer in multi-command mode, as the real app is once it has several commands.
    app = typer.Typer()
    app.callback()(lambda: None)
    inspect_cmd.register(app)
    return app


def test_load_event_log_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "session.start", "data": {}}\n{not json\n')
    with pytest.raises(EventLogError, match=r"bad\.jsonl:2"):
        load_event_log(bad)
    other = tmp_path / "other.jsonl"
    other.write_text('{"hello": 1}\n')
    with pytest.raises(EventLogError, match=r"other\.jsonl:1: not a session event"):
        load_event_log(other)
    with pytest.raises(EventLogError, match=r"missing.jsonl"):
        load_event_log(tmp_path / "missing.jsonl")


def test_load_event_log_skips_blank_lines(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"type": "session.idle", "data": {}}\n\n')
    assert load_event_log(path) == [{"type": "session.idle", "data": {}}]


def test_inspect_prints_a_summary():
    outcome = CliRunner().invoke(cli(), ["inspect", str(DATA / "task_subagent.jsonl")])
    assert outcome.exit_code == 0, outcome.output
    assert "The scout found nothing" in outcome.output and "explore" in outcome.output and "task" in outcome.output


def test_inspect_shows_capture_errors_and_failures(tmp_path):
    events = load_event_log(DATA / "simple_tool.jsonl")
    events = [e for e in events if e["type"] != "tool.execution_complete"]
    path = tmp_path / "broken.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    outcome = CliRunner().invoke(cli(), ["inspect", str(path)])
    assert outcome.exit_code == 0 and "missing_completion" in outcome.output and "False" in outcome.output


def test_inspect_json_is_native_json():
    outcome = CliRunner().invoke(cli(), ["inspect", "--json", str(DATA / "http_500.jsonl")])
    data = json.loads(outcome.output)
    assert outcome.exit_code == 0 and data["success"] is False and "HTTP 500" in data["error"]


def test_inspect_exits_2_on_a_missing_or_foreign_file(tmp_path):
    missing = CliRunner().invoke(cli(), ["inspect", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "nope.jsonl" in missing.output
    foreign = tmp_path / "x.jsonl"
    foreign.write_text("just text\n")
    outcome = CliRunner().invoke(cli(), ["inspect", str(foreign)])
    assert outcome.exit_code == 2 and "x.jsonl:1" in outcome.output


def test_inspect_is_registered_in_the_app():
    from copilot_eval.cli import app

    assert "copilot_eval.cli.inspect_cmd" in {row.module for row in app.COMMANDS}


def test_capture_does_not_import_the_sdk():
    import subprocess
    import sys

    code = "import sys, copilot_eval.capture; print('copilot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
