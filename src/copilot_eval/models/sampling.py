"""Answering an MCP server's sampling request with a model source: the messages sent as a chat.

A ScriptedModel or FunctionModel answers in-process, through the same request handler that
answers the agent's own model calls (a script's ``when: {prompt_contains: ...}`` matches the
sampling request's last message); a BYOK model is sent one plain chat completions request over
HTTP, with its key from the environment. The reply is the MCP ``CreateMessageResult`` the runtime
hands back to the server.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import httpx
from copilot import CopilotRequestContext

__all__ = ["SamplingFailed", "SamplingRequest", "chat_body", "create_message_result", "sample_with_model"]

_IN_PROCESS_URL = "http://sampling.copilot-eval.invalid/v1/chat/completions"
SAMPLING_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class SamplingRequest:
    """An MCP server's request for a completion, as a sampling policy sees it.

    ``messages`` are the MCP messages as sent (``{"role", "content"}``); ``text`` is the text of
    the last one; ``system_prompt`` and ``max_tokens`` are the server's, when given.
    """

    asked_by: str | None
    text: str
    messages: tuple[Mapping[str, Any], ...] = ()
    system_prompt: str | None = None
    max_tokens: int | None = None


class SamplingFailed(RuntimeError):
    """The model source could not answer the sampling request; the message says why."""


def _text_of(content: Any) -> str:
    parts = content if isinstance(content, list) else [content]
    texts = []
    for part in parts:
        if isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part, dict):
            texts.append(f"[{part.get('type', 'content')}]")  # images and audio have no text to send
    return "".join(texts)


def chat_body(request: SamplingRequest, *, model: str) -> dict[str, Any]:
    """The chat completions request standing for a sampling request (not streamed)."""
    messages: list[dict[str, Any]] = []
    if request.system_prompt:
        messages.append({"role": "system", "content": request.system_prompt})
    for message in request.messages:
        role = message.get("role") if message.get("role") in ("user", "assistant") else "user"
        messages.append({"role": role, "content": _text_of(message.get("content"))})
    body: dict[str, Any] = {"model": model, "messages": messages, "stream": False}
    if request.max_tokens is not None:
        body["max_tokens"] = request.max_tokens
    return body


def create_message_result(text: str, *, model: str) -> dict[str, Any]:
    """The MCP ``CreateMessageResult`` of a text answer."""
    return {"role": "assistant", "content": {"type": "text", "text": text}, "model": model, "stopReason": "endTurn"}


def _answer_text(response: httpx.Response, who: str) -> str:
    if response.status_code != 200:
        raise SamplingFailed(f"{who} answered HTTP {response.status_code}: {response.text[:200]}")
    try:
        message = response.json()["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise SamplingFailed(f"{who} answered something that is not a chat completion: {response.text[:200]}") from None
    content = message.get("content") if isinstance(message, dict) else None
    return content if isinstance(content, str) else json.dumps(content)


async def _in_process(endpoint: Any, body: dict[str, Any], session_id: str | None) -> httpx.Response:
    ctx = CopilotRequestContext(
        request_id=f"sampling-{uuid.uuid4()}",
        transport="http",
        url=_IN_PROCESS_URL,
        headers={},
        cancel_event=asyncio.Event(),
        session_id=session_id,
        interaction_type="mcp-sampling",
    )
    request = httpx.Request("POST", _IN_PROCESS_URL, json=body)
    return await endpoint.send_request(request, ctx)


async def _over_http(provider: dict[str, Any], body: dict[str, Any]) -> httpx.Response:
    if provider.get("type", "openai") != "openai" or provider.get("wire_api", "completions") != "completions":
        raise SamplingFailed("sampling through a BYOK provider needs type 'openai' and wire_api 'completions'")
    headers = {"authorization": f"Bearer {provider.get('api_key', '')}"}
    async with httpx.AsyncClient(timeout=SAMPLING_TIMEOUT_S) as client:
        try:
            return await client.post(f"{provider['base_url']}/chat/completions", json=body, headers=headers)
        except httpx.HTTPError as error:
            raise SamplingFailed(f"BYOK {provider['base_url']}: {type(error).__name__}: {error}") from None


async def sample_with_model(
    source: Any, request: SamplingRequest, *, session_id: str | None = None, working_directory: str | None = None
) -> dict[str, Any]:
    """Ask ``source`` (a model source) to answer ``request``; the ``CreateMessageResult`` to send back.

    Raises ``SamplingFailed`` naming the source when it cannot answer.
    """
    model = source.session_model
    body = chat_body(request, model=model)
    endpoint = source.endpoint(working_directory=working_directory)
    if endpoint is not None:
        response = await _in_process(endpoint, body, session_id)
        who = getattr(source, "description", model)
    else:
        try:
            provider = source.provider_config()
        except ValueError as error:
            raise SamplingFailed(str(error)) from None
        if not provider:
            raise SamplingFailed(f"{model}: a model without a BYOK provider cannot answer sampling")
        response = await _over_http(provider, body)
        who = f"BYOK {provider['base_url']}"
    return create_message_result(_answer_text(response, who), model=model)
