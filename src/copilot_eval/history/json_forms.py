"""The documented JSON forms of ``history runs --json`` and ``history trends --json`` (docs/history.md).

They are a stable interface: keys are camelCase, never removed or renamed within a
``schemaVersion``, unknown values are ``null`` (never 0), times are ISO 8601 in UTC, percentages
are 0-100. New keys may appear; a reader ignores what it does not know.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from copilot_eval.history.trends import FINGERPRINT_COLUMNS, CaseTrend, Episode, Regression, RunPoint, SeriesTrends

JSON_SCHEMA_VERSION = 1
"""The version of both JSON forms."""


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _percent(fraction: float | None, digits: int = 2) -> float | None:
    return None if fraction is None else round(100 * fraction, digits)


def _shard(run: dict[str, Any]) -> dict[str, Any] | None:
    if run["shard_index"] is None and run["shard_count"] is None:
        return None
    return {"index": run["shard_index"], "count": run["shard_count"]}


def _merge(run: dict[str, Any]) -> dict[str, Any] | None:
    if run.get("merge_shard_count") is None:
        return None
    return {
        "shardCount": run["merge_shard_count"],
        "shards": run["merged_shards"] or [],
        "complete": run["merge_complete"],
    }


def _round_facts(run: dict[str, Any]) -> dict[str, Any]:
    """What a run recorded of its shards or merge, its repeats, retries and platform run (both JSON forms)."""
    return {
        "shard": _shard(run),
        "merge": _merge(run),
        "mergedInto": run.get("merged_into"),
        "minPassRate": _percent(run.get("min_pass_rate")),
        "repeatsIndependent": run.get("repeats_independent"),
        "repeatDependence": run.get("repeat_dependence"),
        "rateLimitRetries": run.get("rate_limit_retries"),
        "platformRunId": run.get("platform_run_id"),
        "platformState": run.get("platform_state"),
    }


def _fingerprints(run: dict[str, Any]) -> dict[str, str | None]:
    return {name: run[column] for name, column in FINGERPRINT_COLUMNS.items()}


def run_json(run: dict[str, Any]) -> dict[str, Any]:
    """One stored run as the ``runs`` entries of ``history runs --json``."""
    return {
        "id": run["id"],
        "runKey": run["run_key"],
        "testSet": run["test_set_name"],
        "agent": run["agent_name"],
        "agentModel": run["agent_model"],
        "runAt": _time(run["run_at"]),
        "recordedAt": _time(run["recorded_at"]),
        "durationMs": run["duration_ms"],
        "results": run["case_count"],
        "passed": run["passed"],
        "failed": run["failed"],
        "errored": run["errored"],
        "notGraded": run["not_graded"],
        "notRun": run.get("not_run"),
        "gradedCases": run["passed"] + run["failed"],
        "scorePercent": run["score_percent"],
        "confidence": run["confidence"],
        "runtimeLimitation": run["runtime_limitation"],
        "limitationStanding": run["limitation_standing"],
        "limitationConfirmedBy": run["limitation_confirmed_by"] or [],
        "fingerprints": _fingerprints(run),
        **_round_facts(run),
        "git": {"commit": run["git_commit"], "branch": run["git_branch"]},
        "ciRunUrl": run["ci_run_url"],
        "source": run["source"],
        "runFolder": run["run_folder"],
        "report": run["report_path"],
        "note": run["note"],
        "usage": run.get("usage"),
        "findings": run.get("findings"),
    }


def runs_document(runs: list[dict[str, Any]], *, database: str) -> dict[str, Any]:
    """The whole ``history runs --json`` document."""
    return {"schemaVersion": JSON_SCHEMA_VERSION, "database": database, "runs": [run_json(run) for run in runs]}


def _interval(value: tuple[float, float] | None) -> dict[str, float] | None:
    return None if value is None else {"low": value[0], "high": value[1]}


def _run_ref(run: dict[str, Any] | None) -> dict[str, Any] | None:
    if run is None:
        return None
    return {"run": run["id"], "runAt": _time(run["run_at"]), "commit": run["git_commit"], "branch": run["git_branch"]}


def _point(point: RunPoint) -> dict[str, Any]:
    run = point.run
    return {
        **(_run_ref(run) or {}),
        "passRate": point.pass_rate,
        "interval": _interval(point.interval),
        "passed": run["passed"],
        "failed": run["failed"],
        "errored": run["errored"],
        "notGraded": run["not_graded"],
        "results": run["case_count"],
        "limitation": point.limitation,
        "limitationStanding": run["limitation_standing"],
        "fingerprints": _fingerprints(run),
        "changed": point.changed,
        "agentChanged": point.changed.get("agent"),
        "toolsChanged": point.tools_changed,
        "segment": point.segment,
        "startsSegment": point.starts_segment,
        **_round_facts(run),
    }


def _episode(episode: Episode) -> dict[str, Any]:
    return {
        "firstRun": episode.first_run,
        "lastRun": episode.last_run,
        "runs": episode.runs,
        "standing": episode.standing,
        "ongoing": episode.ongoing,
    }


def _regression(regression: Regression | None) -> dict[str, Any] | None:
    if regression is None:
        return None
    return {**(_run_ref(regression.run) or {}), "lastPass": _run_ref(regression.last_pass)}


def _verdict(row: dict[str, Any] | None) -> dict[str, Any] | None:
    """A case's verdict over its repeats in one run; ``metRate`` is None without a minimum rate or a graded try."""
    if row is None:
        return None
    low, high = row["interval_low"], row["interval_high"]
    verdict = row["verdict"]
    return {
        "attempts": row["attempts"],
        "tries": row["tries"],
        "passes": row["passes"],
        "errors": row["errors"],
        "passRate": _percent(row["pass_rate"]),
        "interval": None if low is None or high is None else {"low": _percent(low, 1), "high": _percent(high, 1)},
        "verdict": verdict,
        "metRate": verdict == "pass" if verdict in ("pass", "fail") else None,
        "judgeUnstable": row["judge_unstable"],
        "flaky": row["flaky"],
    }


