"""The SDK's event timestamps read by the standard library give dateutil's instant (fast, no runtime)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import dateutil.parser
import pytest

from copilot_eval.runtime.sdk_internals import _quick_timestamps, parse_timestamps_quickly

# The forms the runtime writes (JavaScript's toISOString, UTC with milliseconds), and the other ISO
# forms an RPC result may carry (an explicit offset, no fraction, microseconds).
RUNTIME_FORMS = [
    "2026-12-02T01:16:45.236Z",
    "2026-12-02T23:59:59.999Z",
    "2026-12-02T01:16:45Z",
    "2026-12-02T01:16:45.236+00:00",
    "2026-12-02T03:16:45.236+02:00",
    "2026-12-02T01:16:45.123456Z",
]


@pytest.mark.parametrize("text", RUNTIME_FORMS)
def test_the_quick_parse_gives_dateutils_instant(text: str) -> None:
    quick = _quick_timestamps(dateutil.parser.parse)(text)
    slow = dateutil.parser.parse(text)
    assert quick == slow
    assert quick.utcoffset() == slow.utcoffset()
    assert quick.isoformat() == slow.isoformat()


def test_a_string_the_standard_library_cannot_read_still_goes_to_dateutil() -> None:
    calls: list[Any] = []

    def slow(value: Any) -> datetime:
        calls.append(value)
        return dateutil.parser.parse(value)

    parse = _quick_timestamps(slow)
    assert parse("Wed, 02 Dec 2026 01:16:45 GMT") == dateutil.parser.parse("Wed, 02 Dec 2026 01:16:45 GMT")
    assert calls == ["Wed, 02 Dec 2026 01:16:45 GMT"]
    parse("2026-12-02T01:16:45.236Z")
    assert len(calls) == 1  # an ISO timestamp never reaches the slow parser
    with pytest.raises(TypeError):
        parse(None)  # not a string: the SDK's own parser decides, as before
    assert calls[-1] is None


def test_the_sdk_modules_read_event_timestamps_quickly_and_only_once_wrapped() -> None:
    import copilot.client as client_module
    import copilot.generated.rpc as rpc_module
    import copilot.generated.session_events as events_module

    assert parse_timestamps_quickly()
    wrapped = events_module.from_datetime
    assert parse_timestamps_quickly()  # a second client start does not wrap the wrapper
    assert events_module.from_datetime is wrapped
    for module in (events_module, rpc_module, client_module):
        assert getattr(module.from_datetime, "quick", False)
    assert dateutil.parser.parse.__module__ == "dateutil.parser._parser"  # dateutil itself untouched
    event = events_module.session_event_from_dict(
        {
            "id": "00000000-0000-0000-0000-000000000001",
            "timestamp": "2026-12-02T01:16:45.236Z",
            "parentId": None,
            "type": "session.idle",
            "data": {},
        }
    )
    assert event.timestamp == dateutil.parser.parse("2026-12-02T01:16:45.236Z")
