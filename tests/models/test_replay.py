"""Record against a BYOK endpoint (the ScriptedModel on loopback), stop it, replay offline through the real runtime."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from copilot_eval import ByokProvider, CopilotEval, ScriptedModel, run_copilot
from copilot_eval.models.replay import Recorder, Replay

SCRIPT = {
    "rules": [
        {
            "turns": [
                {"tool_calls": [{"name": "get_balance", "arguments": {"account": "A-7"}}]},
                {
                    "tool_calls": [
                        {
                            "name": "create",
                            "arguments": {
                                "path": "{working_directory}/balance.txt",
                                "file_text": "{last_tool_result}\n",
                            },
                        }
                    ]
                },
                {"text": "Your balance is in balance.txt"},
            ]
        }
    ]
}

# Volatile by nature: timings, ids minted by the runtime, where the run happened, how it was configured.
VOLATILE = {
    "duration_ms",
    "session_id",
    "turn_id",
    "message_id",
    "api_call_id",
    "agent_id",
    "working_directory",
    "configuration",
    "raw_events",
    "runtime_version",
    "interaction_id",
    "timestamp",
    "parent_call_id",
    "request_id",
    # the runtime's own trace and the time by phase read from it: span ids and times are new each run
    "runtime_trace",
    "phase_times",
}


def get_balance(account: str) -> str:
    """Return the balance of one account."""
    return f"{account}: 42.00 EUR"


def stable(result: Any, working_directory: str) -> Any:
    """The result as JSON without volatile fields, with the run's working directory made neutral."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in VOLATILE}
        if isinstance(value, list):
            return [strip(v) for v in value]
        if isinstance(value, str):
            return value.replace(working_directory, "<wd>")
        return value

    return strip(json.loads(result.model_dump_json()))


def agent_for(model: Any, workdir: str, *, streaming: bool, provider: ByokProvider | None = None) -> CopilotEval:
    return CopilotEval(
        model=model,
        provider=provider,
        tools=(get_balance,),
        streaming=streaming,
        working_directory=Path(workdir),
        timeout_s=60,
    )


WIRES = [
    ("completions", "http", False),
    ("completions", "http", True),
    ("responses", "http", False),
    ("responses", "http", True),
    ("responses", "websockets", True),
]


@pytest.mark.runtime
@pytest.mark.parametrize(("wire_api", "transport", "streaming"), WIRES)
async def test_record_then_replay_offline_gives_the_same_result(
    tmp_path: Path, wire_api: str, transport: str, streaming: bool
) -> None:
    scripted = ScriptedModel.from_dict(SCRIPT, wire_api=wire_api, transport=transport)
    record_dir, replay_dir = tempfile.mkdtemp(prefix="rec-wd-"), tempfile.mkdtemp(prefix="rep-wd-")
    cassettes = tmp_path / "cassettes"
    async with scripted.serve(working_directory=record_dir) as server:
        provider = ByokProvider(base_url=server.base_url, wire_api=wire_api, transport=transport)
        recorder = Recorder("scripted-model", cassettes, provider=provider, cassette="balance")
        recorded = await run_copilot(agent_for(recorder, record_dir, streaming=streaming), "What is my balance?")
        assert recorded.success, recorded.error
        assert len(server.endpoint.calls) == 3
    # The endpoint is gone: everything now comes from the cassette.
    replayed = await run_copilot(
        agent_for(Replay(cassettes, cassette="balance"), replay_dir, streaming=streaming), "What is my balance?"
    )
    assert replayed.success, replayed.error
    assert stable(replayed, replay_dir) == stable(recorded, record_dir)
    assert (Path(replay_dir) / "balance.txt").read_text() == "A-7: 42.00 EUR\n"
    assert replayed.configuration["model_source"] == f"replay of {cassettes}"

    lines = (cassettes / "balance.jsonl").read_text().splitlines()
    assert json.loads(lines[0]) == {"cassette": "copilot-eval", "version": 1}
    exchanges = [json.loads(line) for line in lines[1:]]
    assert [e["index"] for e in exchanges] == [0, 1, 2]
    assert {e["transport"] for e in exchanges} == {"websocket" if transport == "websockets" else "http"}
    text = (cassettes / "balance.jsonl").read_text()
    assert record_dir not in text and "<working_directory>" in text and "<datetime>" in text


