"""A run folder as a :class:`RunRecord`: read through ``read_run_folder``, never through the internals of ``runs``.

run.json gives the run and its results; the kept test set gives each case's question; the
evidence files give what run.json does not hold: the session's tokens and premium requests and
the model that answered. A run's ``fingerprints``, ``shard`` (``run --shard I/N``), ``merge``,
``minPassRate``, ``caseRepeats``, ``repeatsIndependent``, its rate-limit retries (``execution``)
and ``platformRun`` are stored when run.json has them and stay ``None`` when absent. Redaction is the store's job (it
scrubs everything on the way in).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import EvalCaseResult, EvalRun, turn_numbers
from copilot_eval.evalsets.quality_parts import quality_parts
from copilot_eval.history.provenance import Provenance
from copilot_eval.history.records import CaseRecord, GradeFacts, MergeFacts, RunRecord, VerdictRecord, case_key
from copilot_eval.reports.findings import read_findings
from copilot_eval.reports.html_run import REPORT_HTML, case_anchor
from copilot_eval.reports.run_folder import RunFolder, read_run_folder


def fingerprints_of(run: EvalRun) -> dict[str, str | None]:
    """``fingerprints`` of run.json (content hashes of test set, agent, graders); each None when absent."""
    found = run.fingerprints
    if found is None:
        return {"testSet": None, "agent": None, "graders": None}
    return {"testSet": found.test_set, "agent": found.agent, "graders": found.graders}


def shard_of(run: EvalRun) -> tuple[int | None, int | None]:
    """``shard`` of run.json as (index, count); (None, None) for a run that was not sharded."""
    return (run.shard.index, run.shard.count) if run.shard is not None else (None, None)


def merge_of(run: EvalRun) -> MergeFacts | None:
    """``merge`` of run.json (a run of ``copilot-eval merge``); None for any other run."""
    found = run.merge
    return None if found is None else MergeFacts(found.shard_count, list(found.shards), found.complete)


def rate_limit_retries(run: EvalRun) -> int | None:
    """How many plays were retried after a rate limit; None when the run recorded no execution."""
    if run.execution is None:
        return None
    return sum(1 for retry in run.execution.retries if retry.cause == "rate_limit")


def platform_identity(run: EvalRun) -> tuple[str | None, ...] | None:
    """The ids that name a platform's run (source, API, environment, bot, run); None for runs made here."""
    record = run.platform_run
    if record is None or not record.run_id:
        return None
    return (record.source, record.api_url, record.environment_id, record.bot_id, record.run_id)


def verdicts_of(run: EvalRun) -> list[VerdictRecord]:
    """Each case over its repeats as run.json's ``caseRepeats`` keeps it (empty for a run without them)."""
    # caseRepeats names a case by its numbers; its key is the one its results carry (a prompt row's name).
    keys = {(r.conversation_number, r.turn or 1): r.key for r in run.results or []}
    verdicts = []
    for item in run.case_repeats or []:
        interval = item.pass_rate_interval
        verdicts.append(
            VerdictRecord(
                key=keys.get((item.conversation_number, item.turn or 1))
                or case_key(item.conversation_number, item.turn),
                attempts=item.attempts,
                tries=item.tries,
                passes=item.passes,
                errors=item.errors,
                pass_rate=item.pass_rate,
                interval=(interval[0], interval[1]) if interval and len(interval) == 2 else None,
                verdict=str(item.verdict.value) if item.verdict is not None else None,
                judge_unstable=item.judge_unstable,
                flaky=item.flaky,
            )
        )
    return verdicts


def _judge_unstable(result: EvalCaseResult) -> bool | None:
    # No judge's calls recorded: whether a judge would have wavered is unknown, not "stable".
    if not any(grade.judge is not None for grade in result.grades):
        return None
    return result.judge_unstable


def grade_facts(result: EvalCaseResult) -> tuple[GradeFacts, ...]:
    """Each grader's verdict on ``result`` as the history keeps it (General quality with its parts)."""
    return tuple(
        GradeFacts(
            method=grade.method,
            status=str(grade.status.value),
            score=grade.score,
            passing_score=grade.passing_score,
            parts=quality_parts(grade) or None,
            judge_unstable=None if grade.judge is None else grade.judge.unstable,
        )
        for grade in result.grades
    )


def _score(result: EvalCaseResult) -> float | None:
    # A case is as good as its weakest grader: the lowest score any grader gave.
    scores = [grade.score for grade in result.grades if grade.score is not None]
    return min(scores) if scores else None


def _session_facts(evidence: dict[str, Any] | None) -> tuple[int | None, float | None, str | None]:
    """Tokens, premium requests and model of a CopilotResult's JSON; Nones for any other evidence."""
    derived = evidence.get("derived") if evidence else None
    if not evidence or not isinstance(derived, dict):
        return None, None, None
    usage = derived.get("token_usage")
    tokens = usage.get("total_tokens") if isinstance(usage, dict) else None
    premium = derived.get("total_premium_requests")
    configuration = evidence.get("configuration")
    model = evidence.get("model_used") or (configuration.get("model") if isinstance(configuration, dict) else None)
    return (
        tokens if isinstance(tokens, int) else None,
        float(premium) if isinstance(premium, (int, float)) else None,
        str(model) if model else None,
    )


def _tools_of(evidence: dict[str, Any] | None, into: dict[str, set[str]]) -> bool:
    """Add a CopilotResult's ``tool_definitions`` (name -> hash) to ``into``; whether it had any."""
    found = evidence.get("tool_definitions") if evidence else None
    if not isinstance(found, dict):
        return False
    for name, digest in found.items():
        if isinstance(name, str) and isinstance(digest, str):
            into.setdefault(name, set()).add(digest)
    return True


