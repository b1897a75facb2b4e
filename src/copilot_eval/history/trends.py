"""Questions over time, answered from a series' rows: pass rates, flaky cases, regression points, episodes.

Every definition the trends use lives here, once:

- A case's **observations** are its results in the series' runs, in run order then repeat order.
  Only ``pass`` and ``fail`` are graded; ``error``, ``unknown`` and any other status (a judge that
  could not decide) are counted apart and are neither a pass nor a failure.
- Observations made in a run with a **runtime limitation** measure the platform, not the agent:
  they are shown and counted (``counts``, ``underLimitation``), but left out of the pass rate,
  the flakiness and the regression point.
- **Pass rate**: passes over graded observations, with a 95 % Wilson interval; the **segment pass
  rate** is the same over the series' current (last) segment only, what the agent does now.
- **Segment**: the runs from one change of the test set, the agent or the graders (a run whose
  fingerprint is "changed here", below) to the next. A case that passed under the old graders and
  fails under the new ones did not flip: what measured it changed.
- **Flakiness**: how often consecutive graded observations *within a segment* flip between pass and
  fail, over the number of consecutive pairs within segments (0 = steady, 1 = alternates every
  time); unknown below one such pair.
- **Regression point**: the first run of the case's current failure streak. A run's verdict on a
  case is ``fail`` when any repeat failed, else ``pass`` when any passed; runs without a graded
  repeat neither extend nor break a streak. ``lastPass`` is the run before the streak where it
  passed; none means it failed every time it was graded in the window.
- **Limitation episode**: consecutive runs of the series that recorded a runtime limitation.
- **Changed here**: a run whose fingerprint (test set, agent, graders) differs from the last earlier
  run of the series that recorded one; a run without it, or with none before it, is unknown.
- **Tools changed here**: the tools offered to the model (each definition's hash, from the
  evidence) compared with the last earlier run of the series that recorded them: tools added,
  removed, and whose definition changed, each by name; unknown for a run without them or with
  none before it.
- A shard run that a stored merged run holds is not in the series: the merged run counts it once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from copilot_eval.evalsets.repeat_stats import wilson_interval
from copilot_eval.history.queries import SeriesData

PASS, FAIL, ERROR, UNKNOWN = "pass", "fail", "error", "unknown"
GRADED = (PASS, FAIL)
_COUNTED = frozenset((PASS, FAIL, ERROR, UNKNOWN))  # any other status (a judge that could not decide) is "other"


@dataclass(frozen=True)
class RunPoint:
    """One run of a series with its pass rate (percent of graded cases) and interval; None when none was graded."""

    run: dict[str, Any]
    pass_rate: float | None
    interval: tuple[float, float] | None
    limitation: bool
    # Per fingerprint (testSet, agent, graders): True where it differs from the last earlier run that had one
    # ("the agent changed here"), False where equal, None where this run or every earlier one lacks it.
    changed: dict[str, bool | None] = field(default_factory=dict)
    # The tools added, removed and changed since the last earlier run that recorded its tools; None when unknown.
    tools_changed: dict[str, list[str]] | None = None
    # Which segment of the series the run is in (0 first): a change of test set, agent or graders starts one.
    segment: int = 0

    @property
    def starts_segment(self) -> list[str]:
        """What changed here and starts a new segment (``testSet``, ``agent``, ``graders``); empty when nothing."""
        return [name for name in SEGMENT_PARTS if self.changed.get(name)]


@dataclass(frozen=True)
class Episode:
    """Consecutive runs that recorded a runtime limitation: first and last run ids, length, standing, ongoing."""

    first_run: int
    last_run: int
    runs: int
    standing: str | None
    ongoing: bool


@dataclass(frozen=True)
class Regression:
    """The first run of a case's current failure streak, and the last run before it where the case passed."""

    run: dict[str, Any]
    last_pass: dict[str, Any] | None
    position: int  # index of ``run`` in the series (for "most recent first")


