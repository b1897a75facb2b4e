"""trigger_eval: play every prompt of a trigger set through the real runtime and sum up the choices.

Each play is one fresh session of the agent as a user mounts it (its skill folders, its custom
agents), the prompt sent as written (nothing added), the request audit on and each description
watched, so delivery is proven rather than assumed. With ``stop_at_choice`` the session ends at
the first ``skill`` or ``task`` call (``stop_at_tools``, recorded in the evidence's configuration):
the choice is what is measured. Plays share the runtime pool and run ``concurrency`` at a time,
as an injection suite's do; which of them start, under a run budget, on which shard and where
(here or on Ray workers) is ``triggers.plays``'s.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalCaseResult, ExecutionRecord, RunUsage, ShardInfo
from copilot_eval.evidence import CopilotResult
from copilot_eval.models.replay.wrap import with_test_set_cassettes
from copilot_eval.reports.html_triggers import TRIGGERS_JSON
from copilot_eval.runs.checkpoint import Checkpoint
from copilot_eval.runs.finish import Finished, FinishOptions
from copilot_eval.runs.run_budget import RunBudget, RunSpending
from copilot_eval.runtime.session.runner import run_copilot
from copilot_eval.triggers.catalogue import Catalogue, list_catalogue
from copilot_eval.triggers.figures import NOT_RUN, PlayRecord, TriggerFigures, play_key, summarise_triggers
from copilot_eval.triggers.gates import TriggerGates
from copilot_eval.triggers.outcome import CatalogueNeeds, decide_trigger_outcome
from copilot_eval.triggers.plays import Lane, Play, play_all, ray_lanes, shard_of, shard_prompts
from copilot_eval.triggers.record import trigger_test_set, write_trigger_folder
from copilot_eval.triggers.resume import open_trigger_checkpoint, record_play, trigger_checkpoint_header
from copilot_eval.triggers.trigger_set import TriggerSet

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
    shard: ShardInfo | None = None  # the part of the set this run played (``--shard I/N``); None: all of it
    usage: RunUsage | None = None  # what the agent's sessions spent, and the budget's cap that stopped new plays
    execution: ExecutionRecord | None = None  # the Ray executor and its workers; None: played in this process
    resumed: dict[str, float | None] = field(default_factory=dict)  # plays kept from the checkpoint: key -> duration

    @property
    def budget_reached(self) -> str | None:
        """The run budget's cap that stopped new plays, with what was spent; None when none was reached."""
        return self.usage.budget_reached if self.usage is not None else None

    @property
    def not_run(self) -> list[PlayRecord]:
        """The plays never started because the run budget was reached first."""
        return [play for play in self.plays if play.kind == NOT_RUN]

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


def _decider(
    needs: CatalogueNeeds, evidence: Path | None, checkpoint: Checkpoint | None
) -> Callable[[Play, CopilotResult], PlayRecord]:
    """How a play's result becomes its record, its evidence kept in ``evidence`` and the record in ``checkpoint``."""

    def decide(play: Play, result: CopilotResult) -> PlayRecord:
        prompt, repeat = play
        outcome = decide_trigger_outcome(result, needs)
        saved = str(result.save(evidence / f"{play_key(prompt.number, repeat)}.json")) if evidence is not None else None
        record = outcome.record(prompt, repeat, saved)
        if checkpoint is not None:
            record_play(checkpoint, record, result)  # durable before it counts: --resume keeps it
        return record

    return decide


def _remote_options(player: CopilotEval) -> dict[str, Any]:
    """What makes a Ray worker's agent play as ``player`` does (the audit, the watched descriptions, the stops)."""
    return {
        "audit_requests": True,
        "audit_markers": player.audit_markers,
        "stop_at_tools": player.stop_at_tools,
    }


