"""The permission policy of a run, as the SDK's permission callback.

A "no" is the rejection a person gives in the Copilot CLI without typing anything: the runtime
tells the model "The user rejected this tool call." and ends the turn (runtime 1.0.102 asks the
model once). Feedback is sent only when the policy gives some, as text: the runtime then adds
"User feedback: ..." and asks the model again, as it does for a person who typed a reason.
"""

from __future__ import annotations

import inspect
from typing import Any

from copilot import PermissionHandler
from copilot.generated.rpc import PermissionDecisionReject
from copilot.session import PermissionDecisionApproveOnce


def permission_handler(policy: Any) -> Any:
    """SDK ``on_permission_request`` for "approve_all", "deny_all" or a user callable.

    A user callable receives the SDK's PermissionRequest and returns True (approve), False or
    None (a plain rejection), a string (a rejection with that feedback for the model), or an SDK
    decision object (passed through unchanged).
    """
    if policy == "approve_all":
        return PermissionHandler.approve_all

    def decide(allowed: Any) -> Any:
        if allowed is True:
            return PermissionDecisionApproveOnce()
        if allowed is False or allowed is None:
            return PermissionDecisionReject()
        if isinstance(allowed, str):
            return PermissionDecisionReject(feedback=allowed)
        return allowed

    if policy == "deny_all":
        return lambda request, invocation: decide(False)

    async def ask_user_callable(request: Any, invocation: Any) -> Any:
        answer = policy(request)
        if inspect.isawaitable(answer):
            answer = await answer
        return decide(answer)

    return ask_user_callable
