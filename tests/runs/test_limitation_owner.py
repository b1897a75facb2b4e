"""Who a low score blames: the platform only where a platform can answer in the agent's place."""

from __future__ import annotations

import json

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase, EvalTestSet
from copilot_eval.evidence import CopilotResult
from copilot_eval.exit_codes import BELOW_GATE, PLATFORM
from copilot_eval.runs import detect_runtime_limitation
from copilot_eval.runs.eval_runner import summarise
from copilot_eval.runs.gates import Gates, run_verdict
from copilot_eval.runs.target import played_by_platform, saved_by_platform

FALLBACK = "I'm sorry, I'm not sure how to help with that. Can you try rephrasing?"
MCP_DOWN = "execution error: MCP server 'orders' could not start: spawn orders-server ENOENT"


def _failed(number: int, answer: str | None, *, reason: str = "did not match", duration: float = 1000.0):
    status = CaseStatus.FAIL if answer is not None else CaseStatus.ERROR
    return EvalCaseResult(
        conversation_number=number,
        passed=False,
        actual_response=answer,
        status=status,
        failure_reason=reason,
        duration_ms=duration,
        evidence_path=f"evidence/{number}.json",
    )


def _set(count: int) -> EvalTestSet:
    return EvalTestSet(
        name="shop", cases=[EvalTestCase(conversation_number=n, question=f"q{n}") for n in range(1, count + 1)]
    )


def test_the_same_answer_from_a_local_agent_is_its_own_failure_and_a_gate_fails_it():
    results = [_failed(n, FALLBACK) for n in range(1, 5)]
    # Behind Copilot Studio the fallback stands in for an agent that did not run: the platform's.
    assert "all 4 answers are the same text" in detect_runtime_limitation(results).reasons[0]
    # On the local runtime nothing answers in the agent's place: no limitation, not even from the
    # equal durations of its four failed answers.
    assert detect_runtime_limitation(results, platform_answers=False) is None
    run = summarise(_set(4), results, agent_name="shop", started=None, duration_ms=None, platform_answers=False)
    assert run.runtime_limitation is None
    assert run_verdict(run, Gates(fail_under=50)).row is BELOW_GATE
    platform_run = summarise(_set(4), results, agent_name="shop", started=None, duration_ms=None)
    assert run_verdict(platform_run, Gates(fail_under=50)).row is PLATFORM


def test_execution_errors_of_a_local_agent_still_measure_the_platform():
    results = [_failed(n, None, reason="HTTP 500 from the model") for n in range(1, 4)]
    found = detect_runtime_limitation(results, platform_answers=False)
    assert found is not None and "3 of 3 cases ended in execution errors" in found.reasons[0]


def test_an_mcp_server_that_does_not_start_is_the_agents_configuration():
    results = [_failed(n, None, reason=MCP_DOWN) for n in range(1, 4)]
    assert detect_runtime_limitation(results, platform_answers=False) is None
    assert detect_runtime_limitation(results) is None
    run = summarise(_set(3), results, agent_name="shop", started=None, duration_ms=None, platform_answers=False)
    assert run.runtime_limitation is None and run.errored == 3


def test_saved_evidence_tells_a_local_run_from_a_platform_one(tmp_path):
    assert played_by_platform([CopilotResult(success=True)]) is False
    assert played_by_platform([]) is True  # nothing to tell: a platform is not ruled out
    local, studio, broken = tmp_path / "local.json", tmp_path / "studio.json", tmp_path / "broken.json"
    local.write_text(json.dumps({"success": True}))
    studio.write_text(json.dumps({"kind": "copilot-studio-target"}))
    broken.write_text("{")
    assert saved_by_platform([broken, local]) is False
    assert saved_by_platform([studio]) is True
    assert saved_by_platform([broken]) is True


def test_a_pytest_sessions_test_set_items_on_the_local_runtime_record_no_limitation(tmp_path):
    from types import SimpleNamespace

    from copilot_eval.pytest_history import HistoryRecorder

    results = [_failed(n, FALLBACK) for n in range(1, 4)]
    records = {}
    for platform in (True, False):
        recorder = HistoryRecorder(SimpleNamespace(rootpath=tmp_path, getoption=lambda *a, **k: None), None)
        recorder.add_case_results("shop.csv::case", _set(3), results, agent_name="shop", platform_answers=platform)
        [records[platform]] = recorder._set_records()
    assert records[True].runtime_limitation is not None  # a Copilot Studio agent's same answers
    assert records[False].runtime_limitation is None  # a local agent's own
