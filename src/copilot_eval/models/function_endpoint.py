"""The per-run request handler of a FunctionModel: each model request is answered by the function."""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Callable, Sequence
from typing import Any

from copilot import CopilotRequestContext

from copilot_eval.models.function import CallTool
from copilot_eval.models.function_request import request_messages, request_tools
from copilot_eval.models.scripted.answer import Answer, AnswerCall
from copilot_eval.models.scripted.answering import AnsweringEndpoint
from copilot_eval.models.scripted.reply import Reply
from copilot_eval.models.scripted.script import ScriptedHttpError

__all__ = ["FunctionEndpoint"]


class FunctionEndpoint(AnsweringEndpoint):
    """Answers each model request with what the function returns for it; a failing function answers HTTP 400."""

    def __init__(self, fn: Callable[..., Any], *, model_name: str) -> None:
        super().__init__(model_name=model_name, label="function model")
        self._fn = fn
        self.calls = 0

    async def answer(self, body: dict[str, Any], *, wire_api: str, ctx: CopilotRequestContext, transport: str) -> Reply:
        """Call the function with this request's messages and tools and turn its return value into an answer."""
        self.calls += 1
        number = self.calls
        response_id = f"resp_fn_{number}"
        try:
            items = [] if wire_api == "completions" else self.full_input(body)
            messages = request_messages(body, items, wire_api=wire_api)
            result = self._fn(messages, request_tools(body.get("tools")))
            if inspect.isawaitable(result):
                result = await result
            text, calls = _read_result(result)
        except Exception as exc:
            # HTTP 400: the runtime does not retry it, so a broken test function fails the run at once.
            message = f"function model: {_fn_name(self._fn)} failed: {type(exc).__name__}: {exc}"
            return Reply(
                Answer(text=None, tool_calls=(), usage=None, error=ScriptedHttpError(400, message)), response_id, 0.0
            )
        wire_calls = tuple(
            AnswerCall(
                id=call.id or f"call_fn_{number}_{i}", name=call.name, arguments=json.dumps(dict(call.arguments))
            )
            for i, call in enumerate(calls)
        )
        produced = (text or "") + "".join(c.name + c.arguments for c in wire_calls)
        usage = {
            "input_tokens": max(1, math.ceil(len(json.dumps(body)) / 4)),
            "output_tokens": max(1, math.ceil(len(produced) / 4)),
        }
        answer = Answer(text=text, tool_calls=wire_calls, usage=usage)
        self.remember(response_id, items, answer, transport)
        return Reply(answer, response_id, 0.0)


def _fn_name(fn: Any) -> str:
    return getattr(fn, "__qualname__", type(fn).__name__)


def _read_result(result: Any) -> tuple[str | None, tuple[CallTool, ...]]:
    """Text and tool calls from what the function returned; TypeError naming what it got otherwise.

    A list may mix text and calls, as a real model's message does ("Let me look that up" and a
    call): the texts are joined into the message's text, the calls keep their order.
    """
    if isinstance(result, str):
        return result, ()
    if isinstance(result, CallTool):
        return None, (result,)
    if isinstance(result, Sequence) and result and all(isinstance(item, (CallTool, str)) for item in result):
        texts = [item for item in result if isinstance(item, str)]
        calls = tuple(item for item in result if isinstance(item, CallTool))
        return ("".join(texts) if texts else None), calls
    raise TypeError(f"must return text (str), a CallTool, or a non-empty list of text and CallTool, got {result!r:.80}")
