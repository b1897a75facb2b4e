"""Skill discovery for explicit skill directories, through the real runtime."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval import CopilotEval, run_copilot

from .helpers import Watched, scripted

pytestmark = pytest.mark.runtime


def write_skill(root: Path, name: str, description: str, body: str) -> Path:
    """A skill as the runtime expects it: <root>/<name>/SKILL.md with front matter."""
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n{body}\n")
    return folder / "SKILL.md"


async def test_skill_from_a_directory_is_discovered_and_can_be_used(tmp_path: Path) -> None:
    skill_file = write_skill(tmp_path / "skills", "greet", "Greets people warmly.", "Always greet with 'Ahoy'.")
    model = Watched(
        scripted(
            {
                "turns": [
                    {"tool_calls": [{"name": "skill", "arguments": {"skill": "greet"}}]},
                    {"text": "Ahoy!"},
                ]
            }
        )
    )
    agent = CopilotEval(model=model, skill_directories=(tmp_path / "skills",))
    result = await run_copilot(agent, "Say hello")
    assert result.success, result.error
    discovery = result.skill_discovery
    assert discovery is not None and discovery.complete and discovery.errors == []
    (greet,) = [skill for skill in discovery.skills if skill.name == "greet"]
    assert greet.description == "Greets people warmly."
    assert greet.enabled is True and greet.path == str(skill_file)
    assert greet.source == "custom" and greet.command_name == "greet"
    assert greet.plugin_name is None and greet.argument_hint is None, "absent metadata stays None"
    # availability is not use: the use shows up as an ordinary tool call
    (call,) = result.tool_calls_for("skill")
    assert call.success is True and "greet" in (call.result or "")
    assert result.final_response == "Ahoy!"


async def test_no_explicit_directories_means_no_discovery() -> None:
    result = await run_copilot(CopilotEval(model=scripted({"turns": [{"text": "hi"}]})), "hello")
    assert result.success and result.skill_discovery is None


async def test_missing_directory_and_malformed_skill_are_errors_not_crashes(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "greet", "Greets.", "Wave.")
    (tmp_path / "skills" / "broken").mkdir()
    (tmp_path / "skills" / "broken" / "SKILL.md").write_text("no front matter\n")
    agent = CopilotEval(
        model=scripted({"turns": [{"text": "hi"}]}), skill_directories=(tmp_path / "skills", tmp_path / "nowhere")
    )
    result = await run_copilot(agent, "hello")
    discovery = result.skill_discovery
    assert discovery is not None and discovery.complete, "complete means finished, not succeeded"
    assert any(str(tmp_path / "nowhere") in error and "does not exist" in error for error in discovery.errors)
    assert any("broken" in error for error in discovery.errors)
    assert "greet" in [skill.name for skill in discovery.skills]
    assert result.success, "a diagnostic alone does not block the run"


async def test_unexpectedly_disabled_requested_skill_blocks_before_any_model_request(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "greet", "Greets.", "Wave.")
    model = Watched(scripted({"turns": [{"text": "hi"}]}))
    # disabled behind the agent's back (a raw config override), not through disabled_skills
    agent = CopilotEval(
        model=model, skill_directories=(tmp_path / "skills",), extra_config={"disabled_skills": ["greet"]}
    )
    result = await run_copilot(agent, "hello")
    assert result.success is False and result.stop_reason == "execution_error"
    assert "'greet'" in result.error and "disabled_skills" in result.error
    assert model.calls == [], "no model request was sent"
    (greet,) = [s for s in result.skill_discovery.skills if s.name == "greet"]
    assert greet.enabled is False


async def test_deliberately_disabled_skill_is_recorded_and_the_run_goes_on(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "greet", "Greets.", "Wave.")
    model = Watched(scripted({"turns": [{"text": "hi"}]}))
    agent = CopilotEval(model=model, skill_directories=(tmp_path / "skills",), disabled_skills=("greet",))
    result = await run_copilot(agent, "hello")
    assert result.success and len(model.calls) == 1
    (greet,) = [s for s in result.skill_discovery.skills if s.name == "greet"]
    assert greet.enabled is False
