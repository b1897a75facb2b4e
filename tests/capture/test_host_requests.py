"""Requests to the host (questions, elicitations, sampling and every other kind) from their events and the runner's answers."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.capture import RunFacts, load_event_log, result_from_events
from copilot_eval.capture.run_facts import HostAnswer
from tests.capture.event_factory import event, idle, start, user

LOG = Path(__file__).parent / "data" / "server_everything.jsonl"


def test_the_real_log_records_who_asked_what_and_the_answer():
    result = result_from_events(load_event_log(LOG))
    (question,) = result.questions_asked
    assert (question.asked_by, question.message, question.choices) == ("agent", "Which account?", ["A-7"])
    assert question.answer == "A-7" and question.action == "accept" and question.completed
    assert question.tool_call_id and question.requested_at and question.answered_at
    form, url = sorted(result.elicitations, key=lambda r: r.mode)
    assert (form.mode, form.asked_by, form.action) == ("form", "ev", "accept")
    assert form.answer == {"name": "Ada", "check": True} and "name" in form.requested_schema["properties"]
    assert (url.mode, url.url, url.action, url.declined) == ("url", "https://example.com/consent", "decline", True)
    (sampling,) = result.sampling_requests
    assert sampling.asked_by == "ev" and sampling.message == "Resource trigger-sampling-request context: say hi"
    assert sampling.sampling_request["maxTokens"] == 20 and sampling.completed
    assert sampling.answer is None, "a saved log alone does not say what a sampling request was answered"
    assert result.user_was_asked("which ACCOUNT") and result.user_was_asked("provide inputs")
    assert not result.user_was_asked("say hi"), "a sampling request is not a question to the user"


def _session(*middle: dict) -> list[dict]:
    return [start(), user("pay"), *middle, idle()]


def _asked(question: str, request_id: str) -> dict:
    return event("user_input.requested", {"requestId": request_id, "question": question, "allowFreeform": True})


def _answered(request_id: str, answer: str) -> dict:
    return event("user_input.completed", {"requestId": request_id, "answer": answer, "wasFreeform": True})


def test_the_runner_says_which_policy_answered_and_a_declined_question_is_declined():
    events = _session(
        _asked("Which account?", "r1"),
        _answered("r1", "A-7"),
        _asked("Which day?", "r2"),
        _answered("r2", "The user declined to answer this question."),
    )
    facts = RunFacts(
        host_answers=[
            HostAnswer(kind="question", message="Which account?", answered_by="user_answers[0]", action="accept"),
            HostAnswer(
                kind="question", message="Which day?", answered_by="no matching answer: declined", action="decline"
            ),
        ]
    )
    first, second = result_from_events(events, facts=facts).questions_asked
    assert (first.answered_by, first.action, first.answer) == ("user_answers[0]", "accept", "A-7")
    assert (second.answered_by, second.declined) == ("no matching answer: declined", True)
    assert second.answer == "The user declined to answer this question.", "what the agent was told"


def test_the_same_question_asked_twice_is_matched_in_order():
    events = _session(_asked("Sure?", "r1"), _answered("r1", "yes"), _asked("Sure?", "r2"), _answered("r2", "no"))
    facts = RunFacts(
        host_answers=[
            HostAnswer(kind="question", message="Sure?", answered_by="function first", action="accept"),
            HostAnswer(kind="question", message="Sure?", answered_by="function second", action="accept"),
        ]
    )
    assert [q.answered_by for q in result_from_events(events, facts=facts).questions_asked] == [
        "function first",
        "function second",
    ]


def test_a_sampling_answer_comes_from_the_runner_by_request_id():
    request = {"messages": [{"role": "user", "content": {"type": "text", "text": "summarise"}}], "maxTokens": 5}
    events = _session(
        event("sampling.requested", {"requestId": "s1", "serverName": "ev", "mcpRequestId": 0, "request": request}),
        event("sampling.completed", {"requestId": "s1"}),
    )
    response = {
        "role": "assistant",
        "content": {"type": "text", "text": "short"},
        "model": "m",
        "stopReason": "endTurn",
    }
    facts = RunFacts(
        host_answers=[
            HostAnswer(
                kind="sampling",
                message="summarise",
                answered_by="sampling model (scripted)",
                action="accept",
                answer="short",
                response=response,
                request_id="s1",
            )
        ]
    )
    (sampling,) = result_from_events(events, facts=facts).sampling_requests
    assert (sampling.answer, sampling.response, sampling.answered_by) == (
        "short",
        response,
        "sampling model (scripted)",
    )


def test_a_request_never_answered_is_recorded_as_not_completed():
    events = _session(
        event("elicitation.requested", {"requestId": "e1", "message": "Name?", "elicitationSource": "ev"})
    )
    (pending,) = result_from_events(events).elicitations
    assert pending.completed is False and pending.action is None and pending.mode == "form"


def test_a_secret_in_an_answer_is_redacted():
    from copilot_eval.redaction import register_secret

    register_secret("s3cr3t-answer-value", "TEST_ANSWER")
    events = _session(_asked("Password?", "r1"), _answered("r1", "s3cr3t-answer-value"))
    facts = RunFacts(
        host_answers=[HostAnswer(kind="question", message="Password?", answered_by="x", answer="s3cr3t-answer-value")]
    )
    result = result_from_events(events, facts=facts)
    assert "s3cr3t-answer-value" not in result.model_dump_json()


def test_every_other_kind_the_runtime_sends_is_recorded_with_its_details_and_outcome():
    oauth = {
        "requestId": "o1",
        "serverName": "crm",
        "serverUrl": "http://127.0.0.1:9/mcp",
        "reason": "initial",
        "httpResponse": {"headers": [{"name": "set-cookie", "value": "session=abc"}]},
    }
    events = _session(
        event("mcp.oauth_required", oauth),
        event("mcp.oauth_completed", {"requestId": "o1", "outcome": "cancelled"}),
        event("session_limits_exhausted.requested", {"requestId": "l1", "usedAiCredits": 31.5, "maxAiCredits": 30}),
        event("session_limits_exhausted.completed", {"requestId": "l1", "response": {"action": "cancel"}}),
        event("exit_plan_mode.requested", {"requestId": "p1", "summary": "write it", "actions": ["interactive"]}),
        event("exit_plan_mode.completed", {"requestId": "p1", "approved": False, "feedback": "not now"}),
        event("command.queued", {"requestId": "c1", "command": "/compact"}),
    )
    facts = RunFacts(
        host_answers=[
            HostAnswer(kind="mcp_oauth", message=None, answered_by="default: no interactive login", request_id="o1"),
            HostAnswer(
                kind="session_limits", message=None, answered_by="default: stop", action="cancel", request_id="l1"
            ),
        ]
    )
    oauth_record, limits, plan, command = result_from_events(events, facts=facts).host_requests
    assert (oauth_record.kind, oauth_record.asked_by, oauth_record.outcome) == ("mcp_oauth", "crm", "cancelled")
    assert oauth_record.details == {"server_url": "http://127.0.0.1:9/mcp", "reason": "initial"}
    assert "abc" not in oauth_record.model_dump_json(), "the server's HTTP response (cookies) is not kept"
    assert (
        oauth_record.answered_by == "default: no interactive login" and oauth_record.event_type == "mcp.oauth_required"
    )
    assert limits.details == {"used_ai_credits": 31.5, "max_ai_credits": 30} and limits.outcome == "cancel"
    assert (limits.action, limits.completed) == ("cancel", True)
    assert (plan.kind, plan.message, plan.action, plan.answer) == ("exit_plan_mode", "write it", "decline", "not now")
    assert plan.answered_by is None, "no runner answer: the completion event alone says what happened"
    assert (command.kind, command.message, command.completed) == ("queued_command", "/compact", False)


def test_a_request_of_a_kind_this_version_does_not_know_is_recorded_as_unknown():
    events = _session(
        event("canvas_choice.requested", {"requestId": "u1", "message": "pick one"}),
        event("tool.user_requested", {"requestId": "t1", "toolName": "bash"}),  # not a request to the host
        event("permission.requested", {"requestId": "q1", "permissionRequest": {"kind": "write"}}),
        event("something.requested", {"noRequestId": True}),  # no id: nothing to answer
    )
    facts = RunFacts(
        host_answers=[
            HostAnswer(kind="unknown", message=None, answered_by="default: declined", action="decline", request_id="u1")
        ]
    )
    (unknown,) = result_from_events(events, facts=facts).host_requests
    assert (unknown.kind, unknown.event_type, unknown.request_id) == ("unknown", "canvas_choice.requested", "u1")
    assert unknown.declined and unknown.answered_by == "default: declined"
