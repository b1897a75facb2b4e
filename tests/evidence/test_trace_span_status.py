"""A span's status as the runtime's trace file gives it: a known code names it, anything else is unset."""

from __future__ import annotations

import json
from typing import Any

import pytest

from copilot_eval.evidence.runtime_trace import RuntimeTrace


def _span(span_id: str, status: Any) -> str:
    return json.dumps({"type": "span", "traceId": "t1", "spanId": span_id, "name": "chat", "status": status})


@pytest.mark.parametrize(("status", "expected"), [({"code": 0}, "unset"), ({"code": 1}, "ok"), ({"code": 2}, "error")])
def test_a_known_code_names_the_status(status, expected):
    (span,) = RuntimeTrace.from_lines([_span("s1", status)]).spans
    assert span.status == expected


@pytest.mark.parametrize(
    "status", [{"code": [2]}, {"code": {"value": 2}}, {"code": "STATUS_CODE_ERROR"}, {"code": 7}, {}, None, "error"]
)
def test_a_code_that_is_no_known_number_is_unset_and_the_other_spans_still_read(status):
    # A list or an object as the code once stopped the whole trace from reading (it is no dictionary key).
    trace = RuntimeTrace.from_lines([_span("s1", status), _span("s2", {"code": 2, "message": "boom"})])
    assert [(span.span_id, span.status) for span in trace.spans] == [("s1", "unset"), ("s2", "error")]
    assert trace.spans[1].status_message == "boom"