@dataclass
class CaseTrend:
    """One case over a series: its statuses per run and what they add up to."""

    case: dict[str, Any]
    # Per run the case appeared in, oldest first: (run, statuses by repeat, report anchor, first reason).
    cells: list[tuple[dict[str, Any], list[str], str | None, str | None]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)  # every observation in the window, by status
    under_limitation: int = 0  # observations in runs with a runtime limitation (left out of what follows)
    graded: int = 0  # pass and fail observations outside limitation runs: the pass rate's trials
    pass_rate: float | None = None
    interval: tuple[float, float] | None = None
    segment_pass_rate: float | None = None  # over the series' current (last) segment only
    segment_graded: int = 0
    flips: int = 0
    flakiness: float | None = None
    regression: Regression | None = None


@dataclass(frozen=True)
class SeriesTrends:
    """A series (test set, agent) over its window: runs, limitation episodes, cases in natural order."""

    test_set_name: str
    agent_name: str | None
    runs: list[RunPoint]
    episodes: list[Episode]
    cases: list[CaseTrend]
    verdicts: dict[tuple[int, int], dict[str, Any]] = field(default_factory=dict)  # see SeriesData.verdicts
    judge_unstable: dict[tuple[int, int], bool] = field(default_factory=dict)  # see SeriesData.judge_unstable


def percent_interval(successes: int, trials: int) -> tuple[float, float] | None:
    """The Wilson interval in percent (rounded to 0.1), or None without trials."""
    found = wilson_interval(successes, trials)
    return None if found is None else (round(100 * found[0], 1), round(100 * found[1], 1))


def cell_status(statuses: Sequence[str]) -> str:
    """The one status a case shows for a run over its repeats: fail, else pass, else error, else unknown, else the first."""
    for status in (FAIL, PASS, ERROR, UNKNOWN):
        if status in statuses:
            return status
    return statuses[0] if statuses else UNKNOWN


def flips_and_flakiness(graded: Sequence[str], segments: Sequence[int] | None = None) -> tuple[int, float | None]:
    """Flips between pass and fail in a sequence of graded statuses, and their share of consecutive pairs.

    With ``segments`` (each status's segment), a pair that spans two segments is no pair: a change of
    test set, agent or graders between them is not a flip.
    """
    marks = segments if segments is not None else [0] * len(graded)
    pairs = [(a, b) for (a, sa), (b, sb) in pairwise(zip(graded, marks, strict=True)) if sa == sb]
    flips = sum(before != after for before, after in pairs)
    return flips, (round(flips / len(pairs), 4) if pairs else None)


def regression_point(verdicts: Sequence[tuple[int, dict[str, Any], str | None]]) -> Regression | None:
    """The current failure streak's first run from (position, run, verdict) oldest first; None when not failing."""
    first: tuple[int, dict[str, Any]] | None = None
    for position, run, verdict in reversed(verdicts):
        if verdict == FAIL:
            first = (position, run)
        elif verdict == PASS:
            return Regression(first[1], run, first[0]) if first else None
    return Regression(first[1], None, first[0]) if first else None


def limitation_episodes(runs: Sequence[dict[str, Any]]) -> list[Episode]:
    """Runs in a row that recorded a runtime limitation; confirmed when any of them was confirmed."""
    episodes: list[Episode] = []
    current: list[dict[str, Any]] = []
    for index, run in enumerate([*runs, None]):
        if run is not None and run["runtime_limitation"]:
            current.append(run)
            continue
        if current:
            standings = {r["limitation_standing"] for r in current}
            standing = next((s for s in ("confirmed", "suspected") if s in standings), None)
            ongoing = index == len(runs)
            episodes.append(Episode(current[0]["id"], current[-1]["id"], len(current), standing, ongoing))
            current = []
    return episodes


SEGMENT_PARTS = ("testSet", "agent", "graders")
"""The fingerprints whose change starts a new segment of a series."""

FINGERPRINT_COLUMNS = {
    "testSet": "test_set_fingerprint",
    "agent": "agent_fingerprint",
    "graders": "graders_fingerprint",
}
"""The fingerprints a run point compares with the runs before it, by their name in the JSON forms."""


