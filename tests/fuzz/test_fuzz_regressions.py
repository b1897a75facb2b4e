"""Minimised failing examples found by the fuzz tests, kept as regular tests (one per bug fixed)."""

from __future__ import annotations

from copilot_eval.capture import result_from_events

from .mutations import apply_byte_recipe
from .test_capture_fuzz import LOGS, check_invariants, damaged
from .test_file_fuzz import CSV_FILES, check_csv_bytes, load_agent_text


def test_agent_file_that_is_not_utf8_is_an_agent_file_error() -> None:
    # Was: UnicodeDecodeError escaping load_agent_file.
    assert load_agent_text("evaluation/agent-fallback.yaml", b"\xff" + b"name: x\n") is None


def test_tool_requests_that_are_not_a_list_are_ignored_not_fatal() -> None:
    # Was: TypeError 'int' object is not iterable in capture's tool-request reader.
    events = damaged("builtin_create", [("field", 20, ("retype", ("data", "toolRequests"), -1))])
    check_invariants(result_from_events(events), events)


def test_model_metrics_requests_that_are_not_a_mapping_leave_premium_requests_unknown() -> None:
    # Same family as above, found by reading the code the fuzzer pointed at: a number where the
    # shutdown's per-model "requests" object goes raised AttributeError.
    events = LOGS["simple_tool"]
    shutdown = next(i for i, e in enumerate(events) if e["type"] == "session.shutdown")
    models = events[shutdown]["data"].get("agentMetrics", {}).get("main", {}).get("modelMetrics", {})
    recipe = [("field", shutdown, ("remove", ("data", "totalPremiumRequests")))]  # so the per-agent share is read
    recipe += [
        ("field", shutdown, ("retype", ("data", "agentMetrics", "main", "modelMetrics", name, "requests"), 5))
        for name in models
    ]
    assert len(recipe) > 1, "the recorded log has per-model metrics to damage"
    damaged_events = damaged("simple_tool", recipe)
    check_invariants(result_from_events(damaged_events), damaged_events)


def test_a_csv_of_comment_lines_only_is_a_listed_problem_not_an_assertion() -> None:
    # Was: AssertionError from read_csv (no header after the comment block, and no problem listed).
    check_csv_bytes(
        apply_byte_recipe(CSV_FILES["blank_fields.csv"], [("lines", [("truncate", 0)]), ("insert", 0, b"#")])
    )


def test_mcp_servers_loaded_with_servers_that_are_not_a_list_is_ignored_not_fatal() -> None:
    # Was: TypeError 'int' object is not iterable in the MCP server status reader.
    events = damaged("custom_agent", [("field", 8, ("retype", ("data", "servers"), -1))])
    check_invariants(result_from_events(events), events)
