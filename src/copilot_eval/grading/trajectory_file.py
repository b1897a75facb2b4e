"""The trajectory file (``--grader trajectory:FILE``): expected steps per conversation and turn.

```yaml
defaults:                 # optional; every entry inherits these
  mode: in_order          # strict | in_order | unordered | subset | superset
  forbidden: [delete_order]
cases:
  - conversation: 1       # the conversationNumber
    turn: 1               # optional, default 1
    steps:
      - tool: lookup_order
        args: {order_id: 1042}
      - tool: refund_order
```

The file is checked whole when it is read: every problem at once, each naming the file, the
line and the case, so one edit fixes them all. The test set is checked against it before a run
(``TrajectoryFile.fit_problems``): no entry may name a case the set lacks, and every case needs
an entry unless ``defaults`` gives ``steps`` for the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from copilot_eval.bounded_yaml import YamlRefused, load_yaml_file
from copilot_eval.evidence.trajectory import ANY, CALL_KINDS, MatchMode, Metric, Regex, Step
from copilot_eval.evidence.trajectory.alignment import as_mode
from copilot_eval.evidence.trajectory.steps import Equals, Matcher, name_pattern
from copilot_eval.evidence.trajectory.verdict import METRICS
from copilot_eval.suggest import unknown_keys

OPTION_KEYS = ("mode", "forbidden", "max_steps", "threshold", "metric", "subagent_calls")
ENTRY_KEYS = ("conversation", "turn", "steps", *OPTION_KEYS)
STEP_KEYS = (*CALL_KINDS, "args", "exact_args", "must_succeed", "agent")
MATCHER_KEYS = ("equals", "regex", "any")


class TrajectoryFileError(ValueError):
    """A trajectory file that cannot be used; ``problems`` lists every one, each naming file, line and case."""

    def __init__(self, path: Path | str, problems: Sequence[str]) -> None:
        self.path, self.problems = Path(path), list(problems)
        shown = "\n".join(f"  {problem}" for problem in self.problems)
        count = f"{len(self.problems)} problem{'s' if len(self.problems) != 1 else ''}"
        super().__init__(f"{self.path}: {count} in the trajectory file:\n{shown}")


@dataclass(frozen=True)
class TrajectoryExpectation:
    """What one case (a conversation's turn) must show: steps and the options they are matched with."""

    steps: tuple[Step, ...]
    mode: MatchMode = MatchMode.IN_ORDER
    forbidden: tuple[str | re.Pattern[str], ...] = ()
    max_steps: int | None = None
    threshold: float | None = None
    metric: Metric = "f1"
    subagent_calls: bool = True

    def options(self) -> dict[str, Any]:
        """The keyword options of ``match_trajectory``."""
        return {
            "mode": self.mode,
            "forbidden": self.forbidden,
            "max_steps": self.max_steps,
            "threshold": self.threshold,
            "metric": self.metric,
        }


@dataclass(frozen=True)
class TrajectoryFile:
    """A read and checked trajectory file: one expectation per (conversation, turn), and the default."""

    path: Path
    cases: Mapping[tuple[int, int], TrajectoryExpectation]
    default: TrajectoryExpectation | None = None
    lines: Mapping[tuple[int, int], int] = field(default_factory=dict)

    def expectation(self, conversation: int, turn: int) -> TrajectoryExpectation | None:
        """The expectation of a case, or the default one, or ``None`` when the file has neither."""
        return self.cases.get((conversation, turn), self.default)

    def fit_problems(self, cases: Sequence[tuple[int, int]]) -> list[str]:
        """What does not fit between this file and a test set's cases, given as (conversation, turn)."""
        known = set(cases)
        problems = [
            f"{self.path} line {self.lines.get(key, '?')}: {_case(key)} is not in the test set"
            for key in self.cases
            if key not in known
        ]
        if self.default is None:
            missing = [key for key in dict.fromkeys(cases) if key not in self.cases]
            if missing:
                shown = ", ".join(_case(key) for key in missing[:10]) + (" ..." if len(missing) > 10 else "")
                problems.append(
                    f"{self.path}: no expected steps for {len(missing)} case(s) of the test set ({shown}); "
                    "add an entry for each, or give `steps` under `defaults` for the cases not listed"
                )
        return problems


def _case(key: tuple[int, int]) -> str:
    return f"conversation {key[0]} turn {key[1]}"


class _Loader(yaml.SafeLoader):
    """A YAML loader that remembers the line each mapping starts on, for messages."""


class _Lined(dict[str, Any]):
    line: int = 0


def _mapping(loader: _Loader, node: yaml.MappingNode) -> _Lined:
    value = _Lined({str(key): item for key, item in loader.construct_mapping(node, deep=True).items()})
    value.line = node.start_mark.line + 1
    return value


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


class _Problems:
    """Collects problems, each prefixed with the file, the line and the case it is about."""

    def __init__(self, path: Path) -> None:
        self.path, self.items = path, list[str]()

    def add(self, where: Any, case: str | None, message: str) -> None:
        line = f" line {where.line}" if isinstance(where, _Lined) else ""
        about = f" {case}:" if case else ""
        self.items.append(f"{self.path}{line}:{about} {message}")


def _unknown_keys(data: Mapping[str, Any], allowed: Sequence[str], what: str) -> str | None:
    return unknown_keys((str(key) for key in data), allowed, what=f"{what} key")


def _matcher(key: str, value: Any) -> Matcher:
    """``{regex: ...}``, ``{any: true}`` and ``{equals: ...}`` are matchers; any other value is equalled."""
    if isinstance(value, Mapping) and len(value) == 1 and next(iter(value)) in MATCHER_KEYS:
        kind, inner = next(iter(value.items()))
        if kind == "regex":
            if not isinstance(inner, str):
                raise ValueError(f"args.{key}: regex must be text, got {inner!r}")
            try:
                return Regex(inner)
            except re.error as exc:
                raise ValueError(f"args.{key}: bad regular expression {inner!r}: {exc}") from None
        if kind == "any":
            if inner is not True:
                raise ValueError(f"args.{key}: write `any: true` (got any: {inner!r})")
            return ANY
        return Equals(inner)
    return Equals(value)


def _step(data: Any, problems: _Problems, where: Any, case: str, index: int) -> Step | None:
    label = f"step {index}"
    if isinstance(data, str):
        data = {"tool": data}
    if not isinstance(data, Mapping):
        problems.add(where, case, f"{label}: expected a mapping such as `{{tool: NAME}}` or a tool name, got {data!r}")
        return None
    spot = data if isinstance(data, _Lined) else where
    bad = _unknown_keys(data, STEP_KEYS, "step")
    kinds = [kind for kind in CALL_KINDS if kind in data]
    if len(kinds) != 1:
        bad = bad or f"give exactly one of {', '.join(CALL_KINDS)} (got {', '.join(kinds) or 'none'})"
    if bad:
        problems.add(spot, case, f"{label}: {bad}")
        return None
    kind, name = kinds[0], data[kinds[0]]
    try:
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"{kind}: give a name or a /regex/, got {name!r}")
        args = data.get("args")
        if args is not None and not isinstance(args, (Mapping, list)):
            raise ValueError(f"args: a mapping of names to values, or a list of names, got {args!r}")
        if isinstance(args, list) and not all(isinstance(a, str) for a in args):
            raise ValueError(f"args: a list of argument names must hold text only, got {args!r}")
        matchers = {str(k): _matcher(str(k), v) for k, v in args.items()} if isinstance(args, Mapping) else args
        flags = {key: data.get(key, default) for key, default in (("exact_args", False), ("must_succeed", True))}
        for key, value in flags.items():
            if not isinstance(value, bool):
                raise ValueError(f"{key}: true or false, got {value!r}")
        agent = data.get("agent")
        if agent is not None and not isinstance(agent, str):
            raise ValueError(f"agent: a subagent name, got {agent!r}")
        return Step(name_pattern(name.strip()), kind=kind, args=matchers, agent=agent, **flags)
    except re.error as exc:
        problems.add(spot, case, f"{label}: bad regular expression: {exc}")
    except (ValueError, TypeError) as exc:
        problems.add(spot, case, f"{label}: {exc}")
    return None


