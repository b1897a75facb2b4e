"""``@modelcontextprotocol/server-everything`` through the real runtime: every tool it offers,
its content items as evidence, and its sampling and elicitation requests under each policy."""

from __future__ import annotations

import base64
import gzip
from typing import Any

import pytest

from copilot_eval import ByokProvider, CopilotEval, ScriptedModel, run_copilot
from copilot_eval.agent.user_answers import UserAnswer, UserRequest
from copilot_eval.models import ByokModel, FunctionModel
from copilot_eval.models.sampling import SamplingRequest
from tests.mcp.third_party_servers import everything_mcp_config

pytestmark = pytest.mark.runtime

HELLO = base64.b64encode(b"hello, gzip\n").decode()
CALLS: dict[str, dict[str, Any]] = {
    "ev-echo": {"message": "hi"},
    "ev-get-sum": {"a": 2, "b": 3},
    "ev-get-env": {},
    "ev-get-tiny-image": {},
    "ev-get-annotated-message": {"messageType": "success", "includeImage": True},
    "ev-get-resource-links": {"count": 3},
    "ev-get-resource-reference": {"resourceType": "Text", "resourceId": 4},
    "ev-get-structured-content": {"location": "Chicago"},
    "ev-gzip-file-as-resource": {
        "name": "hello.txt.gz",
        "data": f"data:text/plain;base64,{HELLO}",
        "outputType": "resource",
    },
    "ev-trigger-long-running-operation": {"duration": 1, "steps": 2},
    "ev-toggle-simulated-logging": {},
    "ev-toggle-subscriber-updates": {},
    "ev-simulate-research-query": {"topic": "bicycles"},
    "ev-trigger-sampling-request": {"prompt": "say hi", "maxTokens": 10},
    "ev-trigger-elicitation-request": {},
    "ev-trigger-url-elicitation": {"url": "https://example.com/consent", "elicitationId": "e-1"},
}


def _calling(*calls: tuple[str, dict[str, Any]]) -> ScriptedModel:
    turn = {
        "tool_calls": [{"id": f"call_{i}", "name": name, "arguments": args} for i, (name, args) in enumerate(calls)]
    }
    return ScriptedModel.from_dict(
        {
            "rules": [
                {"when": {"prompt_contains": "say hi"}, "turns": [{"text": "hi from the sampling script"}]},
                {"turns": [turn, {"text": "done"}]},
            ]
        }
    )


def _agent(model: ScriptedModel, **options: Any) -> CopilotEval:
    return CopilotEval(model=model, timeout_s=60, mcp_servers=everything_mcp_config(), **options)


async def test_every_tool_it_offers_completes_with_its_content_as_evidence() -> None:
    agent = _agent(_calling(*CALLS.items()), audit_requests=True)
    result = await run_copilot(agent, "Exercise every tool")
    assert result.success, result.error
    offered = {name for name in result.request_audit[0].tool_names if name.startswith("ev-")}
    assert offered == set(CALLS), "server-everything offers a tool this test does not call (or no longer one)"
    assert result.capture_errors == [] and result.evidence_complete, [str(e) for e in result.capture_errors]
    calls = {call.name: call for call in result.all_tool_calls}
    failed = {name: call.error for name, call in calls.items() if not call.success}
    # Runtime 1.0.102 does not send task-augmented calls (MCP tasks), which this tool requires:
    # a failure of the runtime's, kept as the call's error, not a capture problem.
    assert list(failed) == ["ev-simulate-research-query"], failed
    assert "requires task augmentation" in failed["ev-simulate-research-query"]

    annotated = calls["ev-get-annotated-message"]
    assert [item.type for item in annotated.content_items] == ["text", "image"]
    assert annotated.content_items[0].audience == ["user"] and annotated.content_items[0].priority == 0.7
    assert annotated.image_content is not None and annotated.content_items[1].sha256

    assert [link.uri for link in calls["ev-get-resource-links"].resource_links] == [
        "demo://resource/dynamic/blob/1",
        "demo://resource/dynamic/text/2",
        "demo://resource/dynamic/blob/3",
    ]
    assert result.tool_returned_resource("demo://resource/dynamic/text/4", tool="ev-get-resource-reference")
    (archive,) = calls["ev-gzip-file-as-resource"].embedded_resources
    assert archive.is_blob and archive.mime_type == "application/gzip"
    assert gzip.decompress(archive.data) == b"hello, gzip\n" and archive.size == len(archive.data)

    assert set(calls["ev-get-structured-content"].structured_result) == {"temperature", "conditions", "humidity"}
    progress = calls["ev-trigger-long-running-operation"].progress
    assert progress is not None and progress.count >= 1 and progress.total == 2.0

    # Nothing asked for an answer here, so every request was declined at once (the run's 60 s
    # timeout was never reached), and the evidence says so.
    kinds = sorted((request.kind, request.mode or "") for request in result.host_requests)
    assert kinds == [("elicitation", "form"), ("elicitation", "url"), ("sampling", "")]
    assert all(request.declined and request.answered_by.startswith("default") for request in result.host_requests)
    assert "The user cancelled the request." in calls["ev-trigger-sampling-request"].result


