"""``@pytest.mark.copilot_repeat(K, min_pass_rate=P)``: run a test K times and give it one verdict.

A try that fails an assertion (or calls ``pytest.fail``) is a failed try; a try that raises
anything else (a runtime that broke, a model that refused) is an error: reported apart and not
counted as a try. The test passes when at least P of its graded tries passed; its output names
the tries, the pass rate and its 95 % Wilson interval (also as the JUnit property
``copilot_repeat``). A skip in any try skips the test.

Tries whose agents were all answered by a scripted, function or replayed model cannot differ in
the model's answers: the test then says its repeats are not independent, and with
``--copilot-replay`` a repeat above 1 is refused unless ``--copilot-allow-replayed-repeats``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from copilot_eval.evalsets.repeat_stats import CaseRepeats

# The plugin imports this module in every pytest session; the run and report layers are imported only for a test with
# the marker, each import marked "on use".

MARKER = "copilot_repeat"
MARKER_HELP = (
    f"{MARKER}(k, *, min_pass_rate=1.0): run the test k times and give one verdict: pass when at least "
    "min_pass_rate of the graded tries pass (errors are not tries)"
)
DEPENDENCE_KEY = pytest.StashKey[list[str | None]]()  # per item: each agent run's repeat dependence


class DependentRepeatsWarning(UserWarning):
    """A repeated test whose tries could not differ in the model's answers (scripted, function or replayed)."""


@dataclass
class _Tries:
    """What each try of a repeated test did."""

    passes: int = 0
    failures: list[tuple[int, BaseException]] = field(default_factory=list)
    errors: list[tuple[int, BaseException]] = field(default_factory=list)

    def summary(self, k: int, min_pass_rate: float) -> tuple[bool, str]:
        # on use, when a repeated test ends: the report layers and rich
        from copilot_eval.reports.repeat_words import percent, rate_text

        graded = self.passes + len(self.failures)
        record = CaseRepeats(0, k, graded, self.passes).record(min_pass_rate)
        ok = graded > 0 and record.verdict is not None and record.verdict.value == "pass"
        line = f"{MARKER}: {rate_text(record)}; minimum pass rate {percent(min_pass_rate)}"
        return ok, line


def _record(tries: _Tries, index: int, exc: BaseException | None) -> None:
    """Count one try: passed (no exception), failed (an assertion), or errored (anything else)."""
    if exc is None:
        tries.passes += 1
    elif isinstance(exc, (AssertionError, pytest.fail.Exception)):
        tries.failures.append((index, exc))
    else:
        tries.errors.append((index, exc))


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _verdict(item: pytest.Item, tries: _Tries, k: int, min_pass_rate: float) -> None:
    __tracebackhide__ = True
    ok, line = tries.summary(k, min_pass_rate)
    dependence = _dependence(item)
    item.user_properties.append((MARKER, line + (f"; {dependence}" if dependence else "")))
    if tries.passes + len(tries.failures) == 0 and tries.errors:
        raise tries.errors[0][1]  # no graded try at all: the test errors as its first try did
    notes = [line]
    if tries.errors:
        shown = "; ".join(f"try {i + 1}: {_first_line(e)}" for i, e in tries.errors[:3])
        notes.append(f"{len(tries.errors)} tr{'y' if len(tries.errors) == 1 else 'ies'} errored, not counted ({shown})")
    if dependence:
        notes.append(dependence)
        warnings.warn(DependentRepeatsWarning(f"{item.nodeid}: {dependence}"), stacklevel=1)
    if not ok:
        index, first = tries.failures[0]
        raise AssertionError("; ".join(notes) + f"\nfirst failed try ({index + 1}):\n{first}")


def _dependence(item: pytest.Item) -> str | None:
    """Why the tries could not differ, when every agent run of this test says so."""
    seen = item.stash.get(DEPENDENCE_KEY, [])
    if not seen or any(reason is None for reason in seen):
        return None
    return seen[0]


def repeated(function: Callable[..., Any], item: pytest.Item, k: int, min_pass_rate: float) -> Callable[..., Any]:
    """``function`` run ``k`` times with the same arguments, then judged as one test (same signature, same fixtures)."""
    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def run_async(*args: Any, **kwargs: Any) -> None:
            __tracebackhide__ = True
            tries = _Tries()
            for index in range(k):
                with _attempt(tries, index):
                    await function(*args, **kwargs)
            _verdict(item, tries, k, min_pass_rate)

        return run_async

    @functools.wraps(function)
    def run_sync(*args: Any, **kwargs: Any) -> None:
        __tracebackhide__ = True
        tries = _Tries()
        for index in range(k):
            with _attempt(tries, index):
                function(*args, **kwargs)
        _verdict(item, tries, k, min_pass_rate)

    return run_sync


@contextlib.contextmanager
def _attempt(tries: _Tries, index: int) -> Iterator[None]:
    """One try of the test: its failure is recorded and kept back for the verdict; a skip skips them all."""
    __tracebackhide__ = True
    try:
        yield
    except pytest.skip.Exception:
        raise
    except (Exception, pytest.fail.Exception) as exc:
        _record(tries, index, exc)
    else:
        _record(tries, index, None)


def _options(item: pytest.Item) -> tuple[int, float]:
    marker = item.get_closest_marker(MARKER)
    assert marker is not None
    args: dict[str, Any] = {**dict(zip(("k", "min_pass_rate"), marker.args, strict=False)), **marker.kwargs}
    k, rate = args.get("k"), args.get("min_pass_rate", 1.0)
    unknown = set(args) - {"k", "min_pass_rate"}
    if unknown or isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise pytest.UsageError(f"{item.nodeid}: {MARKER} takes k (a whole number, 1 or more) and min_pass_rate")
    if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not 0 <= rate <= 1:
        raise pytest.UsageError(
            f"{item.nodeid}: {MARKER} min_pass_rate must be a fraction between 0 and 1, got {rate!r}"
        )
    return k, float(rate)


def wrap_repeated_items(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Replace the function of every ``copilot_repeat`` test by its repeated form (or a refusal)."""
    for item in items:
        if item.get_closest_marker(MARKER) is None or not isinstance(item, pytest.Function):
            continue
        k, rate = _options(item)
        # on use, only for a test with the marker: the run layers
        from copilot_eval.runs.independence import refuse_replayed_repeats

        refusal = refuse_replayed_repeats(
            k,
            replaying=bool(config.getoption("--copilot-replay", default=None)),
            allowed=bool(config.getoption("--copilot-allow-replayed-repeats", default=False)),
            option="--copilot-allow-replayed-repeats",
        )
        if refusal is not None:  # the item stays, and fails with the reason when it runs
            item.obj = _refused(item.obj, refusal)
            continue
        item.obj = repeated(item.obj, item, k, rate)


def _refused(function: Callable[..., Any], reason: str) -> Callable[..., Any]:
    if inspect.iscoroutinefunction(function):  # pytest-asyncio runs the item: it must stay a coroutine function

        @functools.wraps(function)
        async def refuse_async(*args: Any, **kwargs: Any) -> None:
            pytest.fail(f"{MARKER}: {reason}", pytrace=False)

        return refuse_async

    @functools.wraps(function)
    def refuse(*args: Any, **kwargs: Any) -> None:
        pytest.fail(f"{MARKER}: {reason}", pytrace=False)

    return refuse


__all__ = ["DEPENDENCE_KEY", "MARKER", "MARKER_HELP", "DependentRepeatsWarning", "repeated", "wrap_repeated_items"]
