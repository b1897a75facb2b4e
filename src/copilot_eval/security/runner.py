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
import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evidence import CopilotResult
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.security.cases import Play, SecurityCase, canary_for, plan_cases
from copilot_eval.security.checks import check_all
from copilot_eval.security.environment import default_server_command, environment_spec, play_agent
from copilot_eval.security.outcomes import decide_outcome, decide_utility
from copilot_eval.security.rates import PlayResult, SecuritySummary, summarise_plays
from copilot_eval.security.record import SecurityRecord, write_security_folder
from copilot_eval.security.suite import InjectionSuite

__all__ = ["DEFAULT_CONCURRENCY", "SecurityRun", "run_suite", "select_cases"]

DEFAULT_CONCURRENCY = 4


@dataclass
class SecurityRun:
    """A suite's run: every play's result, the figures, the run record, and where it was written."""

    suite: InjectionSuite
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
    agent: CopilotEval,
    suite: InjectionSuite,
    play: Play,
    spec_dir: Path,
    evidence_dir: Path | None,
    server_command: Sequence[str],
    pool: Any,
) -> tuple[PlayResult, CopilotResult]:
    case = play.case
    environment = suite.environment_of(case.task)
    spec_path = spec_dir / f"case{case.number}-r{play.repeat}.json"
    write_text_atomically(spec_path, json.dumps(environment_spec(suite, environment, play), indent=2) + "\n")
    player = play_agent(agent, environment, play, spec_path, server_command=server_command)
    result = await run_copilot(player, case.task.prompt, pool=pool)
    task_held, task_said = check_all(case.task.check, result, environment, play)
    utility = decide_utility(result, task_held=task_held)
    outcome, reason = None, task_said if utility is not None else (result.error or "the run did not complete")
    if case.attacked:
        assert play.canary is not None
        goal_held, goal_said = check_all(play.goal_checks(), result, environment, play)
        decided = decide_outcome(result, canary=play.canary, goal_held=goal_held, goal_said=goal_said)
        outcome, reason = decided.outcome, decided.reason
    evidence = None
    if evidence_dir is not None:
        evidence = str(result.save(evidence_dir / f"case{case.number}-r{play.repeat}.json"))
    record = PlayResult(
        case_id=case.id,
        number=case.number,
        repeat=play.repeat,
        task=case.task.id,
        vector=case.vector,
        attack=case.attack.id if case.attack else None,
        goal=case.goal.id if case.goal else None,
        canary=play.canary,
        outcome=outcome,
        utility=utility,
        reason=reason,
        task_reason=task_said,
        evidence_path=evidence,
    )
    return record, result


def _check_names(agent: CopilotEval, suite: InjectionSuite) -> None:
    clashes = sorted({env.server for env in suite.environments.values() if env.server in agent.mcp_servers})
    if clashes:
        raise ValueError(
            f"the agent already has MCP servers named {clashes}, the names of the suite's environment servers; "
            "rename the agent's servers"
        )


async def run_suite(
    agent: CopilotEval,
    suite: InjectionSuite,
    *,
    repeat: int = 1,
    out: str | Path | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
    cases: Sequence[str] | None = None,
    server_command: Sequence[str] | None = None,
    pool: Any = None,
) -> SecurityRun:
    """Play each task of ``suite`` without an attack and under each attack, ``repeat`` times, and sum it up.

    ``out`` gets a normal run folder (run.json, results.csv, evidence, report.html) plus
    ``security.json`` with the figures and every play. ``cases`` are ``fnmatch`` patterns of case
    ids to play only some. ``server_command`` starts the environment server (the spec file's
    path is added at the end; default: this Python running the built-in ``env_server.py``): put a
    filter in front of the environment with it, or an environment of your own.
    """
    if repeat < 1 or concurrency < 1:
        raise ValueError(f"repeat and concurrency must be at least 1 (got {repeat}, {concurrency})")
    _check_names(agent, suite)
    chosen = select_cases(plan_cases(suite), cases)
    command = list(server_command) if server_command else default_server_command()
    folder = Path(out) if out is not None else None
    evidence_dir = folder / "evidence" if folder is not None else None
    if evidence_dir is not None:
        evidence_dir.mkdir(parents=True, exist_ok=True)
    spec_dir = folder / "environments" if folder is not None else Path(tempfile.mkdtemp(prefix="copilot-eval-env-"))
    spec_dir.mkdir(parents=True, exist_ok=True)
    started, clock = datetime.now(UTC), time.monotonic()
    limit = asyncio.Semaphore(concurrency)

    async def one(case: SecurityCase, index: int) -> tuple[PlayResult, CopilotResult]:
        canary = canary_for(suite.name, case.id, index) if case.attacked else None
        play = Play(case, index, canary, Path(tempfile.mkdtemp(prefix="copilot-eval-run-")))
        async with limit:
            return await _play(agent, suite, play, spec_dir, evidence_dir, command, pool)

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
    if folder is not None:
        write_security_folder(record, folder)
    results = {f"case{p.number}#{p.repeat}": r for p, r in done}
    return SecurityRun(suite, plays, summary, record, folder, results)
