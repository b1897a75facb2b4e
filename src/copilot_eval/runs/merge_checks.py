"""What must hold before shard runs are merged; every problem found, not just the first.

The shards must be parts of one run: the same test set, agent and graders (their fingerprints),
the same shard count, repeat count and minimum pass rate, each shard once, no case in two shards, and each holding
the conversations the set's content assigns to it. A shard missing, or a shard whose run did not
finish, leaves conversations unplayed: that refuses the merge unless a partial one was asked for,
and then those conversations are named.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from copilot_eval.evalsets import EvalTestSet, ShardInfo, turn_numbers
from copilot_eval.reports.run_folder import RunFolder
from copilot_eval.runs.shards import conversation_shards

CaseKey = tuple[int, int, int]  # conversationNumber, turn, repeat


@dataclass
class ShardCheck:
    """The outcome of the checks of one group of shard folders (one surface)."""

    problems: list[str] = field(default_factory=list)
    partial: list[str] = field(default_factory=list)  # problems that --allow-partial accepts
    missing_shards: list[int] = field(default_factory=list)
    missing_conversations: list[int] = field(default_factory=list)
    count: int | None = None


def _fingerprint(value: str | None, what: str) -> str:
    return f"no {what} fingerprint" if value is None else f"{what} fingerprint {value.removeprefix('sha256:')[:12]}"


def _agree(folders: Sequence[RunFolder], what: str, shown: Callable[[RunFolder], str]) -> list[str]:
    """One problem when the folders do not all agree, naming who has which value (in words, never "None")."""
    by_value: dict[str, list[str]] = defaultdict(list)
    for folder in folders:
        by_value[shown(folder)].append(str(folder.folder))
    if len(by_value) <= 1:
        return []
    parts = "; ".join(
        f"{', '.join(names)} {'have' if len(names) > 1 else 'has'} {value}" for value, names in by_value.items()
    )
    return [f"different {what}: {parts}"]


def _expected(test_set: EvalTestSet, repeat: int) -> dict[int, set[CaseKey]]:
    """conversationNumber -> the case keys the run owes for it, over every repeat."""
    owed: dict[int, set[CaseKey]] = defaultdict(set)
    for case, turn in zip(test_set.cases, turn_numbers(test_set.cases), strict=True):
        for index in range(repeat):
            owed[case.conversation_number].add((case.conversation_number, turn, index))
    return owed


def case_keys(folder: RunFolder) -> set[CaseKey]:
    """The (conversation, turn, repeat) of every result the folder's run holds."""
    return {(r.conversation_number, r.turn or 1, r.repeat_index or 0) for r in folder.run.results or []}


def _not_a_shard(folder: RunFolder) -> str:
    return f"{folder.folder}: not a shard run (run.json has no shard); run it with --shard I/N"


def shard_of(folder: RunFolder) -> ShardInfo:
    """The shard ``folder`` played; only for folders the checks found to be shards (a ValueError otherwise)."""
    if folder.run.shard is None:
        raise ValueError(_not_a_shard(folder))
    return folder.run.shard


def _basics(folders: Sequence[RunFolder]) -> list[str]:
    problems = []
    for folder in folders:
        if folder.run.shard is None:
            problems.append(_not_a_shard(folder))
        if folder.test_set is None:
            problems.append(f"{folder.folder}: no test-set.json; merge needs the set each shard played")
        if folder.run.results is None:
            problems.append(f"{folder.folder}: run.json has no per-case results to merge")
    shards = [f for f in folders if f.run.shard is not None]  # a folder that is no shard is named above
    problems += _agree(shards, "shard counts", lambda f: f"{shard_of(f).count} shards")
    for what, attribute, noun in (
        ("test sets", "test_set", "test-set"),
        ("agents", "agent", "agent"),
        ("graders", "graders", "grader"),
    ):
        problems += _agree(folders, what, _fingerprint_of(attribute, noun))
    problems += _agree(folders, "repeat counts", lambda f: f"--repeat {f.run.repeat or 1}")
    problems += _agree(
        folders,
        "minimum pass rates (--min-pass-rate)",
        lambda f: "none" if f.run.min_pass_rate is None else f"{f.run.min_pass_rate:g}",
    )
    return problems


def _fingerprint_of(attribute: str, noun: str) -> Callable[[RunFolder], str]:
    return lambda folder: _fingerprint(getattr(folder.run.fingerprints, attribute, None), noun)


def _given_twice(folders: Sequence[RunFolder]) -> list[str]:
    """A shard (index of a count) given in more than one folder: a problem whatever else differs."""
    seen: dict[tuple[int, int], str] = {}
    problems = []
    for folder in folders:
        shard = folder.run.shard
        if shard is None:
            continue
        key = (shard.index, shard.count)
        if key in seen:
            problems.append(f"shard {shard.index}/{shard.count} given twice: {seen[key]} and {folder.folder}")
        seen.setdefault(key, str(folder.folder))
    return problems


def check_shards(folders: Sequence[RunFolder]) -> ShardCheck:
    """Every problem that forbids merging ``folders`` (``partial`` ones only forbid a complete merge)."""
    basics = _basics(folders)
    check = ShardCheck(problems=basics + _given_twice(folders))
    if basics:
        return check  # the rest compares the cases of shards of one run; it would only repeat these
    count = check.count = shard_of(folders[0]).count
    test_set = folders[0].test_set
    assert test_set is not None
    owner = conversation_shards(test_set, count)
    owed = _expected(test_set, folders[0].run.repeat or 1)
    seen_index: dict[int, str] = {}
    seen_case: dict[CaseKey, str] = {}
    played: set[CaseKey] = set()
    for folder in folders:
        index = shard_of(folder).index
        name = str(folder.folder)
        if index in seen_index:
            continue  # named by _given_twice
        seen_index[index] = name
        held = case_keys(folder)
        for key in sorted(held):
            if key in seen_case:
                check.problems.append(
                    f"case {key[0]} turn {key[1]} repeat {key[2]} is in two shards: {seen_case[key]} and {name}"
                )
            seen_case.setdefault(key, name)
            if owner.get(key[0]) != index:
                check.problems.append(
                    f"{name} (shard {index}/{count}) holds conversation {key[0]}, which belongs to shard "
                    f"{owner.get(key[0], '?')}/{count}: the shards were not cut from the same set"
                )
        played |= held
        unfinished = sorted({n for n, idx in owner.items() if idx == index and not owed[n] <= held})
        if unfinished:
            check.partial.append(
                f"{name} (shard {index}/{count}) lacks results of conversations {_numbers(unfinished)}: "
                f"its run did not finish; continue it with `copilot-eval run ... --resume --out {name}`"
            )
    check.missing_shards = [i for i in range(1, count + 1) if i not in seen_index]
    for index in check.missing_shards:
        mine = [n for n, idx in owner.items() if idx == index]
        check.partial.append(f"shard {index}/{count} is missing (conversations {_numbers(mine) or 'none'})")
    check.missing_conversations = sorted(n for n, keys in owed.items() if not keys <= played)
    return check


def _numbers(numbers: Sequence[int]) -> str:
    return ", ".join(str(n) for n in sorted(numbers))


__all__ = ["CaseKey", "ShardCheck", "case_keys", "check_shards"]
