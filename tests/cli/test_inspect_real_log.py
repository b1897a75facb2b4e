"""`copilot-eval inspect` on an event log recorded from a real run: it tells the same story as the run."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from tests.runs.runs_helpers import CLI


def lookup_order(order: str) -> str:
    """Look up an order by number."""
    return f"order {order}: 2 bells, total 27.50 EUR"


AGENT = CopilotEval(
    name="orders",
    timeout_s=30,
    tools=(lookup_order,),
    model=ScriptedModel.from_dict(
        {
            "rules": [
                {
                    "turns": [
                        {
                            "tool_calls": [
                                {"name": "lookup_order", "arguments": {"order": "1042"}},
                                {"name": "lookup_order", "arguments": {"order": "1043"}},
                            ]
                        },
                        {"text": "Order 1042 totals 27.50 EUR. {last_tool_result}"},
                    ]
                },
            ]
        }
    ),
)


def inspect(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, "inspect", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "COLUMNS": "300"},
    )


@pytest.mark.runtime
async def test_inspect_of_a_saved_log_matches_the_live_result(tmp_path):
    live = await run_copilot(AGENT, "What does order 1042 cost?")
    assert live.success, live.error
    assert [call.name for call in live.all_tool_calls] == ["lookup_order", "lookup_order"]
    log = tmp_path / "session.jsonl"
    log.write_text("".join(json.dumps(event) + "\n" for event in live.raw_events), encoding="utf-8")

    shown = inspect(log)
    assert shown.returncode == 0, shown.stderr
    assert live.final_response and live.final_response in shown.stdout
    for call in live.all_tool_calls:
        assert call.call_id in shown.stdout
    assert shown.stdout.count("lookup_order") == len(live.all_tool_calls)

    as_json = inspect(log, "--json")
    assert as_json.returncode == 0, as_json.stderr
    data = json.loads(as_json.stdout)
    assert data["derived"]["final_response"] == live.final_response
    calls = [(c["call_id"], c["name"], c["arguments"], c["success"], c["result"]) for c in data["all_tool_calls"]]
    assert calls == [(c.call_id, c.name, c.arguments, c.success, c.result) for c in live.all_tool_calls]


def test_inspect_of_a_missing_file_exits_2_naming_it(tmp_path):
    missing = inspect(tmp_path / "nowhere.jsonl")
    assert missing.returncode == 2
    assert "nowhere.jsonl" in missing.stderr and "not found" in missing.stderr