def _case(trend: CaseTrend, trends: SeriesTrends) -> dict[str, Any]:
    case = trend.case
    return {
        "key": case["case_key"],
        "conversation": case["conversation_number"],
        "turn": case["turn"],
        "question": case["question"],
        "statuses": [
            {
                "run": run["id"],
                "statuses": statuses,
                "limitation": bool(run["runtime_limitation"]),
                "verdict": _verdict(trends.verdicts.get((run["id"], case["id"]))),
                "judgeUnstable": trends.judge_unstable.get((run["id"], case["id"])),
            }
            for run, statuses, _, _ in trend.cells
        ],
        "counts": trend.counts,
        "underLimitation": trend.under_limitation,
        "graded": trend.graded,
        "passRate": trend.pass_rate,
        "interval": _interval(trend.interval),
        "flips": trend.flips,
        "flakiness": trend.flakiness,
        "regression": _regression(trend.regression),
    }


def series_json(trends: SeriesTrends) -> dict[str, Any]:
    """One series of ``history trends --json``."""
    return {
        "testSet": trends.test_set_name,
        "agent": trends.agent_name,
        "runs": [_point(point) for point in trends.runs],
        "limitationEpisodes": [_episode(episode) for episode in trends.episodes],
        "cases": [_case(trend, trends) for trend in trends.cases],
    }


def trends_document(series: list[SeriesTrends], *, database: str, last: int | None) -> dict[str, Any]:
    """The whole ``history trends --json`` document."""
    return {
        "schemaVersion": JSON_SCHEMA_VERSION,
        "database": database,
        "window": last,
        "series": [series_json(item) for item in series],
    }


__all__ = ["JSON_SCHEMA_VERSION", "run_json", "runs_document", "series_json", "trends_document"]
