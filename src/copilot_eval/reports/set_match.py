"""Whether two run folders played the same test set, and if not, exactly what differs.

Runs are compared case by case by their number (and turn), so two runs of different sets would
compare as "2 unchanged, 4 removed": noise read as a verdict. ``compare``, ``--baseline`` (of
``run`` and ``regrade``) compare only runs of the same test-set fingerprint (recorded in each
run.json); otherwise they refuse with ``other_set_problem``'s sentence, unless ``--allow-other-set``.
A run whose fingerprint was not recorded (written before runs kept one) cannot be checked and is
compared as before: unknown is not a difference.
"""

from __future__ import annotations

from copilot_eval.evalsets import EvalTestCase, EvalTestSet
from copilot_eval.evalsets.conversations import case_turns

ALLOW_OPTION = "--allow-other-set"
#: How many differing cases a sentence names before it says "and N more".
NAMED = 5


def _short(fingerprint: str) -> str:
    return fingerprint.removeprefix("sha256:")[:12]


def _case(key: tuple[int, int]) -> str:
    number, turn = key
    return f"case {number}" + (f" turn {turn}" if turn > 1 else "")


def _named(keys: list[tuple[int, int]]) -> str:
    shown = ", ".join(_case(key) for key in keys[:NAMED])
    return shown + (f" and {len(keys) - NAMED} more" if len(keys) > NAMED else "")


def _changed(before: EvalTestCase, after: EvalTestCase) -> list[str]:
    fields: list[tuple[str, str | None, str | None]] = [
        ("question", before.question, after.question),
        ("reference", before.response, after.response),
        ("testing method", before.testing_method, after.testing_method),
    ]
    return [name for name, old, new in fields if old != new]


def set_differences(before: EvalTestSet, after: EvalTestSet) -> list[str]:
    """What differs between two test sets, case by case (numbers only in one, questions or references changed)."""
    old, new = case_turns(before), case_turns(after)
    found = []
    if before.data_type != after.data_type:
        found.append(f"data type {before.data_type.value} vs {after.data_type.value}")
    if only := sorted(old.keys() - new.keys()):
        found.append(f"only in the first: {_named(only)}")
    if only := sorted(new.keys() - old.keys()):
        found.append(f"only in the second: {_named(only)}")
    changes: dict[str, list[tuple[int, int]]] = {}
    for key in sorted(old.keys() & new.keys()):
        for name in _changed(old[key], new[key]):
            changes.setdefault(name, []).append(key)
    found.extend(f"{name} changed in {_named(keys)}" for name, keys in changes.items())
    return found


def other_set_problem(
    first: tuple[str, str | None, EvalTestSet | None], second: tuple[str, str | None, EvalTestSet | None]
) -> str | None:
    """Why two runs (each: its role or folder, its test-set fingerprint, its kept set) are not of one set, or None.

    Says exactly what differs when both sets were kept, and how to compare them anyway.
    """
    (name_a, print_a, set_a), (name_b, print_b, set_b) = first, second
    if print_a is None or print_b is None or print_a == print_b:
        return None
    differs = set_differences(set_a, set_b) if set_a is not None and set_b is not None else []
    detail = f": {'; '.join(differs)}" if differs else ""
    return (
        f"{name_a} and {name_b} played different test sets (fingerprint {_short(print_a)} vs "
        f"{_short(print_b)}){detail}. Cases are matched by number, so they would compare as noise; compare "
        f"runs of one set, or pass {ALLOW_OPTION} to compare them anyway"
    )


__all__ = ["ALLOW_OPTION", "other_set_problem", "set_differences"]
