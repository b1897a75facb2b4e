"""Expected steps: a tool (or subagent, topic, action, knowledge search) with argument matchers.

A step names what it expects by exact name, or by a regular expression (a compiled pattern in
Python, ``/.../`` in a string or a YAML file; searched, so anchor it with ``^...$`` for a whole
name). Each argument is matched on its own: a plain value must be equal (``1042`` is not
``"1042"``, ``true`` is not ``1``), ``Regex`` searches the value's text, ``ANY`` wants the key with any
value. Other arguments are allowed unless ``exact_args``. A step wants a call that succeeded
unless ``must_succeed=False``: a call that ran and failed, or whose outcome is unknown, is no match.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.evidence.trajectory.calls import CALL_KINDS, CallKind, ObservedCall, show_value


@dataclass(frozen=True)
class Regex:
    """An argument matcher: the value's text (JSON for non-strings) contains a match of ``pattern``."""

    pattern: re.Pattern[str]

    def __init__(self, pattern: str | re.Pattern[str]) -> None:
        object.__setattr__(self, "pattern", re.compile(pattern) if isinstance(pattern, str) else pattern)

    def label(self) -> str:
        """``/pattern/`` as a diff shows it."""
        return f"/{self.pattern.pattern}/"


@dataclass(frozen=True)
class AnyValue:
    """An argument matcher: the key is present, whatever its value."""

    def label(self) -> str:
        """``*`` as a diff shows it."""
        return "*"


ANY = AnyValue()
"""The argument is present with any value."""


@dataclass(frozen=True)
class Equals:
    """An argument matcher: the value equals ``value`` (types matter: ``1`` is not ``true`` nor ``"1"``)."""

    value: Any

    def label(self) -> str:
        """The expected value as JSON."""
        return show_value(self.value)


Matcher = Equals | Regex | AnyValue


def as_matcher(value: Any) -> Matcher:
    """A matcher from what a user wrote: a matcher stays one, anything else is a value to equal."""
    return value if isinstance(value, (Equals, Regex, AnyValue)) else Equals(value)


def same_value(expected: Any, got: Any) -> bool:
    """Equality as JSON means it: ``True`` is not ``1``, ``1`` equals ``1.0``, containers compared deeply."""
    if isinstance(expected, bool) or isinstance(got, bool):
        return isinstance(expected, bool) and isinstance(got, bool) and expected is got
    if isinstance(expected, Mapping) and isinstance(got, Mapping):
        return expected.keys() == got.keys() and all(same_value(expected[k], got[k]) for k in expected)
    if isinstance(expected, (list, tuple)) and isinstance(got, (list, tuple)):
        return len(expected) == len(got) and all(same_value(a, b) for a, b in zip(expected, got, strict=True))
    if isinstance(expected, (int, float)) and isinstance(got, (int, float)):
        return expected == got
    return type(expected) is type(got) and bool(expected == got)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else show_value(value)


def matcher_accepts(matcher: Matcher, value: Any) -> bool:
    """Whether ``value`` (known to be present) satisfies ``matcher``."""
    if isinstance(matcher, AnyValue):
        return True
    if isinstance(matcher, Regex):
        return matcher.pattern.search(_text(value)) is not None
    return same_value(matcher.value, value)


def name_pattern(text: str) -> str | re.Pattern[str]:
    """``/regex/`` becomes a compiled pattern (raising re.error when it is not one); other text is a name."""
    if len(text) >= 2 and text.startswith("/") and text.endswith("/"):
        return re.compile(text[1:-1])
    return text


def name_matches(expected: str | re.Pattern[str], name: str | None) -> bool:
    """Whether a recorded name is the expected name, or contains a match of the expected pattern."""
    if name is None:
        return False
    if isinstance(expected, str):
        return expected == name
    return expected.search(name) is not None


def name_label(expected: str | re.Pattern[str]) -> str:
    """A name or ``/pattern/`` as a diff shows it."""
    return expected if isinstance(expected, str) else f"/{expected.pattern}/"


