"""Request audit: record what each outgoing model request actually carried, then pass it on.

The auditor sits in front of the run's endpoint (a ScriptedEndpoint, or the SDK's forwarder for
real models). It reads only the final request body, never the headers (they hold the API key).
A request it cannot read is refused before it leaves: no record, and the run ends with
``stop_reason="request_audit_error"``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

import httpx
from copilot import CopilotRequestContext, CopilotWebSocketCloseStatus, CopilotWebSocketHandler

from copilot_eval.evidence.audit import RequestAuditRecord
from copilot_eval.runtime.process.forwarding import ForwardingHandler, ForwardingWebSocket
from copilot_eval.runtime.requests.customization_sightings import CustomizationProbe, sightings_in
from copilot_eval.runtime.requests.run_control import RunControl

__all__ = ["AuditingEndpoint", "RequestAuditError", "audit_body", "given_texts", "instructions_hash"]

INSTRUCTION_ROLES = ("system", "developer")
# What the model wrote itself is not something it was given: its earlier messages, calls and reasoning.
_MODEL_ITEMS = ("function_call", "reasoning", "custom_tool_call", "computer_call")


class RequestAuditError(ValueError):
    """The auditor cannot validate a request; it must not be sent."""


def instructions_hash(texts: list[str]) -> str:
    """SHA-256 of the instruction texts joined by two newlines (UTF-8); no texts hash ''."""
    return hashlib.sha256("\n\n".join(texts).encode("utf-8")).hexdigest()


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise RequestAuditError(message)


def _text_of(content: Any, where: str) -> str:
    """The text of one message's content: a string, or its text blocks joined by two newlines."""
    if isinstance(content, str):
        return content
    _expect(isinstance(content, list), f"{where}: content is neither text nor a list of parts")
    texts = []
    for part in content:
        _expect(isinstance(part, dict), f"{where}: a content part is not an object")
        if part.get("type") in ("text", "input_text", "output_text"):
            _expect(isinstance(part.get("text"), str), f"{where}: a text part has no text")
            texts.append(part["text"])
    return "\n\n".join(texts)


def _images_in(content: Any, details: list[str | None]) -> None:
    """Append the detail of every image part in ``content`` (chat or Responses shapes)."""
    if not isinstance(content, list):
        return
    for part in content:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "image_url":
            image = part.get("image_url")
            details.append(image.get("detail") if isinstance(image, dict) else None)
        elif kind == "input_image":
            details.append(part.get("detail"))


def _function_tool_names(tools: Any, *, nested: bool) -> list[str]:
    if tools is None:
        return []
    _expect(isinstance(tools, list), "tools is not a list")
    names = []
    for tool in tools:
        _expect(isinstance(tool, dict), "a tools entry is not an object")
        if tool.get("type") != "function":
            continue
        holder = tool.get("function") if nested else tool
        _expect(isinstance(holder, dict) and isinstance(holder.get("name"), str), "a function tool has no name")
        names.append(holder["name"])
    return names


def _chat_facts(body: dict[str, Any]) -> tuple[list[str], list[str | None], list[str], Any]:
    messages = body.get("messages")
    if not isinstance(messages, list):
        raise RequestAuditError("chat completions body has no messages list")
    texts: list[str] = []
    details: list[str | None] = []
    for index, message in enumerate(messages):
        _expect(isinstance(message, dict), f"messages[{index}] is not an object")
        content = message.get("content")
        if message.get("role") in INSTRUCTION_ROLES:
            texts.append(_text_of(content, f"messages[{index}]"))
        _images_in(content, details)
    return texts, details, _function_tool_names(body.get("tools"), nested=True), body.get("reasoning_effort")


def _responses_facts(body: dict[str, Any]) -> tuple[list[str], list[str | None], list[str], Any]:
    texts: list[str] = []
    details: list[str | None] = []
    instructions = body.get("instructions")
    if instructions is not None:
        _expect(isinstance(instructions, str), "instructions is not a string")
        texts.append(instructions)
    items = body.get("input", [])
    if isinstance(items, str):
        items = []
    _expect(isinstance(items, list), "input is neither text nor a list of items")
    for index, item in enumerate(items):
        _expect(isinstance(item, dict), f"input[{index}] is not an object")
        kind = item.get("type", "message")
        if kind == "message":
            content = item.get("content")
            if item.get("role") in INSTRUCTION_ROLES:
                texts.append(_text_of(content, f"input[{index}]"))
            _images_in(content, details)
        elif kind == "function_call_output":
            _images_in(item.get("output"), details)
        elif kind == "input_image":
            details.append(item.get("detail"))
    reasoning = body.get("reasoning")
    _expect(reasoning is None or isinstance(reasoning, dict), "reasoning is not an object")
    effort = reasoning.get("effort") if reasoning else None
    return texts, details, _function_tool_names(body.get("tools"), nested=False), effort


