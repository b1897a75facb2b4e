"""The steps a Copilot Studio agent reports in its activities: plan steps, topics, knowledge searches.

Agents with generative orchestration send their plan as ``event`` activities (named, or typed by
``valueType``): ``DynamicPlanReceived``, then per step ``DynamicPlanStepTriggered`` (what runs:
``taskDialogId``), ``DynamicPlanStepBindUpdate`` (its arguments) and ``DynamicPlanStepFinished``
(its state, error, observation). Knowledge searches also arrive as ``UniversalSearchToolTraceData``
and topic changes as ``DialogRedirect`` traces. An MCP tool the plan calls is named
``MCP:<agent>.topic.<server>:<tool>`` (as the test canvas records it): it is an action, the tool,
of that server, not a topic. Which of these reach a client depends on the
agent and the channel; a conversation without any of them shows no steps at all, and that is
reported as "not visible", never as "no steps taken". Pure: read again from the raw activities.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

StepKind = Literal["topic", "action", "knowledge"]

PLAN_EVENTS = frozenset(
    {
        "DynamicPlanReceived",
        "DynamicPlanReceivedDebug",
        "DynamicPlanStepTriggered",
        "DynamicPlanStepBindUpdate",
        "DynamicPlanStepFinished",
        "DynamicPlanStepBlocked",
        "DynamicPlanFinished",
    }
)
SEARCH_TRACE = "UniversalSearchToolTraceData"
REDIRECT_TRACE = "DialogRedirect"
STEP_ACTIVITIES = PLAN_EVENTS | {SEARCH_TRACE, REDIRECT_TRACE}
_DONE = {"completed", "succeeded", "success"}
_FAILED = {"failed", "faulted", "error", "cancelled", "canceled", "blocked"}


@dataclass(frozen=True)
class PlanStep:
    """One step the platform reported: its kind, name, arguments and outcome (``None`` when not reported)."""

    kind: StepKind
    name: str
    dialog_id: str | None = None
    arguments: Mapping[str, Any] | None = None
    succeeded: bool | None = None
    error: str | None = None
    step_id: str | None = None
    thought: str | None = None
    server: str | None = None  # the MCP server of an MCP tool step


def activity_kind(activity: Mapping[str, Any]) -> str | None:
    """The orchestration name of an activity (``name`` of an event, else its ``valueType``), or ``None``."""
    for key in ("name", "valueType"):
        value = activity.get(key)
        if isinstance(value, str) and value in STEP_ACTIVITIES:
            return value
    return None


def reports_steps(activities: Sequence[Mapping[str, Any]]) -> bool:
    """Whether any activity is one of the orchestration reports (the steps are visible at all)."""
    return any(activity_kind(a) is not None for a in activities)


def mcp_tool(dialog_id: str) -> tuple[str, str] | None:
    """``MCP:cr1_agent.topic.Server:get_forecast`` -> (``Server``, ``get_forecast``); ``None`` for other steps."""
    if not dialog_id.startswith("MCP:") or ":" not in dialog_id[4:]:
        return None
    path, tool = dialog_id[4:].rsplit(":", 1)
    return path.rsplit(".", 1)[-1], tool


def _kind_and_name(dialog_id: str, step_type: Any) -> tuple[StepKind, str]:
    """``cr1_agent.topic.Greeting`` -> topic Greeting; ``cr1_agent.action.Refund`` -> action Refund;
    ``MCP:cr1_agent.topic.Server:tool`` -> action tool (the ``.topic.`` there is the server's place)."""
    tool = mcp_tool(dialog_id)
    if tool is not None:
        return "action", tool[1]
    tail = dialog_id.rsplit(":", 1)[-1]
    name = tail.rsplit(".", 1)[-1] or dialog_id
    lowered, typed = dialog_id.lower(), str(step_type or "").lower()
    if "universalsearch" in lowered or "knowledge" in typed or ".knowledge." in lowered:
        return "knowledge", name
    if ".topic." in lowered or ".topic:" in lowered or "topic" in typed:
        return "topic", name
    return "action", name


def _outcome(value: Mapping[str, Any], blocked: bool) -> tuple[bool | None, str | None]:
    error = value.get("error")
    message = error.get("message") if isinstance(error, Mapping) else error
    text = str(message) if message else None
    state = str(value.get("state") or "").lower()
    if blocked or state in _FAILED or text:
        return False, text or ("blocked by policy" if blocked else f"state {state}")
    if state in _DONE:
        return True, None
    return None, None  # a numeric or missing state says nothing we can read


def _value(activity: Mapping[str, Any]) -> Mapping[str, Any]:
    value = activity.get("value")
    return value if isinstance(value, Mapping) else {}


def plan_steps(activities: Sequence[Mapping[str, Any]]) -> list[PlanStep]:
    """The steps of one turn, in the order they started (a step is keyed by its ``stepId``)."""
    steps: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for index, activity in enumerate(activities):
        kind, value = activity_kind(activity), _value(activity)
        if kind in (SEARCH_TRACE, REDIRECT_TRACE):
            key = f"trace-{index}"
            dialog = "UniversalSearchTool" if kind == SEARCH_TRACE else str(value.get("targetDialogId") or "")
            sources = value.get("knowledgeSources")
            args = {"knowledgeSources": sources} if kind == SEARCH_TRACE and isinstance(sources, list) else None
            if kind == SEARCH_TRACE and any(
                s.get("dialog", "").endswith("UniversalSearchTool") for s in steps.values()
            ):
                continue  # the plan step already stands for this search
            steps[key] = {"dialog": dialog, "type": "knowledge" if kind == SEARCH_TRACE else "topic", "args": args}
            order.append(key)
            continue
        if kind is None or not kind.startswith("DynamicPlanStep"):
            continue
        key = str(value.get("stepId") or f"step-{index}")
        record = steps.setdefault(key, {})
        if key not in order:
            order.append(key)
        if value.get("taskDialogId"):
            record["dialog"] = str(value["taskDialogId"])
        if value.get("type"):
            record["type"] = value["type"]
        if kind == "DynamicPlanStepTriggered" and value.get("thought"):
            record["thought"] = str(value["thought"])
        if kind == "DynamicPlanStepBindUpdate" and isinstance(value.get("arguments"), Mapping):
            record["args"] = dict(value["arguments"])
        if kind in ("DynamicPlanStepFinished", "DynamicPlanStepBlocked"):
            record["outcome"] = _outcome(value, blocked=kind == "DynamicPlanStepBlocked")
    return [_step(key, steps[key]) for key in order if steps[key].get("dialog")]


def _step(key: str, record: Mapping[str, Any]) -> PlanStep:
    kind, name = _kind_and_name(record["dialog"], record.get("type"))
    succeeded, error = record.get("outcome", (None, None))
    return PlanStep(
        kind=kind,
        name=name,
        dialog_id=record["dialog"],
        arguments=record.get("args"),
        succeeded=succeeded,
        error=error,
        step_id=None if key.startswith(("trace-", "step-")) else key,
        thought=record.get("thought"),
        server=tool[0] if (tool := mcp_tool(record["dialog"])) else None,
    )


# Where a knowledge search trace lists what it found, best first; each entry may carry its text.
_RESULT_LISTS = ("filteredResults", "fullResults", "results")
_RESULT_TEXT = ("text", "content", "snippet", "abstract", "summary")


def search_results(activities: Sequence[Mapping[str, Any]]) -> list[str]:
    """The text of what the turn's knowledge searches found (``UniversalSearchToolTraceData``), in order.

    Each passage is its text, headed by its name or URL when the trace gives one; entries without
    text are left out (a list of source names says what was searched, not what was found).
    """
    passages: list[str] = []
    for activity in activities:
        if activity_kind(activity) != SEARCH_TRACE:
            continue
        value = _value(activity)
        entries: list[Any] = next((value[key] for key in _RESULT_LISTS if isinstance(value.get(key), list)), [])
        for entry in entries:
            if not isinstance(entry, Mapping):
                continue
            text = next((str(entry[k]) for k in _RESULT_TEXT if isinstance(entry.get(k), str) and entry[k].strip()), "")
            if not text:
                continue
            head = next((str(entry[k]) for k in ("name", "title", "url") if entry.get(k)), "")
            passage = f"{head}: {text}" if head else text
            if passage not in passages:
                passages.append(passage)
    return passages


__all__ = [
    "PLAN_EVENTS",
    "STEP_ACTIVITIES",
    "PlanStep",
    "StepKind",
    "activity_kind",
    "mcp_tool",
    "plan_steps",
    "reports_steps",
    "search_results",
]