def _check_arguments(
    runs: int,
    threshold: float,
    concurrency: int,
    executor: Any,
    agent_file: str | Path | None,
    *,
    cassettes: bool,
    resume: bool,
    out: str | Path | None,
) -> None:
    """ValueError naming the argument (or option) ``trigger_eval`` cannot play with, before any session starts."""
    if runs < 1 or concurrency < 1:
        raise ValueError(f"runs and concurrency must be at least 1 (got {runs}, {concurrency})")
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold: a share above 0 and at most 1, got {threshold}")
    if executor is not None and cassettes:
        raise ValueError("--record/--replay play with --executor local only (cassettes are files of this machine)")
    if resume and out is None:
        raise ValueError("--resume continues the trigger run recorded in --out DIR; give --out")
    if executor is not None and agent_file is None:
        raise ValueError("the Ray workers load the agent from its file: give agent_file with an executor")


class _TriggerPlay:
    """One trigger run under way: the agent as each play runs it, its folder and checkpoint, the plays made and kept."""

    def __init__(
        self,
        agent: CopilotEval,
        trigger_set: TriggerSet,
        *,
        runs: int,
        stop_at_choice: bool,
        threshold: float,
        shard: ShardInfo | None,
        pool: Any,
    ) -> None:
        self.agent, self.trigger_set, self.runs, self.pool = agent, trigger_set, runs, pool
        self.stop_at_choice, self.threshold, self.shard = stop_at_choice, threshold, shard
        self.started, self.clock = datetime.now(UTC), time.monotonic()
        self.prompts = shard_prompts(trigger_set, shard)
        self.folder: Path | None = None
        self.evidence: Path | None = None
        self.checkpoint: Checkpoint | None = None
        self.kept: dict[str, tuple[PlayRecord, EvalCaseResult]] = {}
        self.plays: list[Play] = []
        self.records: list[PlayRecord] = []
        self.results: dict[str, CopilotResult] = {}
        self.execution: ExecutionRecord | None = None
        self.spending = RunSpending(RunBudget())

    async def prepare(self, record: str | Path | None, replay: str | Path | None, record_missing: bool) -> None:
        """Read the catalogue the agent loads, and make the player each play runs (behind cassettes when asked)."""
        self.catalogue = await list_catalogue(self.agent, pool=self.pool)
        self.needs = self.catalogue.needs(self.trigger_set.names)
        self.player = trigger_player(self.agent, self.needs, stop_at_choice=self.stop_at_choice)
        if record or replay:
            cases = trigger_test_set(self.trigger_set)  # one cassette per prompt, named case<N> as its case
            self.player = with_test_set_cassettes(
                self.player, cases, record=record, replay=replay, record_missing=record_missing
            )

    def open_folder(self, out: str | Path | None, resume: bool) -> None:
        """Make the run folder's evidence folder and open its checkpoint, keeping the plays it recorded (``resume``)."""
        if out is None:
            return
        self.folder = Path(out)
        self.evidence = self.folder / "evidence"
        self.evidence.mkdir(parents=True, exist_ok=True)
        shard = None if self.shard is None else f"{self.shard.index}/{self.shard.count}"
        runs, choice, threshold = self.runs, self.stop_at_choice, self.threshold
        header = trigger_checkpoint_header(
            self.trigger_set, self.catalogue, runs=runs, stop_at_choice=choice, threshold=threshold, shard=shard
        )
        self.checkpoint, self.kept = open_trigger_checkpoint(self.folder, header, resume=resume)

    async def play_all(self, budget: RunBudget, executor: Any, agent_file: str | Path | None, concurrency: int) -> None:
        """Play what the checkpoint did not keep, here or on the Ray workers, within ``budget``."""
        self.plays = [(p, r) for r in range(self.runs) for p in self.prompts if play_key(p.number, r) not in self.kept]
        self.spending = RunSpending(budget)
        self.spending.add_all([case] for _, case in self.kept.values())  # what the kept plays spent counts too
        decide = _decider(self.needs, self.evidence, self.checkpoint)
        if executor is None:
            local = Lane("local", lambda prompt: run_copilot(self.player, prompt.prompt, pool=self.pool), concurrency)
            self.records, self.results = await play_all(self.plays, [local], spending=self.spending, decide=decide)
            return
        async with executor.open(self.agent, agent_file=Path(agent_file or ""), concurrency=concurrency) as workers:
            self.execution = ExecutionRecord(
                executor=executor.name, concurrency=concurrency, workers=[w.info for w in workers]
            )
            lanes = ray_lanes(workers, _remote_options(self.player), concurrency)
            self.records, self.results = await play_all(self.plays, lanes, spending=self.spending, decide=decide)

    def trigger_run(self, detect_difference: float) -> TriggerRun:
        """The run (not yet written): the plays made and kept, in prompt order, and their figures."""
        records = sorted([*self.records, *(play for play, _ in self.kept.values())], key=lambda r: (r.number, r.repeat))
        figures = summarise_triggers(
            self.prompts,
            records,
            names=self.trigger_set.names,
            threshold=self.threshold,
            detect_difference=detect_difference,
        )
        return TriggerRun(
            self.trigger_set,
            self.catalogue,
            records,
            figures,
            self.runs,
            self.stop_at_choice,
            time.monotonic() - self.clock,
            self.folder,
            self.results,
            shard=self.shard,
            usage=self.spending.usage(),
            execution=self.execution,
            resumed={key: case.duration_ms for key, (_, case) in self.kept.items()},
        )

    def resumed_finished_run(self) -> bool:
        """Whether this resumed a run that had finished: nothing played, so the history already holds it."""
        return (
            bool(self.kept) and not self.plays and self.folder is not None and (self.folder / TRIGGERS_JSON).is_file()
        )


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
    budget: RunBudget | None = None,
    shard: ShardInfo | str | None = None,
    executor: Any = None,
    agent_file: str | Path | None = None,
    resume: bool = False,
) -> TriggerRun:
    """Play each prompt ``runs`` times in a fresh session of ``agent`` and decide every play (``decide_trigger_outcome``).

    ``out`` gets a normal run folder (run.json, results.csv, evidence, report.html with the
    confusion matrix) plus ``triggers.json``; ``finish`` says what else finishing it writes (JUnit,
    the history), as for every run folder, and ``gates`` the minimum precision and recall its
    verdict (``run.finished.verdict``) is judged by. ``record``/``replay`` put the agent's live model
    behind cassettes, one per prompt (``case<N>``, N its number), as ``copilot-eval run --record/--replay`` does
    per case; the request audit still reads what the runtime sent, so delivery is still proven.
    ``budget`` caps what the agent's sessions spend over the run (plays not started are ``not_run``),
    ``shard`` (``"I/N"``) plays only that shard's prompts (``copilot-eval merge`` joins the folders), and
    ``executor`` (a ``runs.ray_executor.RayExecutor``, with ``agent_file``) plays on a Ray cluster.
    Each decided play is checkpointed in ``out``; ``resume`` keeps the plays recorded there and plays
    the rest (``triggers.resume``; CheckpointError, a ValueError, for a folder holding another run).
    """
    _check_arguments(
        runs, threshold, concurrency, executor, agent_file, cassettes=bool(record or replay), resume=resume, out=out
    )
    trigger = _TriggerPlay(
        agent,
        trigger_set,
        runs=runs,
        stop_at_choice=stop_at_choice,
        threshold=threshold,
        shard=shard_of(shard),
        pool=pool,
    )
    await trigger.prepare(record, replay, record_missing)
    trigger.open_folder(out, resume)
    await trigger.play_all(budget or RunBudget(), executor, agent_file, concurrency)
    run = trigger.trigger_run(detect_difference)
    if trigger.folder is not None:
        if trigger.resumed_finished_run():
            finish = replace(finish or FinishOptions(), history=None, no_history=True)
        run.finished = write_trigger_folder(
            run, agent=agent, started=trigger.started, options=finish, gates=gates or TriggerGates()
        )
    return run
