"""Answering what the runtime asks the host during a run: the agent's questions, MCP elicitations
and MCP sampling requests, each by the agent's policy and at once, never left to the timeout.

SDK 1.0.27 surfaces each kind differently (measured with runtime 1.0.102):
- a question (``ask_user``): the SDK calls ``on_user_input_request``; giving it is also what
  makes the runtime offer the agent the ``ask_user`` tool, so it is only given when the agent has
  ``user_answers``. The handler gets the question, the choices and no request id;
- an elicitation: the SDK calls ``on_elicitation_request`` (giving it advertises the capability
  to MCP servers, as an interactive Copilot CLI does); it gets the message, the schema or URL and
  the server's name, and no request id;
- sampling: only a ``sampling.requested`` event, whose MCP parameters are in the wire form alone
  (``capture.events.WIRE_ATTRIBUTE``); it is answered with ``rpc.ui.handle_pending_sampling``, and
  declined by sending no result.

What was decided is kept as ``HostAnswer`` facts; capture joins them with the events.
"""

from __future__ import annotations

import asyncio
import inspect
import threading
from collections.abc import Callable, Mapping
from typing import Any

from copilot_eval.agent.sampling_policy import DECLINE
from copilot_eval.agent.user_answers import (
    DECLINED_ANSWER,
    Action,
    Reply,
    RequestKind,
    UserRequest,
    as_reply,
    scripted_reply,
)
from copilot_eval.capture.events import WIRE_ATTRIBUTE, dict_or_empty, list_or_empty
from copilot_eval.capture.host_requests import sampling_text
from copilot_eval.capture.run_facts import HostAnswer
from copilot_eval.models.sampling import SamplingFailed, SamplingRequest, create_message_result, sample_with_model
from copilot_eval.runtime.requests.run_control import RunControl


async def _off_loop(fn: Callable[..., Any], argument: Any, caller_loop: asyncio.AbstractEventLoop | None) -> Any:
    """Call a user's policy function without blocking the runtime host's loop.

    Sync: in a daemon thread (one that never returns cannot keep Python alive). Async: on the loop
    of the code that started the run, where its own objects live, else here.
    """
    if inspect.iscoroutinefunction(fn):
        if caller_loop is not None and caller_loop is not asyncio.get_running_loop() and caller_loop.is_running():
            return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(fn(argument), caller_loop))
        return await fn(argument)
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def deliver(ok: bool, value: Any) -> None:
        if not future.done():
            (future.set_result if ok else future.set_exception)(value)

    def work() -> None:
        try:
            outcome: tuple[bool, Any] = (True, fn(argument))
        except Exception as error:
            outcome = (False, error)
        try:
            loop.call_soon_threadsafe(deliver, *outcome)
        except RuntimeError:
            pass  # the loop is gone: the run ended long ago

    threading.Thread(target=work, name="copilot-eval-answer", daemon=True).start()
    value = await future
    return await value if inspect.isawaitable(value) else value


def _function_name(fn: Any) -> str:
    return f"function {getattr(fn, '__qualname__', type(fn).__name__)}"


