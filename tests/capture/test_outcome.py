"""Capture alone decides how a run ended, from the runner's raw facts and the events."""

from __future__ import annotations

from copilot_eval.capture import RunFacts, result_from_events
from tests.capture.event_factory import idle, one_call_session, session_error, start, tool_done, tool_start, user

CLEAN = one_call_session(tool_start("c1", "get_balance", {"account": "A1"}), tool_done("c1", "42"))
FAILED = [start(), user("hi"), session_error("Failed to get response", 503), idle()]


def test_an_idle_run_with_no_cause_completes():
    result = result_from_events(CLEAN, facts=RunFacts(timeout_s=30))
    assert (result.success, result.stop_reason, result.error) == (True, "completed", None)


def test_our_own_stop_is_the_first_cause_even_with_a_session_error_and_a_timeout():
    facts = RunFacts(
        stop_request=("tool_budget_exceeded", "tool budget exceeded: max_tool_calls=1"),
        timed_out_while="waiting for the agent to finish",
        timeout_s=5,
    )
    result = result_from_events(FAILED, facts=facts)
    assert (result.success, result.stop_reason) == (False, "tool_budget_exceeded")
    assert result.error == "tool budget exceeded: max_tool_calls=1; Failed to get response (HTTP 503)"


def test_a_timeout_names_its_phase_and_what_was_known():
    facts = RunFacts(
        timed_out_while="waiting for the agent to finish",
        timeout_s=10,
        known_at_timeout=["tool calls still running: 'slow' (c9)", "a model call had been waiting 9 s"],
    )
    result = result_from_events(CLEAN, facts=facts)
    assert result.stop_reason == "timeout"
    assert result.error == (
        "timed out after 10 s (timeout_s) waiting for the agent to finish; "
        "tool calls still running: 'slow' (c9); a model call had been waiting 9 s"
    )


def test_a_dead_runtime_is_named_with_what_the_call_raised():
    alone = result_from_events(CLEAN, facts=RunFacts(runtime_exit="Copilot runtime process 7 was killed by SIGKILL"))
    assert alone.error == "Copilot runtime process 7 was killed by SIGKILL during the session"
    raised = result_from_events(
        CLEAN,
        facts=RunFacts(
            runtime_exit="Copilot runtime process 7 exited with code 1", exception="ConnectionError: pipe closed"
        ),
    )
    assert raised.stop_reason == "execution_error"
    assert raised.error == "Copilot runtime process 7 exited with code 1: ConnectionError: pipe closed"


def test_a_session_error_is_said_once_with_the_fix_the_model_source_knows():
    result = result_from_events(FAILED, facts=RunFacts(session_error_note="(set GH_TOKEN)"))
    assert (result.success, result.stop_reason) == (False, "execution_error")
    assert result.error == "Failed to get response (HTTP 503) (set GH_TOKEN)"


def test_a_cleanup_problem_fails_only_a_run_that_would_have_completed():
    completed = result_from_events(CLEAN, facts=RunFacts(cleanup_error="aborting the session did not finish"))
    assert (completed.success, completed.stop_reason) == (False, "cleanup_error")
    timed_out = result_from_events(
        CLEAN,
        facts=RunFacts(
            timed_out_while="while sending the prompt", timeout_s=3, cleanup_error="aborting the session did not finish"
        ),
    )
    assert timed_out.stop_reason == "timeout"
    assert timed_out.error.endswith("; cleanup failed: aborting the session did not finish")
