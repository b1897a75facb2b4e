"""Rate limits through the real runtime: a refused case is played again later, never graded twice."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from copilot_eval import run_copilot
from copilot_eval.agent.config import CopilotEval
from copilot_eval.grading import ExactMatch
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import numbered_set
from tests.scale.quota_model import QuotaModel

pytestmark = pytest.mark.runtime


def _echo() -> ScriptedModel:
    return ScriptedModel.from_dict({"rules": [{"turns": [{"text": "answer to: {prompt}"}]}]})


def _checkpoint_units(folder) -> list[str]:
    lines = (folder / "checkpoint.jsonl").read_text(encoding="utf-8").splitlines()[1:]
    return [json.loads(line)["unit"] for line in lines]


async def test_a_model_that_refuses_for_a_while_slows_the_run_down_and_every_case_is_graded_once(tmp_path):
    # Four sessions at once, each retried five times by the runtime itself: 24 refusals outlast the
    # runtime's own retries for the first wave, then the model answers again.
    quota = QuotaModel(_echo(), refusals=24, retry_after="1")
    agent = CopilotEval(name="quota", timeout_s=60, model=quota)
    run = await run_eval_set(
        numbered_set(6), agent, RunSettings.of(graders=[ExactMatch()], concurrency=4, out=tmp_path)
    )

    assert (run.passed, run.failed, run.errored) == (6, 0, 0)
    assert sorted(r.conversation_number for r in run.results) == [1, 2, 3, 4, 5, 6]
    assert sorted(Counter(_checkpoint_units(tmp_path)).values()) == [1] * 6  # graded once each
    execution = json.loads((tmp_path / "run.json").read_text())["execution"]
    limits = [change["limit"] for change in execution["concurrencyHistory"]]
    assert limits[0] == 4 and min(limits) <= 2  # halved on the rate limit
    assert any(c["cause"] == "rate limit" for c in execution["concurrencyHistory"])
    retried = [r for r in execution["retries"] if r["cause"] == "rate_limit"]
    assert retried and all(r["waitS"] >= 1 for r in retried)  # Retry-After: 1 honoured as a floor
    assert all("HTTP 429" in r["detail"] and not r.get("givenUp") for r in retried)
    assert quota.refused == 24


async def test_a_503_with_retry_after_is_a_rate_limit_too_and_the_case_is_played_again(tmp_path):
    limited = CopilotEval(name="busy", timeout_s=60, model=QuotaModel(_echo(), refusals=6, status=503, retry_after="1"))
    run = await run_eval_set(
        numbered_set(1), limited, RunSettings.of(graders=[ExactMatch()], concurrency=1, out=tmp_path)
    )
    assert run.passed == 1
    assert [r["cause"] for r in run.execution.model_dump(by_alias=True)["retries"]] == ["rate_limit"]


async def test_a_timeout_while_the_runtime_still_retries_a_429_is_a_rate_limit_not_a_plain_timeout():
    # Retry-After 30: the runtime waits that long before its next try, so the run's deadline comes first.
    quota = QuotaModel(_echo(), refusals=100, retry_after="30")
    result = await run_copilot(CopilotEval(name="quota", timeout_s=8, model=quota), "hello")
    assert result.stop_reason == "timeout" and not result.success
    assert result.rate_limit is not None, result.error
    assert (result.rate_limit.status, result.rate_limit.retry_after_s) == (429, 30.0)
    assert "HTTP 429: over quota, slow down" in result.error and quota.refused >= 1


async def slow_lookup(account: str) -> str:
    """Look an account up (slower than any run's deadline)."""
    await asyncio.sleep(120)
    return account


async def test_a_timeout_after_a_refusal_the_runtime_got_past_is_a_plain_timeout():
    # Refused once, answered on the runtime's retry, then a tool outlasts the deadline: the model
    # was not refusing when the run timed out.
    script = {"rules": [{"turns": [{"tool_calls": [{"name": "slow_lookup", "arguments": {"account": "A-7"}}]}]}]}
    quota = QuotaModel(ScriptedModel.from_dict(script), refusals=1, retry_after="1")
    agent = CopilotEval(name="slow", timeout_s=8, model=quota, tools=(slow_lookup,))
    result = await run_copilot(agent, "look up A-7")
    assert result.stop_reason == "timeout" and quota.refused == 1
    assert result.tool_was_called("slow_lookup")
    assert result.rate_limit is None, result.error
