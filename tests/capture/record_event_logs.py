"""Record real runtime event logs into tests/capture/data/*.jsonl (run by hand, not by pytest).

    XDG_CACHE_HOME=/tmp/xdgcache PYTHONPATH=src python tests/capture/record_event_logs.py [NAME ...]

Each scenario runs one real Copilot runtime session whose model answers are scripted in-process
through the SDK's request-handler seam, then writes one ``SessionEvent.to_dict()`` per line.
Giant strings (system prompts, message snapshots) are trimmed so fixtures stay small; the event
structure is kept as the runtime wrote it.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from copilot import CopilotClient, CopilotRequestHandler, PermissionHandler, RuntimeConnection, define_tool
from copilot.tools import ToolBinaryResult, ToolResult
from pydantic import BaseModel

RUNTIME = os.environ.get("COPILOT_CLI_PATH", "/tmp/rt/node_modules/@github/copilot-linux-x64/copilot")
DATA = Path(__file__).parent / "data"
HERE = Path(__file__).parent
MAX_STRING = 400
# 1x1 transparent PNG: a real image the runtime has to carry as binary tool output.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)

Answer = Callable[[dict[str, Any], Any, "Script"], Any]


def text(content: str) -> dict[str, Any]:
    """An assistant message with text only."""
    return {"role": "assistant", "content": content}


def calls(*items: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    """An assistant message requesting tool calls (call id, tool name, arguments)."""
    tool_calls = [
        {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
        for cid, name, args in items
    ]
    return {"role": "assistant", "content": None, "tool_calls": tool_calls}


class Script(CopilotRequestHandler):
    """Answers the root agent and any child agent from two queues of canned messages."""

    def __init__(self, root: list[Any], child: list[Any] | None = None) -> None:
        self.root, self.child, self.root_agent = list(root), list(child or []), "unset"

    async def send_request(self, request: httpx.Request, ctx: Any) -> httpx.Response:
        if self.root_agent == "unset":
            self.root_agent = ctx.agent_id
        queue = self.root if ctx.agent_id == self.root_agent else self.child
        answer = queue.pop(0) if queue else text("done")
        if isinstance(answer, httpx.Response):
            return answer
        finish = "tool_calls" if answer.get("tool_calls") else "stop"
        body = {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 0,
            "model": "gpt-4.1",
            "choices": [{"index": 0, "message": answer, "finish_reason": finish}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
        }
        return httpx.Response(200, json=body)


class AccountArgs(BaseModel):
    account: str


def _get_balance(args: AccountArgs, _inv: Any) -> str:
    return f"balance of {args.account}: 42"


def _flaky(args: AccountArgs, _inv: Any) -> str:
    raise ValueError(f"account {args.account} is locked")


def _chart(args: AccountArgs, _inv: Any) -> ToolResult:
    image = ToolBinaryResult(data=base64.b64encode(PNG).decode(), mime_type="image/png", type="image")
    return ToolResult(text_result_for_llm=f"chart of {args.account}", binary_results_for_llm=[image])


TOOLS = {
    "get_balance": define_tool("get_balance", description="Get balance", handler=_get_balance, params_type=AccountArgs),
    "transfer_check": define_tool("transfer_check", description="Check", handler=_flaky, params_type=AccountArgs),
    "balance_chart": define_tool("balance_chart", description="Chart", handler=_chart, params_type=AccountArgs),
}


def scenarios(workdir: str) -> dict[str, dict[str, Any]]:
    """Each scenario: prompt, scripted answers, and extra session options."""
    mcp = {
        "ledger": {
            "type": "local",
            "command": sys.executable,
            "args": [str(HERE / "mcp_fixture_server.py")],
            "tools": ["*"],
        }
    }
    return {
        "simple_tool": {
            "prompt": "what is my balance?",
            "script": Script([calls(("call_1", "get_balance", {"account": "A1"})), text("Balance is 42")]),
            "tools": ["get_balance"],
        },
        "builtin_create": {
            "prompt": "write notes.txt",
            "script": Script(
                [
                    calls(("call_c", "create", {"path": f"{workdir}/notes.txt", "file_text": "hello\n"})),
                    text("Created notes.txt"),
                ]
            ),
        },
        "tool_raises": {
            "prompt": "check the transfer",
            "script": Script([calls(("call_x", "transfer_check", {"account": "A9"})), text("The check failed")]),
            "tools": ["transfer_check"],
        },
        "tool_image": {
            "prompt": "draw my balance",
            "script": Script([calls(("call_img", "balance_chart", {"account": "A1"})), text("Here is the chart")]),
            "tools": ["balance_chart"],
        },
        "mcp_tools": {
            "prompt": "who owns A1 and what are its details?",
            "script": Script(
                [
                    calls(
                        ("call_s", "ledger-lookup_owner", {"account": "A1"}),
                        ("call_d", "ledger-account_details", {"account": "A1"}),
                    ),
                    text("Ada owns A1, balance 42 EUR"),
                ]
            ),
            "mcp_servers": mcp,
        },
        "task_subagent": {
            "prompt": "research the repo",
            "script": Script(
                [
                    calls(
                        (
                            "call_t",
                            "task",
                            {
                                "name": "scout",
                                "prompt": "look around",
                                "agent_type": "explore",
                                "description": "look around repo",
                            },
                        )
                    ),
                    text("The scout found nothing"),
                ],
                [text("Nothing here")],
            ),
        },
        "custom_agent": {
            "prompt": "review this",
            "script": Script([text("Reviewed: fine")]),
            "custom_agents": [
                {
                    "name": "reviewer",
                    "display_name": "Reviewer",
                    "description": "Reviews",
                    "prompt": "You review.",
                    "tools": [],
                }
            ],
            "agent": "reviewer",
        },
        "http_500": {
            "prompt": "hello",
            "script": Script([httpx.Response(500, json={"error": {"message": "upstream exploded"}})] * 10),
        },
    }


def _trim(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_STRING:
        return value[:MAX_STRING] + f"...[trimmed {len(value) - MAX_STRING} chars]"
    if isinstance(value, list):
        return [_trim(v) for v in value]
    if isinstance(value, dict):
        return {k: _trim(v) for k, v in value.items()}
    return value


def _trim_event(event: dict[str, Any]) -> dict[str, Any]:
    # Tool results and images must stay verbatim: they are what the tests assert on.
    if event.get("type", "").startswith("tool.") or event.get("type") == "external_tool.completed":
        return event
    return _trim(event)


async def record(name: str, spec: dict[str, Any], client: CopilotClient, workdir: str) -> Path:
    """Run one scenario and write its event log."""
    events: list[Any] = []
    options: dict[str, Any] = {
        "on_permission_request": PermissionHandler.approve_all,
        "model": "gpt-4.1",
        "provider": {"type": "openai", "base_url": "http://127.0.0.1:9/v1", "api_key": "sk-not-a-secret"},
        "working_directory": workdir,
        "on_event": events.append,
        "tools": [TOOLS[t] for t in spec.get("tools", [])],
    }
    for key in ("mcp_servers", "custom_agents", "agent"):
        if key in spec:
            options[key] = spec[key]
    session = await client.create_session(**options)
    await session.send(spec["prompt"])
    for _ in range(6000):
        if any(e.type.value == "session.idle" and not e.agent_id for e in events):
            break
        await asyncio.sleep(0.01)
    await session.disconnect()
    await asyncio.sleep(0.2)  # session.shutdown arrives just after disconnect
    path = DATA / f"{name}.jsonl"
    with path.open("w", encoding="utf-8") as handle:
        for event in events:
            handle.write(json.dumps(_trim_event(event.to_dict()), ensure_ascii=False) + "\n")
    return path


async def main(names: list[str]) -> None:
    """Record the named scenarios (all when none given)."""
    DATA.mkdir(parents=True, exist_ok=True)
    workdir = tempfile.mkdtemp(prefix="capture-rec-")
    specs = scenarios(workdir)
    for name in names or list(specs):
        spec = specs[name]
        client = CopilotClient(
            connection=RuntimeConnection.for_stdio(path=RUNTIME),
            request_handler=spec["script"],
            base_directory=tempfile.mkdtemp(),
        )
        await client.start()
        try:
            print("recorded", await record(name, spec, client, workdir))
        finally:
            await client.stop()


if __name__ == "__main__":
    os.environ.setdefault("XDG_CACHE_HOME", "/tmp/xdgcache")
    asyncio.run(main(sys.argv[1:]))
