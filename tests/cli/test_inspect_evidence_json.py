"""`copilot-eval inspect` reads a saved evidence JSON as well as an event log."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.cli.app import app
from tests.capture.event_factory import event, idle, start, user

SPAWN = "failed to spawn MCP server process: No such file or directory (os error 2)"


def _saved(tmp_path: Path) -> Path:
    events = [
        start(),
        event("session.mcp_server_status_changed", {"serverName": "git", "status": "failed", "error": SPAWN}),
        user("hi"),
        idle(),
    ]
    facts = RunFacts(stop_reason="completed", mcp_servers=[{"name": "git", "status": "failed", "error": SPAWN}])
    return result_from_events(events, facts=facts).save(tmp_path / "case-1.json")


def test_inspect_shows_a_saved_result_with_its_mcp_servers(tmp_path: Path) -> None:
    outcome = CliRunner().invoke(app, ["inspect", str(_saved(tmp_path))], env={"COLUMNS": "200"})
    assert outcome.exit_code == 0, outcome.output
    assert "execution_error" in outcome.output and "MCP server 'git' could not start" in outcome.output
    assert "MCP servers" in outcome.output and "failed" in outcome.output


def test_inspect_json_of_a_saved_result_round_trips(tmp_path: Path) -> None:
    saved = _saved(tmp_path)
    outcome = CliRunner().invoke(app, ["inspect", str(saved), "--json"])
    assert outcome.exit_code == 0
    shown = json.loads(outcome.output)
    assert shown["mcp_servers"] == json.loads(saved.read_text())["mcp_servers"]


def test_a_result_of_an_unknown_schema_version_is_refused_by_name(tmp_path: Path) -> None:
    future = tmp_path / "future.json"
    future.write_text(json.dumps({"schema_version": 99, "success": True}))
    outcome = CliRunner().invoke(app, ["inspect", str(future)])
    assert outcome.exit_code == 2 and "schema_version 99" in outcome.output