def _strings(value: Any) -> list[str]:
    """Every string inside a JSON value (keys of objects excluded), depth first."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def given_texts(body: dict[str, Any]) -> list[str]:
    """The texts a request gives the model: instructions, user and tool messages, tool definitions.

    The model's own words (assistant messages, its calls and their arguments, its reasoning) are
    left out: a marker the model repeats back was not delivered by that repetition.
    """
    texts = _strings(body.get("tools")) + _strings(body.get("instructions"))
    for message in body.get("messages") or []:  # chat completions
        if isinstance(message, dict) and message.get("role") != "assistant":
            texts += _strings(message.get("content"))
    items = body.get("input")
    if isinstance(items, str):
        texts.append(items)
    for item in items if isinstance(items, list) else []:  # Responses
        if not isinstance(item, dict) or item.get("type") in _MODEL_ITEMS:
            continue
        if item.get("type", "message") == "message" and item.get("role") == "assistant":
            continue
        texts += _strings(item.get("content")) + _strings(item.get("output"))
    return texts


def _markers_in(body: dict[str, Any], markers: tuple[str, ...]) -> dict[str, bool] | None:
    if not markers:
        return None
    texts = given_texts(body)
    return {marker: any(marker in text for text in texts) for marker in markers}


def audit_body(
    body: Any,
    *,
    wire_api: Literal["completions", "responses"],
    transport: Literal["http", "websocket"],
    request_id: str,
    agent_id: str | None = None,
    markers: tuple[str, ...] = (),
    customizations: tuple[CustomizationProbe, ...] = (),
) -> RequestAuditRecord:
    """One audit record for a parsed request body; RequestAuditError when it cannot be validated.

    ``markers`` are looked for in what the request gives the model (see :func:`given_texts`), and
    so are the ``customizations`` files' texts and names.
    """
    _expect(isinstance(body, dict), "the request body is not a JSON object")
    _expect(isinstance(body.get("model"), str), "the request names no model")
    reader = _chat_facts if wire_api == "completions" else _responses_facts
    texts, details, tool_names, effort = reader(body)
    _expect(effort is None or isinstance(effort, str), "reasoning effort is not a string")
    return RequestAuditRecord(
        request_id=request_id,
        model=body["model"],
        tool_names=tool_names,
        reasoning_effort=effort,
        image_details=details,
        image_count=len(details),
        instructions_sha256=instructions_hash(texts),
        wire_api=wire_api,
        transport=transport,
        agent_id=agent_id or None,
        markers=_markers_in(body, markers),
        message_count=_message_count(body, wire_api),
        customizations=sightings_in(given_texts(body), customizations) if customizations else None,
    )


def _message_count(body: dict[str, Any], wire_api: str) -> int:
    """How many messages (chat) or input items (Responses) the request carried."""
    items = body.get("messages") if wire_api == "completions" else body.get("input", [])
    return len(items) if isinstance(items, list) else 1


def _http_wire_api(request: httpx.Request) -> Literal["completions", "responses"]:
    path = request.url.path.rstrip("/")
    if path.endswith("/chat/completions"):
        return "completions"
    if path.endswith("/responses"):
        return "responses"
    raise RequestAuditError(f"unknown model request {request.method} {path}")


def _json(data: str | bytes, what: str) -> Any:
    try:
        return json.loads(data)
    except (ValueError, UnicodeDecodeError):
        raise RequestAuditError(f"{what} is not JSON") from None


class AuditingEndpoint(ForwardingHandler):
    """Wraps one run's endpoint (or the SDK's forwarder when ``inner`` is None) and audits each request."""

    def __init__(
        self,
        inner: Any,
        control: RunControl,
        *,
        markers: tuple[str, ...] = (),
        customizations: tuple[CustomizationProbe, ...] = (),
    ) -> None:
        super().__init__(inner)
        self.records: list[RequestAuditRecord] = []
        self.markers = markers
        self.customizations = customizations
        self._control = control

    def reject(self, problem: str) -> str:
        """End the run for a request that could not be audited; return the message."""
        message = f"request audit refused a model request: {problem}"
        self._control.request_stop("request_audit_error", message)
        return message

    async def send_request(self, request: httpx.Request, ctx: CopilotRequestContext) -> httpx.Response:
        """Audit one HTTP request, then forward it; refuse it (HTTP 400) when it cannot be audited."""
        try:
            wire_api = _http_wire_api(request)
            body = _json(request.content or b"", "the request body")
            record = audit_body(
                body,
                wire_api=wire_api,
                transport="http",
                request_id=ctx.request_id,
                agent_id=ctx.agent_id,
                markers=self.markers,
                customizations=self.customizations,
            )
        except RequestAuditError as problem:
            message = self.reject(str(problem))
            error = {"message": message, "type": "request_audit_error", "code": "400", "param": None}
            return httpx.Response(400, json={"error": error})
        self.records.append(record)
        return await self.forward_request(request, ctx)

    async def open_websocket(self, ctx: CopilotRequestContext) -> CopilotWebSocketHandler:
        """Wrap the inner WebSocket handler so each ``response.create`` frame is audited."""
        inner = await self.forward_websocket(ctx)
        return _AuditingWebSocket(ctx, inner, self)


class _AuditingWebSocket(ForwardingWebSocket):
    """Audits frames on their way out; everything else is the inner handler's job."""

    def __init__(
        self, context: CopilotRequestContext, inner: CopilotWebSocketHandler, auditor: AuditingEndpoint
    ) -> None:
        super().__init__(context, inner)
        self._auditor = auditor

    async def send_request_message_with_context(self, data: str | bytes, ctx: CopilotRequestContext) -> None:
        """Record one ``response.create`` (request id = the connection id); refuse anything else."""
        try:
            message = _json(data, "a WebSocket message")
            _expect(
                isinstance(message, dict) and message.get("type") == "response.create",
                f"unsupported WebSocket message type {message.get('type') if isinstance(message, dict) else None!r}",
            )
            body = {key: value for key, value in message.items() if key != "type"}
            record = audit_body(
                body,
                wire_api="responses",
                transport="websocket",
                request_id=self.context.request_id,
                agent_id=ctx.agent_id,
                markers=self._auditor.markers,
                customizations=self._auditor.customizations,
            )
        except RequestAuditError as problem:
            text = self._auditor.reject(str(problem))
            await self._inner.close(
                CopilotWebSocketCloseStatus(
                    description=text, error_code="request_audit_error", error=RuntimeError(text)
                )
            )
            return
        self._auditor.records.append(record)
        await self._inner.send_request_message_with_context(data, ctx)