def fingerprint_changes(runs: Sequence[dict[str, Any]]) -> list[dict[str, bool | None]]:
    """Per run (oldest first), per fingerprint: changed since the last earlier run that had one, or None (unknown)."""
    last: dict[str, str | None] = dict.fromkeys(FINGERPRINT_COLUMNS)
    changes = []
    for run in runs:
        change: dict[str, bool | None] = {}
        for name, column in FINGERPRINT_COLUMNS.items():
            value = run.get(column)
            change[name] = None if value is None or last[name] is None else value != last[name]
            if value is not None:
                last[name] = value
        changes.append(change)
    return changes


def tool_changes(runs: Sequence[dict[str, Any]]) -> list[dict[str, list[str]] | None]:
    """Per run (oldest first): ``{"added", "removed", "changed"}`` tool names since the last earlier run with tools, or None."""
    last: dict[str, list[str]] | None = None
    changes: list[dict[str, list[str]] | None] = []
    for run in runs:
        tools = run.get("tool_hashes")
        if tools is None or last is None:
            changes.append(None)
        else:
            changes.append(
                {
                    "added": sorted(set(tools) - set(last)),
                    "removed": sorted(set(last) - set(tools)),
                    "changed": sorted(
                        name for name in set(tools) & set(last) if sorted(tools[name]) != sorted(last[name])
                    ),
                }
            )
        if tools is not None:
            last = tools
    return changes


def _run_point(
    run: dict[str, Any],
    changed: dict[str, bool | None],
    tools_changed: dict[str, list[str]] | None = None,
    segment: int = 0,
) -> RunPoint:
    graded = run["passed"] + run["failed"]
    rate = round(100 * run["passed"] / graded, 2) if graded else None
    limitation = bool(run["runtime_limitation"])
    return RunPoint(run, rate, percent_interval(run["passed"], graded), limitation, changed, tools_changed, segment)


_PART_WORDS = {"testSet": "the test set", "agent": "the agent", "graders": "the graders"}


def segment_words(parts: Sequence[str]) -> str:
    """``the agent and the graders`` from the fingerprints that changed."""
    words = [_PART_WORDS.get(part, part) for part in parts]
    return ", ".join(words[:-1]) + f" and {words[-1]}" if len(words) > 1 else words[0]


def segment_numbers(changes: Sequence[dict[str, bool | None]]) -> list[int]:
    """Per run (oldest first), its segment: one more at every run where the test set, agent or graders changed."""
    numbers, current = [], 0
    for index, change in enumerate(changes):
        if index and any(change.get(name) for name in SEGMENT_PARTS):
            current += 1
        numbers.append(current)
    return numbers


def _case_order(case: dict[str, Any]) -> tuple[Any, ...]:
    number = case.get("conversation_number")
    return (number is None, number or 0, case.get("turn") or 0, case["case_key"])


def _cells_by_case(
    results: Sequence[tuple[Any, ...]], position: dict[int, int]
) -> dict[int, list[tuple[int, list[str], str | None, str | None]]]:
    """Rows folded into one cell per case and run (run position, statuses by repeat, anchor, reason), oldest first.

    One sort and one pass over every row: a series of 100 runs of 1,000 cases has 100,000 of them.
    """
    # (case, run position, repeat) is unique, so the tuples sort without ever comparing the rows.
    ordered = sorted((row[1], position[row[0]], row[2], row) for row in results)
    details = bool(results) and len(results[0]) > 4
    cells_of: dict[int, list[tuple[int, list[str], str | None, str | None]]] = {}
    cells: list[tuple[int, list[str], str | None, str | None]] = []
    case, last = None, -1
    for case_id, at, _, row in ordered:
        if case_id != case:
            cells = cells_of[case_id] = []
            case, last = case_id, -1
        if at != last:
            cells.append((at, [row[3]], row[5], row[4]) if details else (at, [row[3]], None, None))
            last = at
        else:  # another repeat of the same run
            cells[-1][1].append(row[3])
            if details and row[4] and not cells[-1][3]:
                cells[-1] = (*cells[-1][:3], row[4])
    return cells_of


