"""The per-run request handler of a FunctionModel: each model request is answered by the function."""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Callable
from typing import Any

from copilot import CopilotRequestContext

from copilot_eval.models.function.messages import request_messages, request_tools
from copilot_eval.models.function.returns import read_result
from copilot_eval.models.wire.answer import Answer, AnswerCall, ScriptedHttpError
from copilot_eval.models.wire.answering import AnsweringEndpoint
from copilot_eval.models.wire.reply import Reply

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
            text, calls = read_result(result)
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
