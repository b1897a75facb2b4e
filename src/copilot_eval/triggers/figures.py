"""The figures of a trigger evaluation, each with the counts it comes from; plays that do not count stay apart.

Only plays whose outcome counts (``chose:<name>`` or ``chose:none``) enter a rate. Errors, setup
problems and undelivered plays are counted beside the rates, never in them: a crash is not a
miss. Per prompt: the share of its counted plays that made the expected choice, with its Wilson
interval and a verdict at the threshold. Per skill, over prompts: a prompt *took* a skill when its
share of plays choosing that skill reaches the threshold; precision, recall and F1 follow from
those counts. The confusion matrix counts plays, expected x chosen.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from copilot_eval.evalsets.repeat_stats import Z_95, wilson_interval
from copilot_eval.triggers.trigger_set import NONE, TriggerPrompt

__all__ = [
    "ANOTHER",
    "NOT_RUN",
    "PlayRecord",
    "PromptFigures",
    "SkillFigures",
    "TriggerFigures",
    "play_key",
    "sample_size_for",
    "summarise_triggers",
]

ANOTHER = "another skill"
"""The confusion matrix's column for a choice outside the set's names (a built-in skill, say)."""
NOT_RUN = "not_run"
"""The kind of a play never started: the run budget was reached first (apart from every rate, never a miss)."""
_Z_POWER_80 = 0.8416212335729143


def play_key(number: int, repeat: int) -> str:
    """The key of prompt ``number``'s try ``repeat``: its result's, its checkpoint unit's and its evidence file's stem."""
    return f"prompt{number}-r{repeat}"


@dataclass(frozen=True)
class PlayRecord:
    """One play as the figures read it: which prompt, which try, the outcome's label and chosen name."""

    number: int
    repeat: int
    expected: str
    kind: str  # chose / error / setup / undelivered / not_run
    chosen: str | None  # a name or "none" when the play counts
    reason: str
    evidence_path: str | None = None
    path: tuple[str, ...] = ()
    read_skill_files: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``chose:<name>``, ``chose:none`` or the kind of a play that does not count."""
        return f"chose:{self.chosen}" if self.chosen is not None else self.kind

    def to_dict(self) -> dict[str, Any]:
        """The play for JSON."""
        return {
            "number": self.number,
            "repeat": self.repeat,
            "expected": self.expected,
            "outcome": self.label,
            "reason": self.reason,
            "path": list(self.path),
            "readSkillFiles": list(self.read_skill_files),
            "evidence": self.evidence_path,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayRecord:
        """A play read back from ``to_dict``'s form (triggers.json); KeyError or ValueError when malformed."""
        label = str(data["outcome"])
        kind, _, chosen = label.partition(":")
        return cls(
            number=int(data["number"]),
            repeat=int(data["repeat"]),
            expected=str(data["expected"]),
            kind=kind,
            chosen=chosen if kind == "chose" else None,
            reason=str(data.get("reason") or ""),
            evidence_path=data.get("evidence"),
            path=tuple(str(p) for p in data.get("path") or ()),
            read_skill_files=tuple(str(p) for p in data.get("readSkillFiles") or ()),
        )


def _interval(hits: int, trials: int) -> list[float] | None:
    interval = wilson_interval(hits, trials)
    return list(interval) if interval is not None else None


@dataclass(frozen=True)
class PromptFigures:
    """One prompt over its plays: counted plays, how many made the expected choice, and the verdict."""

    prompt: TriggerPrompt
    hits: int
    counted: int
    apart: dict[str, int]  # error / setup / undelivered / not_run -> plays
    choices: dict[str, int]  # chosen name (or none) -> counted plays
    threshold: float

    @property
    def rate(self) -> float | None:
        """Share of counted plays that made the expected choice; None with none counted."""
        return self.hits / self.counted if self.counted else None

    @property
    def verdict(self) -> str:
        """``pass`` (rate at or over the threshold), ``fail``, or ``no verdict`` (no play counted)."""
        if self.rate is None:
            return "no verdict"
        return "pass" if self.rate >= self.threshold else "fail"

    def took(self, name: str) -> bool:
        """Whether this prompt's share of counted plays choosing ``name`` reaches the threshold."""
        return bool(self.counted) and self.choices.get(name, 0) / self.counted >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        """The prompt's figures for JSON."""
        return {
            "number": self.prompt.number,
            "prompt": self.prompt.prompt,
            "expected": self.prompt.expected,
            "tags": list(self.prompt.tags),
            "hits": self.hits,
            "counted": self.counted,
            "rate": self.rate,
            "interval": _interval(self.hits, self.counted),
            "verdict": self.verdict,
            "choices": dict(self.choices),
            "apart": dict(self.apart),
        }


@dataclass(frozen=True)
class SkillFigures:
    """One skill or custom agent over prompts: true and false positives, false negatives, and what follows."""

    name: str
    true_positives: int
    false_positives: int
    false_negatives: int

    # The same confusion-matrix arithmetic as evalsets.agreement_stats' rates, over other counts (a
    # skill's choices, not a grader against people) named as each field reads: kept apart.
    @property
    def precision(self) -> float | None:
        """TP / (TP + FP); None when no prompt took it."""
        taken = self.true_positives + self.false_positives
        return self.true_positives / taken if taken else None

    @property
    def recall(self) -> float | None:
        """TP / (TP + FN); None when no counted prompt expects it."""
        expected = self.true_positives + self.false_negatives
        return self.true_positives / expected if expected else None

    @property
    def f1(self) -> float | None:
        """The harmonic mean of precision and recall; None when either is unknown, 0 when both are 0."""
        p, r = self.precision, self.recall
        if p is None or r is None:
            return None
        return 0.0 if p + r == 0 else 2 * p * r / (p + r)

    def to_dict(self) -> dict[str, Any]:
        """The skill's figures for JSON."""
        return {
            "name": self.name,
            "tp": self.true_positives,
            "fp": self.false_positives,
            "fn": self.false_negatives,
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
        }


