"""A first test of an agent, run through the real Copilot runtime: `python -m pytest`."""

from pathlib import Path

from copilot_eval import CopilotEval

HERE = Path(__file__).parent


def get_balance(account: str) -> str:
    """Return the balance of an account."""
    return f"{account}: 42 EUR"


agent = CopilotEval.from_file(HERE / "agent.yaml").with_options(tools=(get_balance,))


async def test_balance(copilot_eval):
    result = await copilot_eval(agent, "What is the balance of A-7?")
    assert result.success, result.error  # the session ran: not yet a verdict on the task
    assert result.tool_was_called_with("get_balance", account="A-7")
    assert "42 EUR" in result.final_response