def _agent_model(models: Counter[str]) -> str | None:
    """The model that answered: one name, or the names joined when the run's sessions differed."""
    if not models:
        return None
    return ", ".join(sorted(models)) if len(models) > 1 else next(iter(models))


def _questions(folder: RunFolder) -> dict[tuple[int, int], str]:
    if folder.test_set is None:
        return {}
    cases = folder.test_set.cases
    return {
        (case.conversation_number, turn): case.question for case, turn in zip(cases, turn_numbers(cases), strict=True)
    }


def _case_records(
    folder: RunFolder,
) -> tuple[list[CaseRecord], Counter[str], dict[str, list[str]] | None]:
    """One CaseRecord per result, how many sessions each model answered, and the tools they offered (the evidence)."""
    questions = _questions(folder)
    facts: dict[str, tuple[int | None, float | None, str | None]] = {}
    models: Counter[str] = Counter()
    tools: dict[str, set[str]] = {}
    tools_seen = False
    cases = []
    for result in folder.run.results or []:
        stored = result.evidence_path
        if stored and stored not in facts:  # a conversation's turns share one session's evidence
            evidence = folder.load_evidence(stored)
            facts[stored] = _session_facts(evidence)
            tools_seen = _tools_of(evidence, tools) or tools_seen
            model = facts[stored][2]
            if model:
                models[model] += 1
        tokens, premium, _ = facts.get(stored or "", (None, None, None))
        status = result.effective_status
        cases.append(
            CaseRecord(
                key=result.key,
                status=str(getattr(status, "value", status)),
                conversation_number=result.conversation_number,
                turn=result.turn or 1,
                repeat_index=result.repeat_index or 0,
                question=questions.get((result.conversation_number, result.turn or 1)),
                score=_score(result),
                reason=result.failure_reason,
                duration_ms=result.duration_ms,
                session_tokens=tokens,
                session_premium_requests=premium,
                evidence_path=stored,
                report_anchor=case_anchor(result.conversation_number, result.turn, result.repeat_index),
                identity=(
                    result.actual_response,
                    [[grade.method, str(grade.status), grade.score] for grade in result.grades],
                ),
                platform_case_id=result.case_id,
                judge_unstable=_judge_unstable(result),
                grades=grade_facts(result),
            )
        )
    hashes = {name: sorted(found) for name, found in sorted(tools.items())} if tools_seen else None
    return cases, models, hashes


def record_from_folder(
    folder: RunFolder, *, source: str, provenance: Provenance | None = None, report_to_come: bool = False
) -> RunRecord:
    """The RunRecord of a run folder already read; evidence files are read once each.

    ``report_to_come``: the finisher records a folder before it writes its report (which shows the
    history's notices), so the record keeps the report's path though the file is not there yet.
    """
    run = folder.run
    cases, models, tool_hashes = _case_records(folder)
    shard_index, shard_count = shard_of(run)
    report = folder.folder / REPORT_HTML
    standing = run.limitation_standing
    # Field by field, like triggers/outcome.TriggerOutcome.record builds its PlayRecord: alike in shape only.
    return RunRecord(
        test_set_name=run.test_set_name,
        source=source,
        passed=run.passed,
        failed=run.failed,
        errored=run.errored,
        not_graded=run.not_graded,
        # run.json keeps 0 % beside gradedCases 0; the history stores no score where none exists.
        score_percent=run.general_quality_percent if run.graded else None,
        cases=cases,
        agent_name=run.agent_name,
        agent_model=_agent_model(models),
        run_at=run.run_at,
        duration_ms=run.duration_ms,
        tested_by=run.tested_by,
        confidence=str(run.confidence.value) if run.confidence else None,
        runtime_limitation=run.runtime_limitation,
        limitation_standing=str(getattr(standing, "value", standing)) if standing else None,
        limitation_confirmed_by=list(run.limitation_confirmed_by) or None,
        note=run.note,
        fingerprints=fingerprints_of(run),
        shard_index=shard_index,
        shard_count=shard_count,
        merge=merge_of(run),
        min_pass_rate=run.min_pass_rate,
        repeats_independent=run.repeats_independent,
        repeat_dependence=run.repeat_dependence,
        rate_limit_retries=rate_limit_retries(run),
        verdicts=verdicts_of(run),
        platform_identity=platform_identity(run),
        platform_state=run.platform_run.state if run.platform_run is not None else None,
        provenance=provenance or Provenance(),
        run_folder=str(folder.folder.resolve()),
        report_path=str(report.resolve()) if report_to_come or report.is_file() else None,
        schema_version=run.schema_version,
        tool_hashes=tool_hashes,
        not_run=run.not_run,
        usage=run.usage.model_dump(mode="json", by_alias=True) if run.usage is not None else None,
        findings=_findings(folder.folder),
    )


def _findings(folder: Path) -> dict[str, int] | None:
    """Findings per scanner in the folder's ``scans/``; None when no scanner ran over it."""
    scans = read_findings(folder)
    return scans.counts() if scans.scanners else None


def record_run_folder(
    path: Path | str | RunFolder, *, source: str, provenance: Provenance | None = None, report_to_come: bool = False
) -> RunRecord:
    """Read the run folder at ``path`` (EvalSetReadError names a bad one) and return its RunRecord."""
    folder = read_run_folder(path)
    return record_from_folder(folder, source=source, provenance=provenance, report_to_come=report_to_come)


__all__ = [
    "fingerprints_of",
    "grade_facts",
    "merge_of",
    "platform_identity",
    "rate_limit_retries",
    "record_from_folder",
    "record_run_folder",
    "shard_of",
    "verdicts_of",
]
