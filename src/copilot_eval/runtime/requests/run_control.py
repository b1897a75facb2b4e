"""Shared state of one run: how the runner, the tool guard and the tool budget talk to each other.

A stop (``stopped``) and the end of the run (``ended``) are different moments: when the tool
budget refuses a call, the calls it already admitted keep running until they return or the run's
deadline passes; only then does the run end and abandon what is still running. It lives beside
the request chain, whose stop gate and audit read and set it, so the chain never imports the
session that owns it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from copilot_eval.evidence import UsageEntry
from copilot_eval.evidence.stop_reason import StopReason
from copilot_eval.evidence.tool_call import ToolException
from copilot_eval.runtime.requests.usage_budget import UsageBudget


@dataclass
class RunControl:
    """What a run's callbacks learn while it executes, and the signal that ends it early."""

    max_tool_calls: int | None = None
    tool_calls_admitted: int = 0
    tool_exceptions: dict[str, ToolException] = field(default_factory=dict)  # what Python handlers raised
    tool_results: dict[str, tuple[str, str, str | None]] = field(default_factory=dict)  # type, text, error
    abandoned_call_ids: list[str] = field(default_factory=list)
    refused_tools: list[str] = field(default_factory=list)
    stop_reason: StopReason | None = None
    stop_message: str | None = None
    stopped: asyncio.Event = field(default_factory=asyncio.Event)  # a stop was asked for
    ended: asyncio.Event = field(default_factory=asyncio.Event)  # the run is over: handlers still running are abandoned
    handlers_running: int = 0  # Python tool handlers admitted and not yet returned
    budget: UsageBudget = field(default_factory=UsageBudget)  # tokens and premium requests against their limits
    refused_model_calls: int = 0  # model calls the stop gate refused after the stop

    def request_stop(self, reason: StopReason, message: str) -> None:
        """Ask the runner to end the run; the first reason wins."""
        if self.stop_reason is None:
            self.stop_reason = reason
            self.stop_message = message
        self.stopped.set()

    def end(self) -> None:
        """The run is over: whatever handler is still running is given up on."""
        self.stopped.set()
        self.ended.set()

    def admit_tool_call(self, tool_name: str) -> bool:
        """Count a call against the tool budget; False (and a stop) once the budget is spent."""
        if self.max_tool_calls is not None and self.tool_calls_admitted >= self.max_tool_calls:
            self.refused_tools.append(tool_name)
            self.request_stop(
                "tool_budget_exceeded",
                f"tool budget exceeded: max_tool_calls={self.max_tool_calls}, refused a call of {tool_name!r}",
            )
            return False
        self.tool_calls_admitted += 1
        return True

    def count_usage(self, entry: UsageEntry) -> None:
        """Count one usage report against the budget; the report that crosses a limit stops the run."""
        if not self.budget.active:
            return
        crossed = self.budget.add(entry)
        if crossed is not None:
            self.request_stop("usage_budget_exceeded", crossed)
