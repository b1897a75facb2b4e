"""Evidence and a run folder holding what issues 20 and 24 added, for the report tests.

The evidence is the real event log of a runtime session against ``server-everything``
(``tests/capture/data/server_everything.jsonl``: mixed text and image, annotations, resource
links, embedded text and blob resources, progress, a question, sampling and both elicitations),
read by capture, plus one hand-made call a hostile server could send (``<script>`` in a resource
name and in an embedded text, a long text, audio, a type this version does not know).

The run folder is played by the real dispatcher, grader, checkpoint and writers on two fake
workers (``tests/scale/fake_executor.py``): one refused with a 429 on its first play, one whose
node leaves on its second, so run.json holds real retries and a real concurrency history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from copilot_eval.capture import load_event_log, result_from_events
from copilot_eval.evidence.content import ContentItem
from copilot_eval.evidence.host_request import HostRequest
from copilot_eval.evidence.played_on import PlayedOn
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.grading import ExactMatch
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.executor import WorkerLost
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import numbered_set
from tests.scale.fake_executor import FakeExecutor, FakeWorker, answered, rate_limited

LOG = Path(__file__).parents[1] / "capture" / "data" / "server_everything.jsonl"
HOSTILE = "<script>document.title='pwned'</script>"
LONG_TEXT = "line of the handbook\n" * 300  # 6,300 characters: cut in the report, its length said


def _hostile_call() -> ToolCall:
    return ToolCall(
        call_id="call_hostile",
        name="docs-search",
        mcp_server_name="docs",
        arguments={"query": "returns"},
        completion_received=True,
        success=True,
        result=HOSTILE + LONG_TEXT,
        content_items=[
            ContentItem(
                type="resource_link",
                uri="file:///handbook/returns.md",
                name=HOSTILE,
                title="Returns [bold]policy[/bold]",
                mime_type="text/markdown",
                annotations={"audience": ["assistant"], "priority": 0.25},
            ),
            ContentItem(type="resource", uri="file:///handbook/hostile.md", mime_type="text/html", text=HOSTILE),
            ContentItem(type="resource", uri="file:///handbook/long.md", mime_type="text/plain", text=LONG_TEXT),
            ContentItem(type="audio", mime_type="audio/wav", data=b"RIFF0000WAVE", size=12, sha256="ab" * 32),
            ContentItem(type="chart", text="a type of a later MCP version"),
        ],
    )


def protocol_result(*, played_on: PlayedOn | None = None) -> CopilotResult:
    """The server-everything session with the hostile call added, and a hostile question."""
    result = result_from_events(load_event_log(LOG))
    result.all_tool_calls.append(_hostile_call())
    result.host_requests.append(
        HostRequest(
            kind="question",
            asked_by="agent",
            message=f"Pick one {HOSTILE}",
            choices=["A", "[red]B[/red]"],
            action="decline",
            answered_by="no matching answer: declined",
            requested_at="2026-12-01T09:27:02.000Z",
            completed=True,
        )
    )
    result.played_on = played_on
    return result


def _played(unit: Any, node: str) -> Any:
    where = PlayedOn(executor="fake", node_id=f"node-{node}", node_address="127.0.0.1", hostname=node)
    if unit.cases[0].conversation_number == 1:
        return protocol_result(played_on=where)
    result = answered(unit)
    result.played_on = where
    return result


def _worker_a(unit: Any, play: int) -> Any:
    return rate_limited(unit) if play == 1 else _played(unit, "a")


def _worker_b(unit: Any, play: int) -> Any:
    if play == 2:
        raise WorkerLost("the worker's node left")
    return _played(unit, "b")


async def build_protocol_run(folder: Path) -> Any:
    """Play six cases on two fake workers into ``folder``; case 1's evidence is the protocol result."""
    executor = FakeExecutor(FakeWorker("a", _worker_a), FakeWorker("b", _worker_b))
    return await run_eval_set(
        numbered_set(6), object(), RunSettings.of(graders=[ExactMatch()], out=folder), executor=executor
    )
