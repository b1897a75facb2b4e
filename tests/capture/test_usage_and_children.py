"""Usage rules (unknown is not zero), premium requests and subagent trees."""

from __future__ import annotations

from copilot_eval.capture import result_from_events
from copilot_eval.evidence import ModelPrice
from tests.capture.event_factory import assistant, event, idle, start, tool_done, tool_start, usage, user

PRICES = {"gpt-4.1": ModelPrice(input_per_million=2.0, output_per_million=8.0, cached_input_per_million=0.5)}


def session(*usages: dict) -> list[dict]:
    return [start(), user("hi"), *usages, assistant("hello"), idle()]


def test_missing_counts_are_none_and_totals_unknown():
    result = result_from_events(session(usage(inputTokens=None, cacheReadTokens=None)))
    entry = result.usage[0]
    assert entry.input_tokens is None and entry.cache_read_tokens is None and entry.output_tokens == 10
    assert result.total_input_tokens is None and result.total_tokens is None
    assert result.token_usage == {"output_tokens": 10}


def test_known_zero_stays_zero():
    result = result_from_events(session(usage(inputTokens=0, outputTokens=0, reasoningTokens=0)))
    entry = result.usage[0]
    assert (entry.input_tokens, entry.output_tokens, entry.reasoning_tokens) == (0, 0, 0)
    assert result.token_usage == {"input_tokens": 0, "output_tokens": 0, "total_tokens": 0}


def test_usage_fields_are_mapped():
    entry = result_from_events(
        session(usage(reasoningTokens=7, reasoningEffort="high", cacheWriteTokens=3, duration=42))
    ).usage[0]
    assert (entry.reasoning_tokens, entry.reasoning_effort, entry.cache_write_tokens, entry.duration_ms) == (
        7,
        "high",
        3,
        42.0,
    )


def test_cost_needs_a_price_and_gives_no_discount_for_unknown_cache_reads():
    result = result_from_events(session(usage(inputTokens=1_000_000, outputTokens=0, cacheReadTokens=None)))
    assert result.estimated_cost({}) is None
    assert result.estimated_cost(PRICES) == 2.0
    cached = result_from_events(session(usage(inputTokens=1_000_000, outputTokens=0, cacheReadTokens=500_000)))
    assert cached.estimated_cost(PRICES) == 1.25


def test_premium_requests_summed_from_per_call_cost_without_shutdown():
    assert result_from_events(session(usage(cost=1.0), usage(cost=0.5))).session_premium_requests == 1.5
    assert result_from_events(session(usage(cost=1.0), usage())).session_premium_requests is None
    assert result_from_events(session()).total_premium_requests is None


def test_premium_requests_from_shutdown_total():
    shutdown = event("session.shutdown", {"totalPremiumRequests": 3.0, "modelMetrics": {}})
    assert result_from_events([*session(usage()), shutdown]).session_premium_requests == 3.0


def child_run(child_usage: bool, *, status: str = "subagent.completed") -> list[dict]:
    kid = "agent-1"
    child = [
        event(
            "subagent.started",
            {"toolCallId": "t1", "agentName": "explore", "agentDisplayName": "scout", "agentDescription": "d"},
            agent_id=kid,
        ),
        user("look", agent_id=kid),
        *([usage(agent_id=kid)] if child_usage else []),
        tool_start("k1", "grep", {"pattern": "x"}, agent_id=kid),
        tool_done("k1", "nothing", agent_id=kid),
        assistant("found nothing", agent_id=kid),
        event(status, {"toolCallId": "t1", "agentName": "explore", "durationMs": 9, "error": "boom"}, agent_id=kid),
    ]
    return [
        start(),
        user("go"),
        usage(),
        assistant("", ("t1", "task", {"prompt": "look"})),
        tool_start("t1", "task", {}),
        *child,
        tool_done("t1", "found nothing"),
        usage(),
        assistant("done"),
        idle(),
    ]


def test_child_evidence_is_separate_and_counted_once():
    result = result_from_events(child_run(child_usage=True))
    child = result.subagent_invocations[0].result
    assert [c.name for c in result.all_tool_calls] == ["task"] and [c.name for c in child.all_tool_calls] == ["grep"]
    assert child.all_tool_calls[0].agent_id == "agent-1"
    assert len(result.usage) == 2 and len(child.usage) == 1 and result.total_input_tokens == 300


def test_totals_are_unknown_when_a_child_has_no_usage():
    result = result_from_events(child_run(child_usage=False))
    assert result.subagent_invocations[0].result.usage == []
    assert result.total_tokens is None and result.token_usage == {} and result.estimated_cost(PRICES) is None


def test_failed_child_is_recorded_without_failing_the_parent():
    result = result_from_events(child_run(child_usage=True, status="subagent.failed"))
    invocation = result.subagent_invocations[0]
    assert invocation.status == "failed" and invocation.error == "boom"
    assert invocation.result.success is False and "boom" in invocation.result.error
    assert result.success is True


