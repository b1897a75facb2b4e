"""The session's hooks: copilot-eval's own and the user's (``extra_config={"hooks": {...}}``), composed.

The SDK takes one handler per hook type. copilot-eval needs the pre-tool-use hook for the tool
budget; a user's hooks (a policy that refuses a tool, one that adds context after a call) are part
of the agent under test. So at every invocation both run, ours first (it counts the call), then
theirs, whatever ours decided: ours never hides theirs. The runtime gets one answer: a refusal
(``deny``, ``block``) from either stands, with the reason of the first that refused; otherwise the
user's output is passed on as they returned it. Each handler's own decision is kept as a
``HookCall`` fact for the evidence.

A handler that raises is answered as if it had returned nothing, as the plain SDK does (it logs
and returns nothing), and the error is recorded.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from copilot_eval.agent.extra_handlers import HOOK_TYPES
from copilot_eval.capture.run_facts import HookCall
from copilot_eval.evidence.hook import OURS, THEIRS, HookDecision

__all__ = ["SessionHooks"]


def _decision(output: Any) -> tuple[str | None, str | None]:
    if not isinstance(output, Mapping):
        return None, None
    decision = output.get("permissionDecision") or output.get("decision")
    reason = output.get("permissionDecisionReason") or output.get("reason")
    return (str(decision) if decision else None), (str(reason) if reason else None)


def _combined(outputs: list[Any]) -> Any:
    """One answer for the runtime: the first refusal stands, else the last handler's own output."""
    for output in outputs:
        if _decision(output)[0] in ("deny", "block"):
            return output
    return outputs[-1]


class SessionHooks:
    """One run's hook handlers, ours and the user's, and the record of what each decided."""

    def __init__(
        self,
        ours: Mapping[str, Callable[..., Any]],
        theirs: Mapping[str, Callable[..., Any]] | None,
        *,
        caller_loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self._ours, self._theirs = dict(ours), dict(theirs or {})
        self._caller_loop = caller_loop
        self.calls: list[HookCall] = []

    @property
    def their_hooks(self) -> list[str]:
        """The names of the user's hooks, for the configuration snapshot (the functions are not recorded)."""
        return [key for key in HOOK_TYPES if key in self._theirs]

    def handlers(self) -> dict[str, Any] | None:
        """The ``hooks=`` of ``create_session``; ``None`` when nobody needs one (every hook is a round trip)."""
        keys = [key for key in HOOK_TYPES if key in self._ours or key in self._theirs]
        return {key: self._composed(key) for key in keys} or None

    def _composed(self, key: str) -> Callable[..., Any]:
        owners = [(OURS, self._ours.get(key)), (THEIRS, self._theirs.get(key))]
        handlers = [(owner, fn) for owner, fn in owners if fn is not None]

        async def hook(hook_input: Any, context: Any) -> Any:
            decisions, outputs = [], []
            for owner, fn in handlers:
                output, error = await self._call(fn, hook_input, context)
                outputs.append(output)
                decisions.append(self._record(key, owner, hook_input, output, error))
            tool = hook_input.get("toolName") if isinstance(hook_input, Mapping) else None
            arguments = (
                hook_input.get("toolArgs", hook_input.get("arguments")) if isinstance(hook_input, Mapping) else None
            )
            self.calls.append(HookCall(HOOK_TYPES[key], tool, arguments, tuple(decisions)))
            return _combined(outputs)

        return hook

    async def _call(self, fn: Callable[..., Any], hook_input: Any, context: Any) -> tuple[Any, str | None]:
        try:
            if inspect.iscoroutinefunction(fn) and self._runs_elsewhere():
                # The user's async hook belongs to the loop of the code that started the run.
                assert self._caller_loop is not None
                future = asyncio.run_coroutine_threadsafe(fn(hook_input, context), self._caller_loop)
                return await asyncio.wrap_future(future), None
            output = fn(hook_input, context)
            if inspect.isawaitable(output):
                output = await output
            return output, None
        except Exception as error:
            return None, f"{type(error).__name__}: {error}"

    def _runs_elsewhere(self) -> bool:
        loop = self._caller_loop
        return loop is not None and loop is not asyncio.get_running_loop() and loop.is_running()

    @staticmethod
    def _record(key: str, owner: str, hook_input: Any, output: Any, error: str | None) -> HookDecision:
        decision, reason = _decision(output)
        tool = hook_input.get("toolName") if isinstance(hook_input, Mapping) else None
        return HookDecision(
            hook=HOOK_TYPES[key],
            decided_by=owner,
            tool_name=tool if isinstance(tool, str) else None,
            decision=decision,
            reason=reason,
            returned=_json_safe(output) if isinstance(output, Mapping) else None,
            error=error,
        )


def _json_safe(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return repr(value)
