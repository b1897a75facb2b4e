"""The calls of a CopilotResult as one ordered trajectory, each placed in the user turn it answered.

The agent's own tool calls come in the order the runtime started them. A call that started a
subagent (the runtime's ``task`` tool) stands for that subagent, named by it; the subagent's own
calls follow it, marked with its name, unless they are left out. A custom agent selected for
the whole session is the agent itself, not a step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from copilot_eval.evidence.trajectory.calls import ObservedCall, renumbered

if TYPE_CHECKING:  # the result model imports this module; at run time only its attributes are read
    from copilot_eval.evidence.result import CopilotResult, SubagentInvocation
    from copilot_eval.evidence.tool_call import ToolCall


def turn_of_calls(result: CopilotResult) -> dict[str, int]:
    """Call id -> the 1-based user turn whose answer requested it (from the assistant messages' requests)."""
    turns: dict[str, int] = {}
    prompt = 0
    for turn in result.turns:
        if turn.role == "user":
            prompt += 1
        else:
            for call_id in turn.tool_call_ids:
                turns.setdefault(call_id, max(prompt, 1))
    return turns


def _subagent_outcome(invocation: SubagentInvocation) -> bool | None:
    if invocation.status == "completed":
        return True
    if invocation.status in ("failed", "cancelled"):
        return False
    return None  # still running when the session ended, or never reported


def _call(call: ToolCall, turn: int | None, agent: str | None) -> ObservedCall:
    # Alike in shape to the records security/runner.py builds (keyword=field): another record, kept apart.
    return ObservedCall(
        position=0,
        name=call.name,
        arguments=call.arguments,
        succeeded=call.success,
        error=call.error,
        turn=turn,
        agent=agent,
        call_id=call.call_id,
    )


def _walk(
    result: CopilotResult, turn_of: dict[str, int], agent: str | None, inherited: int | None, subagent_calls: bool
) -> list[ObservedCall]:
    started = {inv.parent_call_id: inv for inv in result.subagent_invocations if inv.parent_call_id}
    calls: list[ObservedCall] = []
    for call in result.all_tool_calls:
        turn = turn_of.get(call.call_id or "", inherited) if agent is None else inherited
        invocation = started.get(call.call_id) if call.call_id else None
        if invocation is None:
            calls.append(_call(call, turn, agent))
            continue
        calls.append(
            ObservedCall(
                position=0,
                name=invocation.name,
                kind="subagent",
                arguments=call.arguments,
                succeeded=_subagent_outcome(invocation),
                error=invocation.error or call.error,
                turn=turn,
                agent=agent,
                via_tool=call.name,
                call_id=call.call_id,
            )
        )
        if subagent_calls and invocation.result is not None:
            calls += _walk(invocation.result, turn_of, invocation.name, turn, subagent_calls)
    return calls


def observed_calls(
    result: CopilotResult, *, turn: int | None = None, subagent_calls: bool = True
) -> list[ObservedCall]:
    """The trajectory of ``result``, numbered 1, 2, ...; only the calls of user turn ``turn`` (1-based) when given.

    A call no assistant message lists (a damaged event stream) has no known turn; it is kept in
    the whole trajectory and left out of every single turn's.
    """
    calls = _walk(result, turn_of_calls(result), None, None, subagent_calls)
    if turn is not None:
        calls = [call for call in calls if call.turn == turn]
    return renumbered(calls)


__all__ = ["observed_calls", "turn_of_calls"]
