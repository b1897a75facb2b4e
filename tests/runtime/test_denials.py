"""A permission policy's "no" reaches the model as production's plain rejection, through the real runtime.

When a person rejects a tool call in the Copilot CLI without typing feedback, the runtime tells the
model "The user rejected this tool call." and ends the turn: the model is asked once. Feedback
(which makes the runtime ask the model again, with the feedback) is only sent when the policy
gives one. Before, every denial carried copilot-eval's own feedback text, and the model was asked a
second time where production asks it once.
"""

from __future__ import annotations

import tempfile
from typing import Any

import pytest

from copilot_eval import CallTool, CopilotEval, FunctionModel, run_copilot

pytestmark = pytest.mark.runtime

PLAIN_REJECTION = "The user rejected this tool call."


def _model(requests: list[list[dict[str, Any]]], folder: str) -> FunctionModel:
    def answer(messages: list[dict[str, Any]], _tools: Any) -> Any:
        requests.append([m for m in messages if m["role"] == "tool"])
        if not requests[-1]:
            return [CallTool("create", {"path": f"{folder}/no.txt", "file_text": "x"}, id="call_write")]
        return "I could not write it."

    return FunctionModel(answer)


async def _denied_run(policy: Any) -> tuple[Any, list[list[dict[str, Any]]]]:
    requests: list[list[dict[str, Any]]] = []
    folder = tempfile.mkdtemp(prefix="copilot-eval-denial-")
    agent = CopilotEval(
        model=_model(requests, folder), permission_policy=policy, working_directory=folder, timeout_s=60
    )
    result = await run_copilot(agent, "write")
    return result, requests


@pytest.fixture(scope="module")
async def runs() -> dict[str, Any]:
    return {
        "deny_all": await _denied_run("deny_all"),
        "false": await _denied_run(lambda request: False),
        "feedback": await _denied_run(lambda request: "write into the sandbox folder instead"),
    }


@pytest.mark.parametrize("policy", ["deny_all", "false"])
def test_a_denial_is_a_plain_rejection_and_the_model_is_asked_once(runs, policy):
    result, requests = runs[policy]
    assert result.success, result.error
    assert len(requests) == 1, "production asks the model once after a plain rejection"
    (call,) = result.tool_calls_for("create")
    assert (call.success, call.result_type, call.error) == (False, "rejected", PLAIN_REJECTION)
    (permission,) = result.permissions
    assert permission.decision == "denied-interactively-by-user" and permission.feedback is None
    assert not result.file_exists("no.txt")


def test_feedback_is_sent_only_when_the_policy_gives_it(runs):
    result, requests = runs["feedback"]
    assert result.success, result.error
    assert len(requests) == 2  # the runtime asks the model again, with the feedback
    (tool_message,) = requests[1]
    assert tool_message["content"] == f"{PLAIN_REJECTION} User feedback: write into the sandbox folder instead"
    (call,) = result.tool_calls_for("create")
    assert call.result_type == "denied"
    assert result.permissions[0].feedback == "write into the sandbox folder instead"
    assert result.final_response == "I could not write it."