class HostAnswering:
    """One run's answers to requests put to the host, decided by the agent's policy."""

    def __init__(self, agent: Any, control: RunControl, *, caller_loop: asyncio.AbstractEventLoop | None) -> None:
        self.user_answers, self.sampling = agent.user_answers, agent.sampling
        self.control, self.caller_loop = control, caller_loop
        self.answers: list[HostAnswer] = []
        self.session: Any = None
        self.session_id: str | None = None
        self.working_directory: str | None = None
        self._tasks: set[asyncio.Future[Any]] = set()

    def session_handlers(self) -> dict[str, Any]:
        """The ``create_session`` handlers: elicitation always, questions when the agent has answers."""
        handlers: dict[str, Any] = {"on_elicitation_request": self.on_elicitation}
        if self.user_answers is not None:
            handlers["on_user_input_request"] = self.on_user_input
        return handlers

    def attach(self, session: Any, *, session_id: str, working_directory: str) -> None:
        """Listen for sampling requests on the created session."""
        self.session, self.session_id, self.working_directory = session, session_id, working_directory
        session.on(self.on_event)

    async def _decide(self, request: UserRequest) -> Reply:
        policy = self.user_answers
        if policy is None:
            return Reply("decline", None, "default: declined (no user_answers)")
        if not callable(policy):
            return scripted_reply(policy, request)
        name = _function_name(policy)
        try:
            value = await self._until_run_ends(_off_loop(policy, request, self.caller_loop))
        except Exception as error:
            return Reply("decline", None, name, f"{name} raised {type(error).__name__}: {error}")
        return as_reply(value, request, answered_by=name)

    async def _until_run_ends(self, work: Any) -> Any:
        """The policy's answer, or a TimeoutError when the run ends first (the request is then declined)."""
        task, ended = asyncio.ensure_future(work), asyncio.ensure_future(self.control.ended.wait())
        try:
            await asyncio.wait({task, ended}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            ended.cancel()
        if not task.done():
            task.cancel()
            raise TimeoutError("the run ended before the policy answered")
        return task.result()

    def _keep(self, kind: str, message: str | None, reply: Reply, **extra: Any) -> None:
        self.answers.append(
            HostAnswer(
                kind=kind,
                message=message,
                answered_by=reply.answered_by,
                action=reply.action,
                answer=reply.answer,
                problem=reply.problem,
                **extra,
            )
        )

    async def on_user_input(self, request: Mapping[str, Any], _invocation: Any) -> dict[str, Any]:
        """SDK ``on_user_input_request``: the agent's ``ask_user`` question."""
        question = str(request.get("question") or "")
        choices = tuple(str(choice) for choice in request.get("choices") or ())
        pending = UserRequest(
            kind="question",
            message=question,
            asked_by="agent",
            choices=choices,
            allow_freeform=bool(request.get("allowFreeform", True)),
        )
        reply = await self._decide(pending)
        self._keep("question", question, reply)
        if reply.action != "accept":
            return {"answer": DECLINED_ANSWER, "wasFreeform": True}
        return {"answer": reply.answer, "wasFreeform": reply.answer not in choices}

    async def on_elicitation(self, context: Mapping[str, Any]) -> dict[str, Any]:
        """SDK ``on_elicitation_request``: an MCP server asks the user for a form or a URL visit."""
        url = context.get("url")
        kind: RequestKind = "url" if context.get("mode") == "url" or url else "form"
        message = str(context.get("message") or "")
        pending = UserRequest(
            kind=kind,
            message=message,
            asked_by=context.get("elicitationSource"),
            requested_schema=context.get("requestedSchema"),
            url=url,
        )
        reply = await self._decide(pending)
        self._keep("elicitation", message, reply)
        if reply.action == "accept" and kind == "form":
            return {"action": "accept", "content": reply.answer}
        return {"action": reply.action}

    def on_event(self, event: Any) -> None:
        """Session event listener: answer each sampling request as it arrives."""
        if getattr(event.type, "value", event.type) != "sampling.requested":
            return
        task = asyncio.ensure_future(self._answer_sampling(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _sampling_reply(self, request: SamplingRequest) -> tuple[str, dict[str, Any] | None, str | None, str]:
        """(answered_by, the CreateMessageResult or None to decline, problem, answer text)."""
        policy = self.sampling
        if policy == DECLINE:
            return "default: declined", None, None, ""
        if callable(policy) and not hasattr(policy, "session_model"):
            name = _function_name(policy)
            try:
                text = await self._until_run_ends(_off_loop(policy, request, self.caller_loop))
            except Exception as error:
                return name, None, f"{name} raised {type(error).__name__}: {error}", ""
            if text is None:
                return name, None, None, ""
            return name, create_message_result(str(text), model="copilot-eval-function"), None, str(text)
        name = f"sampling model ({getattr(policy, 'description', type(policy).__name__)})"
        try:
            work = sample_with_model(
                policy, request, session_id=self.session_id, working_directory=self.working_directory
            )
            response = await self._until_run_ends(work)
        except (SamplingFailed, TimeoutError) as error:
            return name, None, str(error), ""
        return name, response, None, str(response["content"]["text"])

    async def _answer_sampling(self, event: Any) -> None:
        from copilot.generated.rpc import UIHandlePendingSamplingRequest

        wire = dict_or_empty(getattr(event, WIRE_ATTRIBUTE, None))
        data = dict_or_empty(wire.get("data"))
        params = dict_or_empty(data.get("request"))
        request_id = str(getattr(event.data, "request_id", None) or data.get("requestId"))
        messages = list_or_empty(params.get("messages"))
        request = SamplingRequest(
            asked_by=getattr(event.data, "server_name", None),
            text=sampling_text(params) or "",
            messages=tuple(m for m in messages if isinstance(m, dict)),
            system_prompt=params.get("systemPrompt") if isinstance(params.get("systemPrompt"), str) else None,
            max_tokens=params.get("maxTokens") if isinstance(params.get("maxTokens"), int) else None,
        )
        if not params:
            answered_by, response, problem, text = "declined: the request's messages were not readable", None, None, ""
        else:
            answered_by, response, problem, text = await self._sampling_reply(request)
        action: Action = "accept" if response is not None else "decline"
        reply = Reply(action, text if response is not None else None, answered_by, problem)
        self._keep("sampling", request.text, reply, response=response, request_id=request_id)
        try:
            await self.session.rpc.ui.handle_pending_sampling(
                UIHandlePendingSamplingRequest(request_id=request_id, response=response)
            )
        except Exception as error:  # the session may be closing; the fact above says what was decided
            self.answers[-1] = HostAnswer(
                **{**self.answers[-1].__dict__, "problem": f"the answer could not be delivered: {error}"}
            )

    async def settle(self) -> None:
        """Wait briefly for sampling answers still being sent (the run is ending)."""
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=1.0)


def policy_snapshot(agent: Any) -> dict[str, Any]:
    """What the configuration evidence says about the answering policies (no function bodies)."""
    answers, sampling = agent.user_answers, agent.sampling
    if answers is None or callable(answers):
        shown: Any = _function_name(answers) if answers is not None else None
    else:
        shown = [rule.model_dump(exclude_defaults=True) for rule in answers]
    if sampling == DECLINE:
        sampled = DECLINE
    elif hasattr(sampling, "session_model"):
        sampled = f"model: {getattr(sampling, 'description', sampling.session_model)}"
    else:
        sampled = _function_name(sampling)
    return {"user_answers": shown, "sampling": sampled}


__all__ = ["HostAnswering", "policy_snapshot"]
