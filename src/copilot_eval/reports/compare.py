"""Run versus run: which cases improved, regressed, stayed, changed, appeared or disappeared.

Cases are matched by conversation number and turn, or, when every case of both runs has the
platform's test case id (runs of Copilot Studio's evaluation API), by that id. Each move is read
through the one rule ``evalsets.status_change`` that ``run --baseline`` and ``gate`` use too: ``fail``
to ``pass`` is an improvement and ``pass`` to ``fail`` a regression; a case not graded now
(``error``, ``unknown``) is listed apart as *error*, neither a regression nor a pass, whatever it
was before (an error is never an agent failure); a case graded now that had no grade before is
*changed*: a status change a reviewer must see that says nothing about the agent getting better or worse.

When either run played its cases more than once, each case is compared over its tries, never
try by try as if the tries were separate cases: its status is its verdict at the run's minimum
pass rate (or, without one, pass when every graded try passed), and the two pass rates get a
per-case two-sided Fisher exact test (``p_value``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from copilot_eval.evalsets.quality_parts import QUALITY_PARTS, general_quality_grade, quality_parts
from copilot_eval.evalsets.repeat_stats import CaseRepeats, case_repeats, fisher_exact
from copilot_eval.evalsets.run_model import CaseStatus, EvalCaseResult, EvalRun
from copilot_eval.evalsets.status_change import status_change
from copilot_eval.reports.findings import ScanFiles

SIGNIFICANT = 0.05
"""A per-case p-value below this marks the change of its pass rate as significant."""

KINDS: tuple[str, ...] = ("regressed", "error", "improved", "changed", "new", "removed", "unchanged")
"""Every kind of case change, most urgent first (the order reports list them in)."""

FOLDED: dict[str, str] = {"failing": "unchanged", "ungraded_then": "changed"}
"""The rule's kinds a comparison folds into its own words: still failing is unchanged, graded only now is changed."""


def _scores(result: EvalCaseResult | None) -> dict[str, float]:
    if result is None:
        return {}
    return {grade.method: grade.score for grade in result.grades if grade.score is not None}


def _parts(result: EvalCaseResult | None) -> dict[str, str]:
    """General quality's parts of a result (ours or the platform's), empty without them."""
    grade = general_quality_grade(result.grades) if result is not None else None
    return quality_parts(grade) if grade is not None else {}


@dataclass(frozen=True)
class CaseChange:
    """One case (and repeat) in the baseline and the candidate run."""

    conversation_number: int
    repeat_index: int
    before: CaseStatus | None
    after: CaseStatus | None
    turn: int = 1
    question: str | None = None
    before_scores: dict[str, float] = field(default_factory=dict)
    after_scores: dict[str, float] = field(default_factory=dict)
    after_reason: str | None = None
    before_tries: CaseRepeats | None = None  # set when the runs were repeated: the case over its tries
    after_tries: CaseRepeats | None = None
    # General quality's parts on each side (relevance: Yes ...), to set a local run beside a platform run
    before_parts: dict[str, str] = field(default_factory=dict)
    after_parts: dict[str, str] = field(default_factory=dict)

    @property
    def part_changes(self) -> dict[str, tuple[str, str]]:
        """The General quality parts both sides judged differently: part -> (before, after)."""
        return {
            part: (self.before_parts[part], self.after_parts[part])
            for part in QUALITY_PARTS
            if part in self.before_parts
            and part in self.after_parts
            and self.before_parts[part] != self.after_parts[part]
        }

    @property
    def p_value(self) -> float | None:
        """Two-sided Fisher exact p-value that the case passes at the same rate in both runs (repeated runs)."""
        if self.before_tries is None or self.after_tries is None:
            return None
        before, after = self.before_tries, self.after_tries
        return fisher_exact(before.passes, before.graded, after.passes, after.graded)

    @property
    def significant(self) -> bool:
        """The pass rate moved more than chance over these tries would (p below 0.05)."""
        return self.p_value is not None and self.p_value < SIGNIFICANT

    @property
    def rates(self) -> str | None:
        """``8/10 -> 3/10 (p=0.023)`` for a repeated case; ``None`` otherwise."""
        if self.before_tries is None and self.after_tries is None:
            return None
        shown = [f"{t.passes}/{t.graded}" if t is not None else "-" for t in (self.before_tries, self.after_tries)]
        p = self.p_value
        return f"{shown[0]} -> {shown[1]}" + ("" if p is None else f" (p={p:.3g})")

    @property
    def kind(self) -> str:
        """regressed, error (not graded now), improved, changed (graded only now), unchanged, new or removed."""
        kind = status_change(self.before, self.after)
        return FOLDED.get(kind, kind)

    @property
    def score_deltas(self) -> dict[str, float]:
        """Per grader scoring in both runs: candidate score minus baseline score."""
        return {
            method: round(self.after_scores[method] - score, 4)
            for method, score in self.before_scores.items()
            if method in self.after_scores
        }

    @property
    def label(self) -> str:
        """``case N``, with ``turn T`` after the first turn and ``rK`` for later repeats."""
        turn = f" turn {self.turn}" if self.turn > 1 else ""
        return f"case {self.conversation_number}{turn}" + (f" r{self.repeat_index}" if self.repeat_index else "")


