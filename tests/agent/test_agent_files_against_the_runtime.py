"""`.agent.md` files read as the runtime's own agent loader reads them, checked against that loader.

The runtime loads agent files from a folder itself (``agent_directories``) and reports what it
skipped and why (``session.custom_agents_updated`` errors). Each file below is given to both: what
copilot-eval loads, the runtime loads; what it skips or refuses, the runtime skips. Before, a file
whose MCP server had the runtime's ``auth`` key was refused, one without ``description`` was
loaded, and ``disable-model-invocation: true`` left the agent in the model's ``task`` tool.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest

from copilot_eval import CallTool, CopilotEval, FunctionModel, run_copilot
from copilot_eval.agent import CustomAgent
from copilot_eval.agent.mcp_config import LOADER_ONLY_KEYS, RUNTIME_COMMON_KEYS, RUNTIME_HTTP_KEYS, RUNTIME_STDIO_KEYS

pytestmark = pytest.mark.runtime

HTTP = "    type: http\n    url: https://mcp.example.invalid/mcp\n    tools: ['*']\n"
FILES = {
    "plain": "---\nname: plain\ndescription: Answers plainly.\n---\nAnswer plainly.\n",
    "http-auth": f"---\nname: http-auth\ndescription: Uses a remote server.\nmcp-servers:\n  remote:\n{HTTP}    auth: true\n---\nUse it.\n",
    "stdio-auth": (
        "---\nname: stdio-auth\ndescription: Uses a local server.\nmcp-servers:\n  local:\n    command: echo\n"
        "    args: []\n    tools: ['*']\n    auth: {redirectPort: 8123}\n    deferTools: never\n---\nUse it.\n"
    ),
    "no-description": "---\nname: no-description\n---\nI have no description.\n",
    "no-front-matter": "Just a prompt, no front matter.\n",
    "empty-description": "---\nname: empty-description\ndescription: ''\n---\nQuiet.\n",
    "no-tools-list": (
        "---\nname: no-tools-list\ndescription: d\nmcp-servers:\n  local:\n    command: echo\n    args: []\n---\nB\n"
    ),
    "comma-tools": "---\nname: comma-tools\ndescription: d\ntools: Read, Edit\n---\nB\n",
    "not-for-the-model": "---\nname: not-for-the-model\ndescription: d\ndisable-model-invocation: true\n---\nB\n",
    "infer-false": "---\nname: infer-false\ndescription: d\ninfer: false\n---\nB\n",
    "switch-as-text": "---\nname: switch-as-text\ndescription: d\ndisable-model-invocation: 'yes'\n---\nB\n",
}


def _ours(path: Path) -> tuple[str, bool | None]:
    try:
        agent = CustomAgent.from_file(path)
    except ValueError:
        return "refused", None
    if agent.skipped is not None:
        return "skipped", None
    return "loaded", agent.session_config().get("disable_model_invocation", False)


async def _runtime_loader(folder: Path) -> tuple[dict[str, bool], list[str], dict[str, Any]]:
    """What the runtime's own loader made of the folder: loaded stems with their switch, errors, its schema."""
    from copilot import PermissionHandler

    from copilot_eval.runtime.process.client_factory import start_client
    from copilot_eval.runtime.process.home import asset_cache_dir
    from copilot_eval.runtime.process.locate import locate_runtime
    from copilot_eval.runtime.process.versions import RUNTIME_VERSION

    model = FunctionModel(lambda messages, tools: "ok")
    workdir = tempfile.mkdtemp(prefix="copilot-eval-loader-")
    client = await start_client(locate_runtime().path, request_handler=model.endpoint(working_directory=workdir))
    updates: list[Any] = []
    try:
        session = await client.create_session(
            model=model.session_model,
            provider=model.provider_config(),
            working_directory=workdir,
            on_permission_request=PermissionHandler.approve_all,
            agent_directories=[str(folder)],
            on_event=lambda e: updates.append(e) if e.type.value == "session.custom_agents_updated" else None,
        )
        listed = await asyncio.wait_for(session.rpc.agent.list(), 30)
        await session.disconnect()
    finally:
        await client.stop()
    loaded = {Path(a.path).name.removesuffix(".agent.md"): bool(a.disable_model_invocation) for a in listed.agents}
    errors = [error for update in updates[-1:] for error in update.data.errors]
    schema_file = next((asset_cache_dir() / "copilot" / "pkg").glob(f"*/{RUNTIME_VERSION}/schemas/api.schema.json"))
    return loaded, errors, json.loads(schema_file.read_text())