SAMPLE = ("ev-trigger-sampling-request", {"prompt": "say hi", "maxTokens": 10})


def _sampler_function(request: SamplingRequest) -> str:
    assert request.asked_by == "ev" and request.max_tokens == 10 and request.system_prompt
    return f"function saw: {request.text}"


def _function_model(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> str:
    assert messages[0]["role"] == "system" and not tools, "a sampling request offers no tools"
    return "function model says hi"


@pytest.mark.parametrize(
    ("policy", "answer", "answered_by"),
    [
        ("decline", None, "default: declined"),
        (_sampler_function, "function saw: Resource trigger-sampling-request context: say hi", "function "),
        ("scripted", "hi from the sampling script", "sampling model (scripted"),
        (FunctionModel(_function_model), "function model says hi", "sampling model (function"),
    ],
    ids=["decline", "function", "scripted-model", "function-model"],
)
async def test_sampling_is_answered_by_the_chosen_policy(policy: Any, answer: str | None, answered_by: str) -> None:
    model = _calling(SAMPLE)
    result = await run_copilot(_agent(model, sampling=model if policy == "scripted" else policy), "Sample something")
    assert result.success, result.error
    (request,) = result.sampling_requests
    assert request.answer == answer and request.answered_by.startswith(answered_by) and request.completed
    assert request.sampling_request["messages"][0]["content"]["text"].endswith("say hi")
    (call,) = result.all_tool_calls
    assert call.success and (answer or "The user cancelled the request.") in call.result


async def test_sampling_through_a_byok_endpoint_on_loopback() -> None:
    sampler = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "served over HTTP"}]}]})
    async with sampler.serve() as server:
        byok = ByokModel("sampler", ByokProvider(base_url=server.base_url))
        result = await run_copilot(_agent(_calling(SAMPLE), sampling=byok), "Sample something")
    (request,) = result.sampling_requests
    assert request.answer == "served over HTTP" and request.answered_by.startswith(
        "sampling model (BYOK http://127.0.0.1"
    )
    assert request.response["model"] == "sampler"
    assert '"text": "served over HTTP"' in result.all_tool_calls[0].result


ELICIT = [
    ("ev-trigger-elicitation-request", {}),
    ("ev-trigger-url-elicitation", CALLS["ev-trigger-url-elicitation"]),
]


def _cancel_forms(request: UserRequest) -> Any:
    return UserAnswer(action="cancel") if request.kind == "form" else True


@pytest.mark.parametrize(
    ("policy", "form", "url"),
    [
        (None, "decline", "decline"),
        (
            [
                {"when": {"kind": "form"}, "answer": {"name": "Ada", "check": True}},
                {"when": {"kind": "url"}, "action": "accept"},
            ],
            "accept",
            "accept",
        ),
        ([{"when": {"question_contains": "something else"}, "answer": "x"}], "decline", "decline"),
        (_cancel_forms, "cancel", "accept"),
    ],
    ids=["default", "scripted", "no-match", "function"],
)
async def test_elicitation_is_answered_by_the_chosen_policy(policy: Any, form: str, url: str) -> None:
    result = await run_copilot(_agent(_calling(*ELICIT), user_answers=policy), "Ask me things")
    assert result.success, result.error
    by_mode = {request.mode: request for request in result.elicitations}
    assert (by_mode["form"].action, by_mode["url"].action) == (form, url)
    assert by_mode["url"].url == "https://example.com/consent" and by_mode["form"].asked_by == "ev"
    assert "name" in by_mode["form"].requested_schema["properties"]
    calls = {call.name: call for call in result.all_tool_calls}
    if form == "accept":
        assert by_mode["form"].answer == {"name": "Ada", "check": True}
        assert "- Name: Ada" in calls["ev-trigger-elicitation-request"].result, "the server received the answer"
    else:
        assert by_mode["form"].answer is None
        word = "declined" if form == "decline" else "cancelled"
        assert word in calls["ev-trigger-elicitation-request"].result.lower()