@dataclass(frozen=True)
class FindingChanges:
    """The transcript scanners' findings that appeared or vanished, over the scanners that ran on both runs."""

    scanners: tuple[str, ...]
    appeared: tuple[tuple[str, str], ...] = ()
    vanished: tuple[tuple[str, str], ...] = ()

    @classmethod
    def between(cls, before: ScanFiles, after: ScanFiles) -> FindingChanges | None:
        """The change from ``before`` to ``after`` as ``(scanner, case)`` pairs; None unless both were scanned."""
        both = tuple(name for name in after.scanners if name in before.scanners)
        if not both:
            return None
        old = {key for key in before.pairs() if key[0] in both}
        new = {key for key in after.pairs() if key[0] in both}
        return cls(both, tuple(sorted(new - old)), tuple(sorted(old - new)))

    def line(self) -> str:
        """``findings: 2 appeared (loop: 1.1; refusal: 3.1), 1 vanished (platform_error: 2.1)``."""

        def shown(pairs: tuple[tuple[str, str], ...]) -> str:
            listed = "; ".join(f"{scanner}: {case}" for scanner, case in pairs[:10])
            return f" ({listed}{'; ...' if len(pairs) > 10 else ''})" if pairs else ""

        return (
            f"findings: {len(self.appeared)} appeared{shown(self.appeared)}, "
            f"{len(self.vanished)} vanished{shown(self.vanished)}"
        )


@dataclass(frozen=True)
class RunComparison:
    """A baseline run, a candidate run, and the change of every case between them (and of their findings)."""

    baseline: EvalRun
    candidate: EvalRun
    changes: list[CaseChange]
    findings: FindingChanges | None = None

    @property
    def score_delta(self) -> float | None:
        """Candidate score minus baseline score, in percentage points (each over its graded cases);
        ``None`` when either run has no score because nothing in it could be graded."""
        if not (self.candidate.graded and self.baseline.graded):
            return None
        return round(self.candidate.general_quality_percent - self.baseline.general_quality_percent, 2)

    def of_kind(self, kind: str) -> list[CaseChange]:
        """The changes of one kind, in case order."""
        return [change for change in self.changes if change.kind == kind]

    def counts(self) -> dict[str, int]:
        """How many cases of each kind, every kind present (zero when none)."""
        return {kind: len(self.of_kind(kind)) for kind in KINDS}

    def part_agreement(self) -> dict[str, tuple[int, int]]:
        """Per General quality part: (cases where both runs say the same, cases where both have it).

        Only parts both sides have are counted, "NA" included: the platform's NA beside our Yes is a
        difference a reader must see. Empty when the runs do not both carry the parts.
        """
        agreement = {}
        for part in QUALITY_PARTS:
            both = [c for c in self.changes if part in c.before_parts and part in c.after_parts]
            if both:
                same = sum(c.before_parts[part] == c.after_parts[part] for c in both)
                agreement[part] = (same, len(both))
        return agreement


def _all_have_case_ids(*runs: EvalRun) -> bool:
    return all(run.results and all(r.case_id for r in run.results) for run in runs)


