"""A scripted orders agent for the trajectory tests: Python tools, a failing refund, a subagent."""

from __future__ import annotations

from copilot_eval import CopilotEval, ScriptedModel


def lookup_order(order_id: int) -> str:
    """Look up an order by its number."""
    return f"order {order_id}: 27.50 EUR"


def refund_order(order_id: int, reason: str = "") -> str:
    """Refund an order."""
    if order_id == 13:
        raise RuntimeError("refunds of order 13 are closed")
    return f"refunded {order_id}"


def delete_order(order_id: int) -> str:
    """Delete an order for good."""
    return f"deleted {order_id}"


def _calls(*calls: tuple[str, dict], text: str) -> list[dict]:
    return [{"tool_calls": [{"name": name, "arguments": args} for name, args in calls]}, {"text": text}]


RULES = [
    {"when": {"prompt_contains": "look up 1042"}, "turns": _calls(("lookup_order", {"order_id": 1042}), text="27.50")},
    {"when": {"prompt_contains": "look up 1043"}, "turns": _calls(("lookup_order", {"order_id": 1043}), text="27.50")},
    {
        "when": {"prompt_contains": "refund it"},
        "turns": _calls(("refund_order", {"order_id": 1042, "reason": "damaged in transit"}), text="Refunded"),
    },
    {"when": {"prompt_contains": "refund 13"}, "turns": _calls(("refund_order", {"order_id": 13}), text="No luck")},
    {
        "when": {"prompt_contains": "clean up"},
        "turns": _calls(("lookup_order", {"order_id": 1042}), ("delete_order", {"order_id": 1042}), text="Gone"),
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
                    "name": "h",
                },
            ),
            text="the helper said: {last_tool_result}",
        ),
    },
    {"when": {"prompt_contains": "subtask"}, "turns": _calls(("lookup_order", {"order_id": 7}), text="order 7 found")},
    {"turns": [{"text": "Hello, how can I help?"}]},
]


def orders_agent() -> CopilotEval:
    """The orders agent: its model follows RULES, its tools are the three above."""
    return CopilotEval(
        name="orders",
        model=ScriptedModel.from_dict({"rules": RULES}),
        tools=(lookup_order, refund_order, delete_order),
        timeout_s=60,
    )
