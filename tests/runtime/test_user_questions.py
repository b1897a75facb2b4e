"""An agent's questions to the user through the real runtime: scripted answers, a function, a
decline, the default (no ask_user offered), and text with tool calls in one model message."""

from __future__ import annotations

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.agent.user_answers import DECLINED_ANSWER, UserRequest
from copilot_eval.models import CallTool, FunctionModel

pytestmark = pytest.mark.runtime


def _clarifying_agent(**options) -> CopilotEval:
    script = {
        "rules": [
            {
                "turns": [
                    {
                        "text": "Let me check first.",
                        "ask_user": {"question": "Which account?", "choices": ["A-7", "B-2"]},
                    },
                    {"text": "Paying from {last_tool_result}"},
                ]
            }
        ]
    }
    return CopilotEval(model=ScriptedModel.from_dict(script), timeout_s=30, **options)


async def test_a_scripted_answer_reaches_the_agent_and_is_recorded() -> None:
    agent = _clarifying_agent(user_answers=[{"when": {"question_contains": "which account"}, "answer": "B-2"}])
    result = await run_copilot(agent, "Pay my phone bill")
    assert result.success, result.error
    assert result.final_response == "Paying from User selected: B-2", "a listed choice reaches the agent as selected"
    (question,) = result.questions_asked
    assert (question.message, question.choices, question.answer) == ("Which account?", ["A-7", "B-2"], "B-2")
    assert question.answered_by == "user_answers[0]" and question.asked_by == "agent"
    (call,) = result.tool_calls_for("ask_user")
    assert question.tool_call_id == call.call_id and call.success
    assert result.turns[1].content == "Let me check first.", "the text and the question came in one message"
    assert result.configuration["user_answers"] == [{"answer": "B-2", "question_contains": "which account"}]


async def test_a_question_no_rule_answers_is_declined_at_once_and_the_agent_is_told() -> None:
    result = await run_copilot(_clarifying_agent(user_answers=[]), "Pay my phone bill")
    assert result.success, result.error
    assert result.final_response == f"Paying from User responded: {DECLINED_ANSWER}"
    (question,) = result.questions_asked
    assert question.declined and question.answered_by == "no matching answer: declined"


async def test_a_function_answers_and_a_failing_function_declines_with_its_reason() -> None:
    asked: list[UserRequest] = []

    async def answer(request: UserRequest) -> str:
        asked.append(request)
        return "my own words"

    result = await run_copilot(_clarifying_agent(user_answers=answer), "Pay my phone bill")
    assert result.final_response == "Paying from User responded: my own words"
    assert asked[0].kind == "question" and asked[0].choices == ("A-7", "B-2")
    assert result.questions_asked[0].answered_by.startswith("function ")

    def broken(request: UserRequest) -> str:
        raise LookupError("no such account book")

    result = await run_copilot(_clarifying_agent(user_answers=broken), "Pay my phone bill")
    (question,) = result.questions_asked
    assert question.declined and "LookupError: no such account book" in question.problem
    assert result.final_response == f"Paying from User responded: {DECLINED_ANSWER}"


async def test_without_user_answers_the_agent_is_not_offered_ask_user() -> None:
    offered: list[list[str]] = []

    def model(messages, tools):
        offered.append([tool["name"] for tool in tools])
        return "fine"

    await run_copilot(CopilotEval(model=FunctionModel(model), timeout_s=30), "hello")
    await run_copilot(CopilotEval(model=FunctionModel(model), timeout_s=30, user_answers=[]), "hello")
    assert "ask_user" not in offered[0] and "ask_user" in offered[1]


async def test_a_function_model_answers_with_text_and_tool_calls_in_one_message() -> None:
    def lookup(order: str) -> str:
        """Look up an order."""
        return f"order {order}: shipped"

    def model(messages, tools):
        if messages[-1]["role"] == "tool":
            return messages[-1]["content"]
        return ["Looking it up.", CallTool("lookup", {"order": "1042"})]

    result = await run_copilot(CopilotEval(model=FunctionModel(model), tools=(lookup,), timeout_s=30), "Where is 1042?")
    assert result.success, result.error
    assert result.turns[1].content == "Looking it up." and result.tool_was_called_with("lookup", order="1042")
    assert result.final_response == "order 1042: shipped"