def _renumbered(baseline: EvalRun, candidate: EvalRun) -> dict[tuple[int, int, int], EvalCaseResult]:
    """The baseline keyed by the candidate's numbers for the same platform case ids (a removed case keeps its own)."""
    number_of = {r.case_id: (r.conversation_number, r.turn or 1) for r in candidate.results or []}
    taken = set(number_of.values())
    keyed = {}
    for r in baseline.results or []:
        number, turn = number_of.get(r.case_id, (r.conversation_number, r.turn or 1))
        if r.case_id not in number_of and (number, turn) in taken:
            number = max(n for n, _ in taken) + 1 + r.conversation_number  # out of the way of the candidate's
        keyed[(number, turn, r.repeat_index or 0)] = r
    return keyed


def _over_tries(stats: CaseRepeats | None, min_pass_rate: float | None) -> CaseStatus | None:
    if stats is None:
        return None
    if min_pass_rate is not None:
        return stats.verdict(min_pass_rate)
    if stats.graded == 0:
        return CaseStatus.ERROR
    return CaseStatus.PASS if stats.passes == stats.graded else CaseStatus.FAIL


def _mean_scores(results: list[EvalCaseResult]) -> dict[str, float]:
    scores: dict[str, list[float]] = {}
    for result in results:
        for method, score in _scores(result).items():
            scores.setdefault(method, []).append(score)
    return {method: round(sum(values) / len(values), 4) for method, values in scores.items()}


def _grouped(keyed: dict[tuple[int, int, int], EvalCaseResult]) -> dict[tuple[int, int], list[EvalCaseResult]]:
    groups: dict[tuple[int, int], list[EvalCaseResult]] = {}
    for (number, turn, _), result in sorted(keyed.items()):
        groups.setdefault((number, turn), []).append(result)
    return groups


def _compare_over_tries(
    baseline: EvalRun,
    candidate: EvalRun,
    keyed: tuple[dict[tuple[int, int, int], EvalCaseResult], dict[tuple[int, int, int], EvalCaseResult]],
    questions: dict[tuple[int, int], str] | None,
) -> list[CaseChange]:
    """One change per case, each side the case over its tries (never one change per try)."""
    before, after = _grouped(keyed[0]), _grouped(keyed[1])
    changes = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key, []), after.get(key, [])
        old_tries = case_repeats(old)[0] if old else None
        new_tries = case_repeats(new)[0] if new else None
        changes.append(
            CaseChange(
                conversation_number=key[0],
                turn=key[1],
                repeat_index=0,
                before=_over_tries(old_tries, baseline.min_pass_rate),
                after=_over_tries(new_tries, candidate.min_pass_rate),
                question=(questions or {}).get(key),
                before_scores=_mean_scores(old),
                after_scores=_mean_scores(new),
                after_reason=next((r.failure_reason for r in new if r.failure_reason), None),
                before_tries=old_tries,
                after_tries=new_tries,
            )
        )
    return changes


def compare_runs(
    baseline: EvalRun, candidate: EvalRun, *, questions: dict[tuple[int, int], str] | None = None
) -> RunComparison:
    """Match the cases of two runs and classify each change; ``questions`` names cases by (number, turn)."""

    def keyed(run: EvalRun) -> dict[tuple[int, int, int], EvalCaseResult]:
        return {(r.conversation_number, r.turn or 1, r.repeat_index or 0): r for r in run.results or []}

    before, after = keyed(baseline), keyed(candidate)
    if _all_have_case_ids(baseline, candidate):
        before = _renumbered(baseline, candidate)
    if any(r.repeat_index for run in (baseline, candidate) for r in run.results or []):
        return RunComparison(baseline, candidate, _compare_over_tries(baseline, candidate, (before, after), questions))
    changes = []
    for key in sorted(set(before) | set(after)):
        old, new = before.get(key), after.get(key)
        changes.append(
            CaseChange(
                conversation_number=key[0],
                turn=key[1],
                repeat_index=key[2],
                before=old.effective_status if old else None,
                after=new.effective_status if new else None,
                question=(questions or {}).get((key[0], key[1])),
                before_scores=_scores(old),
                after_scores=_scores(new),
                after_reason=new.failure_reason if new else None,
                before_parts=_parts(old),
                after_parts=_parts(new),
            )
        )
    return RunComparison(baseline=baseline, candidate=candidate, changes=changes)


__all__ = ["KINDS", "SIGNIFICANT", "CaseChange", "FindingChanges", "RunComparison", "compare_runs"]
