"""A run's token and premium-request budget, counted from the runtime's own usage reports.

Every model call the runtime makes (the conversation's, a subagent's, a compaction's) is reported
as usage; each report is counted as it arrives, and the call that takes the session past
``max_tokens`` (input plus output) or ``max_premium_requests`` asks for the stop. From then on
the stop gate refuses every further model request, so the agent spends at most that one call past
its budget. A report without counts leaves the used amount unknown: what was counted is then a
lower bound, which still proves a crossing, but a budget that was not crossed by it could not be
enforced, and the run says so (``notes``) instead of taking the missing count as zero.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.evidence import UsageEntry

__all__ = ["UsageBudget"]


def _amount(value: float) -> str:
    return f"{value:g}"


@dataclass
class UsageBudget:
    """What a session has spent so far against its limits (``None``: no limit of that kind)."""

    max_tokens: int | None = None
    max_premium_requests: float | None = None
    tokens: int = 0  # counted so far; a lower bound once a call came without counts
    premium_requests: float = 0.0
    calls: int = 0
    calls_without_tokens: int = 0
    calls_without_premium_requests: int = 0

    @property
    def active(self) -> bool:
        """Whether there is a limit to enforce."""
        return self.max_tokens is not None or self.max_premium_requests is not None

    def add(self, entry: UsageEntry) -> str | None:
        """Count one usage report; the stop message when it takes the session past a limit."""
        self.calls += entry.request_count or 1
        if entry.input_tokens is None or entry.output_tokens is None:
            self.calls_without_tokens += 1
        self.tokens += (entry.input_tokens or 0) + (entry.output_tokens or 0)
        if entry.premium_requests is None:
            self.calls_without_premium_requests += 1
        else:
            self.premium_requests += entry.premium_requests
        return self.crossed()

    def crossed(self) -> str | None:
        """The stop message, when what was counted (a lower bound at worst) is past a limit."""
        if self.max_tokens is not None and self.tokens > self.max_tokens:
            return (
                f"usage budget exceeded: max_tokens={self.max_tokens}, used {self.tokens} tokens "
                f"(input plus output over {self.calls} model calls)"
            )
        if self.max_premium_requests is not None and self.premium_requests > self.max_premium_requests:
            return (
                f"usage budget exceeded: max_premium_requests={_amount(self.max_premium_requests)}, "
                f"used {_amount(self.premium_requests)} premium requests over {self.calls} model calls"
            )
        return None

    def notes(self) -> list[str]:
        """Warnings for a limit that could not be enforced because the runtime left counts out."""
        notes = []
        if self.max_tokens is not None and self.calls_without_tokens and self.tokens <= self.max_tokens:
            notes.append(
                f"max_tokens={self.max_tokens} could not be enforced: {self.calls_without_tokens} of "
                f"{self.calls} model calls reported no token counts, so the {self.tokens} tokens counted "
                "are a lower bound"
            )
        if (
            self.max_premium_requests is not None
            and self.calls_without_premium_requests
            and self.premium_requests <= self.max_premium_requests
        ):
            notes.append(
                f"max_premium_requests={_amount(self.max_premium_requests)} could not be enforced: "
                f"{self.calls_without_premium_requests} of {self.calls} model calls reported no premium "
                f"requests, so the {_amount(self.premium_requests)} counted are a lower bound"
            )
        return notes
