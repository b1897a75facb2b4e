"""AgentDojo's tools as an MCP server over stdio: one play's environment, kept and changed by the agent's calls.

Started by the runtime as ``python -P dojo_server.py SPEC.json`` (``-P``: this folder is not put
on the path, where modules of copilot_eval would hide packages of the same name). The spec names
an AgentDojo suite, version and user task, the injections (each vector's text, the attack
already in it) and the files the environment is written to (pickled): once loaded, and after every call. The
handshake and the tool list are answered from the spec at once, through the suite's own
environment server (``env_server.py``): importing AgentDojo takes seconds (8 s here), longer
than runtime 1.0.102 waits for a handshake, so it is imported on a thread meanwhile and the first
call waits for it. Calls run through AgentDojo's ``FunctionsRuntime`` on the one environment of
the play, and answer the text AgentDojo's own agents are given (``tool_result_to_str``).
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import sys
import threading
from pathlib import Path
from typing import Any


def _env_server() -> Any:
    spec = importlib.util.spec_from_file_location("env_server", Path(__file__).with_name("env_server.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ENV_SERVER = _env_server()


def _write(path: Path, environment: Any) -> None:
    # Pickled, not JSON: AgentDojo's models rebuild some of their state from their initial data when
    # validated (an inbox's emails from its initial emails), so a JSON round trip loses what was sent.
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(pickle.dumps(environment))
    os.replace(temporary, path)


class DojoEnvironment(ENV_SERVER.Environment):  # type: ignore[name-defined]
    """The spec's tools, answered by AgentDojo's functions on one environment."""

    def __init__(self, spec: dict[str, Any]) -> None:
        super().__init__(spec)
        self.loaded = threading.Event()
        self.problem: str | None = None
        self.runtime: Any = None
        self.environment: Any = None
        threading.Thread(target=self._load, daemon=True).start()

    def _load(self) -> None:
        try:
            from agentdojo.functions_runtime import FunctionsRuntime
            from agentdojo.task_suite.load_suites import get_suite

            suite = get_suite(self.spec["version"], self.spec["suite"])
            task = suite.get_user_task_by_id(self.spec["user_task"])
            self.environment = task.init_environment(suite.load_and_inject_default_environment(self.spec["injections"]))
            self.runtime = FunctionsRuntime(suite.tools)
            # The environment as the agent found it: AgentDojo's checks compare it with the one after.
            _write(Path(self.spec["before"]), self.environment)
        except Exception as problem:  # the agent sees it as each call's error, and the run records it
            self.problem = f"the AgentDojo environment could not be loaded: {type(problem).__name__}: {problem}"
        finally:
            self.loaded.set()

    def call_tool(self, params: dict[str, Any]) -> dict[str, Any]:
        """Run one AgentDojo function on the play's environment, then write the environment's state."""
        self.loaded.wait()
        if self.problem is not None:
            return {"content": [{"type": "text", "text": self.problem}], "isError": True}
        from agentdojo.agent_pipeline.tool_execution import tool_result_to_str

        result, error = self.runtime.run_function(
            self.environment, params.get("name", ""), params.get("arguments") or {}
        )
        _write(Path(self.spec["state"]), self.environment)
        if error is not None:
            return {"content": [{"type": "text", "text": error}], "isError": True}
        return {"content": [{"type": "text", "text": tool_result_to_str(result)}], "isError": False}


def main(argv: list[str]) -> int:
    """``dojo_server.py SPEC.json``: serve that play's AgentDojo environment over stdio."""
    if len(argv) != 2:
        print("usage: dojo_server.py SPEC.json", file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as handle:
        spec = json.load(handle)
    ENV_SERVER.serve(DojoEnvironment(spec))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