@pytest.fixture(scope="module")
def loader(tmp_path_factory) -> tuple[Path, dict[str, bool], list[str], dict[str, Any]]:
    folder = tmp_path_factory.mktemp("agents")
    for stem, text in FILES.items():
        (folder / f"{stem}.agent.md").write_text(text)
    return folder, *asyncio.run(_runtime_loader(folder))


def test_what_the_runtime_loads_we_load_and_what_it_skips_we_do_not(loader):
    folder, loaded, errors, _ = loader
    assert {"plain", "http-auth", "stdio-auth", "empty-description"} <= set(loaded)
    assert {"no-description", "no-front-matter", "no-tools-list", "switch-as-text"}.isdisjoint(loaded)
    for stem in FILES:
        state, switch = _ours(folder / f"{stem}.agent.md")
        assert (state == "loaded") == (stem in loaded), f"{stem}: we {state} it, the runtime did not agree"
        if state == "loaded":
            assert switch == loaded[stem], f"{stem}: disable-model-invocation differs from the runtime's"
        else:
            assert any(f"{stem}.agent.md" in error for error in errors), f"{stem}: the runtime gave no reason"


def test_a_skipped_file_says_what_the_runtime_does(loader):
    folder, _, errors, _ = loader
    agent = CustomAgent.from_file(folder / "no-description.agent.md")
    assert "description: Required" in agent.skipped
    assert any("no-description.agent.md" in e and "description: Required" in e for e in errors)
    (warning,) = agent.warnings
    assert warning.startswith(f"{folder / 'no-description.agent.md'}: not loaded: the Copilot runtime's agent loader")
    with pytest.raises(ValueError, match=r"mcp-servers\.local\.tools: required in an \.agent\.md file"):
        CustomAgent.from_file(folder / "no-tools-list.agent.md")


def test_our_mcp_server_keys_are_the_runtimes_own(loader):
    schema = loader[3]["definitions"]
    stdio = set(schema["McpServerConfigStdio"]["properties"]) - set(LOADER_ONLY_KEYS)
    http = set(schema["McpServerConfigHttp"]["properties"]) - set(LOADER_ONLY_KEYS)
    assert stdio == set(RUNTIME_COMMON_KEYS) - {"type"} | set(RUNTIME_STDIO_KEYS) | {"type"}
    assert http == set(RUNTIME_COMMON_KEYS) | set(RUNTIME_HTTP_KEYS)


async def test_an_agent_the_model_may_not_pick_is_not_offered_to_it(tmp_path):
    (tmp_path / "reviewer.agent.md").write_text(FILES["not-for-the-model"].replace("not-for-the-model", "reviewer"))
    offered: list[list[str]] = []

    def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        task = next(t for t in tools if t["name"] == "task")
        offered.append(task["parameters"]["properties"]["agent_type"]["enum"])
        if any(m["role"] == "tool" for m in messages):
            return "done"
        return [CallTool("task", {"agent_type": "reviewer", "name": "r", "prompt": "review", "description": "d"})]

    agent = CopilotEval(
        model=FunctionModel(answer),
        custom_agents=(CustomAgent.from_file(tmp_path / "reviewer.agent.md"),),
        timeout_s=60,
    )
    result = await run_copilot(agent, "review this")
    assert "reviewer" not in offered[0]
    (call,) = result.tool_calls_for("task")
    assert call.success is False and "Unknown agent_type: reviewer" in (call.error or call.result or "")
    assert not result.subagent_invocations
