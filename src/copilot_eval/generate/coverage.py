"""Coverage decided in code: what an agent is, cut into capabilities, and the tuples a drafted set covers.

A generated set is only as useful as its coverage is predictable. So the model never chooses what
to test: this module lists the agent's capabilities (a paragraph of its instructions, each custom
agent, skill and tool, a paragraph of a knowledge file, each with the span of source text it came
from), splits ``count`` between the flavours of a mix, and deals (capability, difficulty, flavour)
tuples from a seeded ``random.Random``. The same inputs and seed give the same tuples; the model
only fills in the text of each one. Pure: no I/O, no runtime.

How a mix becomes counts (``flavour_counts``): each flavour gets ``count * weight / total`` rounded
down; the cases left over go one each to the flavours with the largest remainders, ties to the
flavour named first in the flavour list. So every count is within one of its exact share.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = [
    "DIFFICULTIES",
    "TESTSET_FLAVOURS",
    "TRIGGER_FLAVOURS",
    "Capability",
    "CoverageError",
    "CoverageTuple",
    "SourceSpan",
    "capabilities_of",
    "deal",
    "flavour_counts",
    "parse_mix",
]

TESTSET_FLAVOURS = ("happy", "underspecified", "out_of_scope", "adversarial")
"""The flavours of a drafted test set, in the order ties are broken."""

TRIGGER_FLAVOURS = ("positive", "near_miss", "control")
"""The flavours of a drafted trigger set: prompts the skill should take, near-misses from its siblings, controls."""

DIFFICULTIES = ("easy", "medium", "hard")

DEFAULT_TESTSET_MIX = {"happy": 4.0, "underspecified": 2.0, "out_of_scope": 2.0, "adversarial": 2.0}
DEFAULT_TRIGGER_MIX = {"positive": 2.0, "near_miss": 2.0, "control": 1.0}

T = TypeVar("T")
EXCERPT_MAX = 600  # characters of source text a capability carries to the generator
_PARAGRAPH = re.compile(r"\n\s*\n")


class CoverageError(ValueError):
    """A mix, count or source that cannot be dealt from; the message names the option and how to fix it."""


# Alike in shape to security.rates.GroupRate (three fields and their JSON): unrelated, kept apart.
@dataclass(frozen=True)
class SourceSpan:
    """Where a capability's text came from: ``where`` (``instructions``, ``skill:NAME``, ``knowledge:FILE`` ...) and character offsets."""

    where: str
    start: int
    end: int

    def as_dict(self) -> dict[str, object]:
        """The span as JSON: where, start, end."""
        return {"where": self.where, "start": self.start, "end": self.end}


@dataclass(frozen=True)
class Capability:
    """One thing the agent is said to do: its kind, its name, the text that says so and where that text is."""

    kind: str  # instructions, agent, skill, tool, knowledge
    name: str
    text: str
    span: SourceSpan

    @property
    def key(self) -> str:
        """``kind:name``, the capability's name in provenance and in generator prompts."""
        return f"{self.kind}:{self.name}"


# Alike in shape to security.tool_checks.ToolFinding (fields, then their JSON): other fields, other files.
@dataclass(frozen=True)
class CoverageTuple:
    """One case to draft: its 1-based number, capability, difficulty and flavour."""

    number: int
    capability: Capability
    difficulty: str
    flavour: str

    def as_dict(self) -> dict[str, object]:
        """The tuple as provenance JSON (the capability by key and span)."""
        return {
            "number": self.number,
            "capability": self.capability.key,
            "difficulty": self.difficulty,
            "flavour": self.flavour,
            "source": self.capability.span.as_dict(),
        }


def _paragraphs(text: str) -> Iterable[tuple[int, int, str]]:
    position = 0
    for piece in _PARAGRAPH.split(text):
        start = text.index(piece, position)
        position = start + len(piece)
        stripped = piece.strip()
        if stripped:
            offset = start + piece.index(stripped)
            yield offset, offset + len(stripped), stripped[:EXCERPT_MAX]


def _described(kind: str, items: Iterable[tuple[str, str | None]]) -> list[Capability]:
    found = []
    for name, description in items:
        text = (description or "").strip()
        if text:
            found.append(Capability(kind, name, text[:EXCERPT_MAX], SourceSpan(f"{kind}:{name}", 0, len(text))))
    return found


