"""Run a Copilot Studio test set on the platform, or read a run it made, into a run folder.

``start_studio_run``: resolve the test set, start one run (never retried), note it in the ledger,
poll it to its end, download the tested agent's snapshot, join an export's text if given, and
write the folder. ``read_studio_run`` does the same for an existing run without starting one.
Input that can be checked before a run is spent (the export file, the ``--confirm-with`` folders,
the test set's name and state) is checked first. A refused join keeps the run: the folder is
written without the text and the outcome carries the refusal.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_bytes_atomically, write_text_atomically
from copilot_eval.evalsets import EvalRun, EvalTestSet, ExportedResult, PlatformRunRecord, SnapshotRecord
from copilot_eval.platform_runs.export_join import ExportJoinError, join_export
from copilot_eval.platform_runs.standing import confirm_with_folders, same_test_set_problem
from copilot_eval.platform_runs.studio import SOURCE, refused_signal, run_from_studio
from copilot_eval.reports.run_folder import RunFolder
from copilot_eval.safe_paths import path_component
from copilot_eval.studio_eval import (
    LedgerEntry,
    PublishedRunError,
    RunInProgressError,
    RunLedger,
    StudioEvalClient,
    StudioEvalError,
    StudioRun,
    StudioTestSet,
    ThrottledError,
    progress_line,
    wait_for_run,
)
from copilot_eval.studio_eval.ledger import standing_line

# Constants, an error class and an options record: alike in shape only to first_steps/starter.py's head.
RUN_EVIDENCE = "evidence/studio-run.json"
HTTP_EVIDENCE = "evidence/studio-http.json"
SNAPSHOT_DIR = "snapshot"


class StudioInputError(ValueError):
    """Input the platform cannot run: an unknown, ambiguous or inactive test set; the message says which."""


@dataclass(frozen=True)
class StudioOptions:
    """What to run and how: surface, connection, polling, the export to join, the runs that may confirm."""

    published: bool = False
    connection_id: str | None = None
    run_name: str | None = None
    poll_s: float = 20.0
    timeout_s: float = 1800.0
    export_path: Path | None = None
    export_rows: Sequence[ExportedResult] | None = None
    export_match: str = "verified"
    confirm_with: Sequence[RunFolder] = ()


@dataclass
class StudioOutcome:
    """What a studio-eval command produced: the run folder, the run, and the problem that stopped it, if any."""

    folder: Path | None = None
    run: EvalRun | None = None
    test_set: EvalTestSet | None = None
    problem: Exception | None = None
    lines: list[str] = field(default_factory=list)


def resolve_test_set(sets: Sequence[StudioTestSet], wanted: str) -> StudioTestSet:
    """The test set ``wanted`` names (id, else display name); StudioInputError when none, several or inactive."""
    found = [s for s in sets if s.id == wanted] or [s for s in sets if s.display_name == wanted]
    found = found or [s for s in sets if (s.display_name or "").casefold() == wanted.casefold()]
    listing = ", ".join(f"{s.display_name!r} ({s.id})" for s in sets) or "none"
    if not found:
        raise StudioInputError(f"--test-set {wanted!r}: no test set has this id or name; the agent has: {listing}")
    if len(found) > 1:
        ids = ", ".join(s.id for s in found)
        raise StudioInputError(f"--test-set {wanted!r}: {len(found)} test sets have this name ({ids}); pass the id")
    chosen = found[0]
    if chosen.state not in (None, "Active"):
        raise StudioInputError(
            f"--test-set {wanted!r}: test set {chosen.id} is {chosen.state}; only active test sets run "
            "(activate it in Copilot Studio's Evaluate tab)"
        )
    return chosen


def check_confirmers(folders: Sequence[RunFolder], test_set_id: str | None) -> None:
    """StudioInputError when a ``--confirm-with`` folder is a run of another platform test set."""
    problems = [p for p in (same_test_set_problem(test_set_id, f) for f in folders) if p]
    if problems:
        raise StudioInputError("; ".join(problems))


def _write_json(folder: Path, name: str, data: Any) -> None:
    write_text_atomically(folder / name, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


async def _snapshot(client: StudioEvalClient, run_id: str, folder: Path, lines: list[str]) -> SnapshotRecord | None:
    try:
        snapshot = await client.download_snapshot(run_id)
    except StudioEvalError as exc:
        lines.append(f"snapshot of the tested agent not kept: {exc}")
        return None
    name = snapshot.file_name or f"agent-snapshot-{run_id}.zip"
    name = path_component(name, fallback=f"agent-snapshot-{run_id}.zip", separator="_")  # the service's name
    path = write_bytes_atomically(folder / SNAPSHOT_DIR / name, snapshot.content)
    data = path.read_bytes()  # the hash of the file as kept, which is what a reader can check
    lines.append(f"tested agent snapshot: {path} ({len(data)} bytes)")
    return SnapshotRecord(
        path=f"{SNAPSHOT_DIR}/{name}",
        sha256=hashlib.sha256(data).hexdigest(),
        bytes=len(data),
        content_type=snapshot.content_type,
    )


def _record(
    client: StudioEvalClient, test_set: StudioTestSet | None, run: StudioRun | None, **extra: Any
) -> PlatformRunRecord:
    return PlatformRunRecord(
        source=SOURCE,
        api_url=client.api_url,
        environment_id=client.environment_id,
        bot_id=client.bot_id,
        test_set_id=(run.test_set_id if run else None) or (test_set.id if test_set else None),
        test_set_name=test_set.display_name if test_set else None,
        run_id=run.id if run else None,
        run_name=run.name if run else None,
        state=run.state if run else None,
        execution_state=run.execution_state if run else None,
        connection_id=run.connection_id if run else None,
        start_time=run.start_time if run else None,
        end_time=run.end_time if run else None,
        total_test_cases=(run.total_test_cases if run else None) or (test_set.total_test_cases if test_set else None),
        **extra,
    )


async def _finish(
    client: StudioEvalClient,
    folder: Path,
    test_set: StudioTestSet | None,
    run: StudioRun,
    options: StudioOptions,
    outcome: StudioOutcome,
    *,
    published: bool | None,
) -> StudioOutcome:
    """Snapshot, join, map, confirm and write the folder of a finished (or last-read) run."""
    snapshot = await _snapshot(client, run.id, folder, outcome.lines)
    rows: dict[int, ExportedResult] = {}
    join_record = None
    if options.export_rows is not None and options.export_path is not None:
        try:
            join = join_export(
                run.results, list(options.export_rows), path=options.export_path, mode=options.export_match
            )
            rows, join_record = join.rows, join.record
            outcome.lines.extend(join.lines)
        except ExportJoinError as exc:
            outcome.problem = exc  # the run is kept; only the text is missing
    record = _record(client, test_set, run, published=published, snapshot=snapshot, export_join=join_record)
    _write_json(folder, RUN_EVIDENCE, run.raw)
    _write_json(folder, HTTP_EVIDENCE, client.exchanges)
    evidence = [RUN_EVIDENCE, HTTP_EVIDENCE, *([snapshot.path] if snapshot else [])]
    if options.export_path is not None and join_record is not None:
        evidence.append(options.export_path.name)
    eval_run, eval_set = run_from_studio(run, record, rows=rows, evidence=evidence)
    return _write(eval_run, eval_set, folder, options, outcome)


def _write(
    eval_run: EvalRun, eval_set: EvalTestSet, folder: Path, options: StudioOptions, outcome: StudioOutcome
) -> StudioOutcome:
    """Apply the standing rule with the ``--confirm-with`` runs and fill the outcome (the finisher writes the folder)."""
    eval_run, note = confirm_with_folders(eval_run, options.confirm_with)
    if note:
        outcome.lines.append(f"runtime limitation confirmed by {note}")
    outcome.folder, outcome.run, outcome.test_set = folder, eval_run, eval_set
    return outcome


async def _busy_hint(client: StudioEvalClient) -> str | None:
    """Which run keeps the agent busy, from the run list (a read: it costs no run)."""
    try:
        runs = await client.list_runs()
    except StudioEvalError:
        return None
    active = [r for r in runs if not r.finished]
    if not active:
        return None
    return "in progress now: " + "; ".join(
        f"{progress_line(r)} (read it with `copilot-eval studio-eval get {r.id} ...`)" for r in active[:3]
    )


async def start_studio_run(
    client: StudioEvalClient,
    test_set_ref: str,
    folder: Path,
    options: StudioOptions,
    *,
    say: Callable[[str], None] = lambda line: None,
    ledger: RunLedger | None = None,
) -> StudioOutcome:
    """Start one run of ``test_set_ref`` and read it into ``folder``; platform errors end in ``problem``."""
    ledger = ledger or RunLedger()
    test_set = resolve_test_set(await client.list_test_sets(), test_set_ref)
    check_confirmers(options.confirm_with, test_set.id)  # before a run is spent
    before = len(ledger.started_recently(client.environment_id, client.bot_id))
    say(standing_line(before))
    name = (
        options.run_name or f"copilot-eval {test_set.display_name or test_set.id} {datetime.now(UTC):%Y-%m-%d %H:%M}Z"
    )
    try:
        status = await client.run_test_set(
            test_set.id, run_name=name, published=options.published, connection_id=options.connection_id
        )
    except (PublishedRunError, RunInProgressError, ThrottledError) as exc:
        return await _refused(client, test_set, folder, options, exc, started_before=before)
    ledger.record(
        LedgerEntry(
            started_at=datetime.now(UTC).isoformat(),
            environment_id=client.environment_id,
            bot_id=client.bot_id,
            test_set_id=test_set.id,
            run_id=status.run_id,
            published=options.published,
        )
    )
    say(
        f"started run {status.run_id} of test set {test_set.display_name!r} on the {'published agent' if options.published else 'draft'}"
    )
    run = await wait_for_run(
        client, status.run_id, poll_s=options.poll_s, timeout_s=options.timeout_s, on_progress=_printer(say)
    )
    return await _finish(client, folder, test_set, run, options, StudioOutcome(), published=options.published)


async def _refused(
    client: StudioEvalClient,
    test_set: StudioTestSet,
    folder: Path,
    options: StudioOptions,
    exc: StudioEvalError,
    *,
    started_before: int,
) -> StudioOutcome:
    """The outcome of a run request the platform refused: busy, the daily limit, or the published 500."""
    outcome = StudioOutcome(problem=exc)
    if isinstance(exc, RunInProgressError):
        hint = await _busy_hint(client)
        outcome.lines = [hint] if hint else []
        return outcome
    if isinstance(exc, ThrottledError):
        outcome.lines.append(
            standing_line(started_before) + "; the run request is not retried, since a retry cannot lift the limit"
        )
        if exc.resets_at is not None:
            outcome.lines.append(f"the platform says the limit lifts at {exc.resets_at:%Y-%m-%d %H:%M:%S}Z")
        return outcome
    # The published 500 is a record of its own: the platform refused that surface; the draft is the way on.
    record = _record(client, test_set, None, published=True, http_status=exc.status)
    _write_json(folder, HTTP_EVIDENCE, client.exchanges)
    eval_run, eval_set = run_from_studio(
        None,
        record,
        signals=[refused_signal(f"HTTP {exc.status} {exc.code or ''}: {exc.message}", published=True)],
        evidence=[HTTP_EVIDENCE],
    )
    return _write(eval_run, eval_set, folder, options, outcome)


def _printer(say: Callable[[str], None]) -> Callable[[StudioRun], None]:
    last: list[str] = []

    def show(run: StudioRun) -> None:
        line = progress_line(run)
        if not last or last[-1] != line:  # one line per change, not per poll
            last.append(line)
            say(line)

    return show


# The same parameters as start_studio_run on purpose: the two entries `studio-eval run` and `get` call alike;
# kept as parameters (not one context object) so that each call reads whole at its one caller.
async def read_studio_run(
    client: StudioEvalClient,
    run_id: str,
    folder: Path,
    options: StudioOptions,
    *,
    say: Callable[[str], None] = lambda line: None,
    ledger: RunLedger | None = None,
) -> StudioOutcome:
    """Read run ``run_id`` (waiting while it is still going, within the timeout) into ``folder``.

    The API does not say which surface a run ran on; a run this machine started is in the ledger,
    which says (so a run and its later read name the agent alike); for any other it stays unknown.
    """
    started = [e for e in (ledger or RunLedger()).entries() if e.run_id == run_id]
    published = started[-1].published if started else None
    run = await wait_for_run(
        client, run_id, poll_s=options.poll_s, timeout_s=options.timeout_s, on_progress=_printer(say)
    )
    check_confirmers(options.confirm_with, run.test_set_id)
    test_set = None
    if run.test_set_id:
        try:
            test_set = await client.get_test_set(run.test_set_id)
        except StudioEvalError as exc:
            say(f"test set {run.test_set_id} could not be read ({exc.status}); its name stays unknown")
    return await _finish(client, folder, test_set, run, options, StudioOutcome(), published=published)


__all__ = [
    "HTTP_EVIDENCE",
    "RUN_EVIDENCE",
    "SNAPSHOT_DIR",
    "StudioInputError",
    "StudioOptions",
    "StudioOutcome",
    "check_confirmers",
    "read_studio_run",
    "resolve_test_set",
    "start_studio_run",
]