@pytest.mark.runtime
@pytest.mark.parametrize(("wire_api", "transport"), [("completions", "http"), ("responses", "websockets")])
async def test_a_changed_prompt_fails_with_the_closest_recording_and_what_differs(
    tmp_path: Path, wire_api: str, transport: str
) -> None:
    scripted = ScriptedModel.from_dict(SCRIPT, wire_api=wire_api, transport=transport)
    workdir = tempfile.mkdtemp()
    async with scripted.serve(working_directory=workdir) as server:
        provider = ByokProvider(base_url=server.base_url, wire_api=wire_api, transport=transport)
        recorder = Recorder("scripted-model", tmp_path, provider=provider, cassette="t")
        assert (await run_copilot(agent_for(recorder, workdir, streaming=False), "What is my balance?")).success
    result = await run_copilot(
        agent_for(Replay(tmp_path, cassette="t"), tempfile.mkdtemp(), streaming=False), "What is my savings balance?"
    )
    assert not result.success and result.stop_reason == "execution_error"
    error = result.error or ""
    assert f"no recorded model call matches this {wire_api} request" in error
    assert "closest: call 0" in error and "savings" in error
    assert ("body.messages[1].content: recorded" if wire_api == "completions" else "body.input[") in error


@pytest.mark.runtime
async def test_replay_serves_several_runs_of_one_test_in_recorded_order(tmp_path: Path) -> None:
    model = ScriptedModel.from_dict(
        {"rules": [{"when": {"prompt_contains": "one"}, "turns": [{"text": "first"}]}, {"turns": [{"text": "second"}]}]}
    )
    workdir = tempfile.mkdtemp()
    async with model.serve() as server:
        recorder = Recorder("scripted-model", tmp_path / "c.jsonl", provider=ByokProvider(base_url=server.base_url))
        for prompt in ("prompt one", "prompt two"):
            assert (await run_copilot(agent_for(recorder, workdir, streaming=False), prompt)).success
    replay = Replay(tmp_path / "c.jsonl")
    answers = [
        (await run_copilot(agent_for(replay, workdir, streaming=False), p)).final_response
        for p in ("prompt one", "prompt two")
    ]
    assert answers == ["first", "second"]


async def test_a_missing_cassette_is_named_before_the_run_starts(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"no recorded model call to replay|no such cassette"):
        await run_copilot(CopilotEval(model=Replay(tmp_path, cassette="never")), "hello")


@pytest.mark.runtime
async def test_record_missing_fills_gaps_and_keeps_the_rest_and_stores_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPLAY_TEST_API_KEY", "sk-replay-test-not-to-be-stored")
    model = ScriptedModel.from_dict(
        {"rules": [{"when": {"prompt_contains": "one"}, "turns": [{"text": "first"}]}, {"turns": [{"text": "second"}]}]}
    )
    workdir = tempfile.mkdtemp()
    async with model.serve() as server:
        provider = ByokProvider(base_url=server.base_url, api_key_env="REPLAY_TEST_API_KEY")
        recorder = Recorder("scripted-model", tmp_path / "c.jsonl", provider=provider)
        assert (await run_copilot(agent_for(recorder, workdir, streaming=False), "prompt one")).success
        assert len(server.endpoint.calls) == 1
        filler = Recorder("scripted-model", tmp_path / "c.jsonl", provider=provider, record_missing=True)
        for prompt in ("prompt one", "prompt two"):
            assert (await run_copilot(agent_for(filler, workdir, streaming=False), prompt)).success
        assert len(server.endpoint.calls) == 2  # "prompt one" came from the cassette
    replay = Replay(tmp_path / "c.jsonl")
    answers = [
        (await run_copilot(agent_for(replay, workdir, streaming=False), p)).final_response
        for p in ("prompt one", "prompt two")
    ]
    assert answers == ["first", "second"]
    text = (tmp_path / "c.jsonl").read_text()
    assert len(text.splitlines()) == 3 and "sk-replay-test-not-to-be-stored" not in text
