"""Agent settings that shape a session, checked against what the runtime actually did."""

from __future__ import annotations

import hashlib

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot


def scripted(*turns: dict) -> ScriptedModel:
    """A one-rule ScriptedModel."""
    return ScriptedModel.from_dict({"rules": [{"turns": list(turns)}]})


def _write(name: str) -> dict:
    return {"tool_calls": [{"name": "create", "arguments": {"path": "{working_directory}/" + name, "file_text": "x"}}]}


@pytest.mark.runtime
async def test_max_turns_stops_an_agent_that_keeps_going() -> None:
    agent = CopilotEval(
        model=scripted(_write("1.txt"), _write("2.txt"), _write("3.txt"), {"text": "done"}), max_turns=2
    )
    result = await run_copilot(agent, "write files")
    assert result.success is False
    assert result.stop_reason == "execution_error" and "max_turns=2" in result.error
    assert not result.file_exists("3.txt")


@pytest.mark.runtime
async def test_replace_mode_sends_exactly_the_given_system_message() -> None:
    instructions = "You are a terse assistant. Answer in one word."
    agent = CopilotEval(
        model=scripted({"text": "Yes."}), instructions=instructions, system_message_mode="replace", audit_requests=True
    )
    result = await run_copilot(agent, "Is water wet?")
    assert result.success, result.error
    (record,) = result.request_audit
    assert record.instructions_sha256 == hashlib.sha256(instructions.encode()).hexdigest()
    assert result.configuration["effective_system_prompt"] == instructions


@pytest.mark.runtime
async def test_append_mode_keeps_the_runtime_prompt_and_adds_ours() -> None:
    instructions = "Always mention the bike shop."
    agent = CopilotEval(model=scripted({"text": "ok"}), instructions=instructions, audit_requests=True)
    result = await run_copilot(agent, "hello")
    (record,) = result.request_audit
    assert record.instructions_sha256 != hashlib.sha256(instructions.encode()).hexdigest()
    system = [e for e in result.raw_events if e["type"] == "system.message"]
    assert system and instructions in system[0]["data"]["content"]


@pytest.mark.runtime
async def test_a_github_hosted_model_without_a_login_says_how_to_fix_it(monkeypatch) -> None:
    for name in ("COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    result = await run_copilot(CopilotEval(model="gpt-4.1", timeout_s=30), "hello")
    assert result.success is False and result.stop_reason == "execution_error"
    assert "No GitHub OAuth token" in result.error
    assert "GH_TOKEN" in result.error and "ScriptedModel" in result.error
    assert result.error.count("No GitHub OAuth token") == 1


def test_sessions_leave_out_the_cross_session_store_unless_asked() -> None:
    # A run's COPILOT_HOME is its own and removed after the run: the store could only hold that
    # run, and it kept runtime memory per session (docs/faults.md).
    from copilot_eval.models.choice import choose_model
    from copilot_eval.runtime.session.session_config import session_settings

    def settings(agent: CopilotEval) -> dict:
        return session_settings(agent, choose_model(agent), working_directory="/tmp", config_directory="/tmp", tools=[])

    assert settings(CopilotEval(model="gpt-4.1"))["enable_session_store"] is False
    asked = CopilotEval(model="gpt-4.1", extra_config={"enable_session_store": True})
    assert settings(asked)["enable_session_store"] is True


def test_sessions_leave_out_the_runtimes_product_telemetry_unless_asked() -> None:
    # About 15 % of the runtime's CPU per scripted session, nothing the model is sent (docs/cost.md).
    from copilot_eval.models.choice import choose_model
    from copilot_eval.runtime.session.session_config import configuration_snapshot, session_settings

    def settings(agent: CopilotEval) -> dict:
        return session_settings(agent, choose_model(agent), working_directory="/tmp", config_directory="/tmp", tools=[])

    agent = CopilotEval(model="gpt-4.1")
    assert settings(agent)["enable_session_telemetry"] is False
    assert configuration_snapshot(settings(agent), choose_model(agent))["enable_session_telemetry"] is False
    asked = CopilotEval(model="gpt-4.1", extra_config={"enable_session_telemetry": True})
    assert settings(asked)["enable_session_telemetry"] is True


@pytest.mark.runtime
async def test_tool_calls_are_counted_against_a_budget_only_when_there_is_one() -> None:
    def lookup(city: str) -> str:
        """Look up a city."""
        return f"sunny in {city}"

    script = ({"tool_calls": [{"name": "lookup", "arguments": {"city": "Oslo"}}]}, {"text": "done"})
    free = await run_copilot(CopilotEval(model=scripted(*script), tools=(lookup,)), "weather?")
    budgeted = await run_copilot(CopilotEval(model=scripted(*script), tools=(lookup,), max_tool_calls=3), "weather?")
    for result in (free, budgeted):
        assert result.success, result.error
        assert [(c.name, c.result) for c in result.all_tool_calls] == [("lookup", "sunny in Oslo")]
    assert free.tool_calls_admitted is None  # no budget: nothing was admitted or refused by one
    assert budgeted.tool_calls_admitted == 1
