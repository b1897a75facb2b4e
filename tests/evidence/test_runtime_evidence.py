"""Evidence the real runtime produces: children, custom agents, permissions, usage, JSON, settings."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from copilot_eval import ByokProvider, CopilotEval, CopilotResult, CustomAgent, run_copilot

from .helpers import scripted
from .test_skill_discovery import write_skill

pytestmark = pytest.mark.runtime

PARENT_USAGE = {"input_tokens": 100, "output_tokens": 10}
CHILD_USAGE = {"input_tokens": 40, "output_tokens": 4}


def delegating(agent_type: str = "general-purpose") -> dict:
    """Parent rule: delegate through the task tool, then quote the child's answer."""
    return {
        "when": {"prompt_contains": "delegate"},
        "turns": [
            {
                "tool_calls": [
                    {
                        "name": "task",
                        "arguments": {
                            "description": "say hi",
                            "prompt": "subtask: say hi",
                            "agent_type": agent_type,
                            "name": "helper",
                        },
                    }
                ],
                "usage": PARENT_USAGE,
            },
            {"text": "child said: {last_tool_result}", "usage": PARENT_USAGE},
        ],
    }


CHILD_RULE = {"when": {"prompt_contains": "subtask"}, "turns": [{"text": "hi from the child", "usage": CHILD_USAGE}]}


async def test_task_subagent_keeps_its_own_result_and_usage_counts_once() -> None:
    result = await run_copilot(CopilotEval(model=scripted(delegating(), CHILD_RULE)), "delegate this")
    assert result.success, result.error
    assert "hi from the child" in result.final_response
    (invocation,) = result.subagent_invocations
    assert invocation.status == "completed"
    child = invocation.result
    assert child is not None, "the framework captured the child's own trace"
    assert child.final_response == "hi from the child"
    assert [(u.input_tokens, u.output_tokens) for u in child.usage] == [(40, 4)]
    # the parent's usage is its own session's; the tree totals include the child once
    assert [(u.input_tokens, u.output_tokens) for u in result.usage] == [(100, 10), (100, 10)]
    assert len(result.all_usage) == 3
    assert result.total_input_tokens == 240 and result.total_output_tokens == 24
    assert [c.name for c in result.all_tool_calls] == ["task"], "child tools stay in the child"
    assert [r is result or r is child for r in result.execution_results] == [True, True]


async def test_custom_agent_from_an_agent_file(tmp_path: Path) -> None:
    agent_file = tmp_path / "reviewer.agent.md"
    agent_file.write_text("---\ndescription: Reviews text carefully.\n---\nYou review text. subtask mode.\n")
    custom = CustomAgent.from_file(agent_file)
    assert custom.name == "reviewer"
    model = scripted(delegating("reviewer"), CHILD_RULE)
    result = await run_copilot(CopilotEval(model=model, custom_agents=(custom,)), "delegate this")
    assert result.success, result.error
    assert result.configuration["custom_agents"][0]["name"] == "reviewer"
    (invocation,) = result.subagent_invocations
    assert invocation.name in ("reviewer", "helper")
    assert invocation.status == "completed"
    assert invocation.result is not None and invocation.result.final_response == "hi from the child"


async def test_builtin_create_records_a_permission_with_its_decision() -> None:
    model = scripted(
        {
            "turns": [
                {
                    "tool_calls": [
                        {"name": "create", "arguments": {"path": "{working_directory}/a.txt", "file_text": "a"}}
                    ]
                },
                {"text": "done"},
            ]
        }
    )
    result = await run_copilot(CopilotEval(model=model), "create a")
    assert result.success and result.permission_requested is True
    (permission,) = result.permissions
    assert permission.decision is not None and permission.kind is not None
    assert result.file("a.txt") == "a"

    denied = await run_copilot(CopilotEval(model=model, permission_policy="deny_all"), "create a")
    assert denied.permission_requested is True
    assert denied.permissions[0].decision != permission.decision
    assert not denied.file_exists("a.txt")


async def test_usage_numbers_come_from_the_model_and_null_stays_unknown() -> None:
    known = await run_copilot(
        CopilotEval(model=scripted({"turns": [{"text": "x", "usage": {"input_tokens": 123, "output_tokens": 7}}]})),
        "go",
    )
    assert [(u.input_tokens, u.output_tokens) for u in known.usage] == [(123, 7)]
    assert (known.total_input_tokens, known.total_output_tokens, known.total_tokens) == (123, 7, 130)

    unknown = await run_copilot(
        CopilotEval(model=scripted({"turns": [{"text": "x", "usage": None}]}), streaming=True), "go"
    )
    assert unknown.success
    assert unknown.total_input_tokens is None and unknown.total_output_tokens is None
    assert unknown.total_tokens is None


async def test_native_json_round_trip_keeps_audit_discovery_and_children(tmp_path: Path) -> None:
    write_skill(tmp_path / "skills", "greet", "Greets.", "Wave.")
    agent = CopilotEval(
        model=scripted(delegating(), CHILD_RULE), audit_requests=True, skill_directories=(tmp_path / "skills",)
    )
    result = await run_copilot(agent, "delegate this")
    assert result.success, result.error
    assert len(result.request_audit) == 3, "two parent requests and the child's one"
    assert len({r.agent_id for r in result.request_audit}) == 2
    loaded = CopilotResult.load(result.save(tmp_path / "result.json"))
    assert loaded.request_audit == result.request_audit
    assert loaded.skill_discovery == result.skill_discovery and loaded.skill_discovery.complete
    assert loaded.stop_reason == "completed" and loaded.evidence_complete == result.evidence_complete
    child = loaded.subagent_invocations[0].result
    assert child is not None and child.final_response == "hi from the child"
    assert loaded.total_input_tokens == result.total_input_tokens == 240
    saved = json.loads((tmp_path / "result.json").read_text())
    assert "skill_discovery" not in (saved.get("configuration") or {}), "discovery is saved on its own"


async def test_configuration_keeps_out_keys_commands_and_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    secret = "sk-evidence-never-saved-0123456789"
    monkeypatch.setenv("EVIDENCE_BYOK_KEY", secret)
    model = scripted({"turns": [{"text": "served"}]})
    async with model.serve() as server:
        agent = CopilotEval(
            model=model.session_model,
            audit_requests=True,
            provider=ByokProvider(base_url=server.base_url, api_key_env="EVIDENCE_BYOK_KEY"),
            # The server exits at once: optional, so the run goes on and only its settings matter here.
            mcp_servers={
                "notes": {
                    "command": sys.executable,
                    "args": ["-c", "pass"],
                    "optional": True,
                    "env": {"NOTES_TOKEN": "tok-mcp-secret-42"},
                }
            },
            timeout_s=60,
        )
        result = await run_copilot(agent, "hello")
    assert result.final_response == "served", result.error
    (record,) = result.request_audit  # a real (forwarded) model is audited too
    assert record.model == model.session_model
    saved = result.save(tmp_path / "result.json").read_text()
    for leaked in (secret, "tok-mcp-secret-42", "NOTES_TOKEN", sys.executable):
        assert leaked not in saved
    configuration = result.configuration
    assert "api_key" not in configuration["provider"]
    assert set(configuration["mcp_servers"]["notes"]) & {"command", "args", "env"} == set()
