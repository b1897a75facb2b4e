"""What the runner adds: stop reason, cleanup, abandoned calls, its own records."""

from __future__ import annotations

from types import SimpleNamespace

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence import DiscoveredSkill, RequestAuditRecord, SkillDiscovery
from tests.capture.event_factory import (
    assistant,
    event,
    idle,
    one_call_session,
    session_error,
    start,
    tool_done,
    tool_start,
    usage,
    user,
)

ARGS = {"account": "A1"}
CLEAN = one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1", "42"))


def test_completed_run_succeeds_and_keeps_runner_records():
    audit = [RequestAuditRecord(request_id="r1", model="gpt-4.1", tool_names=["get_balance"], instructions_sha256="ab")]
    discovery = SkillDiscovery(skills=[DiscoveredSkill(name="s")], complete=True)
    facts = RunFacts(
        stop_reason="completed",
        duration_ms=12.5,
        working_directory="/w",
        configuration={"model": "gpt-4.1"},
        request_audit=audit,
        tool_calls_admitted=1,
        skill_discovery=discovery,
        prompt="balance?",
    )
    result = result_from_events(CLEAN, agent=SimpleNamespace(name="banker"), facts=facts)
    assert result.success and result.stop_reason == "completed" and result.error is None
    assert result.agent_name == "banker" and result.duration_ms == 12.5 and result.working_directory == "/w"
    assert result.request_audit == audit and result.skill_discovery == discovery and result.tool_calls_admitted == 1


def test_stop_reason_other_than_completed_fails():
    result = result_from_events(CLEAN, facts=RunFacts(stop_reason="timeout", error="timed out after 30 s"))
    assert result.success is False and result.stop_reason == "timeout" and result.error == "timed out after 30 s"


def test_a_failed_run_keeps_its_first_cause_and_the_cleanup_problem_is_added():
    facts = RunFacts(stop_reason="tool_budget_exceeded", error="tool budget of 1 exceeded", cleanup_error="abort hung")
    result = result_from_events(CLEAN, facts=facts)
    assert result.stop_reason == "tool_budget_exceeded" and result.success is False
    assert result.error == "tool budget of 1 exceeded; cleanup failed: abort hung"


def test_cleanup_error_after_a_completed_run_fails_it():
    result = result_from_events(CLEAN, facts=RunFacts(stop_reason="completed", cleanup_error="stop failed"))
    assert result.success is False and result.stop_reason == "cleanup_error" and "stop failed" in result.error


def test_session_error_text_and_status_reach_error():
    events = [start(), user("hi"), session_error("Failed to get response", 503), idle()]
    result = result_from_events(events, facts=RunFacts(stop_reason="execution_error"))
    assert result.error == "Failed to get response (HTTP 503)" and not result.success


def test_blocking_capture_error_fails_a_completed_run():
    events = one_call_session(tool_start("c1", "get_balance", ARGS))
    result = result_from_events(events, facts=RunFacts(stop_reason="completed"))
    assert result.success is False and "missing_completion" in result.error


def test_abandoned_handler_is_a_cancellation_with_unknown_outcome():
    events = one_call_session(
        tool_start("c1", "get_balance", ARGS), tool_done("c1", None, success=False, error="gave up")
    )
    result = result_from_events(events, facts=RunFacts(stop_reason="timeout", abandoned_call_ids=["c1"]))
    assert result.all_tool_calls[0].success is None and [e.kind for e in result.capture_errors] == ["cancelled"]


def test_agent_without_name_is_fine():
    assert result_from_events(CLEAN, agent=object()).agent_name is None


def test_prompt_defaults_to_the_first_user_message():
    events = [start(), user("first"), usage(), assistant("a"), user("second"), usage(), assistant("b"), idle()]
    assert result_from_events(events).prompt == "first"


def test_model_used_is_none_when_nothing_reports_it():
    events = [event("session.start", {"sessionId": "s"}), user("hi"), assistant("x"), idle()]
    assert result_from_events(events).model_used is None


def test_helpers_answer_from_the_evidence(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("print(1)\n")
    result = result_from_events(CLEAN, facts=RunFacts(stop_reason="completed", working_directory=str(tmp_path)))
    assert result.tool_was_called("get_balance") and not result.tool_was_called("transfer")
    assert result.all_responses == ["done"] and result.permission_requested is False
    assert result.file("src/app.py") == "print(1)\n" and result.file_exists("src/app.py")
    assert result.files_matching("**/*.py") == ["src/app.py"]


def test_tool_call_text_is_not_an_evidence_verdict():
    call = result_from_events(one_call_session(tool_start("c1", "get_balance", ARGS))).all_tool_calls[0]
    assert "outcome unknown" in str(call) and call.evidence_complete is False