@dataclass(frozen=True)
class Step:
    """One expected step: what was called, with which arguments, and whether it had to succeed.

    ``args`` maps argument names to values or matchers; a list of names means "these keys, any
    values". ``agent`` asks for a call made inside that subagent. A ``tool`` step also matches a
    Copilot Studio action, and the tool that carried a subagent (``task``).
    """

    name: str | re.Pattern[str]
    kind: CallKind = "tool"
    args: Mapping[str, Matcher] = field(default_factory=dict)
    exact_args: bool = False
    must_succeed: bool = True
    agent: str | None = None

    def __init__(
        self,
        name: str | re.Pattern[str],
        *,
        kind: CallKind = "tool",
        args: Mapping[str, Any] | Sequence[str] | None = None,
        exact_args: bool = False,
        must_succeed: bool = True,
        agent: str | None = None,
    ) -> None:
        if kind not in CALL_KINDS:
            raise ValueError(f"step kind {kind!r} is not one of {', '.join(CALL_KINDS)}")
        if isinstance(name, str):
            name = name_pattern(name)
        if isinstance(args, str):
            raise TypeError("step args: give a mapping of names to values, or a list of names (not one string)")
        matchers = dict.fromkeys(args, ANY) if isinstance(args, Sequence) else dict(args or {})
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "args", {str(k): as_matcher(v) for k, v in matchers.items()})
        object.__setattr__(self, "exact_args", exact_args)
        object.__setattr__(self, "must_succeed", must_succeed)
        object.__setattr__(self, "agent", agent)

    def label(self) -> str:
        """``lookup_order(order_id=1042)``, ``subagent reviewer``, ``/orders-.*/(...)``."""
        name = name_label(self.name)
        if self.kind in ("subagent", "topic", "knowledge") and not self.args:
            return f"{self.kind} {name}"
        shown = ", ".join(f"{key}={m.label()}" for key, m in self.args.items()) or ("" if self.exact_args else "...")
        head = name if self.kind == "tool" else f"{self.kind} {name}"
        return f"{head}({shown})"

    def names_call(self, call: ObservedCall) -> bool:
        """Whether ``call`` is of this step's kind and name (arguments and outcome aside)."""
        if self.kind == "tool" and call.kind == "subagent" and call.via_tool is not None:
            return name_matches(self.name, call.via_tool)
        kinds = ("tool", "action") if self.kind == "tool" else (self.kind,)
        return call.kind in kinds and name_matches(self.name, call.name)

    def matches(self, call: ObservedCall) -> bool:
        """Whether ``call`` is this step: the same verdict as ``not mismatches(call)``, without the words."""
        if not self.names_call(call):
            return False
        if self.must_succeed and call.succeeded is not True:
            return False
        if self.agent is not None and call.agent != self.agent:
            return False
        if not self.args and not self.exact_args:
            return True
        arguments = call.arguments
        if arguments is None:
            return False
        if self.exact_args and any(key not in self.args for key in arguments):
            return False
        return all(key in arguments and matcher_accepts(m, arguments[key]) for key, m in self.args.items())

    def mismatches(self, call: ObservedCall) -> list[str]:
        """Why ``call`` is not this step, one short phrase each; empty when it matches."""
        if not self.names_call(call):
            return [f"{call.label()} is not {name_label(self.name)}"]
        problems = self._argument_problems(call.arguments)
        if self.agent is not None and call.agent != self.agent:
            where = f"inside {call.agent}" if call.agent else "by the agent itself"
            problems.append(f"made {where}, not inside {self.agent}")
        if self.must_succeed and call.succeeded is not True:
            problems.append(call.outcome_note())
        return problems

    def _argument_problems(self, arguments: Mapping[str, Any] | None) -> list[str]:
        if not self.args and not self.exact_args:
            return []
        if arguments is None:
            return ["its arguments were not recorded"]
        problems = []
        for key, matcher in self.args.items():
            if key not in arguments:
                problems.append(f"{key}: missing")
            elif not matcher_accepts(matcher, arguments[key]):
                problems.append(f"{key}: expected {matcher.label()}, got {show_value(arguments[key])}")
        if self.exact_args:
            extra = [key for key in arguments if key not in self.args]
            if extra:
                problems.append("unexpected argument" + ("s " if len(extra) > 1 else " ") + ", ".join(extra))
        return problems

    def checks(self) -> int:
        """How many things this step checks (name, each argument, exactness, outcome, agent): the partial-score base."""
        return 1 + len(self.args) + int(self.exact_args) + int(self.must_succeed) + int(self.agent is not None)

    def partial_score(self, call: ObservedCall) -> float:
        """Share of this step's checks that ``call`` passes; 0 when it is another tool altogether."""
        if not self.names_call(call):
            return 0.0
        failed = len(self.mismatches(call))
        return max(0.0, (self.checks() - failed) / self.checks())


StepLike = Step | str | re.Pattern[str]


def as_step(step: StepLike) -> Step:
    """A Step from a Step, a tool name, a ``/regex/`` string or a compiled pattern."""
    if isinstance(step, Step):
        return step
    if isinstance(step, (str, re.Pattern)):
        return Step(step)
    raise TypeError(f"a trajectory step is a Step, a tool name or a pattern, not {type(step).__name__}")


__all__ = [
    "ANY",
    "AnyValue",
    "Equals",
    "Matcher",
    "Regex",
    "Step",
    "StepLike",
    "as_matcher",
    "as_step",
    "matcher_accepts",
    "name_label",
    "name_matches",
    "name_pattern",
    "same_value",
]
