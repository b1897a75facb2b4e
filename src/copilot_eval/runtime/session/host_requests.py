"""Answering what the runtime asks the host during a run, each request at once, never left to the timeout.

The agent's questions, MCP elicitations and MCP sampling requests are answered by the agent's
policies (``user_answers``, ``sampling``); every other kind of request the runtime can send (an
MCP server's OAuth login or dynamic headers, the session's AI-credit limit, plan mode, auto mode,
a queued command, and a kind this version does not know) by its safe default
(``runtime.session.host_defaults``). A handler the user gave through ``extra_config`` answers
its kind instead; the request is still recorded, with that handler named.

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

from copilot.generated.rpc import RegisterEventInterestParams, UIHandlePendingSamplingRequest

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
from copilot_eval.capture.host_requests import REQUEST_EVENTS, is_host_request, sampling_text
from copilot_eval.capture.run_facts import HostAnswer
from copilot_eval.evidence.host_request import HostRequestKind
from copilot_eval.models.sampling import SamplingFailed, SamplingRequest, create_message_result, sample_with_model
from copilot_eval.runtime.requests.run_control import RunControl
from copilot_eval.runtime.session.host_defaults import answer_by_default, default_answer, oauth_answer

#: The SDK handler that answers each kind, when a session has one (the runtime then asks through it).
HANDLER_OF_KIND: dict[HostRequestKind, str] = {
    "question": "on_user_input_request",
    "elicitation": "on_elicitation_request",
    "mcp_oauth": "on_mcp_auth_request",
    "exit_plan_mode": "on_exit_plan_mode_request",
    "auto_mode_switch": "on_auto_mode_switch_request",
}


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


def _has_remote_servers(agent: Any) -> bool:
    """Whether the agent or one of its custom agents has an MCP server reached over HTTP (a ``url``)."""
    configs = [*agent.mcp_servers.values()]
    for custom in agent.custom_agents:
        configs += list((custom.mcp_servers or {}).values())
    return any(isinstance(config, Mapping) and "url" in config for config in configs)


def _function_name(fn: Any) -> str:
    return f"function {getattr(fn, '__qualname__', type(fn).__name__)}"


class HostAnswering:
    """One run's answers to requests put to the host, decided by the agent's policy."""

    def __init__(
        self,
        agent: Any,
        control: RunControl,
        *,
        caller_loop: asyncio.AbstractEventLoop | None,
        user_handlers: frozenset[str] = frozenset(),
    ) -> None:
        self.user_answers, self.sampling = agent.user_answers, agent.sampling
        self.control, self.caller_loop = control, caller_loop
        self.remote_servers = _has_remote_servers(agent)
        self.user_handlers = user_handlers  # SDK handlers the user gave through extra_config: theirs answer
        self.answers: list[HostAnswer] = []
        self.session: Any = None
        self.session_id: str | None = None
        self.working_directory: str | None = None
        self._tasks: set[asyncio.Future[Any]] = set()

    def session_handlers(self) -> dict[str, Any]:
        """The ``create_session`` handlers: elicitation always, MCP OAuth when the agent has a remote
        MCP server (only those log in, and the SDK spends a round trip registering the handler),
        questions when the agent has answers.

        No plan-mode or auto-mode handler: giving one makes the runtime offer the model a tool
        (``exit_plan_mode``) the plain SDK does not, and changes what the agent under test sees.
        """
        handlers: dict[str, Any] = {"on_elicitation_request": self.on_elicitation}
        if self.remote_servers:
            handlers["on_mcp_auth_request"] = self.on_mcp_auth
        if self.user_answers is not None:
            handlers["on_user_input_request"] = self.on_user_input
        return {key: handler for key, handler in handlers.items() if key not in self.user_handlers}

    def _answered_by_a_handler(self, kind: HostRequestKind) -> bool:
        handler = HANDLER_OF_KIND.get(kind)
        return handler is not None and (handler in self.user_handlers or handler in self.session_handlers())

    def attach(self, session: Any, *, session_id: str, working_directory: str) -> None:
        """Listen for sampling requests on the created session."""
        self.session, self.session_id, self.working_directory = session, session_id, working_directory
        session.on(self.on_event)

    async def register_interests(self, mcp_servers: Any) -> None:
        """Ask for the requests the runtime sends only to a host that registered for them.

        Dynamic headers (an HTTP MCP server with ``headersRefreshTtlMs``): unregistered, the runtime
        never asks and the server waits for headers; registered, it asks and gets "none" at once.
        """
        servers = mcp_servers.values() if isinstance(mcp_servers, Mapping) else ()
        if not any(isinstance(config, Mapping) and "headersRefreshTtlMs" in config for config in servers):
            return
        await self.session.rpc.event_log.register_interest(
            RegisterEventInterestParams(event_type="mcp.headers_refresh_required")
        )

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

    def on_mcp_auth(self, request: Mapping[str, Any], _context: Any) -> dict[str, Any]:
        """SDK ``on_mcp_auth_request``: an MCP server wants an OAuth login; never an interactive one."""
        answer, answered_by = oauth_answer(dict(request))
        self.answers.append(
            HostAnswer(
                kind="mcp_oauth",
                message=None,
                answered_by=answered_by,
                action="decline" if answer["kind"] == "cancelled" else "accept",
                answer=answer["kind"],
                request_id=str(request.get("requestId")),
            )
        )
        return answer

    def on_event(self, event: Any) -> None:
        """Session event listener: answer each request no handler answers, the moment it arrives."""
        kind_name = getattr(event.type, "value", event.type)
        data = dict_or_empty(dict_or_empty(getattr(event, WIRE_ATTRIBUTE, None)).get("data"))
        if kind_name == "sampling.requested":
            work: Any = self._answer_sampling(event)
        elif is_host_request(kind_name, data):
            kind = REQUEST_EVENTS.get(kind_name, "unknown")
            if self._answered_by_a_handler(kind):
                handler = HANDLER_OF_KIND[kind]
                if handler in self.user_handlers:  # the user's handler answers; the record names it
                    self.answers.append(
                        HostAnswer(
                            kind=kind,
                            message=None,
                            answered_by=f"extra_config {handler}",
                            request_id=str(data.get("requestId")),
                        )
                    )
                return
            work = self._answer_by_default(kind, kind_name, data)
        else:
            return
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer_by_default(self, kind: HostRequestKind, event_type: str, data: dict[str, Any]) -> None:
        request_id = str(data.get("requestId"))
        decided = default_answer(kind, event_type, data)
        # The stop first: once the session's credits are spent no further model call may go out,
        # and the stop gate refuses one the runtime attempts while the answer is on its way.
        if decided.stop is not None:
            self.control.request_stop(*decided.stop)
        problem = None
        if kind != "unknown":
            try:
                await answer_by_default(self.session, kind, request_id)
            except Exception as error:  # the session may be closing; the record says what was decided
                problem = f"the answer could not be delivered: {type(error).__name__}: {error}"
        elif decided.stop is not None:
            problem = decided.stop[1]
        said = Reply(decided.action, decided.answer, decided.answered_by, problem)
        self._keep(kind, None, said, request_id=request_id)

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
