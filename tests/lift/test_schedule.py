"""The lift's one schedule, without the runtime: both arms' plays interleaved under one concurrency limit and
recorded in lift.json, a run budget stopping both arms at the same place, and --resume keeping what was played.

The arms' agents are targets that answer by themselves (``runs.target.Target``): the "with" arm's answers
are right and its requests carry the customization's marker, as a runtime's audit would show.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import CaseStatus, EvalTestCase, JudgeTally
from copilot_eval.evidence import CopilotResult
from copilot_eval.evidence.audit import RequestAuditRecord
from copilot_eval.evidence.turn import Turn
from copilot_eval.evidence.usage import UsageEntry
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.lift import Arm, CustomizationText, Expectation, LiftRun, lift_eval
from copilot_eval.lift.schedule import interleave
from copilot_eval.runs.checkpoint import CHECKPOINT_NAME
from copilot_eval.runs.finish import FinishOptions
from copilot_eval.runs.prepare import read_test_set
from copilot_eval.runs.settings import RunSettings

MARKER = "release notes first"
TOKENS_PER_PLAY = 10


class _Agent:
    """A target that answers right only in the "with" arm; every play is logged with how many were in flight."""

    def __init__(self, name: str, log: list[tuple[str, str, int]], flight: list[int]) -> None:
        self.name: str | None = name
        self.audit_markers: tuple[str, ...] = ()
        self.log, self.flight = log, flight

    def with_options(self, **options: Any) -> _Agent:
        self.audit_markers = tuple(options.get("audit_markers", self.audit_markers))
        return self

    async def play(self, prompts: Sequence[str]) -> CopilotResult:
        self.flight[0] += 1
        self.log.append((prompts[0], str(self.name), self.flight[0]))
        await asyncio.sleep(0)  # let the other worker start its play: both are in flight at once
        await asyncio.sleep(0)
        self.flight[0] -= 1
        good = self.name == "with"
        audit = RequestAuditRecord(request_id="r", instructions_sha256="0" * 64, markers={MARKER: good})
        return CopilotResult(
            success=True,
            prompt=prompts[0],
            turns=[Turn(role="user", content=prompts[0]), Turn(role="assistant", content="yes" if good else "no")],
            request_audit=[audit],
            usage=[UsageEntry(input_tokens=TOKENS_PER_PLAY - 2, output_tokens=2)],
        )


def _arms(log: list[tuple[str, str, int]]) -> list[Arm]:
    flight = [0]
    text = CustomizationText("instructions", "notes.md", "a" * 64, MARKER)
    return [
        Arm("without", _Agent("without", log, flight), (Expectation(text, present=False),)),  # type: ignore[arg-type]
        Arm("with", _Agent("with", log, flight), (Expectation(text, present=True),)),  # type: ignore[arg-type]
    ]


def _set(folder: Path, cases: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "cases.csv"
    lines = ["question,expectedResponse", *(f"question {n},yes" for n in range(1, cases + 1))]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _lift(folder: Path, log: list[tuple[str, str, int]], **settings: Any) -> LiftRun:
    options = {"repeat": 1, "graders": ["exact"], "concurrency": 2, "out": folder / "out", **settings}
    return asyncio.run(
        lift_eval(
            read_test_set(_set(folder)),
            _arms(log),
            RunSettings.of(**options),
            finish=FinishOptions(no_history=True, scanners=()),
        )
    )


def run_document(folder: Path) -> dict[str, Any]:
    """The lift.json of the lift played into ``folder``/out."""
    return json.loads((folder / "out" / "lift.json").read_text(encoding="utf-8"))


def test_interleave_queues_each_unit_in_every_arm_before_the_next() -> None:
    slots = interleave([("case1#0", 1), ("case2#0", 2), ("case3#0", 3)], ["a", "b"])
    assert [(s.key, s.arm) for s in slots] == [
        ("case1#0", "a"),
        ("case1#0", "b"),
        ("case2#0", "b"),
        ("case2#0", "a"),
        ("case3#0", "a"),
        ("case3#0", "b"),
    ]


def test_both_arms_play_interleaved_under_one_limit_and_lift_json_records_the_order(tmp_path: Path) -> None:
    log: list[tuple[str, str, int]] = []
    run = _lift(tmp_path, log)
    schedule = run_document(tmp_path)["schedule"]
    assert schedule["concurrency"] == 2 and schedule["budgetReached"] is None
    order = [(o["unit"], o["arm"]) for o in schedule["order"]]
    assert order == [
        ("case1#0", "without"),
        ("case1#0", "with"),
        ("case2#0", "with"),
        ("case2#0", "without"),
        ("case3#0", "without"),
        ("case3#0", "with"),
    ]
    assert {o["outcome"] for o in schedule["order"]} == {"played"}
    # the plays started in that order, two at a time, the two in flight of different arms
    assert [(f"case{q.split()[-1]}#0", arm) for q, arm, _ in log] == order
    assert max(in_flight for _, _, in_flight in log) == 2
    assert run.figures.difference == pytest.approx(1.0) and run.figures.paired_cases == 3
    assert run.verdict.code == 0


def test_a_run_budget_stops_both_arms_at_the_same_place_and_sets_unpaired_plays_apart(tmp_path: Path) -> None:
    log: list[tuple[str, str, int]] = []
    # one play at a time: three plays spend the 30 tokens (case1 in both arms, case2 in "with" only)
    run = _lift(tmp_path, log, concurrency=1, max_run_tokens=3 * TOKENS_PER_PLAY)
    assert len(log) == 3
    outcomes = [(o["unit"], o["arm"], o["outcome"]) for o in run_document(tmp_path)["schedule"]["order"]]
    assert outcomes[:3] == [
        ("case1#0", "without", "played"),
        ("case1#0", "with", "played"),
        ("case2#0", "with", "played"),
    ]
    assert {o for _, _, o in outcomes[3:]} == {"not_run"}
    figures = run.figures
    assert figures.paired_cases == 1  # only case1 was played in both arms
    assert figures.apart == {"without": {"not_run": 2}, "with": {"not_run": 1, "unpaired": 1}}
    assert run.budget_reached is not None and "--max-run-tokens 30" in run.budget_reached
    assert run.verdict.code == 3  # as `run`: cases not run are no verdict on the agent
    assert "--max-run-tokens 30" in (tmp_path / "out" / "lift.md").read_text(encoding="utf-8")
    arm_run = json.loads((tmp_path / "out" / "with" / "run.json").read_text(encoding="utf-8"))
    assert arm_run["notRun"] == 1


def test_resume_keeps_what_was_played_and_gives_the_figures_of_an_uninterrupted_lift(tmp_path: Path) -> None:
    whole: list[tuple[str, str, int]] = []
    uninterrupted = _lift(tmp_path / "whole", whole)
    first: list[tuple[str, str, int]] = []
    stopped = _lift(tmp_path / "parts", first, concurrency=1, max_run_tokens=3 * TOKENS_PER_PLAY)
    assert stopped.figures.paired_cases == 1
    kept = (tmp_path / "parts" / "out" / "with" / CHECKPOINT_NAME).read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="pass --resume"):  # a folder holding a lift is never overwritten
        _lift(tmp_path / "parts", [])
    second: list[tuple[str, str, int]] = []
    resumed = _lift(tmp_path / "parts", second, resume=True)
    assert len(second) == len(whole) - len(first)  # nothing recorded was played again
    assert {(q, arm) for q, arm, _ in first}.isdisjoint({(q, arm) for q, arm, _ in second})
    assert (tmp_path / "parts" / "out" / "with" / CHECKPOINT_NAME).read_text(encoding="utf-8").startswith(kept)
    assert resumed.figures == uninterrupted.figures
    assert [(p.case, p.arm, p.status, p.delivery) for p in resumed.plays] == [
        (p.case, p.arm, p.status, p.delivery) for p in uninterrupted.plays
    ]
    outcomes = [o["outcome"] for o in run_document(tmp_path / "parts")["schedule"]["order"]]
    assert outcomes == ["resumed", "resumed", "resumed", "played", "played", "played"]
    assert resumed.verdict.code == 0


class _TalliedJudge:
    """A grader that passes a "yes" and reports what an LLM judge spent on it (as a judge's tally does)."""

    name = "tallied-judge"

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        status = CaseStatus.PASS if evidence.answer == "yes" else CaseStatus.FAIL
        tally = JudgeTally(calls=1, verdicts=[status], input_tokens=90, output_tokens=10, premium_requests=1)
        return Grade(method="judge", status=status, reason="judged", judge=tally)


def test_a_judges_budget_counts_both_arms_judging_and_stops_both_at_the_same_place(tmp_path: Path) -> None:
    log: list[tuple[str, str, int]] = []
    # one play at a time; each graded play spends 1 judge premium request: three spend the cap of 3
    run = _lift(tmp_path, log, concurrency=1, graders=[_TalliedJudge()], max_judge_premium_requests=3)
    assert len(log) == 3
    assert run.budget_reached is not None and "--max-judge-premium-requests 3" in run.budget_reached
    assert run.figures.paired_cases == 1
    assert run.figures.apart == {"without": {"not_run": 2}, "with": {"not_run": 1, "unpaired": 1}}
    assert run.verdict.code == 3


def test_the_command_refuses_a_judges_budget_that_is_not_above_zero(tmp_path: Path) -> None:
    agent = tmp_path / "agent.yaml"
    agent.write_text("name: helper\ninstructions: Answer briefly.\n", encoding="utf-8")
    notes = tmp_path / "notes.md"
    notes.write_text("Put the release notes first.\n", encoding="utf-8")
    cases = _set(tmp_path)
    vary = f"instructions:{notes}"
    args = ["lift", str(cases), "--agent", str(agent), "--vary", vary, "--max-judge-tokens", "0"]
    shown = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert shown.exit_code == 2, shown.output
    assert "--max-judge-tokens 0: must be more than 0" in shown.output
    assert not (tmp_path / "out").exists()