def capabilities_of(
    *,
    instructions: str | None = None,
    agents: Iterable[tuple[str, str | None]] = (),
    skills: Iterable[tuple[str, str | None]] = (),
    tools: Iterable[tuple[str, str | None]] = (),
    knowledge: Iterable[tuple[str, str]] = (),
) -> list[Capability]:
    """Every capability the sources describe, in source order; items without a description are left out."""
    found: list[Capability] = []
    for start, end, text in _paragraphs(instructions or ""):
        found.append(
            Capability("instructions", f"paragraph-{len(found) + 1}", text, SourceSpan("instructions", start, end))
        )
    found += _described("agent", agents) + _described("skill", skills) + _described("tool", tools)
    for file_name, content in knowledge:
        for number, (start, end, text) in enumerate(_paragraphs(content), start=1):
            found.append(
                Capability("knowledge", f"{file_name}#{number}", text, SourceSpan(f"knowledge:{file_name}", start, end))
            )
    return found


def parse_mix(
    text: str | None, *, flavours: Sequence[str] = TESTSET_FLAVOURS, option: str = "--mix"
) -> dict[str, float]:
    """``happy=4,adversarial=1`` as weights per flavour (unnamed flavours weigh 0); ``None`` or empty: the default mix."""
    if not text or not text.strip():
        return dict(DEFAULT_TESTSET_MIX if tuple(flavours) == TESTSET_FLAVOURS else DEFAULT_TRIGGER_MIX)
    weights = dict.fromkeys(flavours, 0.0)
    for part in (piece.strip() for piece in text.split(",")):
        name, equals, value = part.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or name not in weights:
            raise CoverageError(
                f"{option} {text!r}: {part!r} is not FLAVOUR=WEIGHT with FLAVOUR one of {', '.join(flavours)}"
            )
        try:
            weight = float(value)
        except ValueError:
            raise CoverageError(
                f"{option} {text!r}: the weight of {name} ({value.strip()!r}) is not a number"
            ) from None
        if not weight >= 0 or weight == float("inf"):
            raise CoverageError(f"{option} {text!r}: the weight of {name} must be a finite number of at least 0")
        weights[name] = weight
    if not sum(weights.values()) > 0:
        raise CoverageError(f"{option} {text!r}: at least one flavour needs a weight above 0")
    return weights


def flavour_counts(
    count: int, mix: Mapping[str, float], *, flavours: Sequence[str] = TESTSET_FLAVOURS
) -> dict[str, int]:
    """How many of ``count`` cases each flavour gets: largest remainders, ties to the flavour named first."""
    if count < 1:
        raise CoverageError(f"--count {count}: ask for at least 1 case")
    total = sum(mix.get(name, 0.0) for name in flavours)
    shares = {name: count * mix.get(name, 0.0) / total for name in flavours}
    counts = {name: int(share) for name, share in shares.items()}
    left = count - sum(counts.values())
    by_remainder = sorted(flavours, key=lambda name: (-(shares[name] - counts[name]), flavours.index(name)))
    for name in by_remainder[:left]:
        counts[name] += 1
    return counts


def _cycle(rng: random.Random, items: Sequence[T], length: int) -> list[T]:
    # A fresh shuffle per pass: every item is used once before any is used twice.
    dealt: list[T] = []
    while len(dealt) < length:
        round_ = list(items)
        rng.shuffle(round_)
        dealt += round_
    return dealt[:length]


def deal(
    capabilities: Sequence[Capability] | Mapping[str, Sequence[Capability]],
    *,
    count: int,
    seed: int,
    mix: Mapping[str, float],
    flavours: Sequence[str] = TESTSET_FLAVOURS,
    difficulties: Sequence[str] = DIFFICULTIES,
) -> list[CoverageTuple]:
    """``count`` tuples with ``seed``: each flavour's count as ``flavour_counts`` says, spread evenly over its capabilities.

    ``capabilities`` is one list for every flavour, or a list per flavour (a trigger set's near-misses
    come from the siblings, its positives from the skill itself).
    """
    pools = capabilities if isinstance(capabilities, Mapping) else dict.fromkeys(flavours, capabilities)
    rng = random.Random(seed)
    drawn: list[tuple[Capability, str, str]] = []
    for flavour, number in flavour_counts(count, mix, flavours=flavours).items():
        pool = pools.get(flavour, ())
        if number and not pool:
            raise CoverageError(_nothing_for(flavour, capabilities))
        picked = _cycle(rng, pool, number)
        levels = _cycle(rng, difficulties, number)
        drawn += [(cap, level, flavour) for cap, level in zip(picked, levels, strict=True)]
    rng.shuffle(drawn)
    return [CoverageTuple(n, cap, level, flavour) for n, (cap, level, flavour) in enumerate(drawn, start=1)]


def _nothing_for(flavour: str, capabilities: object) -> str:
    if not isinstance(capabilities, Mapping):
        return (
            "nothing to draft from: the agent has no instructions, custom agents, skills or tools with a description, "
            "and no --knowledge file; describe what it does first"
        )
    return f"no source to draft {flavour} cases from (no sibling with a description?); give --mix {flavour}=0"