def _case_trend(
    case: dict[str, Any], cells: list[tuple[int, list[str], str | None, str | None]], runs: list[RunPoint]
) -> CaseTrend:
    """One case's trend from its cells (see :func:`_cells_by_case`)."""
    trend = CaseTrend(case)
    counts = dict.fromkeys((PASS, FAIL, ERROR, UNKNOWN, "other"), 0)
    graded: list[str] = []
    segments: list[int] = []
    verdicts: list[tuple[int, dict[str, Any], str | None]] = []
    for position, statuses, anchor, reason in cells:
        point = runs[position]
        trend.cells.append((point.run, statuses, anchor, reason))
        for status in statuses:
            counts[status if status in _COUNTED else "other"] += 1
        if point.limitation:
            trend.under_limitation += len(statuses)
            continue
        shown = statuses[0] if len(statuses) == 1 else cell_status(statuses)
        before = len(graded)
        if len(statuses) == 1:
            if shown in GRADED:
                graded.append(shown)
        else:
            graded.extend(status for status in statuses if status in GRADED)
        segments.extend([point.segment] * (len(graded) - before))
        verdicts.append((position, point.run, shown if shown in GRADED else None))
    trend.counts = counts
    trend.graded = len(graded)
    passes = graded.count(PASS)
    trend.pass_rate = round(100 * passes / len(graded), 2) if graded else None
    trend.interval = percent_interval(passes, len(graded))
    trend.flips, trend.flakiness = flips_and_flakiness(graded, segments)
    trend.regression = regression_point(verdicts)
    current = runs[-1].segment if runs else 0
    in_segment = [status for status, segment in zip(graded, segments, strict=True) if segment == current]
    trend.segment_graded = len(in_segment)
    trend.segment_pass_rate = round(100 * in_segment.count(PASS) / len(in_segment), 2) if in_segment else None
    return trend


def series_trends(data: SeriesData) -> SeriesTrends:
    """Compute every trend of one series from its stored rows."""
    fingerprints = fingerprint_changes(data.runs)
    changes = zip(data.runs, fingerprints, tool_changes(data.runs), segment_numbers(fingerprints), strict=True)
    runs = [_run_point(run, changed, tools, segment) for run, changed, tools, segment in changes]
    cells_of = _cells_by_case(data.results, {run["id"]: index for index, run in enumerate(data.runs)})
    cases = sorted(data.cases.values(), key=_case_order)
    return SeriesTrends(
        data.test_set_name,
        data.agent_name,
        runs,
        limitation_episodes(data.runs),
        [_case_trend(case, cells_of.get(case["id"], []), runs) for case in cases],
        data.verdicts,
        data.judge_unstable,
    )


def ranked(cases: Sequence[CaseTrend]) -> list[CaseTrend]:
    """Cases most in need of a look first: regressed after a pass (newest first), then the flakiest, then the rest."""

    def key(item: tuple[int, CaseTrend]) -> tuple[Any, ...]:
        index, trend = item
        regression = trend.regression
        regressed = regression is not None and regression.last_pass is not None
        return (
            0 if regressed else 1 if (trend.flakiness or 0) > 0 else 2,
            -regression.position if regressed and regression else 0,
            -(trend.flakiness or 0),
            index,
        )

    return [trend for _, trend in sorted(enumerate(cases), key=key)]


__all__ = [
    "ERROR",
    "FAIL",
    "FINGERPRINT_COLUMNS",
    "GRADED",
    "PASS",
    "SEGMENT_PARTS",
    "UNKNOWN",
    "CaseTrend",
    "Episode",
    "Regression",
    "RunPoint",
    "SeriesTrends",
    "cell_status",
    "fingerprint_changes",
    "flips_and_flakiness",
    "limitation_episodes",
    "percent_interval",
    "ranked",
    "regression_point",
    "segment_numbers",
    "segment_words",
    "series_trends",
    "tool_changes",
]
