"""The runtime's span file read incrementally and split by session, without a runtime (fast)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from copilot_eval.runtime.process.trace_file import (
    TraceFileReader,
    collect_session_trace,
    trace_enabled,
    trace_environment,
)


def _span(span_id: str, *, parent: str | None = None, session: str | None = None, name: str = "step") -> dict[str, Any]:
    attributes: dict[str, Any] = {"gen_ai.conversation.id": session} if session else {}
    if name == "invoke_agent":
        attributes["gen_ai.operation.name"] = "invoke_agent"
    line: dict[str, Any] = {
        "type": "span",
        "traceId": "t" * 32,
        "spanId": span_id,
        "name": name,
        "startTime": [1, 0],
        "endTime": [1, 5_000_000],
        "attributes": attributes,
        "status": {"code": 0},
        "events": [],
    }
    if parent:
        line["parentSpanId"] = parent
    return line


def _append(path: Path, *lines: dict[str, Any] | str) -> None:
    with path.open("a", encoding="utf-8") as handle:
        for line in lines:
            handle.write(line if isinstance(line, str) else json.dumps(line) + "\n")


def test_spans_are_split_by_session_even_when_children_come_first_and_sessions_share_a_trace(tmp_path):
    path = tmp_path / "trace.jsonl"
    reader = TraceFileReader(path)
    reader.read_new()  # no file yet: nothing, no error
    # A timing step is written before the segment span that names its session; both sessions share
    # one trace id (a caller's own context passed on by the SDK does that).
    _append(path, _span("c1", parent="p1"), _span("c2", parent="p2"), {"type": "metric", "name": "m"})
    _append(path, _span("p2", session="s2"), _span("p1", session="s1"), _span("g1", parent="c1"))
    reader.read_new()
    assert [s.span_id for s in reader.spans_of("s1")] == ["p1", "c1", "g1"]
    assert [s.span_id for s in reader.spans_of("s2")] == ["p2", "c2"]


def test_a_line_the_runtime_is_still_writing_waits_for_its_end(tmp_path):
    path = tmp_path / "trace.jsonl"
    reader = TraceFileReader(path)
    whole = json.dumps(_span("a", session="s")) + "\n"
    _append(path, whole[:20])
    reader.read_new()
    assert reader.spans_of("s") == []
    _append(path, whole[20:])
    reader.read_new()
    assert [s.span_id for s in reader.spans_of("s")] == ["a"]


def test_multibyte_text_split_across_reads_is_kept_whole(tmp_path):
    path = tmp_path / "trace.jsonl"
    reader = TraceFileReader(path)
    line = _span("a", session="s")
    line["attributes"]["gen_ai.input.messages"] = "Grüße, 注文"
    data = (json.dumps(line, ensure_ascii=False) + "\n").encode()
    cut = data.index("注".encode()) + 1  # in the middle of a character
    path.write_bytes(data[:cut])
    reader.read_new()
    with path.open("ab") as handle:
        handle.write(data[cut:])
    reader.read_new()
    assert reader.spans_of("s")[0].attributes["gen_ai.input.messages"] == "Grüße, 注文"


def test_a_taken_session_is_forgotten_and_its_late_spans_dropped(tmp_path):
    path = tmp_path / "trace.jsonl"
    reader = TraceFileReader(path)
    _append(path, _span("a", session="s"))
    reader.read_new()
    assert [s.span_id for s in reader.take("s")] == ["a"]
    _append(path, _span("b", session="s"), _span("c", parent="a"), "not json\n")
    reader.read_new()
    assert reader.spans_of("s") == [] and reader.unreadable_lines == 1


def test_collecting_waits_for_each_prompts_invoke_agent_and_marks_a_cut_off_trace(tmp_path):
    path = tmp_path / "trace.jsonl"
    reader = TraceFileReader(path, content_captured=True)
    _append(path, _span("chat", parent="root", session="s"))

    async def collect_while_writing() -> Any:
        async def late_write() -> None:
            await asyncio.sleep(0.03)
            _append(path, _span("root", session="s", name="invoke_agent"))

        writer = asyncio.ensure_future(late_write())
        trace = await collect_session_trace(reader, "s", prompts_sent=1, settle_s=2.0)
        await writer
        return trace

    trace = asyncio.run(collect_while_writing())
    assert trace.complete and trace.content_captured and [s.span_id for s in trace.spans] == ["chat", "root"]

    _append(path, _span("x", session="u"))
    cut = asyncio.run(collect_session_trace(reader, "u", prompts_sent=1, settle_s=0.02))
    assert cut is not None and not cut.complete
    assert asyncio.run(collect_session_trace(reader, "never", prompts_sent=0)) is None  # wrote none: unknown
    assert asyncio.run(collect_session_trace(None, "s", prompts_sent=1)) is None


def test_the_exporter_is_on_by_default_with_content_only_when_asked(tmp_path, monkeypatch):
    env = trace_environment(tmp_path / "t.jsonl", capture_content=False)
    assert env["COPILOT_OTEL_ENABLED"] == "true" and env["COPILOT_OTEL_EXPORTER_TYPE"] == "file"
    assert env["COPILOT_OTEL_FILE_EXPORTER_PATH"] == str(tmp_path / "t.jsonl")
    assert env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] == "false"
    assert (
        trace_environment(tmp_path, capture_content=True)["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"]
        == "true"
    )
    monkeypatch.delenv("COPILOT_EVAL_RUNTIME_TRACE", raising=False)
    assert trace_enabled()
    monkeypatch.setenv("COPILOT_EVAL_RUNTIME_TRACE", "off")
    assert not trace_enabled()
