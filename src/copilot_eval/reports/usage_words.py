"""What a run spent, in words the reports share: the agent's sessions, the judges' share, the run budget.

Unknown is never shown as 0: a total that some session (or judged answer) did not report is a
lower bound and says so ("at least"), and a case whose session reported nothing shows "unknown".
"""

from __future__ import annotations

from copilot_eval.evalsets.run_model import EvalCaseResult, EvalRun, SpentUsage


def _amount(value: float, unknown: int) -> str:
    if unknown and not value:
        return f"unknown ({unknown} reported none)"
    shown = f"{value:,}" if isinstance(value, int) else f"{value:,.4g}"
    return f"at least {shown} ({unknown} unknown)" if unknown else shown


def spent_text(spent: SpentUsage) -> str:
    """``1,234 tokens, 0 premium requests, at least 0 AI credits (3 unknown)``."""
    return (
        f"{_amount(spent.tokens, spent.tokens_unknown)} tokens, "
        f"{_amount(spent.premium_requests, spent.premium_requests_unknown)} premium requests, "
        f"{_amount(spent.ai_credits, spent.ai_credits_unknown)} AI credits"
    )


def _share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f} %" if whole else "n/a"


def usage_lines(run: EvalRun) -> list[str]:
    """The run's spending, one line each: the agent's, the judges' with their share of the tokens, the budget."""
    usage = run.usage
    if usage is None:
        return []
    lines = [f"spent by the agent's sessions: {spent_text(usage.agent)}"]
    judges = usage.judges
    if judges.tokens or judges.tokens_unknown or judges.premium_requests:
        whole = usage.agent.tokens + judges.tokens
        lines.append(
            f"spent by the judges: {spent_text(judges)}; the judges' share of the tokens {_share(judges.tokens, whole)}"
        )
    if usage.budget_reached:
        lines.append(f"{usage.budget_reached}: {run.not_run or 0} cases not run")
    lines.extend(usage.unenforceable)
    return lines


def case_usage_text(result: EvalCaseResult) -> str:
    """``812 tokens, 0 premium requests, AI credits unknown`` for the session of one case."""

    def part(value: float | None, what: str) -> str:
        if value is None:
            return f"{what} unknown"
        return f"{value:,} {what}" if isinstance(value, int) else f"{value:,.4g} {what}"

    return ", ".join(
        (
            part(result.tokens, "tokens"),
            part(result.premium_requests, "premium requests"),
            part(result.ai_credits, "AI credits"),
        )
    )


__all__ = ["case_usage_text", "spent_text", "usage_lines"]
