"""Which expected step goes with which recorded call, for each match mode.

- ``strict``: step i is call i, and there are as many calls as steps;
- ``in_order``: the steps appear in this order, other calls allowed before, between and after
  (the longest order-keeping alignment, so a near miss still scores what it got right);
- ``unordered``: the same calls as the steps, in any order (one call per step);
- ``superset``: every step has its own call, other calls allowed;
- ``subset``: every call is one of the steps, some steps may be missing.

The three order-free modes share one maximum matching; they differ only in what must be covered.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum

Fits = Callable[[int, int], bool]  # (step index, call index) -> the call is that step


class MatchMode(StrEnum):
    """How the recorded calls must line up with the expected steps."""

    STRICT = "strict"
    IN_ORDER = "in_order"
    UNORDERED = "unordered"
    SUBSET = "subset"
    SUPERSET = "superset"


MODE_WORDS: dict[MatchMode, str] = {
    MatchMode.STRICT: "exactly these calls in this order",
    MatchMode.IN_ORDER: "these steps in this order, other calls allowed between",
    MatchMode.UNORDERED: "exactly these calls in any order",
    MatchMode.SUBSET: "only calls among these steps (some may be missing)",
    MatchMode.SUPERSET: "every one of these steps, other calls allowed",
}


def positional(steps: int, calls: int, fits: Fits) -> dict[int, int]:
    """Strict: step i pairs with call i when that call is the step."""
    return {i: i for i in range(min(steps, calls)) if fits(i, i)}


def in_order(steps: int, calls: int, fits: Fits) -> dict[int, int]:
    """The longest alignment that keeps the steps' order; ties go to the earliest calls."""
    # best[i][j]: most steps of steps[i:] that calls[j:] can match in order.
    best = [[0] * (calls + 1) for _ in range(steps + 1)]
    for i in range(steps - 1, -1, -1):
        for j in range(calls - 1, -1, -1):
            take = best[i + 1][j + 1] + 1 if fits(i, j) else 0
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    pairs: dict[int, int] = {}
    i = j = 0
    while i < steps and j < calls:
        if fits(i, j) and best[i][j] == best[i + 1][j + 1] + 1:
            pairs[i] = j
            i, j = i + 1, j + 1
        elif best[i][j + 1] == best[i][j]:
            j += 1
        else:
            i += 1
    return pairs


def order_free(steps: int, calls: int, fits: Fits) -> dict[int, int]:
    """A maximum one-to-one matching of steps and calls (augmenting paths; trajectories are short)."""
    owner: dict[int, int] = {}  # call index -> step index

    def claim(step: int, seen: set[int]) -> bool:
        for call in range(calls):
            if call in seen or not fits(step, call):
                continue
            seen.add(call)
            if call not in owner or claim(owner[call], seen):
                owner[call] = step
                return True
        return False

    for step in range(steps):
        claim(step, set())
    return {step: call for call, step in owner.items()}


def align(mode: MatchMode, steps: int, calls: int, fits: Fits) -> dict[int, int]:
    """Step index -> call index (both 0-based) of the alignment ``mode`` uses."""
    if mode is MatchMode.STRICT:
        return positional(steps, calls, fits)
    if mode is MatchMode.IN_ORDER:
        return in_order(steps, calls, fits)
    return order_free(steps, calls, fits)


def mode_satisfied(mode: MatchMode, pairs: dict[int, int], steps: int, calls: int) -> bool:
    """Whether an alignment is what ``mode`` asks for."""
    every_step, every_call = len(pairs) == steps, len(pairs) == calls
    if mode in (MatchMode.STRICT, MatchMode.UNORDERED):
        return every_step and every_call
    if mode is MatchMode.SUBSET:
        return every_call
    return every_step  # in order, superset


def steps_must_be_found(mode: MatchMode) -> bool:
    """Whether a missing step is a failure in ``mode`` (all but subset)."""
    return mode is not MatchMode.SUBSET


def calls_must_be_expected(mode: MatchMode) -> bool:
    """Whether an extra call is a failure in ``mode`` (strict, unordered, subset)."""
    return mode in (MatchMode.STRICT, MatchMode.UNORDERED, MatchMode.SUBSET)


def as_mode(value: MatchMode | str) -> MatchMode:
    """A MatchMode from its name (``in-order`` and ``in order`` read as ``in_order``); ValueError names the choices."""
    if isinstance(value, MatchMode):
        return value
    key = str(value).strip().lower().replace("-", "_").replace(" ", "_")
    try:
        return MatchMode(key)
    except ValueError:
        choices = ", ".join(mode.value for mode in MatchMode)
        raise ValueError(f"unknown trajectory mode {value!r} (choose one of {choices})") from None


def ordered(pairs: dict[int, int]) -> Sequence[tuple[int, int]]:
    """The pairs sorted by step."""
    return sorted(pairs.items())


__all__ = [
    "MODE_WORDS",
    "Fits",
    "MatchMode",
    "align",
    "as_mode",
    "calls_must_be_expected",
    "in_order",
    "mode_satisfied",
    "order_free",
    "ordered",
    "positional",
    "steps_must_be_found",
]
