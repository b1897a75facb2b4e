"""Record the event log of one run against ``server-everything`` (run by hand, not by pytest).

    PYTHONPATH=src python tests/capture/record_everything_log.py

One real runtime session, scripted through copilot-eval itself, calls the server's content tools
(mixed text and image, annotations, resource links, embedded text and blob resources, structured
content, a failing call, progress) and its sampling and elicitation tools, with a question to the
user first; every request is answered by policy. The events are written as the runtime sent them
(``tests/capture/data/server_everything.jsonl``), with long prompt texts trimmed; tool results
are kept whole so that capture tests read the real items.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from tests.mcp.third_party_servers import everything_mcp_config

OUT = Path(__file__).parent / "data" / "server_everything.jsonl"
KEEP_WHOLE = {"tool.execution_complete", "tool.execution_progress", "sampling.requested", "elicitation.requested"}

CALLS = [
    ("ev-get-tiny-image", {}),
    ("ev-get-annotated-message", {"messageType": "error", "includeImage": True}),
    ("ev-get-resource-links", {"count": 2}),
    ("ev-get-resource-reference", {"resourceType": "Text", "resourceId": 2}),
    ("ev-get-resource-reference", {"resourceType": "Blob", "resourceId": 3}),
    ("ev-get-structured-content", {"location": "New York"}),
    ("ev-get-resource-reference", {"resourceType": "nope", "resourceId": 1}),
    ("ev-trigger-long-running-operation", {"duration": 1, "steps": 4}),
    ("ev-trigger-sampling-request", {"prompt": "say hi", "maxTokens": 20}),
    ("ev-trigger-elicitation-request", {}),
    ("ev-trigger-url-elicitation", {"url": "https://example.com/consent", "elicitationId": "e-1"}),
]


def _trim(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 400:
        return value[:400] + "...[trimmed]"
    if isinstance(value, list):
        return [_trim(item) for item in value]
    if isinstance(value, dict):
        return {key: _trim(item) for key, item in value.items()}
    return value


async def main() -> None:
    model = ScriptedModel.from_dict(
        {
            "rules": [
                {"when": {"prompt_contains": "say hi"}, "turns": [{"text": "hi from the sampling model"}]},
                {
                    "turns": [
                        {"text": "One question first.", "ask_user": {"question": "Which account?", "choices": ["A-7"]}},
                        {
                            "tool_calls": [
                                {"id": f"call_{i}", "name": name, "arguments": args}
                                for i, (name, args) in enumerate(CALLS)
                            ]
                        },
                        {"text": "done"},
                    ]
                },
            ]
        }
    )
    agent = CopilotEval(
        model=model,
        timeout_s=90,
        mcp_servers=everything_mcp_config(),
        user_answers=[
            {"when": {"kind": "question"}, "answer": "A-7"},
            {"when": {"kind": "form"}, "answer": {"name": "Ada", "check": True}},
            {"when": {"kind": "url"}, "action": "decline"},
        ],
        sampling=model,
    )
    result = await run_copilot(agent, "Show me everything")
    assert result.success, result.error
    lines = [
        json.dumps(event if event.get("type") in KEEP_WHOLE else _trim(event), ensure_ascii=False)
        for event in result.raw_events
    ]
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT} ({len(lines)} events); host answers: {[str(r) for r in result.host_requests]}")


if __name__ == "__main__":
    asyncio.run(main())
