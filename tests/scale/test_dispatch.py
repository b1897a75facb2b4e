"""The dispatch behind every executor: retries, per-worker concurrency, lost workers, exactly-once grading."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from copilot_eval.evalsets import CaseStatus, read_run_json
from copilot_eval.grading import ExactMatch
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.executor import AllWorkersLost, WorkerLost
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import numbered_set
from tests.scale.fake_executor import FakeExecutor, FakeWorker, answered, lost_on, rate_limited


def _units(folder) -> Counter[str]:
    lines = (folder / "checkpoint.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return Counter(json.loads(line)["unit"] for line in lines)


async def _run(test_set, executor, folder, **settings):
    return await run_eval_set(
        test_set, object(), RunSettings.of(graders=[ExactMatch()], out=folder, **settings), executor=executor
    )


async def test_each_worker_adapts_its_own_concurrency(tmp_path):
    # Worker a is refused on its first play, b never is: only a's limit falls, then rises again.
    refused_once = lambda unit, play: rate_limited(unit) if play == 1 else answered(unit)  # noqa: E731
    a, b = FakeWorker("a", refused_once), FakeWorker("b", lambda unit, play: answered(unit))
    run = await _run(numbered_set(12), FakeExecutor(a, b), tmp_path, concurrency=4)
    assert run.passed == 12 and sorted(_units(tmp_path).values()) == [1] * 12
    history = run.execution.concurrency_history
    assert [(c.limit, c.cause) for c in history if c.worker == "a"][:2] == [(4, "start"), (2, "rate limit")]
    assert not any(c.worker == "b" and c.cause == "rate limit" for c in history)
    assert [(r.worker, r.cause, r.attempt) for r in run.execution.retries] == [("a", "rate_limit", 1)]
    assert max(a.most_in_flight, b.most_in_flight) <= 4


async def test_the_limit_halves_on_a_rate_limit_and_comes_back_one_by_one_after_clean_windows(tmp_path):
    refused_first = lambda unit, play: rate_limited(unit) if play <= 2 else answered(unit)  # noqa: E731
    only = FakeWorker("a", refused_first)
    run = await _run(numbered_set(20), FakeExecutor(only), tmp_path, concurrency=4)
    assert run.passed == 20 and sorted(_units(tmp_path).values()) == [1] * 20
    # plays 1 and 2 started together: one signal, one halving; then +1 per window of clean cases
    assert [(c.limit, c.cause) for c in run.execution.concurrency_history] == [
        (4, "start"),
        (2, "rate limit"),
        (3, "clean cases"),
        (4, "clean cases"),
    ]
    assert only.most_in_flight <= 4


async def test_still_rate_limited_after_the_retries_is_an_error_with_that_reason(tmp_path):
    always = FakeWorker("a", lambda unit, play: rate_limited(unit, retry_after_s=0.0))
    run = await _run(numbered_set(1), FakeExecutor(always), tmp_path, concurrency=1, rate_limit_retries=1)
    result = run.results[0]
    assert result.effective_status is CaseStatus.ERROR and run.failed == 0  # not the agent's failure
    assert result.failure_reason.startswith("rate limited: the model still refused after 2 plays (HTTP 429")
    assert [(r.attempt, r.given_up) for r in run.execution.retries] == [(1, False), (2, True)]
    assert always.played == ["case1#0", "case1#0"]
    assert read_run_json(tmp_path / "run.json").results[0].failure_reason == result.failure_reason


async def test_a_lost_worker_hands_its_unfinished_units_to_the_others_and_none_is_graded_twice(tmp_path):
    a = FakeWorker("a", lost_on({3, 4}), delay_s=0.05)  # its node leaves on its third play
    b = FakeWorker("b", lambda unit, play: answered(unit), delay_s=0.05)
    run = await _run(numbered_set(10), FakeExecutor(a, b), tmp_path, concurrency=2)
    assert run.passed == 10 and sorted(_units(tmp_path).values()) == [1] * 10
    lost = [r for r in run.execution.retries if r.cause == "infrastructure"]
    assert {r.worker for r in lost} == {"a"} and all(not r.given_up for r in lost)
    # a's third and fourth plays were in flight together when its node left; b played both, and a took no more
    assert len(a.played) == 4 and set(a.played[2:]) <= set(b.played)
    assert [c.limit for c in run.execution.concurrency_history if c.worker == "a"][-1] == 0


async def test_a_unit_that_keeps_losing_its_worker_is_an_error_after_the_bounded_attempts(tmp_path):
    def broken_pipe(unit, play):
        raise WorkerLost("pipe broke", dead=False)

    flaky = FakeWorker("a", broken_pipe)
    run = await _run(numbered_set(1), FakeExecutor(flaky), tmp_path, concurrency=1)
    assert run.results[0].effective_status is CaseStatus.ERROR
    assert "infrastructure fault" in run.results[0].failure_reason and "3 times" in run.results[0].failure_reason
    assert len(flaky.played) == 3


async def test_every_worker_lost_stops_the_run_keeping_what_finished_for_resume(tmp_path):
    only = FakeWorker("a", lost_on({4, 5, 6, 7, 8}))
    with pytest.raises(AllWorkersLost, match="every worker was lost"):
        await _run(numbered_set(6), FakeExecutor(only), tmp_path, concurrency=1)
    kept = read_run_json(tmp_path / "run.json")
    assert kept.passed == 3 and "every worker was lost" in kept.note and "--resume" in kept.note
    fresh = FakeWorker("b", lambda unit, play: answered(unit))
    run = await _run(numbered_set(6), FakeExecutor(fresh), tmp_path, concurrency=2, resume=True)
    assert run.passed == 6 and sorted(_units(tmp_path).values()) == [1] * 6
    assert sorted(fresh.played) == ["case4#0", "case5#0", "case6#0"]
