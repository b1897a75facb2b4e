"""Lift through the real runtime: a function model that answers well only when the skill's description is
in its request gives exactly the flips, difference and verdict its script implies; a mis-mounted skill
folder gives not_delivered (exit 2), never a lift of zero; an interval holding zero fails --min-lift (exit 1).

One lift run per module is shared by the Python API's tests; two short command-line runs check the exits.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from copilot_eval import CopilotEval
from copilot_eval.cli.app import app
from copilot_eval.lift import LiftRun, lift_eval, trigger_lift, vary_arms
from copilot_eval.models import CallTool, FunctionModel
from copilot_eval.runs.finish import FinishOptions
from copilot_eval.runs.prepare import read_test_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.triggers import trigger_set_from_data

pytestmark = pytest.mark.runtime

DESCRIPTION = "Answer release questions with the word SHIPPED when the release is out of the door."
CASES = [  # question, expected; with the skill the model says SHIPPED, without it "unsure"
    ("helps: is release one out", "SHIPPED"),
    ("helps: is release two out", "SHIPPED"),
    ("hurts: say unsure about release three", "unsure"),
    ("same: say SHIPPED for release four", "SHIPPED"),
]


def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    """Good only when the skill's description reached the request (its catalogue is in a tool or message)."""
    sent = json.dumps(messages) + json.dumps(tools)
    prompt = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    if "same:" in prompt:
        return "SHIPPED"
    return "SHIPPED" if "out of the door" in sent else "unsure"


def write_set(folder: Path) -> Path:
    lines = ["question,expectedResponse", *(f"{q},{e}" for q, e in CASES)]
    path = folder / "cases.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_skill(root: Path, file_name: str = "SKILL.md") -> Path:
    (root / "release-check").mkdir(parents=True)
    (root / "release-check" / file_name).write_text(
        f"---\nname: release-check\ndescription: {DESCRIPTION}\n---\nLook at the tags first.\n", encoding="utf-8"
    )
    return root


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> LiftRun:
    folder = tmp_path_factory.mktemp("lift")
    agent = CopilotEval(model=FunctionModel(answer), skill_directories=(write_skill(folder / "skills"),), timeout_s=60)
    settings = RunSettings.of(repeat=1, graders=["exact"], out=folder / "out", concurrency=2)
    return asyncio.run(
        lift_eval(
            read_test_set(write_set(folder)),
            vary_arms(agent, "skill:release-check"),
            settings,
            finish=FinishOptions(no_history=True),
        )
    )


def test_the_flips_and_difference_are_those_the_script_implies(played: LiftRun) -> None:
    figures = played.figures
    assert (figures.control, figures.treatment) == ("without", "with")
    assert {p.delivery for p in played.plays} == {"delivered"}
    assert figures.flipped("better") == ["case1", "case2"]
    assert figures.flipped("worse") == ["case3"]
    assert figures.difference == pytest.approx(0.25)  # (+1 +1 -1 +0) / 4
    assert figures.verdict == "could_not_measure"  # four cases cannot tell +25 points from noise
    assert played.verdict.code == 0  # no gate was asked for


def test_the_plays_are_interleaved_and_every_file_is_written(played: LiftRun) -> None:
    assert played.folder is not None
    document = json.loads((played.folder / "lift.json").read_text(encoding="utf-8"))
    assert document["figures"]["flippedBetter"] == ["case1", "case2"]
    assert document["figures"]["method"] == "percentile bootstrap over cases" and document["figures"]["seed"] == 42
    with_arm = next(a for a in document["arms"] if a["name"] == "with")
    assert {c["kind"] for c in with_arm["customizations"]} == {"skill-description", "skill-body"}
    for arm in ("with", "without"):
        assert (played.folder / arm / "run.json").is_file() and (played.folder / arm / "report.html").is_file()
        run = json.loads((played.folder / arm / "run.json").read_text(encoding="utf-8"))
        assert run["agentName"] == f"agent ({arm})"  # each arm its own series in the history
    assert "Flipped worse: case3" in (played.folder / "lift.md").read_text(encoding="utf-8")
    assert "case3" in (played.folder / "report.html").read_text(encoding="utf-8")
    # each case is queued in both arms before the next, the arm that goes first alternating
    assert played.order[:4] == [
        ("case1#0", "without"),
        ("case1#0", "with"),
        ("case2#0", "with"),
        ("case2#0", "without"),
    ]


def write_agents(folder: Path, *, file_name: str = "SKILL.md") -> tuple[Path, Path]:
    write_skill(folder / "skills", file_name)
    (folder / "say.yaml").write_text("rules:\n  - turns: [{text: SHIPPED}]\n", encoding="utf-8")
    with_skill, without = folder / "with.yaml", folder / "without.yaml"
    with_skill.write_text("model: {scripted: say.yaml}\nskill_directories: [skills]\n", encoding="utf-8")
    without.write_text("model: {scripted: say.yaml}\n", encoding="utf-8")
    return with_skill, without


