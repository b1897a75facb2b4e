"""A seeded, stratified train/validation split of a trigger set, for people who tune descriptions.

Tuning a description on the prompts it is then judged by flatters it: tune on ``train``, report on
``validation``. Each stratum (the expected name, and near-miss apart from the other ``none``
prompts) is shuffled with the seed and cut in the same proportion, so both sides keep every skill
and the near-misses; the same seed always gives the same split.
"""

from __future__ import annotations

import random
from collections import defaultdict

from copilot_eval.triggers.trigger_set import TriggerPrompt, TriggerSet

__all__ = ["split_trigger_set"]


def _stratum(prompt: TriggerPrompt) -> str:
    return f"{prompt.expected}|near-miss" if prompt.near_miss else prompt.expected


def split_trigger_set(
    trigger_set: TriggerSet, *, validation: float = 0.4, seed: int = 0
) -> tuple[TriggerSet, TriggerSet]:
    """``(train, validation)``: each stratum cut at ``validation`` (a share, 0 < v < 1), seeded; numbers kept."""
    if not 0 < validation < 1:
        raise ValueError(f"validation: a share between 0 and 1, got {validation}")
    strata: dict[str, list[TriggerPrompt]] = defaultdict(list)
    for prompt in trigger_set.prompts:
        strata[_stratum(prompt)].append(prompt)
    rng = random.Random(seed)
    held: set[int] = set()
    for key in sorted(strata):
        members = list(strata[key])
        rng.shuffle(members)
        # A stratum of one stays in train: a skill with one prompt cannot be both tuned and judged.
        count = round(len(members) * validation) if len(members) > 1 else 0
        held.update(p.number for p in members[:count])
    train = [p for p in trigger_set.prompts if p.number not in held]
    checked = [p for p in trigger_set.prompts if p.number in held]
    return (
        trigger_set.with_prompts(train, name=f"{trigger_set.name}-train"),
        trigger_set.with_prompts(checked, name=f"{trigger_set.name}-validation"),
    )
