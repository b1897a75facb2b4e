"""MCP server status from the runtime's events (and the runner's listing), as recorded evidence."""

from __future__ import annotations

from copilot_eval.capture import RunFacts, result_from_events
from tests.capture.event_factory import assistant, event, idle, start, usage, user

SPAWN_ERROR = "failed to spawn MCP server process: No such file or directory (os error 2)"


def _status(name: str, status: str, **extra: str) -> dict:
    return event("session.mcp_server_status_changed", {"serverName": name, "status": status, **extra})


def _session() -> list[dict]:
    return [
        start(),
        _status("time", "pending"),
        _status("git", "pending"),
        _status("time", "connected"),
        event("session.mcp_server_tools_loaded", {"serverName": "time", "toolCount": 2}),
        _status("git", "failed", error=SPAWN_ERROR, errorClassification="os_not_found"),
        event(
            "session.mcp_servers_loaded",
            {
                "servers": [
                    {"name": "time", "status": "connected"},
                    {"name": "git", "status": "failed", "error": SPAWN_ERROR},
                ]
            },
        ),
        user("hi"),
        usage(),
        assistant("hello"),
        idle(),
    ]


def test_a_saved_log_records_every_server_and_warns_about_failures() -> None:
    result = result_from_events(_session())
    servers = {server.name: server for server in result.mcp_servers}
    assert servers["time"].status == "connected" and servers["time"].tools_loaded == 2
    assert servers["git"].status == "failed" and servers["git"].error == SPAWN_ERROR
    assert servers["git"].error_classification == "os_not_found" and servers["git"].tools_loaded is None
    assert result.success is True, "a saved log does not know which servers were required"
    assert result.warnings == [f"MCP server 'git' could not start: {SPAWN_ERROR}"]


def test_a_required_server_failure_decides_the_stop_reason() -> None:
    listing = [{"name": "time", "status": "connected"}, {"name": "git", "status": "failed", "error": SPAWN_ERROR}]
    facts = RunFacts(stop_reason="execution_error", error="McpStartupError: ...", mcp_servers=listing)
    result = result_from_events(_session()[:7], facts=facts)
    assert result.success is False and result.stop_reason == "execution_error"
    assert result.error.startswith(f"MCP server 'git' could not start: {SPAWN_ERROR}")


def test_an_optional_server_failure_is_only_a_warning() -> None:
    listing = [
        {"name": "time", "status": "connected"},
        {"name": "git", "status": "failed", "error": SPAWN_ERROR, "optional": True},
    ]
    result = result_from_events(_session(), facts=RunFacts(stop_reason="completed", mcp_servers=listing))
    assert result.success is True and result.stop_reason == "completed"
    assert [s.optional for s in result.mcp_servers] == [False, True]
    assert result.warnings and "optional" in result.warnings[0]


def test_a_server_that_reconnects_loses_its_old_error() -> None:
    events = [start(), _status("git", "failed", error="boom"), _status("git", "connected"), idle()]
    (server,) = result_from_events(events).mcp_servers
    assert server.status == "connected" and server.error is None
