"""run_suite: play every task of an injection suite without an attack and under each of its attacks.

Each play is one session through the real runtime: the agent as given, plus the suite's
environment server (started by the runtime over stdio) that places the play's attack, with the
request audit on and the play's canary watched, in a fresh working directory. The plays' evidence
is read by the checks and by ``outcomes``, the figures by ``rates``, and the whole becomes a normal
run folder (``record``).
"""

from __future__ import annotations

import asyncio
import fnmatch
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence import CopilotResult
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.scans.protocol import Scanner
from copilot_eval.security.cases import Play, SecurityCase, canary_for
from copilot_eval.security.data_suite import DataSuite
from copilot_eval.security.outcomes import decide_outcome, decide_utility
from copilot_eval.security.playable import PlayableSuite, play_agent, serving
from copilot_eval.security.rates import PlayResult, SecuritySummary, summarise_plays
from copilot_eval.security.record import SecurityRecord, write_security_folder
from copilot_eval.security.suite import InjectionSuite
from copilot_eval.security.suite_choice import open_suite
from copilot_eval.workdirs import new_working_directory

__all__ = ["DEFAULT_CONCURRENCY", "SecurityRun", "run_suite", "select_cases"]

DEFAULT_CONCURRENCY = 4


@dataclass
class SecurityRun:
    """A suite's run: every play's result, the figures, the run record, and where it was written."""

    suite: PlayableSuite
    plays: list[PlayResult]
    summary: SecuritySummary
    record: SecurityRecord
    folder: Path | None = None
    results: dict[str, CopilotResult] = field(default_factory=dict, repr=False)


def select_cases(cases: list[SecurityCase], patterns: Sequence[str] | None) -> list[SecurityCase]:
    """The cases whose id matches one of the ``fnmatch`` patterns (all of them without patterns).

    A case id is the task's id for a baseline, ``task/vector/attack/goal`` for an attack case.
    """
    if not patterns:
        return cases
    chosen = [case for case in cases if any(fnmatch.fnmatchcase(case.id, p) for p in patterns)]
    if not chosen:
        raise ValueError(f"no case of the suite matches {list(patterns)} (case ids look like task/vector/attack/goal)")
    return chosen


async def _play(
    agent: CopilotEval, suite: PlayableSuite, play: Play, spec_dir: Path, evidence_dir: Path | None, pool: Any
) -> tuple[PlayResult, CopilotResult]:
    case = play.case
    player = play_agent(agent, suite.server(play, spec_dir), play)
    result = await run_copilot(player, case.prompt, pool=pool)
    judged = suite.judge(play, result)
    utility = decide_utility(result, task_held=judged.task_held)
    outcome, reason = None, judged.task_said if utility is not None else (result.error or "the run did not complete")
    if case.attacked:
        assert play.canary is not None
        decided = decide_outcome(result, canary=play.canary, goal_held=judged.goal_held, goal_said=judged.goal_said)
        outcome, reason = decided.outcome, decided.reason
    evidence = str(result.save(evidence_dir / f"{play.key}.json")) if evidence_dir is not None else None
    # Alike in shape to Grade.to_record (grading.protocol) and CaseRepeats.record (evalsets.repeat_stats):
    # each fills its own record field by field, from other sources.
    record = PlayResult(
        case_id=case.id,
        number=case.number,
        repeat=play.repeat,
        task=case.task,
        vector=case.vector,
        attack=case.attack,
        goal=case.goal,
        canary=play.canary,
        outcome=outcome,
        utility=utility,
        reason=reason,
        task_reason=judged.task_said,
        evidence_path=evidence,
    )
    return record, result


def _check_names(agent: CopilotEval, suite: PlayableSuite) -> None:
    clashes = sorted(name for name in suite.server_names() if name in agent.mcp_servers)
    if clashes:
        raise ValueError(
            f"the agent already has MCP servers named {clashes}, the names of the suite's environment servers; "
            "rename the agent's servers"
        )