def _options(data: Mapping[str, Any], problems: _Problems, case: str | None, base: dict[str, Any]) -> dict[str, Any]:
    """The matching options an entry sets, over ``base``; problems added for bad values."""
    options = dict(base)
    for key in OPTION_KEYS:
        if key not in data:
            continue
        value = data[key]
        try:
            options[key] = _option(key, value)
        except (ValueError, re.error) as exc:
            problems.add(data, case, f"{key}: {exc}")
    return options


def _option(key: str, value: Any) -> Any:
    if key == "mode":
        return as_mode(str(value))
    if key == "forbidden":
        names = [value] if isinstance(value, str) else value
        if not isinstance(names, list) or not all(isinstance(n, str) and n.strip() for n in names):
            raise ValueError(f"a list of tool names or /regex/ patterns, got {value!r}")
        return tuple(name_pattern(n.strip()) for n in names)
    if key == "max_steps":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"a whole number, 0 or more, got {value!r}")
        return value
    if key == "threshold":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
            raise ValueError(f"a fraction between 0 and 1, got {value!r}")
        return float(value)
    if key == "metric":
        if value not in METRICS:
            raise ValueError(f"one of {', '.join(METRICS)}, got {value!r}")
        return value
    if not isinstance(value, bool):
        raise ValueError(f"true or false, got {value!r}")
    return value