def test_parent_evidence_checks_child_evidence():
    events = child_run(child_usage=True)
    events = [e for e in events if not (e["type"] == "tool.execution_complete" and e["data"]["toolCallId"] == "k1")]
    result = result_from_events(events)
    child = result.subagent_invocations[0].result
    assert [e.kind for e in child.capture_errors] == ["missing_completion"] and result.capture_errors == []
    assert not result.evidence_complete and not child.success


def test_a_child_is_judged_by_the_rule_that_judges_a_session():
    # A child has no runner facts: like a saved log it succeeds only when it finished (its subagent
    # completed), with no error and no blocking capture error, and a failure always says why.
    completed = result_from_events(child_run(child_usage=True)).subagent_invocations[0].result
    assert (completed.success, completed.error) == (True, None)
    unfinished = [e for e in child_run(child_usage=True) if e["type"] != "subagent.completed"]
    child = result_from_events(unfinished).subagent_invocations[0].result
    assert (child.success, child.error) == (False, "subagent status: running")
    incomplete = [
        e
        for e in child_run(child_usage=True)
        if not (e["type"] == "tool.execution_complete" and e["data"]["toolCallId"] == "k1")
    ]
    child = result_from_events(incomplete).subagent_invocations[0].result
    assert child.success is False and child.error.startswith("incomplete evidence: ")
    assert "k1" in child.error


def test_nested_subagents_build_a_tree():
    outer, inner = "agent-1", "agent-2"
    events = [
        start(),
        user("go"),
        usage(),
        tool_start("t1", "task", {}),
        event("subagent.started", {"toolCallId": "t1", "agentName": "a"}, agent_id=outer),
        user("outer", agent_id=outer),
        usage(agent_id=outer),
        tool_start("t2", "task", {}, agent_id=outer),
        event("subagent.started", {"toolCallId": "t2", "agentName": "b"}, agent_id=inner),
        user("inner", agent_id=inner),
        usage(agent_id=inner),
        assistant("deep", agent_id=inner),
        event("subagent.completed", {"toolCallId": "t2", "agentName": "b"}, agent_id=inner),
        tool_done("t2", "deep", agent_id=outer),
        assistant("mid", agent_id=outer),
        event("subagent.completed", {"toolCallId": "t1", "agentName": "a"}, agent_id=outer),
        tool_done("t1", "mid"),
        assistant("top"),
        idle(),
    ]
    result = result_from_events(events)
    (outer_inv,) = result.subagent_invocations
    (inner_inv,) = outer_inv.result.subagent_invocations
    assert inner_inv.name == "b" and inner_inv.result.final_response == "deep"
    assert len(result.execution_results) == 3 and result.total_input_tokens == 300


def test_tagged_events_without_a_start_are_flagged():
    events = [start(), user("go"), usage(), user("stray", agent_id="ghost"), assistant("top"), idle()]
    result = result_from_events(events)
    assert [e.kind for e in result.capture_errors] == ["uncorrelated_event"]
    assert result.subagent_invocations[0].invocation_id == "ghost"


def test_premium_requests_of_a_tree_count_child_work_once():
    metrics = lambda cost: {"modelMetrics": {"gpt-4.1": {"requests": {"cost": cost, "count": 1}}}}  # noqa: E731
    shutdown = event(
        "session.shutdown",
        {"totalPremiumRequests": 3.0, "agentMetrics": {"main": metrics(2.0), "agent-1": metrics(1.0)}},
    )
    result = result_from_events([*child_run(child_usage=True), shutdown])
    assert result.session_premium_requests == 2.0
    assert result.subagent_invocations[0].result.session_premium_requests == 1.0
    assert result.total_premium_requests == 3.0


def _compaction(kind: str, attempt: str, **data) -> dict:
    return event(f"session.compaction_{kind}", {"compactionAttemptId": attempt, "model": "gpt-4.1", **data})


TOKENS_USED = {"requestCount": 1, "inputTokens": 12691, "outputTokens": 516, "cacheReadTokens": 0, "model": "gpt-4.1"}


def test_a_compactions_model_calls_are_usage_and_count_in_the_totals():
    log = session(
        usage(inputTokens=100, outputTokens=10),
        _compaction("start", "c1"),
        usage(inputTokens=200, outputTokens=20),
        _compaction("complete", "c1", success=True, compactionTokensUsed=TOKENS_USED),
    )
    result = result_from_events(log)
    assert [(e.purpose, e.input_tokens, e.request_count) for e in result.usage] == [
        ("turn", 100, 1),
        ("compaction", 12691, 1),
        ("turn", 200, 1),
    ]
    assert (result.total_input_tokens, result.total_output_tokens) == (12991, 546)
    assert not result.warnings
    assert result.session_premium_requests is None  # a compaction reports no cost: unknown, not 0


def test_a_compaction_that_never_reported_makes_the_totals_unknown():
    unfinished = result_from_events(session(usage(), _compaction("start", "c9")))
    assert unfinished.total_input_tokens is None and unfinished.token_usage == {}
    assert unfinished.warnings == [
        "the runtime started a compaction (c9) that had not reported its model usage when the run ended: "
        "the token totals are unknown"
    ]
    silent = result_from_events(session(usage(), _compaction("complete", "c2", success=False)))
    assert silent.usage[-1].purpose == "compaction" and silent.total_input_tokens is None
