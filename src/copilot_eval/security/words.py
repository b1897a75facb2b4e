"""A suite's figures in words: one sentence for run.json's note, rows for the terminal."""

from __future__ import annotations

from copilot_eval.reports.security_figures import utility_caveat
from copilot_eval.security.rates import GroupRate, Rate, SecuritySummary

__all__ = ["caveat", "rate_text", "summary_rows", "summary_sentence"]


def rate_text(rate: Rate) -> str:
    """``3/44 = 6.8 % (95 % CI 2.3-18.2 %)``, or ``n/a (0 trials)``."""
    value, interval = rate.value, rate.interval
    if value is None or interval is None:
        return "n/a (0 trials)"
    low, high = interval
    return f"{rate.hits}/{rate.trials} = {100 * value:.1f} % (95 % CI {100 * low:.1f}-{100 * high:.1f} %)"


def caveat(summary: SecuritySummary) -> str | None:
    """Why the attack success rate says little (the agent did none of the user's tasks), or ``None``."""
    return utility_caveat(summary.utility_without_attack.hits, summary.utility_without_attack.trials)


def summary_sentence(summary: SecuritySummary) -> str:
    """The figures in one sentence, utility first, counts apart named, and the caveat of an agent that did nothing."""
    counts = summary.counts
    sentence = (
        f"utility without attack {rate_text(summary.utility_without_attack)}, "
        f"under attack {rate_text(summary.utility_under_attack)}; "
        f"attack success over delivered plays {rate_text(summary.attack_success)}; "
        f"not delivered {counts.get('not_delivered', 0)}, errors {counts.get('error', 0)} (in no rate)"
    )
    warning = caveat(summary)
    return f"{sentence}; {warning}" if warning else sentence


def _group_row(kind: str, name: str, group: GroupRate) -> tuple[str, str, str]:
    apart = []
    if group.not_delivered:
        apart.append(f"{group.not_delivered} not delivered")
    if group.errors:
        apart.append(f"{group.errors} errors")
    return (f"{kind} {name}", rate_text(group.attack_success), ", ".join(apart))


def summary_rows(summary: SecuritySummary) -> list[tuple[str, str, str]]:
    """(figure, value, plays in no rate) rows: the totals, then per vector, attack text and goal."""
    counts = summary.counts
    apart = f"{counts.get('not_delivered', 0)} not delivered, {counts.get('error', 0)} errors"
    rows = [
        ("utility without attack", rate_text(summary.utility_without_attack), f"{summary.baseline_errors} errors"),
        ("utility under attack", rate_text(summary.utility_under_attack), ""),
        ("attack success (delivered)", rate_text(summary.attack_success), apart),
    ]
    for kind, groups in (("vector", summary.by_vector), ("attack", summary.by_attack), ("goal", summary.by_goal)):
        rows += [_group_row(kind, name, group) for name, group in sorted(groups.items())]
    return rows
