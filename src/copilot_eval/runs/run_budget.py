"""A run's budgets: what the agent's sessions and the judges may spend over the whole run, counted apart.

``--max-run-tokens`` / ``--max-run-premium-requests`` / ``--max-run-ai-credits`` cap the agent's
sessions; ``--max-judge-tokens`` / ``--max-judge-premium-requests`` / ``--max-judge-ai-credits`` cap
the LLM judges. Each delivered unit's results are added to ``RunSpending``; once a cap is reached
no new conversation starts (``reached`` says which and what was spent), those already in flight
finish, and the rest are ``not_run``. A cap is reached when what was spent is at least the cap.

Unknown usage is never taken as 0: a session (or a judged answer) that reported no count leaves
that cap unenforceable for it, which ``unenforceable`` says once per cap, with how many; what was
counted is then a lower bound, still enough to prove a cap reached. The caps themselves (``RunBudget``)
are the budgets group of ``runs.settings``. Pure: no I/O, no runtime.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, RunUsage, SpentUsage
from copilot_eval.runs.settings import MEASURES, SIDES, RunBudget, option_name


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _judge_spent(result: EvalCaseResult) -> list[dict[str, float | None]]:
    """Each LLM judge tally of one case as {measure: amount or None}."""
    spent = []
    for grade in result.grades:
        tally = grade.judge
        if tally is None:
            continue
        tokens = (
            None
            if tally.input_tokens is None or tally.output_tokens is None
            else tally.input_tokens + tally.output_tokens
        )
        spent.append({"tokens": tokens, "premium_requests": tally.premium_requests, "ai_credits": tally.ai_credits})
    return spent


class RunSpending:
    """What a run has spent so far, the agent's sessions and the judges apart, against its budget."""

    def __init__(self, budget: RunBudget) -> None:
        self.budget = budget
        self.spent = {side: SpentUsage() for side in SIDES}
        self.reason: str | None = None

    def add_session(self, spent: dict[str, Any]) -> None:
        """Count one session the agent played, as soon as it is over: {measure: amount or None}."""
        self._count("run", [{m: spent.get(m) for m in MEASURES}])

    def add_judges(self, results: Sequence[EvalCaseResult]) -> None:
        """Count the LLM judges' calls on one graded unit."""
        self._count("judge", [spent for result in results for spent in _judge_spent(result)])

    def add(self, results: Sequence[EvalCaseResult]) -> None:
        """Count one graded unit: its session once (every case of a conversation carries its totals), its judges."""
        if results:
            self.add_session({m: getattr(results[0], m) for m in MEASURES})
            self.add_judges(results)

    def add_all(self, units: Iterable[Sequence[EvalCaseResult]]) -> None:
        """Count units already finished (a resumed run's checkpoint)."""
        for results in units:
            self.add(results)

    def _count(self, side: str, amounts: list[dict[str, float | None]]) -> None:
        spent = self.spent[side]
        update: dict[str, float | int] = {}
        for measure in MEASURES:
            known = [a[measure] for a in amounts if a[measure] is not None]
            update[measure] = getattr(spent, measure) + sum(v for v in known if v is not None)
            update[f"{measure}_unknown"] = getattr(spent, f"{measure}_unknown") + len(amounts) - len(known)
        self.spent[side] = spent.model_copy(update=update)

    def reached(self) -> str | None:
        """The first cap that what was spent has reached, with the amount; ``None`` while every cap holds."""
        if self.reason is None:
            for side, measure, limit in self.budget.caps():
                used = getattr(self.spent[side], measure)
                if used >= limit:
                    whose = "the agent's sessions" if side == "run" else "the judges"
                    self.reason = (
                        f"run budget reached: {option_name(side, measure)} {_number(limit)}, "
                        f"{whose} spent {_number(used)} {measure.replace('_', ' ')}"
                    )
                    break
        return self.reason

    def unenforceable(self) -> list[str]:
        """One line per cap that unknown usage made unenforceable: how many reported nothing."""
        lines = []
        for side, measure, limit in self.budget.caps():
            unknown = getattr(self.spent[side], f"{measure}_unknown")
            if unknown:
                what = "sessions" if side == "run" else "judged answers"
                lines.append(
                    f"{option_name(side, measure)} {_number(limit)} could not be enforced for {unknown} {what} "
                    f"that reported no {measure.replace('_', ' ')}: the {_number(getattr(self.spent[side], measure))} "
                    "counted is a lower bound"
                )
        return lines

    def usage(self) -> RunUsage:
        """The run record's form: both sides' totals, the cap that stopped the run, the unenforceable caps."""
        return RunUsage(
            agent=self.spent["run"],
            judges=self.spent["judge"],
            budget_reached=self.reason,
            unenforceable=self.unenforceable(),
        )


def usage_of(results: Sequence[EvalCaseResult], *, budget_reached: str | None = None) -> RunUsage:
    """What finished results spent (a merged or regraded run): each session once, its judges each.

    Cases never played are left out; the cases of one conversation share their session's evidence
    (and totals), so a session is one evidence file, or one case where none was kept.
    """
    sessions: dict[Any, list[EvalCaseResult]] = {}
    for result in results:
        if result.effective_status is CaseStatus.NOT_RUN:
            continue
        key = result.evidence_path or (result.repeat_index or 0, result.conversation_number, result.turn or 1)
        sessions.setdefault(key, []).append(result)
    spending = RunSpending(RunBudget())
    spending.add_all(sessions.values())
    usage = spending.usage()
    return usage.model_copy(update={"budget_reached": budget_reached}) if budget_reached else usage


__all__ = ["MEASURES", "RunBudget", "RunSpending", "option_name", "usage_of"]
