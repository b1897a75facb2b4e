"""What a Ray worker is given for each arm (fast, no cluster): an agent file that plays as the arm does.

An arm made by ``--vary`` lives in memory; ``arm_agent_file`` writes it into the lift's folder so a
worker loads the same agent: the same skills and working directory, the same differing texts, the
same script beside it. The cluster itself is exercised in tests/scale/test_lift_on_ray.py.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.agent import load_agent_file
from copilot_eval.cli.app import app
from copilot_eval.lift import expectations_of, vary_arms
from copilot_eval.lift.remote import arm_agent_file
from copilot_eval.lift.trigger_lift import _names_in_arm
from copilot_eval.triggers import trigger_set_from_data


def _project(folder: Path) -> Path:
    for name, description in (("release-check", "Tells whether a release is out of the door."), ("tidy", "Tidies.")):
        skill = folder / "skills" / name
        skill.mkdir(parents=True)
        (skill / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n")
    (folder / "script.yaml").write_text("rules:\n  - turns: [{text: 'fine'}]\n", encoding="utf-8")
    agent = folder / "agent.yaml"
    agent.write_text(
        "name: helper\nmodel: {scripted: script.yaml}\nskill_directories: [skills]\ntimeout_s: 30\n", encoding="utf-8"
    )
    return agent


def test_a_varied_arm_is_written_as_an_agent_file_that_loads_the_same_texts(tmp_path: Path) -> None:
    source = _project(tmp_path / "project")
    without, with_skill = vary_arms(load_agent_file(source), "skill:release-check")
    # the arm that is the file's own agent is shipped from that file as it is
    assert arm_agent_file(with_skill, source, tmp_path / "out" / "with" / "agent") == source
    written = arm_agent_file(without, source, tmp_path / "out" / "without" / "agent")
    assert written == tmp_path / "out" / "without" / "agent" / "agent.yaml"
    assert (written.parent / "script.yaml").read_text(encoding="utf-8") == (source.parent / "script.yaml").read_text()
    shipped = load_agent_file(written)
    skills = sorted(p.parent.name for d in shipped.skill_directories for p in Path(d).glob("*/SKILL.md"))
    assert skills == ["tidy"]  # the varied skill is gone, the other stays
    # the arms rebuilt from the written file and the source tell the same texts apart, by the same hashes
    again = expectations_of({"without": shipped, "with": load_agent_file(source)})
    assert [a.expectations for a in again] == [without.expectations, with_skill.expectations]


def test_an_instruction_file_arm_carries_its_working_directory(tmp_path: Path) -> None:
    source = _project(tmp_path / "project")
    notes = tmp_path / "notes.md"
    notes.write_text("Put the release notes first, always.\n", encoding="utf-8")
    _, with_file = vary_arms(load_agent_file(source), f"instructions:{notes}")
    written = arm_agent_file(with_file, source, tmp_path / "out" / "with" / "agent")
    placed = Path(str(load_agent_file(written).working_directory)) / ".github" / "copilot-instructions.md"
    assert placed.read_text(encoding="utf-8") == notes.read_text(encoding="utf-8")
    assert placed.is_relative_to(tmp_path / "out" / "with" / "agent")


def test_the_command_refuses_ray_for_a_trigger_set_and_ray_options_without_ray(tmp_path: Path) -> None:
    source = _project(tmp_path / "project")
    triggers = tmp_path / "triggers.json"
    triggers.write_text('{"prompts": [{"prompt": "is release one out", "expected": "release-check"}]}')
    vary = ["--agent", str(source), "--vary", "skill:release-check", "--out", str(tmp_path / "out")]
    shown = CliRunner().invoke(app, ["lift", str(triggers), *vary, "--executor", "ray"])
    assert shown.exit_code == 2 and "a trigger set's lift plays on this machine" in shown.output, shown.output
    cases = tmp_path / "cases.csv"
    cases.write_text("question,expectedResponse\nhello,fine\n", encoding="utf-8")
    shown = CliRunner().invoke(app, ["lift", str(cases), *vary, "--ray-workers", "2"])
    assert shown.exit_code == 2 and "--ray-address and --ray-workers need --executor ray" in shown.output
    assert not (tmp_path / "out").exists()


def test_the_arm_without_a_skill_is_not_set_apart_for_lacking_it(tmp_path: Path) -> None:
    # `--vary skill:NAME` on a trigger set: the arm without the skill lacks it by design, so its plays
    # must count (a miss of NAME there is the variation measured), not be set apart as a setup problem.
    without, with_skill = vary_arms(load_agent_file(_project(tmp_path / "project")), "skill:release-check")
    chosen = trigger_set_from_data(
        {"prompts": [{"prompt": "is it out", "expected": "release-check"}, {"prompt": "tidy up", "expected": "tidy"}]},
        name="releases",
        source="test",
    )
    assert _names_in_arm(chosen, without) == ("tidy",)
    assert set(_names_in_arm(chosen, with_skill)) == {"release-check", "tidy"}