def sample_size_for(rate: float | None, difference: float) -> int | None:
    """Plays per side needed to tell ``rate`` from ``rate - difference`` (two-sided 5 %, power 80 %); None if unknown."""
    if rate is None or not 0 < difference < 1:
        return None
    p1 = min(max(rate, difference), 1.0)
    p2 = p1 - difference
    mean = (p1 + p2) / 2
    top = Z_95 * math.sqrt(2 * mean * (1 - mean)) + _Z_POWER_80 * math.sqrt(p1 * (1 - p1) + p2 * (1 - p2))
    return math.ceil(top * top / (difference * difference))


@dataclass(frozen=True)
class TriggerFigures:
    """Every figure of one trigger evaluation."""

    prompts: tuple[PromptFigures, ...]
    skills: tuple[SkillFigures, ...]
    confusion: dict[str, dict[str, int]]  # expected -> chosen column -> plays
    columns: tuple[str, ...]
    near_miss_false_triggers: int
    near_miss_counted: int
    apart: dict[str, int]
    counted: int
    correct: int
    threshold: float
    detect_difference: float

    @property
    def accuracy(self) -> float | None:
        """Share of counted plays that made the expected choice."""
        return self.correct / self.counted if self.counted else None

    @property
    def near_miss_rate(self) -> float | None:
        """Share of counted near-miss plays that chose something they should not have."""
        return self.near_miss_false_triggers / self.near_miss_counted if self.near_miss_counted else None

    @property
    def sample_size(self) -> int | None:
        """Plays per side needed to detect ``detect_difference`` from the observed accuracy."""
        return sample_size_for(self.accuracy, self.detect_difference)

    def skill(self, name: str) -> SkillFigures:
        """The figures of one skill or custom agent."""
        return next(s for s in self.skills if s.name == name)

    def to_dict(self) -> dict[str, Any]:
        """Every figure for JSON (``triggers.json``)."""
        return {
            "threshold": self.threshold,
            "counted": self.counted,
            "correct": self.correct,
            "accuracy": self.accuracy,
            "accuracyInterval": _interval(self.correct, self.counted),
            "apart": dict(self.apart),
            "nearMiss": {
                "falseTriggers": self.near_miss_false_triggers,
                "counted": self.near_miss_counted,
                "rate": self.near_miss_rate,
                "interval": _interval(self.near_miss_false_triggers, self.near_miss_counted),
            },
            "sampleSize": {"difference": self.detect_difference, "playsPerSide": self.sample_size},
            "skills": [s.to_dict() for s in self.skills],
            "confusion": {"columns": list(self.columns), "rows": self.confusion},
            "prompts": [p.to_dict() for p in self.prompts],
        }


def _prompt_figures(prompt: TriggerPrompt, plays: list[PlayRecord], threshold: float) -> PromptFigures:
    counted = [p for p in plays if p.chosen is not None]
    choices = Counter(p.chosen for p in counted if p.chosen is not None)
    apart = Counter(p.kind for p in plays if p.chosen is None)
    hits = choices.get(prompt.expected, 0)
    return PromptFigures(prompt, hits, len(counted), dict(apart), dict(choices), threshold)


def summarise_triggers(
    prompts: Sequence[TriggerPrompt],
    plays: Iterable[PlayRecord],
    *,
    names: Sequence[str],
    threshold: float = 0.5,
    detect_difference: float = 0.1,
) -> TriggerFigures:
    """The figures of ``plays`` of ``prompts``; ``names`` are the skills and agents of the set (the matrix's columns)."""
    by_prompt: dict[int, list[PlayRecord]] = {p.number: [] for p in prompts}
    all_plays = list(plays)
    for play in all_plays:
        by_prompt.setdefault(play.number, []).append(play)
    per_prompt = tuple(_prompt_figures(p, by_prompt[p.number], threshold) for p in prompts)
    judged = [f for f in per_prompt if f.counted]
    skills = tuple(
        SkillFigures(
            name,
            true_positives=sum(1 for f in judged if f.prompt.expected == name and f.took(name)),
            false_positives=sum(1 for f in judged if f.prompt.expected != name and f.took(name)),
            false_negatives=sum(1 for f in judged if f.prompt.expected == name and not f.took(name)),
        )
        for name in names
    )
    columns = (*names, NONE, ANOTHER)
    confusion = {row: dict.fromkeys(columns, 0) for row in (*names, NONE)}
    expected_of = {p.number: p.expected for p in prompts}
    for play in all_plays:
        if play.chosen is None:
            continue
        row = confusion.setdefault(expected_of[play.number], dict.fromkeys(columns, 0))
        column = play.chosen if play.chosen in columns else ANOTHER
        row[column] += 1
    near = [p for f in per_prompt if f.prompt.near_miss for p in by_prompt[f.prompt.number] if p.chosen is not None]
    counted = [p for p in all_plays if p.chosen is not None]
    return TriggerFigures(
        prompts=per_prompt,
        skills=skills,
        confusion=confusion,
        columns=columns,
        near_miss_false_triggers=sum(1 for p in near if p.chosen != p.expected),
        near_miss_counted=len(near),
        apart=dict(Counter(p.kind for p in all_plays if p.chosen is None)),
        counted=len(counted),
        correct=sum(1 for p in counted if p.chosen == p.expected),
        threshold=threshold,
        detect_difference=detect_difference,
    )
