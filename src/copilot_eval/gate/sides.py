"""The two sides a gate compares, read the same way whether a side is a run folder or a blessed baseline.

A side is one run: per case (by its stable key) the status of each try, the grader's reason, the
question, the steps the agent took and its anchor in the report; per run the score, the
fingerprints, the runtime version, tokens and premium requests. A run folder is read through the
history's reader of run folders (the same records the history stores) and its evidence; a
baseline from the history is read from the stored results and the tool sequences kept when it
was blessed, so a job that has the database but not the baseline's folder can still be gated.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from copilot_eval.history.baselines import Baseline
from copilot_eval.history.from_folder import record_from_folder
from copilot_eval.history.queries import run_results
from copilot_eval.history.records import SOURCE_RUN
from copilot_eval.history.store import HistoryStore
from copilot_eval.reports.run_folder import RunFolder
from copilot_eval.runs.target import load_played

GRADED = ("pass", "fail")


# Alike in shape only to triggers.trigger_set.TriggerSet (frozen fields with defaults): other facts.
@dataclass(frozen=True)
class CaseSide:
    """One case of one run over its tries."""

    key: str
    statuses: tuple[str, ...]
    conversation_number: int | None = None
    turn: int | None = None
    question: str | None = None
    reason: str | None = None
    steps: tuple[str, ...] | None = None  # None: the evidence shows no steps (or was not kept)
    anchor: str | None = None

    @property
    def tries(self) -> int:
        """Tries with a pass or fail verdict (errors are not tries)."""
        return sum(status in GRADED for status in self.statuses)

    @property
    def passes(self) -> int:
        """Tries that passed."""
        return self.statuses.count("pass")

    @property
    def rate(self) -> float | None:
        """Passes over tries, 0..1; None without a graded try."""
        return self.passes / self.tries if self.tries else None

    def shown(self) -> str:
        """``pass``, ``fail``, ``error`` for a single try; ``2/3`` (and ``, 1 error``) over several."""
        if len(self.statuses) == 1:
            return self.statuses[0]
        errors = len(self.statuses) - self.tries
        return f"{self.passes}/{self.tries}" + (f", {errors} error{'s' if errors != 1 else ''}" if errors else "")


@dataclass(frozen=True)
class RunSide:
    """One run as a gate reads it."""

    label: str
    test_set_name: str
    agent_name: str | None
    run_at: datetime | None
    passed: int
    failed: int
    cases: dict[str, CaseSide]
    fingerprints: dict[str, str | None] = field(default_factory=dict)
    runtime_version: str | None = None
    tokens: float | None = None
    premium_requests: float | None = None
    commit: str | None = None
    report: str | None = None

    @property
    def graded(self) -> int:
        """Cases (tries) with a pass or fail verdict."""
        return self.passed + self.failed

    @property
    def score_percent(self) -> float | None:
        """Passed over graded, percent; None when nothing was graded."""
        return round(100 * self.passed / self.graded, 2) if self.graded else None


def _total(values: Iterable[tuple[str | None, float | None]]) -> float | None:
    """A run's total over its sessions (one per evidence file): None when any session's figure is unknown."""
    per_session = dict(values)
    if not per_session or any(value is None for value in per_session.values()):
        return None
    return sum(value for value in per_session.values() if value is not None)


def _cases(rows: list[dict[str, Any]], steps: dict[str, list[str]] | None) -> dict[str, CaseSide]:
    grouped: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(rows, key=lambda r: r["repeat_index"] or 0):
        grouped.setdefault(row["key"], []).append(row)
    cases = {}
    for key, tries in grouped.items():
        first = tries[0]
        reason = next((t["reason"] for t in tries if t["status"] != "pass" and t["reason"]), None)
        found = (steps or {}).get(key)
        cases[key] = CaseSide(
            key=key,
            statuses=tuple(str(t["status"]) for t in tries),
            conversation_number=first.get("conversation_number"),
            turn=first.get("turn"),
            question=first.get("question"),
            reason=reason,
            steps=tuple(found) if found is not None else None,
            anchor=first.get("report_anchor"),
        )
    return cases


def folder_steps(folder: RunFolder) -> tuple[dict[str, list[str]], str | None]:
    """Per case key the names of the steps its first try took, and the runtime version its evidence names."""
    played: dict[str, Any] = {}
    steps: dict[str, list[str]] = {}
    version = None
    results = folder.run.results or []
    multi_turn = {r.conversation_number for r in results if (r.turn or 1) > 1}
    for result in sorted(results, key=lambda r: r.repeat_index or 0):
        path = folder.evidence_file(result.evidence_path)
        if path is None or result.key in steps:
            continue
        if str(path) not in played:
            try:
                played[str(path)] = load_played(path)
            except (OSError, ValueError):
                played[str(path)] = None
        evidence = played[str(path)]
        if evidence is None:
            continue
        version = version or getattr(evidence, "runtime_version", None)
        # A conversation of one prompt is its whole trajectory (a call no message lists still counts there).
        turn = result.turn or 1 if result.conversation_number in multi_turn else None
        taken = evidence.observed_steps(turn=turn)
        if not isinstance(taken, str):  # a string says why the steps are not visible
            steps[result.key] = [step.name or step.kind for step in taken]
    return steps, version


def folder_side(folder: RunFolder, *, label: str | None = None) -> RunSide:
    """A run folder as one side of a gate."""
    record = record_from_folder(folder, source=SOURCE_RUN)
    steps, version = folder_steps(folder)
    rows = [
        {
            "key": case.key,
            "status": case.status,
            "repeat_index": case.repeat_index,
            "conversation_number": case.conversation_number,
            "turn": case.turn,
            "question": case.question,
            "reason": case.reason,
            "report_anchor": case.report_anchor,
        }
        for case in record.cases
    ]
    return RunSide(
        label=label or str(folder.folder),
        test_set_name=record.test_set_name,
        agent_name=record.agent_name,
        run_at=record.run_at,
        passed=record.passed,
        failed=record.failed,
        cases=_cases(rows, steps),
        fingerprints=record.fingerprints,
        runtime_version=version,
        tokens=_total((c.evidence_path, c.session_tokens) for c in record.cases),
        premium_requests=_total((c.evidence_path, c.session_premium_requests) for c in record.cases),
        commit=record.provenance.commit,
        report=record.report_path,
    )


def baseline_side(store: HistoryStore, baseline: Baseline) -> RunSide:
    """A blessed baseline, read from the history alone."""
    results = run_results(store, baseline.run_id)
    rows = [{**row, "key": row["case_key"]} for row in results]
    run = baseline.run
    return RunSide(
        label=f"baseline {baseline.name}",
        test_set_name=baseline.test_set_name,
        agent_name=baseline.agent_name,
        run_at=run.get("run_at"),
        passed=int(run.get("passed") or 0),
        failed=int(run.get("failed") or 0),
        cases=_cases(rows, baseline.case_steps),
        fingerprints=baseline.fingerprints,
        runtime_version=baseline.runtime_version,
        tokens=_total((r["evidence_path"], r["session_tokens"]) for r in results),
        premium_requests=_total((r["evidence_path"], r["session_premium_requests"]) for r in results),
        commit=baseline.git_commit,
        report=run.get("report_path"),
    )


__all__ = ["GRADED", "CaseSide", "RunSide", "baseline_side", "folder_side", "folder_steps"]
