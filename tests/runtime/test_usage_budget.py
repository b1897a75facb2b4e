"""The per-case token and premium-request budget, counted report by report (no runtime needed)."""

from __future__ import annotations

from copilot_eval.evidence import UsageEntry
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.requests.usage_budget import UsageBudget


def _call(inp: int | None, out: int | None, premium: float | None = 0.0, **kw: object) -> UsageEntry:
    return UsageEntry(input_tokens=inp, output_tokens=out, premium_requests=premium, **kw)


def test_the_report_that_crosses_max_tokens_stops_the_run_and_the_limit_itself_does_not() -> None:
    control = RunControl(budget=UsageBudget(max_tokens=100))
    control.count_usage(_call(60, 40))
    assert control.stop_reason is None, "exactly at the limit is within it"
    control.count_usage(_call(1, 0))
    assert control.stop_reason == "usage_budget_exceeded"
    assert (
        control.stop_message
        == "usage budget exceeded: max_tokens=100, used 101 tokens (input plus output over 2 model calls)"
    )


def test_premium_requests_are_summed_and_a_compaction_counts_its_requests() -> None:
    control = RunControl(budget=UsageBudget(max_premium_requests=1))
    control.count_usage(_call(10, 10, 1.0))
    control.count_usage(_call(10, 10, None, purpose="compaction", request_count=2))
    assert control.stop_reason is None
    assert control.budget.calls == 3 and control.budget.notes() == [
        "max_premium_requests=1 could not be enforced: 1 of 3 model calls reported no premium requests, so the "
        "1 counted are a lower bound"
    ]
    control.count_usage(_call(10, 10, 0.5))
    assert (
        control.stop_message
        == "usage budget exceeded: max_premium_requests=1, used 1.5 premium requests over 4 model calls"
    )


def test_unknown_counts_are_never_zero_but_a_known_lower_bound_still_proves_a_crossing() -> None:
    budget = UsageBudget(max_tokens=50)
    assert budget.add(_call(None, None)) is None
    assert budget.notes() and "1 of 1 model calls reported no token counts" in budget.notes()[0]
    assert budget.add(_call(40, 20)) is not None, "60 known tokens are past 50 whatever the unknown call spent"
    assert budget.notes() == [], "a crossing was proven: nothing left unenforced"


def test_without_limits_nothing_is_counted() -> None:
    control = RunControl()
    control.count_usage(_call(10**9, 10**9, 10**6))
    assert control.stop_reason is None and control.budget.calls == 0
