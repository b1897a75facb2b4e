"""Fingerprints: one content hash per input, covering the files the agent names."""

from __future__ import annotations

import shutil
from pathlib import Path

from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.runs.fingerprints import (
    agent_fingerprint,
    graders_fingerprint,
    played_agent_fingerprint,
    test_set_fingerprint,
)
from copilot_eval.runs.plan import plan_run
from copilot_eval.runs.settings import RunSettings

AGENT = """name: shop
model: {scripted: script.yaml}
instructions: Help the shop.
custom_agents: [reviewer.agent.md]
skill_directories: [skills]
mcp_servers:
  orders: {command: "{python}", args: ["{agent_dir}/server.py"]}
"""


def _agent(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "agent.yaml").write_text(AGENT)
    (folder / "script.yaml").write_text("rules:\n  - turns: [{text: hi}]\n")
    (folder / "reviewer.agent.md").write_text("---\nname: reviewer\n---\nReview it.\n")
    (folder / "skills" / "refunds").mkdir(parents=True)
    (folder / "skills" / "refunds" / "SKILL.md").write_text("---\nname: refunds\ndescription: d\n---\nbody\n")
    (folder / "server.py").write_text("print('server')\n")
    return folder / "agent.yaml"


def test_the_agent_fingerprint_covers_every_file_the_agent_names(tmp_path):
    agent = _agent(tmp_path / "a")
    before = agent_fingerprint(agent)
    assert before.startswith("sha256:") and agent_fingerprint(agent) == before
    for name in ("script.yaml", "reviewer.agent.md", "skills/refunds/SKILL.md", "server.py", "agent.yaml"):
        file = agent.parent / name
        original = file.read_text()
        file.write_text(original + "\n# changed\n")
        assert agent_fingerprint(agent) != before, f"{name} is not covered"
        file.write_text(original)
    assert agent_fingerprint(agent) == before
    (agent.parent / "notes.txt").write_text("not named by the agent")
    assert agent_fingerprint(agent) == before


def test_the_same_agent_in_another_folder_has_the_same_fingerprint(tmp_path):
    agent = _agent(tmp_path / "here")
    shutil.copytree(agent.parent, tmp_path / "elsewhere" / "deeper")
    assert agent_fingerprint(tmp_path / "elsewhere" / "deeper" / "agent.yaml") == agent_fingerprint(agent)


def test_the_test_set_fingerprint_is_about_content_not_name():
    cases = [EvalTestCase(conversation_number=1, question="q", response="r")]
    one = EvalTestSet(name="a", data_type=EvalDataType.SINGLE_TURN, cases=cases)
    renamed = one.model_copy(update={"name": "b", "preamble": ["# comment"]})
    changed = one.model_copy(update={"cases": [cases[0].model_copy(update={"response": "other"})]})
    assert test_set_fingerprint(one) == test_set_fingerprint(renamed) != test_set_fingerprint(changed)


def test_the_graders_fingerprint_covers_specs_and_the_judge(tmp_path):
    judge = _agent(tmp_path / "judge")
    base = graders_fingerprint(["similarity:0.7"])
    assert base == graders_fingerprint(["similarity:0.7"]) != graders_fingerprint(["similarity:0.8"])
    with_judge = graders_fingerprint(["compare_meaning"], judge_path=judge)
    (judge.parent / "script.yaml").write_text("rules:\n  - turns: [{text: other}]\n")
    changed = graders_fingerprint(["compare_meaning"], judge_path=judge)
    assert changed != with_judge
    assert graders_fingerprint(None) == graders_fingerprint(["similarity"])
    # Asking each judge several times (--judge-repeat) is another way of grading.
    assert graders_fingerprint(["compare_meaning"], judge_path=judge, judge_repeat=3) != changed
    assert graders_fingerprint(["compare_meaning"], judge_path=judge, judge_repeat=1) == changed


def test_the_graders_fingerprint_covers_the_content_of_a_trajectory_file(tmp_path):
    steps = tmp_path / "steps.yaml"
    steps.write_text("conversations:\n  1: [{tool: search}]\n")
    spec = f"trajectory:{steps}"
    before = graders_fingerprint([spec])
    assert graders_fingerprint([spec]) == before
    steps.write_text("conversations:\n  1: [{tool: refund}]\n")  # same spec, other expected steps
    assert graders_fingerprint([spec]) != before


def test_the_plan_of_run_records_all_three(tmp_path):
    agent = _agent(tmp_path / "a")
    (tmp_path / "set.csv").write_text('"question","expectedResponse"\n"q1","hi"\n')
    plan = plan_run(tmp_path / "set.csv", [agent], RunSettings.of(graders=["exact"], out=tmp_path / "out"))
    fp = plan.fingerprints
    assert fp.test_set == test_set_fingerprint(plan.test_set)
    assert fp.agent == agent_fingerprint(agent) and fp.graders == graders_fingerprint(["exact"])
    assert fp.played_agent == played_agent_fingerprint(agent)  # the agent apart from its target and name
    assert fp.model_dump(by_alias=True) == {
        "testSet": fp.test_set,
        "agent": fp.agent,
        "graders": fp.graders,
        "playedAgent": fp.played_agent,
    }
