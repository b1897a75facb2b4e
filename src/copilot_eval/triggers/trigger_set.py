"""Trigger sets: labelled prompts, each with the skill or custom agent expected to take it, or ``none``.

A trigger set is the input of a trigger evaluation: for one skill (its positives and its
near-misses) or for a whole catalogue (every prompt names the one it belongs to). It knows nothing
of how it was written (YAML, JSON, CSV, skill-creator JSON: ``trigger_reader``) nor of how it is
played; later steps (the split, description tuning, generated sets) build on this model.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = ["KNOWN_TAGS", "NONE", "TriggerPrompt", "TriggerSet", "TriggerSetError"]

NONE = "none"
"""The expected value of a prompt no skill or custom agent should take."""

KNOWN_TAGS = ("near-miss", "explicit", "implicit", "negative-control")
"""Tags with a meaning in the figures (``near-miss`` gives the near-miss false-trigger rate); others are kept as labels."""


class TriggerSetError(ValueError):
    """A trigger set that cannot be used: every problem at once, each naming the file and the line."""

    def __init__(self, source: str, problems: Iterable[str]) -> None:
        self.source = source
        self.problems = list(problems)
        listed = "\n".join(f"  {problem}" for problem in self.problems)
        super().__init__(f"{source}: {len(self.problems)} problem(s) in the trigger set:\n{listed}")


@dataclass(frozen=True)
class TriggerPrompt:
    """One labelled prompt: its text, what should take it (a name, or ``none``), its tags and where it was written."""

    number: int
    prompt: str
    expected: str
    tags: tuple[str, ...] = ()
    line: int | None = None

    @property
    def should_trigger(self) -> bool:
        """Whether some skill or custom agent is expected to take this prompt."""
        return self.expected != NONE

    @property
    def near_miss(self) -> bool:
        """Whether the prompt is tagged ``near-miss`` (close to a skill, yet none should take it)."""
        return "near-miss" in self.tags


@dataclass(frozen=True)
class TriggerSet:
    """Labelled prompts and where they came from; ``names`` are the skills and agents the set expects."""

    name: str
    prompts: tuple[TriggerPrompt, ...]
    source: str | None = None
    description: str | None = None
    extra_names: tuple[str, ...] = field(default=())

    @property
    def names(self) -> tuple[str, ...]:
        """Every skill or custom agent some prompt expects, plus any the set names as siblings, sorted."""
        expected = {p.expected for p in self.prompts if p.should_trigger}
        return tuple(sorted(expected | set(self.extra_names)))

    def prompt(self, number: int) -> TriggerPrompt:
        """The prompt with this number (1-based, in the order written)."""
        for item in self.prompts:
            if item.number == number:
                return item
        raise KeyError(f"trigger set {self.name!r} has no prompt {number}")

    def with_prompts(self, prompts: Iterable[TriggerPrompt], *, name: str | None = None) -> TriggerSet:
        """A copy holding only ``prompts`` (their numbers kept), e.g. one side of a split."""
        return TriggerSet(
            name=name or self.name,
            prompts=tuple(prompts),
            source=self.source,
            description=self.description,
            extra_names=self.extra_names,
        )
