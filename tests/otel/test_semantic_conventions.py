"""The attribute names the export sends are the OpenTelemetry semantic conventions' own (fast).

Checked against the ``opentelemetry-semantic-conventions`` package: every ``gen_ai.*`` name on any
exported span or record (ours and the runtime's), the event name, and ``error.type``. Our own
names live under ``copilot_eval.*`` and the runtime's under ``github.copilot.*``.
"""

from __future__ import annotations

import json
from pathlib import Path

from opentelemetry.semconv._incubating.attributes import gen_ai_attributes
from opentelemetry.semconv.attributes import error_attributes, server_attributes

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalTestCase, GradeRecord
from copilot_eval.evidence.runtime_trace import RuntimeTrace
from copilot_eval.otel import CaseContext, case_trace
from copilot_eval.otel.records import EVALUATION_EVENT

DATA = Path(__file__).parents[1] / "capture" / "data"
KNOWN = {
    value
    for module in (gen_ai_attributes, error_attributes, server_attributes)
    for name, value in vars(module).items()
    if name.isupper() and isinstance(value, str)
}
# The semantic conventions' event, named in their events model (not a constant of the package).
EVENT_NAME = "gen_ai.evaluation.result"


def _records(name: str):
    events = [json.loads(line) for line in (DATA / f"trace_{name}.events.jsonl").read_text().splitlines() if line]
    trace = RuntimeTrace.from_lines((DATA / f"trace_{name}.trace.jsonl").read_text().splitlines())
    played = result_from_events(events, facts=RunFacts(runtime_trace=trace, duration_ms=500.0))
    grades = [
        GradeRecord(method="Exact match", status=CaseStatus.PASS, score=100.0, explanation="same"),
        GradeRecord(method="judge", status=CaseStatus.ERROR, explanation="no answer", error_reason="timeout"),
    ]
    result = EvalCaseResult(conversation_number=1, passed=False, status=CaseStatus.ERROR, grades=grades)
    case = EvalTestCase(conversation_number=1, question="q", response="r")
    context = CaseContext(test_set="s", surface="agent", capture_content=True)
    return case_trace(case, result, played, turn_index=0, context=context)


def _names(records) -> set[str]:
    names = set()
    for record in records:
        names |= set(record.attributes)
        for _, _, attributes in record.events:
            names |= set(attributes)
    return names


def test_every_gen_ai_name_we_send_is_in_the_semantic_conventions():
    names = _names(_records("tools")) | _names(_records("subagent"))
    ours = {n for n in names if n.startswith("gen_ai.")} | {"error.type", "server.address", "server.port"} & names
    unknown = sorted(n for n in ours if n not in KNOWN)
    assert unknown == [], f"not in opentelemetry-semantic-conventions: {unknown}"
    assert {"gen_ai.evaluation.name", "gen_ai.evaluation.score.value", "gen_ai.evaluation.score.label"} <= names
    assert {"gen_ai.evaluation.explanation", "error.type", "gen_ai.conversation.id", "gen_ai.tool.call.id"} <= names
    others = {
        n for n in names if not n.startswith(("gen_ai.", "copilot_eval.", "github.copilot.", "error.", "server."))
    }
    assert others == set(), f"attributes outside the known namespaces: {sorted(others)}"


def test_the_evaluation_record_has_the_conventions_event_name():
    assert EVALUATION_EVENT == EVENT_NAME
    events = [name for record in _records("tools") for name, _, _ in record.events]
    assert EVENT_NAME in events and set(events) <= {
        EVENT_NAME,
        "github.copilot.user.message",
        "github.copilot.session.usage_info",
    }
