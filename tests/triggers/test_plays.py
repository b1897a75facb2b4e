"""Run-wide budgets, shards, lost Ray workers and the terminal's reasons for a trigger set, on recorded outcomes.

No runtime here: plays are answered by small async functions standing in for a session (their
usage is what a session reports), and shard folders are written from recorded plays through the
same writer ``trigger_eval`` uses, then joined by the real ``copilot-eval merge``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from typer.testing import CliRunner

from copilot_eval import CopilotEval
from copilot_eval.cli.app import app
from copilot_eval.cli.triggers_cmd import _print_run
from copilot_eval.evalsets import RunUsage, ShardInfo
from copilot_eval.models import ScriptedModel
from copilot_eval.runs.executor import AllWorkersLost, WorkerLost
from copilot_eval.runs.run_budget import RunBudget, RunSpending
from copilot_eval.runs.shards import conversation_shards
from copilot_eval.triggers import (
    NONE,
    Catalogue,
    CatalogueEntry,
    PlayRecord,
    TriggerRun,
    summarise_triggers,
    trigger_set_from_data,
)
from copilot_eval.triggers.gates import TriggerGates, parse_gate, trigger_verdict
from copilot_eval.triggers.plays import Lane, play_all, shard_prompts
from copilot_eval.triggers.record import trigger_test_set, write_trigger_folder

SET = trigger_set_from_data(
    {
        "prompts": [
            {"prompt": f"prompt {n}", "expected": ("pdf", "csv", NONE)[n % 3], "tags": ["near-miss"] if n == 3 else []}
            for n in range(1, 9)
        ]
    },
    name="routing",
    source="test",
)
CATALOGUE = Catalogue(
    (
        CatalogueEntry("pdf", "skill", "Fill PDF forms.", "custom", "/s/pdf/SKILL.md", True),
        CatalogueEntry("csv", "skill", "Tidy CSV files.", "custom", "/s/csv/SKILL.md", True),
    )
)
CHOICES = {1: "pdf", 2: "pdf", 3: NONE, 4: "pdf", 5: "csv", 6: "pdf", 7: NONE, 8: "csv"}  # what the "model" picks


def session(tokens: int | None = 100) -> Any:
    """What a played session reports, as the budget reads it."""
    return SimpleNamespace(total_input_tokens=tokens, total_output_tokens=0 if tokens is not None else None)


def decide(play: tuple[Any, int], result: Any) -> PlayRecord:
    prompt, repeat = play
    choice = CHOICES[prompt.number]
    return PlayRecord(prompt.number, repeat, prompt.expected, "chose", choice, f"chose {choice}")


def lane(name: str = "local", concurrency: int = 1, fail: Exception | None = None) -> Lane:
    async def play(prompt: Any) -> Any:
        if fail is not None:
            raise fail
        return session()

    return Lane(name, play, concurrency)


async def test_once_the_budget_is_spent_the_remaining_plays_are_not_run_and_outside_every_rate() -> None:
    plays = [(p, r) for r in range(2) for p in SET.prompts]
    spending = RunSpending(RunBudget(max_run_tokens=250))
    records, _ = await play_all(plays, [lane()], spending=spending, decide=decide)
    played = [r for r in records if r.kind == "chose"]
    skipped = [r for r in records if r.kind == "not_run"]
    assert len(played) == 3 and len(skipped) == 13, "plays start until what was spent reaches the cap"
    assert {(r.number, r.repeat) for r in played} == {(1, 0), (2, 0), (3, 0)}, "started in order"
    assert skipped[0].reason == "run budget reached: --max-run-tokens 250, the agent's sessions spent 300 tokens"
    figures = summarise_triggers(SET.prompts, records, names=SET.names)
    assert figures.counted == 3 and figures.apart == {"not_run": 13}
    assert figures.prompts[3].verdict == "no verdict", "a prompt never played is no miss"


async def test_a_session_that_reports_no_usage_is_counted_as_unknown_never_as_zero() -> None:
    async def silent(prompt: Any) -> Any:
        return session(None)

    spending = RunSpending(RunBudget(max_run_tokens=1))
    records, _ = await play_all([(SET.prompts[0], 0)], [Lane("local", silent, 1)], spending=spending, decide=decide)
    assert [r.kind for r in records] == ["chose"] and spending.reason is None
    assert spending.unenforceable() == [
        "--max-run-tokens 1 could not be enforced for 1 sessions that reported no tokens: the 0 counted is a lower bound"
    ]


async def test_a_lost_ray_worker_hands_its_plays_to_another_and_no_worker_left_is_all_workers_lost() -> None:
    plays = [(p, 0) for p in SET.prompts]
    gone = lane("ray-a", concurrency=2, fail=WorkerLost("node left"))
    records, _ = await play_all(
        plays, [gone, lane("ray-b", concurrency=2)], spending=RunSpending(RunBudget()), decide=decide
    )
    assert [r.label for r in records] == [f"chose:{CHOICES[n]}" for n in range(1, 9)] and not gone.alive
    flaky = lane("ray-c", fail=WorkerLost("could not return the play", dead=False))
    records, _ = await play_all(plays[:1], [flaky], spending=RunSpending(RunBudget()), decide=decide)
    assert [(r.kind, r.reason) for r in records] == [("error", "could not return the play")], "an error, never a miss"
    with pytest.raises(AllWorkersLost, match="8 plays left: node left"):
        await play_all(
            plays, [lane("ray-a", fail=WorkerLost("node left"))], spending=RunSpending(RunBudget()), decide=decide
        )


def test_shards_split_the_prompts_stably_and_as_merge_checks_them() -> None:
    halves = [shard_prompts(SET, ShardInfo(index=i, count=2)) for i in (1, 2)]
    numbers = [[p.number for p in half] for half in halves]
    assert sorted(numbers[0] + numbers[1]) == list(range(1, 9)) and not set(numbers[0]) & set(numbers[1])
    assert abs(len(numbers[0]) - len(numbers[1])) <= 1
    owner = conversation_shards(trigger_test_set(SET), 2)
    assert all(owner[n] == i for i, half in enumerate(numbers, 1) for n in half), "merge's own assignment"
    assert [[p.number for p in shard_prompts(SET, ShardInfo(index=i, count=2))] for i in (1, 2)] == numbers


def recorded_run(folder: Path, shard: ShardInfo | None, *, reached: str | None = None) -> TriggerRun:
    """A trigger run of SET from recorded plays (two runs of each prompt), its folder written as trigger_eval writes it."""
    prompts = shard_prompts(SET, shard)
    plays = [decide((p, r), None) for p in prompts for r in range(2)]
    if reached is not None:
        plays = plays[:2] + [PlayRecord(p.number, p.repeat, p.expected, "not_run", None, reached) for p in plays[2:]]
    figures = summarise_triggers(prompts, plays, names=SET.names)
    usage = RunUsage(budget_reached=reached) if reached else None
    run = TriggerRun(SET, CATALOGUE, plays, figures, 2, True, 1.0, folder, shard=shard, usage=usage)
    agent = CopilotEval(name="router", model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "x"}]}]}))
    run.finished = write_trigger_folder(run, agent=agent, started=datetime.now(UTC))
    return run


def test_two_shards_merged_have_the_figures_of_one_run_of_the_same_plays(tmp_path: Path) -> None:
    whole = recorded_run(tmp_path / "whole", None)
    for index in (1, 2):
        recorded_run(tmp_path / f"shard{index}", ShardInfo(index=index, count=2))
    shards = [str(tmp_path / "shard1"), str(tmp_path / "shard2")]
    outcome = CliRunner().invoke(app, ["merge", *shards, "--out", str(tmp_path / "merged"), "--no-history"])
    assert outcome.exit_code == 0, outcome.output
    merged = json.loads((tmp_path / "merged" / "triggers.json").read_text(encoding="utf-8"))
    assert merged["figures"] == whole.figures.to_dict()
    assert merged["merge"] == {"shards": [1, 2], "shardCount": 2} and len(merged["plays"]) == 16
    run = json.loads((tmp_path / "merged" / "run.json").read_text(encoding="utf-8"))
    assert run["merge"]["complete"] is True and len(run["results"]) == 16
    assert 'class="triggers-confusion"' in (tmp_path / "merged" / "report.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("gates", "code", "said"),
    [
        (["--min-precision", "pdf=0.3"], 1, "pdf: precision 25% is below --min-precision 0.3"),
        (["--min-recall", "pdf=0.6"], 1, "pdf: recall 50% is below --min-recall 0.6"),
        (["--min-precision", "pdf=0.25", "--min-recall", "pdf=0.5"], 0, ""),
    ],
)
def test_merge_gates_a_merged_trigger_run_as_triggers_gates_one_run(
    tmp_path: Path, gates: list[str], code: int, said: str
) -> None:
    for index in (1, 2):  # neither shard alone holds every pdf prompt: the gate judges them together
        recorded_run(tmp_path / f"shard{index}", ShardInfo(index=index, count=2))
    shards = [str(tmp_path / "shard1"), str(tmp_path / "shard2")]
    outcome = CliRunner().invoke(app, ["merge", *shards, "--out", str(tmp_path / "merged"), "--no-history", *gates])
    assert outcome.exit_code == code and said in outcome.output, outcome.output
    whole = recorded_run(tmp_path / "whole", None)  # what `triggers` itself exits by on one unsharded run
    options = dict(zip(gates[::2], gates[1::2], strict=True))
    one_run = TriggerGates(
        min_precision=parse_gate([options.get("--min-precision", "0")], "--min-precision"),
        min_recall=parse_gate([options.get("--min-recall", "0")], "--min-recall"),
    )
    assert trigger_verdict(whole.figures, one_run).code == code


def test_trigger_gates_on_test_set_shards_are_refused_with_the_options_that_gate_them(tmp_path: Path) -> None:
    shards = [str(tmp_path / "shard1"), str(tmp_path / "shard2")]
    outcome = CliRunner().invoke(app, ["merge", *shards, "--out", str(tmp_path / "merged"), "--min-recall", "0.8"])
    assert outcome.exit_code == 2 and "gate them with --fail-under or --max-errors" in outcome.output, outcome.output
    assert not (tmp_path / "merged").exists(), "nothing was written"


def test_a_trigger_shard_is_not_merged_with_a_shard_of_another_catalogue(tmp_path: Path) -> None:
    recorded_run(tmp_path / "shard1", ShardInfo(index=1, count=2))
    other = recorded_run(tmp_path / "shard2", ShardInfo(index=2, count=2))
    document = json.loads((other.folder / "triggers.json").read_text(encoding="utf-8"))  # type: ignore[operator]
    document["catalogue"][0]["descriptionSha256"] = "0" * 64  # a description edited between the shards
    (tmp_path / "shard2" / "triggers.json").write_text(json.dumps(document), encoding="utf-8")
    shards = [str(tmp_path / "shard1"), str(tmp_path / "shard2")]
    outcome = CliRunner().invoke(app, ["merge", *shards, "--out", str(tmp_path / "merged"), "--no-history"])
    assert outcome.exit_code == 2 and "differ in their catalogue" in outcome.output
    assert not (tmp_path / "merged").exists(), "nothing was written"


def test_a_budget_stop_is_said_in_triggers_json_and_exits_3_as_run_does(tmp_path: Path, capsys: Any) -> None:
    reached = "run budget reached: --max-run-tokens 250, the agent's sessions spent 300 tokens"
    run = recorded_run(tmp_path / "run", None, reached=reached)
    assert run.finished is not None and run.finished.verdict.code == 3
    assert f"14 of 16 cases were not run ({reached})" in (run.finished.verdict.why or "")
    document = json.loads((tmp_path / "run" / "triggers.json").read_text(encoding="utf-8"))
    assert document["budget"] == {"reached": reached, "notRun": 14}
    assert document["figures"]["apart"] == {"not_run": 14} and document["figures"]["counted"] == 2
    assert json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))["notRun"] == 14
    _print_run(run)
    assert f"{reached}: 14 plays not played (prompts 2, 3, 4, 5, 6, 7, 8), counted apart" in capsys.readouterr().out


def test_the_terminal_names_the_skills_an_undelivered_play_missed_through_the_sanitiser(capsys: Any) -> None:
    reason = "the description of 'csv\x1b[31m' reached no request the model was sent"
    plays = [PlayRecord(5, r, "csv", "undelivered", None, reason) for r in range(2)]
    plays.append(PlayRecord(1, 0, "pdf", "chose", "pdf", "chose pdf"))
    figures = summarise_triggers(SET.prompts, plays, names=SET.names)
    _print_run(TriggerRun(SET, CATALOGUE, plays, figures, 2, True, 1.0))
    shown = capsys.readouterr().out
    assert "undelivered: 2 plays (prompt 5): the description of 'csv" in shown
    assert "\x1b" not in shown, "other people's text reaches the terminal sanitised"


EXAMPLE = Path(__file__).parents[2] / "examples" / "skills"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--max-run-tokens", "0"], "--max-run-tokens 0: must be more than 0 (leave it out for no cap)"),
        (["--shard", "3/2"], "--shard '3/2': the index must be between 1 and the shard count"),
        (["--ray-workers", "2"], "--ray-address and --ray-workers need --executor ray"),
        (["--executor", "spark"], "--executor 'spark': expected one of local, ray"),
        (["--executor", "ray", "--replay", "cassettes"], "--record/--replay run with --executor local only"),
    ],
)
def test_run_options_that_cannot_work_are_refused_before_anything_plays(options: list[str], said: str) -> None:
    arguments = ["triggers", str(EXAMPLE / "triggers.csv"), "--agent", str(EXAMPLE / "agent.yaml"), *options]
    outcome = CliRunner().invoke(app, arguments)
    assert outcome.exit_code == 2 and said in outcome.output, outcome.output