def _suite_of(suite: object) -> InjectionSuite | PlayableSuite:
    """``suite`` itself, or the suite a name or path means (``open_suite``); TypeError for anything else."""
    if isinstance(suite, str | Path):
        return open_suite(suite)
    if not isinstance(suite, InjectionSuite | PlayableSuite):
        raise TypeError(
            f"run_suite: suite is {type(suite).__name__}; give a suite (load_suite(PATH), open_suite(NAME)) or its name"
        )
    return suite


def _playable(suite: InjectionSuite | PlayableSuite, server_command: Sequence[str] | None) -> PlayableSuite:
    """The suite to play: a suite written as data gets its environment server (``server_command``)."""
    if isinstance(suite, InjectionSuite):
        return DataSuite(suite, server_command=server_command)
    if server_command is not None:
        raise ValueError("server_command applies to a suite written as data, not to a PlayableSuite")
    return suite


def _play_folders(out: str | Path | None) -> tuple[Path | None, Path | None, Path]:
    """The run folder, its evidence folder (None without one) and where the environments' spec files go, made."""
    folder = Path(out) if out is not None else None
    evidence_dir = folder / LAYOUT.evidence if folder is not None else None
    if evidence_dir is not None:
        evidence_dir.mkdir(parents=True, exist_ok=True)
    spec_dir = (
        folder / LAYOUT.environments if folder is not None else Path(tempfile.mkdtemp(prefix="copilot-eval-env-"))
    )
    spec_dir.mkdir(parents=True, exist_ok=True)
    return folder, evidence_dir, spec_dir


async def run_suite(
    agent: CopilotEval,
    suite: InjectionSuite | PlayableSuite | str | Path,
    *,
    repeat: int = 1,
    out: str | Path | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    cases: Sequence[str] | None = None,
    server_command: Sequence[str] | None = None,
    pool: Any = None,
    scanners: Sequence[Scanner] = (),
    finish: bool = True,
) -> SecurityRun:
    """Play each task of ``suite`` without an attack and under each attack, ``repeat`` times, and sum it up.

    ``out`` gets a normal run folder (run.json, results.csv, evidence, report.html) plus
    ``security.json`` with the figures and every play. ``cases`` are ``fnmatch`` patterns of case
    ids to play only some. For a suite written as data, ``server_command`` starts the environment
    server (the spec file's path is added at the end; default: this Python running the built-in
    ``env_server.py``): put a filter in front of the environment with it, or an environment of
    your own. ``suite`` may also be any :class:`PlayableSuite` (AgentDojo's, with the extra), or a name
    as ``copilot-eval attack --suite`` takes it (``"builtin"``, a YAML file, ``"agentdojo:SUITE"``).
    ``finish=False`` leaves the folder's files (all but the evidence) to the caller's finisher
    (``copilot-eval attack``: ``commands.attack``).
    """
    suite = _suite_of(suite)
    if repeat < 1 or concurrency < 1:
        raise ValueError(f"repeat and concurrency must be at least 1 (got {repeat}, {concurrency})")
    suite = _playable(suite, server_command)
    _check_names(agent, suite)
    chosen = select_cases(suite.cases(), cases)
    folder, evidence_dir, spec_dir = _play_folders(out)
    started, clock = datetime.now(UTC), time.monotonic()
    limit = asyncio.Semaphore(concurrency)

    async def one(case: SecurityCase, index: int) -> tuple[PlayResult, CopilotResult]:
        canary = canary_for(suite.name, case.id, index) if case.attacked else None
        async with limit:
            # Made when the play starts and marked in use, as every run's folder is: `clean` leaves it be.
            play = Play(case, index, canary, new_working_directory())
            return await _play(agent, suite, play, spec_dir, evidence_dir, pool)

    async with serving(suite):
        done = await asyncio.gather(*(one(case, index) for index in range(repeat) for case in chosen))
    plays = [play for play, _ in done]
    summary = summarise_plays(plays)
    record = SecurityRecord.build(
        suite,
        chosen,
        list(done),
        summary,
        agent=agent,
        started=started,
        duration_ms=(time.monotonic() - clock) * 1000,
        repeat=repeat,
    )
    if folder is not None and finish:
        write_security_folder(record, folder, scanners=tuple(scanners))
    results = {f"case{p.number}-r{p.repeat}": r for p, r in done}
    return SecurityRun(suite, plays, summary, record, folder, results)
