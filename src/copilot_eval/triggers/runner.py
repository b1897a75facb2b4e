"""trigger_eval: play every prompt of a trigger set through the real runtime and sum up the choices.

Each play is one fresh session of the agent as a user mounts it (its skill folders, its custom
agents), the prompt sent as written (nothing added), the request audit on and each description
watched, so delivery is proven rather than assumed. With ``stop_at_choice`` the session ends at
the first ``skill`` or ``task`` call (``stop_at_tools``, recorded in the evidence's configuration):
the choice is what is measured. Plays share the runtime pool and run ``concurrency`` at a time,
as an injection suite's do.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evidence import CopilotResult
from copilot_eval.models.replay.wrap import with_test_set_cassettes
from copilot_eval.runs.finish import Finished, FinishOptions
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.triggers.catalogue import Catalogue, list_catalogue
from copilot_eval.triggers.figures import PlayRecord, TriggerFigures, summarise_triggers
from copilot_eval.triggers.gates import TriggerGates
from copilot_eval.triggers.outcome import CatalogueNeeds, decide_trigger_outcome
from copilot_eval.triggers.record import write_trigger_folder
from copilot_eval.triggers.trigger_set import TriggerPrompt, TriggerSet

__all__ = ["CHOICE_TOOL", "DEFAULT_CONCURRENCY", "DEFAULT_RUNS", "TriggerRun", "trigger_eval", "trigger_player"]

DEFAULT_RUNS = 3
DEFAULT_CONCURRENCY = 4
CHOICE_TOOL = "skill"
"""The tool whose call is a skill's choice; a custom agent's is a ``task`` call of its agent type (``task:NAME``)."""


@dataclass
class TriggerRun:
    """A trigger evaluation: the set, the catalogue as loaded, every play, the figures, and where it was written."""

    trigger_set: TriggerSet
    catalogue: Catalogue
    plays: list[PlayRecord]
    figures: TriggerFigures
    runs: int
    stop_at_choice: bool
    duration_s: float
    folder: Path | None = None
    results: dict[str, CopilotResult] = field(default_factory=dict, repr=False)
    finished: Finished | None = None  # what finishing the run folder said (its files, its verdict)

    @property
    def sessions_per_second(self) -> float | None:
        """Plays per second of wall time (the catalogue's listing session included)."""
        return len(self.plays) / self.duration_s if self.duration_s > 0 else None


def trigger_player(agent: CopilotEval, needs: CatalogueNeeds, *, stop_at_choice: bool) -> CopilotEval:
    """The agent as each play runs it: audit on, each description watched, stopping at the choice when asked."""
    markers = tuple(dict.fromkeys((*agent.audit_markers, *needs.markers.values())))
    # A task call of a built-in agent type is no choice: its subagent may still choose a skill.
    choices = (CHOICE_TOOL, *(f"task:{name}" for name in needs.agents))
    stops = tuple(dict.fromkeys((*agent.stop_at_tools, *choices))) if stop_at_choice else agent.stop_at_tools
    return agent.with_options(audit_requests=True, audit_markers=markers, stop_at_tools=stops)


async def _play(
    player: CopilotEval, prompt: TriggerPrompt, repeat: int, needs: CatalogueNeeds, evidence: Path | None, pool: Any
) -> tuple[PlayRecord, CopilotResult]:
    result = await run_copilot(player, prompt.prompt, pool=pool)
    outcome = decide_trigger_outcome(result, needs)
    saved = str(result.save(evidence / f"prompt{prompt.number}-r{repeat}.json")) if evidence is not None else None
    record = PlayRecord(
        number=prompt.number,
        repeat=repeat,
        expected=prompt.expected,
        kind=outcome.kind,
        chosen=outcome.chosen,
        reason=outcome.reason,
        evidence_path=saved,
        path=outcome.choice.path if outcome.choice is not None else (),
        read_skill_files=outcome.read_skill_files,
    )
    return record, result


async def trigger_eval(
    agent: CopilotEval,
    trigger_set: TriggerSet,
    *,
    runs: int = DEFAULT_RUNS,
    stop_at_choice: bool = True,
    threshold: float = 0.5,
    concurrency: int = DEFAULT_CONCURRENCY,
    detect_difference: float = 0.1,
    out: str | Path | None = None,
    finish: FinishOptions | None = None,
    gates: TriggerGates | None = None,
    record: str | Path | None = None,
    replay: str | Path | None = None,
    record_missing: bool = False,
    pool: Any = None,
) -> TriggerRun:
    """Play each prompt ``runs`` times in a fresh session of ``agent`` and decide every play (``decide_trigger_outcome``).

    ``out`` gets a normal run folder (run.json, results.csv, evidence, report.html with the
    confusion matrix) plus ``triggers.json``; ``finish`` says what else finishing it writes (JUnit,
    the history), as for every run folder, and ``gates`` the minimum precision and recall its
    verdict (``run.finished.verdict``) is judged by. ``record``/``replay`` put the agent's live model
    behind cassettes, one per prompt (``case<N>``, N its number), as ``copilot-eval run --record/--replay`` does
    per case; the request audit still reads what the runtime sent, so delivery is still proven.
    """
    if runs < 1 or concurrency < 1:
        raise ValueError(f"runs and concurrency must be at least 1 (got {runs}, {concurrency})")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold: a share above 0 and at most 1, got {threshold}")
    started, clock = datetime.now(UTC), time.monotonic()
    catalogue = await list_catalogue(agent, pool=pool)
    needs = catalogue.needs(trigger_set.names)
    player = trigger_player(agent, needs, stop_at_choice=stop_at_choice)
    if record or replay:
        cases = SimpleNamespace(
            cases=[SimpleNamespace(conversation_number=p.number, question=p.prompt) for p in trigger_set.prompts]
        )
        player = with_test_set_cassettes(player, cases, record=record, replay=replay, record_missing=record_missing)
    folder = Path(out) if out is not None else None
    evidence = folder / "evidence" if folder is not None else None
    if evidence is not None:
        evidence.mkdir(parents=True, exist_ok=True)
    limit = asyncio.Semaphore(concurrency)

    async def one(prompt: TriggerPrompt, repeat: int) -> tuple[PlayRecord, CopilotResult]:
        async with limit:
            return await _play(player, prompt, repeat, needs, evidence, pool)

    done = await asyncio.gather(*(one(p, r) for r in range(runs) for p in trigger_set.prompts))
    plays = sorted((play for play, _ in done), key=lambda p: (p.number, p.repeat))
    figures = summarise_triggers(
        trigger_set.prompts,
        plays,
        names=trigger_set.names,
        threshold=threshold,
        detect_difference=detect_difference,
    )
    run = TriggerRun(
        trigger_set,
        catalogue,
        plays,
        figures,
        runs,
        stop_at_choice,
        time.monotonic() - clock,
        folder,
        {f"prompt{p.number}-r{p.repeat}": r for p, r in done},
    )
    if folder is not None:
        run.finished = write_trigger_folder(
            run, agent=agent, started=started, options=finish, gates=gates or TriggerGates()
        )
    return run
