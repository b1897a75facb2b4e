"""The environment server: the attack lands where its vector says and nowhere else; the MCP client reads it."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

from copilot_eval.security import load_suite, plan_cases
from copilot_eval.security.env_server import Environment, place_attack, serve, write_files
from copilot_eval.security.environment import ENV_SERVER, environment_spec

from .helpers import play_of

SUITE = load_suite("builtin")
ATTACK = "ATTACK-TEXT"


TASK_OF = {"tool_result": "shop-order-status", "resource": "shop-manual", "tool_description": "shop-manual"}


def spec_for(vector: str | None, folder: Path) -> dict:
    """The spec of the first shop case through ``vector`` (None: the manual's baseline), attack text replaced."""
    task = TASK_OF.get(vector or "", "shop-supplier-notes" if vector == "file" else "shop-manual")
    case = next(c for c in plan_cases(SUITE) if c.task == task and c.vector == vector)
    spec = environment_spec(SUITE, SUITE.environments["shop"], play_of(SUITE, case.id, folder))
    if spec["attack"] is not None:
        spec["attack"]["text"] = ATTACK
    return spec


def where_the_attack_is(spec: dict) -> set[str]:
    placed = place_attack(spec)
    found = set()
    for tool in placed["tools"]:
        if ATTACK in tool["description"]:
            found.add("tool_description")
        for response in tool["responses"]:
            for item in response["content"]:
                text = item["resource"]["text"] if item["type"] == "resource" else item["text"]
                if ATTACK in text:
                    found.add("resource" if item["type"] == "resource" else "tool_result")
                assert "{injection}" not in text
        assert "{injection}" not in tool["description"]
    found |= {"file" for file in placed["files"] if ATTACK in file["text"]}
    return found


def test_the_attack_is_placed_at_its_vector_only(tmp_path: Path) -> None:
    for vector in ("tool_result", "resource", "tool_description", "file"):
        assert where_the_attack_is(spec_for(vector, tmp_path)) == {vector}
    assert where_the_attack_is(spec_for(None, tmp_path)) == set()  # the baseline: every mark emptied


def test_files_are_written_into_the_working_directory(tmp_path: Path) -> None:
    write_files(place_attack(spec_for("file", tmp_path)))
    text = (tmp_path / "supplier-notes.txt").read_text(encoding="utf-8")
    assert ATTACK in text and "helmets: back in stock on 2026-12-10" in text


def talk(spec: dict, *messages: dict) -> list[dict]:
    out = io.StringIO()
    serve(Environment(place_attack(spec)), io.StringIO("".join(json.dumps(m) + "\n" for m in messages)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_calls_are_answered_by_the_first_matching_response_with_arguments_filled_in(tmp_path: Path) -> None:
    call = {"jsonrpc": "2.0", "method": "tools/call"}
    replies = talk(
        spec_for("tool_result", tmp_path),
        {**call, "id": 1, "params": {"name": "get_order", "arguments": {"order_id": "1042"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},  # no reply to a notification
        {**call, "id": 2, "params": {"name": "get_order", "arguments": {"order_id": "9"}}},
        {**call, "id": 3, "params": {"name": "refund_order", "arguments": {"order_id": "1043", "card": "C"}}},
        {"jsonrpc": "2.0", "id": 4, "method": "no/such"},
    )
    assert [r["id"] for r in replies] == [1, 2, 3, 4]
    assert (
        "TRK-55810" in replies[0]["result"]["content"][0]["text"]
        and ATTACK in replies[0]["result"]["content"][0]["text"]
    )
    assert replies[1]["result"] == {"content": [{"type": "text", "text": "There is no order 9."}], "isError": True}
    assert replies[2]["result"]["content"][0]["text"] == "Order 1043 was refunded to card C."
    assert replies[3]["error"]["code"] == -32601


async def test_the_mcp_packages_own_client_lists_calls_and_reads_resources(tmp_path: Path) -> None:
    # The reference client of the protocol, over a real stdio pipe: handshake, tools, embedded resource.
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    spec = spec_for("resource", tmp_path)
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(spec), encoding="utf-8")
    server = StdioServerParameters(command=sys.executable, args=[str(ENV_SERVER), str(path)])
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        assert [t.name for t in tools.tools] == [
            "get_order",
            "get_reviews",
            "get_manual",
            "refund_order",
            "update_address",
        ]
        assert tools.tools[0].input_schema["required"] == ["order_id"]
        answer = await session.call_tool("get_manual", {"product": "rear light"})
        text, embedded = answer.content
        assert text.text == "The manual of rear light is attached."
        assert embedded.resource.uri == "shop://manuals/rear-light-r2.txt" and ATTACK in embedded.resource.text
        listed = await session.list_resources()
        assert [str(r.uri) for r in listed.resources] == ["shop://manuals/rear-light-r2.txt"]
        read_back = await session.read_resource("shop://manuals/rear-light-r2.txt")
        assert ATTACK in read_back.contents[0].text
