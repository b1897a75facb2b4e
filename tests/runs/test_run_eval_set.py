"""run_eval_set through the real runtime with scripted agents: sets, stacking, repeats, concurrency, outputs."""

from __future__ import annotations

import json
import time

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalDataType, EvalSetError, read_run_json
from copilot_eval.grading import ExactMatch, KeywordMatch
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs import CheckpointError, flaky_cases, pass_rates, run_eval_set

from runs_helpers import echo_agent, numbered_set


async def test_single_turn_cases_each_get_a_fresh_session(tmp_path):
    run = await run_eval_set(numbered_set(3), echo_agent(), graders=[ExactMatch()], output_dir=tmp_path)
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (3, 0, 0, 100.0)
    paths = {r.evidence_path for r in run.results}
    assert len(paths) == 3  # one session (and evidence file) per case
    assert read_run_json(tmp_path / "run.json").passed == 3
    assert (tmp_path / "results.csv").read_text().startswith('"question","expectedResponse","actualResponse"')


async def test_conversation_is_one_session_graded_turn_by_turn(tmp_path):
    # The model's answer names the prompt it answers and how many came before: turn order is visible.
    agent = CopilotEval(name="conv", timeout_s=30, model=ScriptedModel.from_dict({"rules": [
        {"when": {"prompt_contains": "q2"}, "turns": [{"text": "wrong"}]},
        {"turns": [{"text": "answer to: {prompt}"}]}]}))
    test_set = numbered_set(3, EvalDataType.CONVERSATION)
    run = await run_eval_set(test_set, agent, graders=[ExactMatch()], output_dir=tmp_path)
    assert [r.effective_status for r in run.results] == [CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.PASS]
    assert [r.actual_response for r in run.results] == ["answer to: q1", "wrong", "answer to: q3"]
    assert len({r.evidence_path for r in run.results}) == 1
    from copilot_eval.evidence.result import CopilotResult
    evidence = CopilotResult.load(run.results[0].evidence_path)
    assert [t.content for t in evidence.turns if t.role == "user"] == ["q1", "q2", "q3"]


async def test_stacked_graders_all_must_pass():
    run = await run_eval_set(numbered_set(2), echo_agent(),
                             graders=[ExactMatch(), KeywordMatch(["q1"])])
    by_number = {r.conversation_number: r for r in run.results}
    assert by_number[1].effective_status is CaseStatus.PASS
    assert by_number[2].effective_status is CaseStatus.FAIL and "Keyword match" in by_number[2].failure_reason
    assert len(by_number[2].grades) == 2


async def test_repeats_give_pass_at_k_pass_all_k_and_flaky_cases():
    # The second attempt at q2 (same rule, a later session) cannot be told apart by the script, so
    # flakiness is made from a grader that alternates, the way a non-deterministic judge would.
    class Alternating:
        name = "alternating"

        def __init__(self):
            self.calls = {}

        async def grade(self, case, evidence):
            from copilot_eval.grading import Grade
            n = self.calls[case.conversation_number] = self.calls.get(case.conversation_number, 0) + 1
            ok = case.conversation_number == 1 or n % 2 == 0
            return Grade(self.name, CaseStatus.PASS if ok else CaseStatus.FAIL, "alternates")

    run = await run_eval_set(numbered_set(2), echo_agent(), graders=[Alternating()], repeat=2, concurrency=1)
    assert len(run.results) == 4 and {r.repeat_index for r in run.results} == {0, 1}
    assert flaky_cases(run) == [2]
    assert pass_rates(run) == (100.0, 50.0)


async def test_concurrency_runs_sessions_in_parallel():
    slow = echo_agent(delay_s=1.0)
    started = time.monotonic()
    run = await run_eval_set(numbered_set(6), slow, graders=[ExactMatch()], concurrency=6)
    elapsed = time.monotonic() - started
    assert run.passed == 6
    assert elapsed < 4.5, f"6 one-second cases at concurrency 6 took {elapsed:.1f} s"


async def test_invalid_set_and_foreign_checkpoint_are_refused(tmp_path):
    broken = numbered_set(2).model_copy(update={"cases": []})
    with pytest.raises(EvalSetError):
        await run_eval_set(broken, echo_agent())
    await run_eval_set(numbered_set(1), echo_agent(), output_dir=tmp_path)
    with pytest.raises(CheckpointError, match="--resume"):
        await run_eval_set(numbered_set(1), echo_agent(), output_dir=tmp_path)
    with pytest.raises(CheckpointError, match="different run"):
        await run_eval_set(numbered_set(2), echo_agent(), output_dir=tmp_path, resume=True)


async def test_checkpoint_lines_are_whole_units(tmp_path):
    await run_eval_set(numbered_set(3, EvalDataType.CONVERSATION), echo_agent(), output_dir=tmp_path)
    lines = [json.loads(line) for line in (tmp_path / "checkpoint.jsonl").read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["header", "unit"]
    assert len(lines[1]["results"]) == 3
