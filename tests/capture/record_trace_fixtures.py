"""Record real runtime sessions with their OpenTelemetry trace into tests/capture/data/ (run by hand).

    PYTHONPATH=src python tests/capture/record_trace_fixtures.py [SCENARIO ...]

Each scenario runs one session through the pooled runtime (file exporter on, as for every run)
with a scripted model, then writes its events (``trace_<name>.events.jsonl``) and the runtime's
spans of that session (``trace_<name>.trace.jsonl``), both as the runtime wrote them. The fast
tests rebuild the evidence from the events and cross-check it against the trace, edited or not.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.runtime.process.pool import close_shared_pool

DATA = Path(__file__).parent / "data"
MAX_STRING = 400  # system prompts and tool descriptions are trimmed; the structure stays as written


def _trim(value: Any) -> Any:
    if isinstance(value, str) and len(value) > MAX_STRING:
        return value[:MAX_STRING] + f"...[trimmed {len(value) - MAX_STRING} chars]"
    if isinstance(value, list):
        return [_trim(item) for item in value]
    if isinstance(value, dict):
        return {key: _trim(item) for key, item in value.items()}
    return value


def lookup_order(order_id: int) -> str:
    """Look up an order by its number."""
    if order_id == 13:
        raise PermissionError("order 13 is locked")
    return f"order {order_id}: bike bell"


def _calls(*items: tuple[str, dict[str, object]], text: str) -> list[dict[str, object]]:
    return [{"tool_calls": [{"name": name, "arguments": args}]} for name, args in items] + [{"text": text}]


RULES = [
    {
        # A background subagent: the root answers at once; when the helper finishes, the runtime
        # posts a notification and runs the root agent again with no user message (a loop of its own).
        "when": {"prompt_contains": "in the background"},
        "turns": _calls(
            (
                "task",
                {
                    "description": "look it up",
                    "prompt": "subtask: look up",
                    "agent_type": "general-purpose",
                    "name": "helper",
                    "mode": "background",
                },
            ),
            text="the helper is on it",
        ),
    },
    {
        "when": {"prompt_contains": "delegate"},
        "turns": _calls(
            (
                "task",
                {
                    "description": "look it up",
                    "prompt": "subtask: look up",
                    "agent_type": "general-purpose",
                    "name": "helper",
                },
            ),
            text="the helper said: {last_tool_result}",
        ),
    },
    {"when": {"prompt_contains": "subtask"}, "turns": _calls(("lookup_order", {"order_id": 7}), text="order 7 found")},
    {
        "when": {"prompt_contains": "orders"},
        "turns": _calls(
            ("lookup_order", {"order_id": 7}),
            ("lookup_order", {"order_id": 13}),
            ("create", {"path": "{working_directory}/note.txt", "file_text": "7 ok, 13 locked\n"}),
            text="order 7 is fine, 13 is locked",
        ),
    },
    {"turns": [{"text": "Hello, how can I help?"}]},
]
SCENARIOS = {
    "tools": ["hello", "check the orders"],
    "subagent": ["delegate this"],
    "background": ["look this up in the background"],
}


async def main() -> None:
    agent = CopilotEval(model=ScriptedModel.from_dict({"rules": RULES}), tools=(lookup_order,), timeout_s=60)
    await run_copilot(agent, "warm up")  # the first session of a runtime is slower; record the usual case
    chosen = sys.argv[1:] or list(SCENARIOS)  # re-record only the scenarios named, if any
    for name in chosen:
        prompts = SCENARIOS[name]
        result = await run_copilot(agent, prompts)
        assert result.success and result.runtime_trace is not None, (name, result.error)
        assert result.evidence_complete, (name, result.capture_errors)
        events = "".join(json.dumps(_trim(event), ensure_ascii=False) + "\n" for event in result.raw_events)
        (DATA / f"trace_{name}.events.jsonl").write_text(events, encoding="utf-8")
        (DATA / f"trace_{name}.trace.jsonl").write_text("\n".join(result.runtime_trace.to_lines()) + "\n")
        print(name, len(result.raw_events), "events,", len(result.runtime_trace.spans), "spans")
    await close_shared_pool()


if __name__ == "__main__":
    asyncio.run(main())