def test_a_misnamed_skill_file_is_not_delivered_never_no_lift(tmp_path: Path) -> None:
    # skill.md, not SKILL.md: the runtime does not load it (runtime 1.0.102), so the arm never had the skill
    with_skill, _ = write_agents(tmp_path, file_name="skill.md")
    cases = write_set(tmp_path)
    out = tmp_path / "out"
    args = ["lift", str(cases), "--agent", str(with_skill), "--vary", "skill:release-check"]
    result = CliRunner().invoke(app, [*args, "--repeat", "1", "--grader", "exact", "--out", str(out), "--no-history"])
    assert result.exit_code == 2, result.output
    assert "not delivered" in result.output
    plays = json.loads((out / "lift.json").read_text(encoding="utf-8"))["plays"]
    assert {p["delivery"] for p in plays if p["arm"] == "with"} == {"not_delivered"}


def test_an_interval_holding_zero_fails_min_lift_with_exit_one(tmp_path: Path) -> None:
    with_skill, without = write_agents(tmp_path)
    cases = write_set(tmp_path)
    arms = ["--arm", f"without={without}", "--arm", f"with={with_skill}"]
    history = f"sqlite:///{tmp_path / 'history.db'}"
    result = CliRunner().invoke(
        app,
        ["lift", str(cases), *arms, "--repeat", "1", "--grader", "exact", "--min-lift", "0.1", "--out",
         str(tmp_path / "out"), "--history", history, "--markdown", "-", "--scan", "refusal,loop"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    for arm in ("with", "without"):  # --scan reaches the finisher of each arm's folder
        assert sorted(p.name for p in (tmp_path / "out" / arm / "scans").iterdir()) == ["loop.jsonl", "refusal.jsonl"]
    assert "could not measure" in result.output
    assert "### Lift of with over without" in result.output
    # the history keeps both arms' folders; `history lift` reads the lift above them, once
    shown = CliRunner().invoke(
        app, ["history", "lift", "cases", "--history", history, "--name", "release-check", "--json"]
    )
    assert shown.exit_code == 0, shown.output
    (point,) = json.loads(shown.output)["points"]
    assert point["verdict"] == "could_not_measure" and point["treatment"] == "with"
    assert {t["kind"] for t in point["customizations"]} == {"skill-description", "skill-body"}


def route(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
    """Chooses the skill for a release question only when its new description reached the request."""
    sent = json.dumps(messages) + json.dumps(tools)
    prompt = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
    if any(m.get("role") == "tool" for m in messages):
        return "done"
    if "release" in prompt and "out of the door" in sent:
        return CallTool("skill", {"skill": "release-check"})
    return "no skill needed"


def test_a_trigger_set_lift_gives_precision_and_recall_per_arm(tmp_path: Path) -> None:
    skills = write_skill(tmp_path / "skills")
    old = tmp_path / "old.txt"
    old.write_text("Look at repository tags and compare them with the changelog.", encoding="utf-8")
    agent = CopilotEval(model=FunctionModel(route), skill_directories=(skills,), timeout_s=60)
    current, new = vary_arms(agent, f"description:release-check={old}")
    chosen = trigger_set_from_data(
        {"prompts": [
            {"prompt": "is release one out", "expected": "release-check"},
            {"prompt": "is release two out", "expected": "release-check"},
            {"prompt": "what is the weather", "expected": "none"},
        ]},
        name="releases",
        source="test",
    )  # fmt: skip
    # the current description (in SKILL.md) has the words the router needs; the new one lacks them
    lift = asyncio.run(trigger_lift(chosen, [new, current], runs=1, out=tmp_path / "out"))
    (skill,) = lift.skills
    assert skill.recall == {"new": 0.0, "current": 1.0}
    assert skill.recall_difference == 1.0
    assert lift.paired.flipped("better") == ["prompt1", "prompt2"]
    assert lift.paired.apart == {"new": {}, "current": {}}
    assert (tmp_path / "out" / "current" / "run.json").is_file()


def test_the_pytest_fixture_runs_a_lift_in_a_users_test(pytester: pytest.Pytester, tmp_path: Path) -> None:
    skills = write_skill(tmp_path / "skills")
    cases = write_set(tmp_path)
    pytester.makepyfile(
        test_lift=f"""
import json
from copilot_eval import CopilotEval
from copilot_eval.models import FunctionModel

def answer(messages, tools):
    sent = json.dumps(messages) + json.dumps(tools)
    return "SHIPPED" if "out of the door" in sent else "unsure"

async def test_skill_helps(lift_eval):
    agent = CopilotEval(model=FunctionModel(answer), skill_directories=({str(skills)!r},), timeout_s=60)
    run = await lift_eval({str(cases)!r}, agent, vary="skill:release-check", repeat=1, graders=("exact",))
    assert run.figures.flipped("better") == ["case1", "case2", "case4"]
    assert run.figures.flipped("worse") == ["case3"]
"""
    )
    outcome = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1)


def test_the_command_takes_a_trigger_set_and_prints_precision_and_recall_per_arm(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills")
    (tmp_path / "router.yaml").write_text(
        "rules:\n  - when: {prompt_contains: release}\n    turns:\n"
        "      - tool_calls: [{name: skill, arguments: {skill: release-check}}]\n      - text: done\n"
        '  - turns: [{text: "I can\'t help with that here."}]\n',  # a refusal for the refusal scanner
        encoding="utf-8",
    )
    agent = tmp_path / "agent.yaml"
    agent.write_text("model: {scripted: router.yaml}\nskill_directories: [skills]\n", encoding="utf-8")
    new = tmp_path / "new.txt"
    new.write_text("Look at repository tags and compare them with the changelog.", encoding="utf-8")
    triggers = tmp_path / "triggers.csv"
    triggers.write_text(
        "prompt,expected\nis the release out,release-check\nwhat is the weather,none\n", encoding="utf-8"
    )
    out = tmp_path / "out"
    result = CliRunner().invoke(
        app,
        ["lift", str(triggers), "--agent", str(agent), "--vary", f"description:release-check={new}", "--repeat", "1",
         "--out", str(out), "--min-lift", "0.1", "--scan", "empty_answer,refusal", "--fail-on-finding", "refusal"],
    )  # fmt: skip
    assert result.exit_code == 1, result.output  # the scripted router ignores descriptions: no lift to measure
    # each arm's trigger folder is scanned: the router's refusal is found and gates the exit; a play
    # stopped at its choice (as trigger plays are) is no empty answer
    assert (out / "new" / "scans" / "refusal.jsonl").read_text(encoding="utf-8").strip()
    assert (out / "new" / "scans" / "empty_answer.jsonl").read_text(encoding="utf-8").strip() == ""
    assert "--fail-on-finding: findings of refusal" in result.output
    assert "Trigger lift of new over current" in result.output and "100% -> 100%" in result.output
    document = json.loads((out / "lift.json").read_text(encoding="utf-8"))
    assert document["kind"] == "triggers"
    assert document["skills"][0]["recallDifference"] == 0.0
    assert (out / "new" / "triggers.json").is_file()


def test_a_coding_set_is_played_on_a_fresh_workspace_copy_in_each_arm(tmp_path: Path) -> None:
    # the worked example of docs/workspace.md: the fixer mends calc.py, the cheater edits the protected test
    example = Path(__file__).resolve().parents[2] / "examples" / "workspace"
    out = tmp_path / "out"
    arms = ["--arm", f"cheater={example / 'agent-cheater.yaml'}", "--arm", f"fixer={example / 'agent-fixer.yaml'}"]
    result = CliRunner().invoke(
        app, ["lift", str(example / "coding.json"), *arms, "--repeat", "1", "--out", str(out), "--no-history"]
    )
    assert result.exit_code == 0, result.output
    runs = {arm: json.loads((out / arm / "run.json").read_text(encoding="utf-8")) for arm in ("cheater", "fixer")}
    (fixed,), (cheated,) = runs["fixer"]["results"], runs["cheater"]["results"]
    assert fixed["status"] == "pass" and fixed["workspace"]["changed"] == ["calc.py"]
    assert cheated["status"] == "fail"
    assert [f["path"] for f in cheated["workspace"]["findings"]] == ["tests/test_calc.py"]
    assert "+    return a + b" in (out / "fixer" / fixed["workspace"]["patchPath"]).read_text(encoding="utf-8")
    assert Path(fixed["workspace"]["directory"]) != Path(cheated["workspace"]["directory"]), "one copy per play"


def test_vary_instructions_places_the_file_and_proves_its_delivery_by_its_path(tmp_path: Path) -> None:
    # the same script as the skill's: good only when "out of the door" reached the request
    always = tmp_path / "release.instructions.md"
    always.write_text(f"---\napplyTo: '**'\n---\n{DESCRIPTION}\n", encoding="utf-8")
    agent = CopilotEval(model=FunctionModel(answer), timeout_s=60)
    settings = RunSettings.of(repeat=1, graders=["exact"], concurrency=2)
    run = asyncio.run(
        lift_eval(read_test_set(write_set(tmp_path)), vary_arms(agent, f"instructions:{always}"), settings)
    )
    assert {p.delivery for p in run.plays} == {"delivered"}
    assert run.figures.flipped("better") == ["case1", "case2"] and run.figures.flipped("worse") == ["case3"]
    placed = ".github/instructions/release.instructions.md"
    evidence = next(iter(run.results["with"].values()))
    assert evidence.instructions_delivered(placed) is True  # the customizations audit saw the file where it was put
    # a file for Python files only is listed by the runtime, never sent: not_delivered with that reason, not "no lift"
    only_python = tmp_path / "python.instructions.md"
    only_python.write_text(f"---\napplyTo: '**/*.py'\n---\n{DESCRIPTION}\n", encoding="utf-8")
    cases = tmp_path / "one.csv"
    cases.write_text("question,expectedResponse\nhelps: is release one out,SHIPPED\n", encoding="utf-8")
    listed = asyncio.run(lift_eval(read_test_set(cases), vary_arms(agent, f"instructions:{only_python}"), settings))
    (with_play,) = [p for p in listed.plays if p.arm == "with"]
    assert with_play.delivery == "not_delivered" and "listed" in (with_play.delivery_reason or "")
