"""A Python tool's result over the runtime's 20 KB limit: the runtime gives the model a pointer and a preview.

The whole text is in no event, only in what the handler handed the runtime: the evidence keeps it as
``result``, the pointer as ``sent_to_model``, with no capture error (the MCP case is played in
tests/security/test_large_results.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from copilot_eval import CallTool, CopilotEval, FunctionModel, run_copilot

pytestmark = pytest.mark.runtime

ROWS = "".join(f"row {n:05d} of the ledger: balanced\n" for n in range(1000))  # about 35 KB


def read_ledger() -> str:
    """Read every row of the ledger."""
    return ROWS


async def test_a_python_tools_large_result_is_kept_whole_and_the_pointer_apart() -> None:
    given: list[str] = []

    def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        replies = [m["content"] for m in messages if m["role"] == "tool"]
        if not replies:
            return CallTool("read_ledger", {})
        given.extend(replies)
        return "balanced"

    agent = CopilotEval(model=FunctionModel(answer), tools=(read_ledger,), timeout_s=90)
    result = await run_copilot(agent, "Is the ledger balanced?")
    assert result.success and result.evidence_complete, result.capture_errors
    (call,) = result.all_tool_calls
    assert call.result == ROWS
    assert call.sent_to_model == given[0] and given[0].startswith("Output too large to read at once")
    assert call.large_output is not None and call.large_output.whole_result_kept
    assert call.large_output.original_bytes == len(ROWS.encode()) and call.large_output.threshold_bytes == 20480
