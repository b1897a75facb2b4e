"""The quickstart suite: ordinary pytest tests of an agent, run through the real Copilot runtime.

Its `agent` fixture comes from the conftest.py beside it; to start a suite of your own,
`copilot-eval init DIR` writes one that runs alone. Each test checks execution first (success),
then the task itself with plain assertions on the working directory, then the evidence.
"""

from copilot_eval import CopilotEval


async def test_writes_a_receipt_for_an_order(copilot_eval, agent: CopilotEval) -> None:
    result = await copilot_eval(agent, "Write a receipt for order 1042.")

    # 1. Did the session execute? (This is not a verdict on the task.)
    assert result.success, result.error
    # 2. Was the task done? Check the application state, not the agent's claim.
    assert result.file_exists("receipt.txt")
    receipt = result.file("receipt.txt")
    assert "1042" in receipt and "27.50" in receipt
    # 3. How was it done? The evidence of the tool calls.
    lookup = result.tool_calls_for("orders-lookup_order")
    assert lookup and lookup[0].success, "the order should be looked up through the MCP server"
    assert result.tool_was_called("create")
    assert result.evidence_complete


async def test_answers_without_tools_when_there_is_nothing_to_do(copilot_eval, agent: CopilotEval) -> None:
    result = await copilot_eval(agent, "What can you do?")

    assert result.success, result.error
    assert result.final_response
    assert not result.tool_was_called("create")
