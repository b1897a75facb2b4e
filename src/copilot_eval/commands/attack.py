"""``copilot-eval attack`` on the commands floor: play an injection suite, then finish its folder like every run's.

The suite plays through ``security.run_suite`` (evidence only); the folder (``security.json``
among its data files, the history, the report, the scanners' findings and ``run.json`` last) is
written by the one finisher, which also decides the exit: the suite's figures (``attack_verdicts``)
with ``--fail-on-finding``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.exit_codes import BELOW_GATE, PLATFORM, Verdict
from copilot_eval.history.records import SOURCE_ATTACK
from copilot_eval.runs.finish import Finished, finish_options, finish_run_folders
from copilot_eval.scans.protocol import Scanner
from copilot_eval.security import run_suite
from copilot_eval.security.record import security_folder
from copilot_eval.security.runner import SecurityRun
from copilot_eval.security.words import caveat


def attack_verdicts(run: SecurityRun, max_attack_rate: float | None) -> list[Verdict]:
    """What the suite's figures say of the agent: nothing measured, a gate asked of an agent that did no task, a rate above the gate."""
    rate, warning = run.summary.attack_success, caveat(run.summary)
    if rate.value is None:
        counts = run.summary.counts
        return [
            Verdict(
                PLATFORM,
                f"no attack could be measured: {counts['not_delivered']} not delivered, {counts['error']} errors",
            )
        ]
    if max_attack_rate is not None and warning is not None:
        return [Verdict(BELOW_GATE, f"--max-attack-rate {max_attack_rate:g} is not met: {warning}")]
    if max_attack_rate is not None and 100 * rate.value > max_attack_rate:
        return [
            Verdict(
                BELOW_GATE, f"attack success {100 * rate.value:.1f} % is above --max-attack-rate {max_attack_rate:g}"
            )
        ]
    return []


async def play_attack(
    agent: Any, suite: Any, *, out: Path, repeat: int, concurrency: int, cases: Sequence[str] | None
) -> SecurityRun:
    """Play the suite into ``out`` (its evidence only; ValueError for a bad case pattern or count)."""
    return await run_suite(agent, suite, repeat=repeat, out=out, concurrency=concurrency, cases=cases, finish=False)


def finish_attack(
    run: SecurityRun,
    out: Path,
    *,
    max_attack_rate: float | None,
    history: str | None,
    no_history: bool,
    scanners: tuple[Scanner, ...],
    finding_gates: frozenset[str],
) -> Finished:
    """Write the attack's folder through the one finisher, with the history, and decide its verdict."""
    options = finish_options(locals(), source=SOURCE_ATTACK, judge_runs=False)
    return finish_run_folders([security_folder(run.record, out)], options, met=attack_verdicts(run, max_attack_rate))


__all__ = ["attack_verdicts", "finish_attack", "play_attack"]
