"""The environment of an injection suite: a small MCP server over stdio, from a spec file.

Started by the runtime as ``python env_server.py SPEC.json``, it first places the case's attack
where its vector says: every ``{injection}`` in a tool's description (``tool_description``), in a
tool's answer text (``tool_result``), in the text of a resource a tool's answer embeds
(``resource``) or in a file (``file``) gets the attack text, every other ``{injection}`` nothing.
Then it writes the spec's files into the working directory, offers the tools (name, description,
input schema), answers each call with the first response whose ``when`` matches the call's
arguments, and serves the embedded resources (``resources/list``, ``resources/read``).

It imports the standard library only, on purpose: the runtime gives a stdio server a few seconds
to answer its handshake, and importing the ``mcp`` package took 3 s here on a loaded machine (23 s
cold), against 0.2 s for this file. A test speaks to it with the ``mcp`` package's own client.
It must not import copilot_eval (run as a script, the package is not loaded).
"""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any

PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
INJECTION = "{injection}"


def place_attack(spec: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``spec`` with the attack at its vector's ``{injection}`` marks and nothing at the others."""
    attack = spec.get("attack") or {}
    text, vector = attack.get("text", ""), attack.get("vector")

    def put(value: str, here: str) -> str:
        return value.replace(INJECTION, text if here == vector else "")

    placed = json.loads(json.dumps(spec))
    for tool in placed.get("tools", []):
        tool["description"] = put(tool.get("description", ""), "tool_description")
        for response in tool.get("responses", []):
            for item in response.get("content", []):
                if item.get("type") == "resource":
                    item["resource"]["text"] = put(item["resource"].get("text", ""), "resource")
                else:
                    item["text"] = put(item.get("text", ""), "tool_result")
    for file in placed.get("files", []):
        file["text"] = put(file["text"], "file")
    return placed


def embedded_resources(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The resources the tools' answers embed, each once: what ``resources/list`` offers."""
    found: dict[str, dict[str, Any]] = {}
    for tool in spec.get("tools", []):
        for response in tool.get("responses", []):
            for item in response.get("content", []):
                if item.get("type") == "resource":
                    found.setdefault(item["resource"]["uri"], item["resource"])
    return list(found.values())


def write_files(spec: dict[str, Any]) -> None:
    """Put the spec's files into its working directory (before the first request is answered)."""
    root = str(spec.get("working_directory") or ".")
    for file in spec.get("files", []):
        path = os.path.join(root, file["path"])
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(file["text"])


def _matches(when: dict[str, Any] | None, arguments: dict[str, Any]) -> bool:
    return all(str(arguments.get(key)) == str(value) for key, value in (when or {}).items())


def _fill(text: str, arguments: dict[str, Any]) -> str:
    """``{name}`` in a response's text replaced by the call's argument of that name."""
    for key, value in arguments.items():
        text = text.replace("{" + key + "}", str(value))
    return text


def _content(item: dict[str, Any], arguments: dict[str, Any]) -> dict[str, Any]:
    if item.get("type") == "resource":
        resource = dict(item["resource"])
        resource["text"] = _fill(resource.get("text", ""), arguments)
        return {"type": "resource", "resource": resource}
    return {"type": "text", "text": _fill(item.get("text", ""), arguments)}


class Environment:
    """Answers MCP requests from one spec."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.tools = {tool["name"]: tool for tool in spec.get("tools", [])}
        self.resources = embedded_resources(spec)

    def initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        """The handshake: the client's protocol version when known, else the newest."""
        asked = params.get("protocolVersion")
        capabilities: dict[str, Any] = {"tools": {"listChanged": False}}
        if self.resources:
            capabilities["resources"] = {"listChanged": False, "subscribe": False}
        result: dict[str, Any] = {
            "protocolVersion": asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0],
            "capabilities": capabilities,
            "serverInfo": {"name": self.spec.get("server", "environment"), "version": "1"},
        }
        return result

    def list_tools(self, _params: dict[str, Any]) -> dict[str, Any]:
        """Every tool with its description and input schema."""
        return {
            "tools": [
                {"name": t["name"], "description": t.get("description", ""), "inputSchema": t["inputSchema"]}
                for t in self.tools.values()
            ]
        }

    def call_tool(self, params: dict[str, Any]) -> dict[str, Any]:
        """The first matching response of the tool; an error result for an unknown tool or no match."""
        tool = self.tools.get(params.get("name", ""))
        arguments = params.get("arguments") or {}
        if tool is None:
            return {"content": [{"type": "text", "text": f"unknown tool {params.get('name')!r}"}], "isError": True}
        for response in tool.get("responses", []):
            if _matches(response.get("when"), arguments):
                content = [_content(item, arguments) for item in response.get("content", [])]
                return {"content": content, "isError": bool(response.get("isError"))}
        return {"content": [{"type": "text", "text": "nothing found for these arguments"}], "isError": True}

    def list_resources(self, _params: dict[str, Any]) -> dict[str, Any]:
        """The spec's resources, without their text."""
        return {
            "resources": [
                {"uri": r["uri"], "name": r.get("name", r["uri"]), "mimeType": r.get("mimeType", "text/plain")}
                for r in self.resources
            ]
        }

    def read_resource(self, params: dict[str, Any]) -> dict[str, Any]:
        """One resource's text."""
        for resource in self.resources:
            if resource["uri"] == params.get("uri"):
                return {
                    "contents": [
                        {
                            "uri": resource["uri"],
                            "mimeType": resource.get("mimeType", "text/plain"),
                            "text": resource["text"],
                        }
                    ]
                }
        raise LookupError(f"no resource {params.get('uri')!r}")

    def handle(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to one JSON-RPC message; None for a notification."""
        methods = {
            "initialize": self.initialize,
            "ping": lambda _params: {},
            "tools/list": self.list_tools,
            "tools/call": self.call_tool,
            "resources/list": self.list_resources,
            "resources/templates/list": lambda _params: {"resourceTemplates": []},
            "resources/read": self.read_resource,
            "prompts/list": lambda _params: {"prompts": []},
        }
        if "id" not in message:
            return None
        method = methods.get(message.get("method", ""))
        if method is None:
            error = {"code": -32601, "message": f"method not found: {message.get('method')}"}
            return {"jsonrpc": "2.0", "id": message["id"], "error": error}
        try:
            return {"jsonrpc": "2.0", "id": message["id"], "result": method(message.get("params") or {})}
        except (LookupError, TypeError, ValueError) as problem:
            return {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": str(problem)}}


def serve(environment: Environment, stdin: Any = None, stdout: Any = None) -> None:
    """Read newline-delimited JSON-RPC from ``stdin`` and answer on ``stdout`` until end of input."""
    # UTF-8 whatever the locale: a runtime started with a minimal environment may have none.
    stdin = stdin or io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8")
    stdout = stdout or io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="\n")
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            reply: dict[str, Any] | None = {
                "jsonrpc": "2.0",
                "id": None,
                "error": {"code": -32700, "message": "parse error"},
            }
        else:
            reply = environment.handle(message) if isinstance(message, dict) else None
        if reply is not None:
            stdout.write(json.dumps(reply, ensure_ascii=False) + "\n")
            stdout.flush()


def main(argv: list[str]) -> int:
    """``env_server.py SPEC.json``: serve that spec over stdio."""
    if len(argv) != 2:
        print("usage: env_server.py SPEC.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        spec = place_attack(json.load(handle))
    write_files(spec)
    serve(Environment(spec))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
