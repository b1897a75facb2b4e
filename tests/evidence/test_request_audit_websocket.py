"""The request auditor's WebSocket path when a frame cannot be audited.

Through the runtime (1.0.102) every frame on the Responses WebSocket is a well-formed
``response.create`` (see test_request_audit.py, which audits those end to end); no script or
agent setting made it send anything else. So the refusal is tested here on the handler itself:
the real AuditingEndpoint in front of a real ScriptedEndpoint, with crafted frames. Only the
runtime's side of the connection (the SDK's response bridge) is stood in for, by a recorder.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from copilot import CopilotRequestContext

from copilot_eval.runtime.requests.request_audit import AuditingEndpoint
from copilot_eval.runtime.requests.run_control import RunControl

from .helpers import scripted


class RecordingBridge:
    """What the runtime would receive on its side of the WebSocket."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.errors: list[tuple[str, str | None]] = []
        self.ended = False

    async def start(self) -> None:
        pass

    async def write(self, data: str | bytes) -> None:
        self.frames.append(data if isinstance(data, str) else data.decode())

    async def end(self) -> None:
        self.ended = True

    async def error(self, message: str, code: str | None = None) -> None:
        self.errors.append((message, code))


async def _connection():
    bridge = RecordingBridge()
    context = CopilotRequestContext(
        request_id="ws-1",
        transport="websocket",
        url="wss://model.invalid/responses",
        headers={},
        cancel_event=asyncio.Event(),
        session_id="s-1",
        agent_id=None,
        _bridge=bridge,
    )
    endpoint = scripted({"turns": [{"text": "hello back"}]}, wire_api="responses", transport="websockets").endpoint()
    control = RunControl()
    auditor = AuditingEndpoint(endpoint, control)
    handler = await auditor.open_websocket(context)
    await handler.open()
    return handler, auditor, endpoint, control, bridge


@pytest.mark.parametrize(
    ("frame", "problem"),
    [
        ('{"type": "response.cancel"}', "unsupported WebSocket message type 'response.cancel'"),
        ("not json at all", "a WebSocket message is not JSON"),
        ('{"type": "response.create", "input": []}', "the request names no model"),
    ],
)
async def test_a_frame_the_auditor_cannot_read_is_refused_and_ends_the_run(frame, problem):
    handler, auditor, endpoint, control, bridge = await _connection()
    await handler.send_request_message(frame)

    assert not endpoint.calls, "the refused frame never reached the model"
    assert auditor.records == []
    assert control.stop_reason == "request_audit_error" and problem in (control.stop_message or "")
    assert control.stopped.is_set()
    # The runtime is told why the connection ended, and the SDK's wait on the handler is released.
    assert bridge.frames == [] and [code for _, code in bridge.errors] == ["request_audit_error"]
    assert problem in bridge.errors[0][0]
    status = await asyncio.wait_for(handler._completion, 1)
    assert status.error_code == "request_audit_error"


async def test_a_readable_frame_is_recorded_and_answered():
    handler, auditor, endpoint, control, bridge = await _connection()
    frame = {
        "type": "response.create",
        "model": "scripted-model",
        "instructions": "Be brief.",
        "input": [{"type": "message", "role": "user", "content": "hello"}],
    }
    await handler.send_request_message(json.dumps(frame))

    assert control.stop_reason is None and bridge.errors == []
    (record,) = auditor.records
    assert (record.transport, record.request_id, record.model) == ("websocket", "ws-1", "scripted-model")
    assert len(endpoint.calls) == 1
    assert "hello back" in "".join(bridge.frames)