def _steps(data: Mapping[str, Any], problems: _Problems, case: str) -> tuple[Step, ...] | None:
    raw = data.get("steps")
    if not isinstance(raw, list):
        problems.add(data, case, f"steps: a list of steps (may be empty), got {raw!r}")
        return None
    built = [_step(item, problems, data, case, index) for index, item in enumerate(raw, start=1)]
    return tuple(step for step in built if step is not None) if all(built) else None


def _number(data: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else None


def _entry(
    data: Any, problems: _Problems, index: int, base: dict[str, Any]
) -> tuple[tuple[int, int], TrajectoryExpectation | None] | None:
    """The case an entry is about and its expectation (``None`` when the entry has problems)."""
    if not isinstance(data, Mapping):
        problems.add(None, f"case {index}", f"expected a mapping with conversation, turn and steps, got {data!r}")
        return None
    conversation, turn = _number(data, "conversation", None), _number(data, "turn", 1)
    if conversation is None or turn is None:
        problems.add(data, f"case {index}", "conversation (and turn, default 1) must be whole numbers, 1 or more")
        return None
    case = _case((conversation, turn))
    if (bad := _unknown_keys(data, ENTRY_KEYS, "case")) is not None:
        problems.add(data, case, bad)
    steps = _steps(data, problems, case)
    options = _options(data, problems, case, base)
    return (conversation, turn), None if steps is None else TrajectoryExpectation(steps=steps, **options)


def read_trajectory_file(path: str | Path) -> TrajectoryFile:
    """Read and check a trajectory file; TrajectoryFileError lists every problem at once."""
    path = Path(path)
    try:
        data = load_yaml_file(path, loader=_Loader)  # a SafeLoader that keeps line numbers
    except YamlRefused as exc:
        raise TrajectoryFileError(path, [str(exc).removeprefix(f"{path}: ")]) from None
    except OSError as exc:
        raise TrajectoryFileError(path, [f"cannot read the file: {exc.strerror or exc}"]) from None
    except yaml.YAMLError as exc:
        raise TrajectoryFileError(path, [f"not valid YAML: {exc}"]) from None
    problems = _Problems(path)
    if not isinstance(data, Mapping) or not isinstance(data.get("cases"), list):
        raise TrajectoryFileError(path, ["expected a mapping with a `cases` list (and optional `defaults`)"])
    if (bad := _unknown_keys(data, ("defaults", "cases"), "top-level")) is not None:
        problems.add(data, None, bad)
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, Mapping):
        problems.add(data, None, f"defaults: a mapping of options, got {defaults!r}")
        defaults = {}
    elif (bad := _unknown_keys(defaults, ("steps", *OPTION_KEYS), "defaults")) is not None:
        problems.add(defaults, "defaults", bad)
    base = _options(defaults, problems, "defaults", {})
    default = None
    if "steps" in defaults and (steps := _steps(defaults, problems, "defaults")) is not None:
        default = TrajectoryExpectation(steps=steps, **base)
    cases: dict[tuple[int, int], TrajectoryExpectation] = {}
    lines: dict[tuple[int, int], int] = {}
    for index, item in enumerate(data["cases"], start=1):
        found = _entry(item, problems, index, base)
        if found is None:
            continue
        key, expectation = found
        if key in lines:
            problems.add(item, _case(key), f"listed twice (first at line {lines[key]})")
            continue
        lines[key] = getattr(item, "line", 0)
        if expectation is not None:
            cases[key] = expectation
    if problems.items:
        raise TrajectoryFileError(path, problems.items)
    return TrajectoryFile(path=path, cases=cases, default=default, lines=lines)


__all__ = ["TrajectoryExpectation", "TrajectoryFile", "TrajectoryFileError", "read_trajectory_file"]
