"""Lossless native JSON for every kind of run, and the published JSON Schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from copilot_eval.capture import RunFacts, result_from_events
from copilot_eval.evidence import CopilotResult, DiscoveredSkill, RequestAuditRecord, SkillDiscovery, ToolImage
from copilot_eval.evidence.native_json import SCHEMA_FILE, copilot_result_json_schema
from tests.capture.event_factory import one_call_session, tool_done, tool_start
from tests.capture.test_usage_and_children import child_run

ARGS = {"account": "A1"}
AUDIT = [
    RequestAuditRecord(
        request_id="r1",
        model="gpt-4.1",
        tool_names=["get_balance"],
        image_details=[None, "low"],
        image_count=2,
        instructions_sha256="e3b0",
    )
]
DISCOVERY = SkillDiscovery(
    skills=[DiscoveredSkill(name="deploy", enabled=False)], errors=["bad SKILL.md"], complete=False
)


def runs() -> dict[str, CopilotResult]:
    complete = one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1", "42"))
    pending = one_call_session(tool_start("c1", "get_balance", ARGS))
    image = one_call_session(tool_start("c1", "get_balance", ARGS), tool_done("c1", "42"))
    with_image = result_from_events(image)
    with_image.all_tool_calls[0].image_content = b"\x89PNG\x00\xff"
    with_image.all_tool_calls[0].additional_images = [ToolImage(content=b"\x00\x01", media_type="image/webp")]
    return {
        "failed": result_from_events(
            complete, facts=RunFacts(stop_reason="execution_error", error="boom", request_audit=AUDIT)
        ),
        "timed_out": result_from_events(
            pending,
            facts=RunFacts(stop_reason="timeout", error="30 s", tool_calls_admitted=1, cleanup_error="stop hung"),
        ),
        "incomplete": result_from_events(pending),
        "skills": result_from_events(
            complete,
            facts=RunFacts(stop_reason="completed", skill_discovery=DISCOVERY, configuration={"model": "gpt-4.1"}),
        ),
        "children": result_from_events(child_run(child_usage=True)),
        "images": with_image,
    }


@pytest.mark.parametrize("name", list(runs()))
def test_round_trip_is_lossless(name, tmp_path):
    result = runs()[name]
    loaded = CopilotResult.load(result.save(tmp_path / f"{name}.json"))
    assert loaded == result
    assert loaded.evidence_complete == result.evidence_complete and loaded.token_usage == result.token_usage


def test_saved_parts_keep_their_meaning(tmp_path):
    every = runs()
    skills = CopilotResult.load(every["skills"].save(tmp_path / "s.json"))
    assert skills.skill_discovery == DISCOVERY and "skill" not in json.dumps(skills.configuration)
    timed = CopilotResult.load(every["timed_out"].save(tmp_path / "t.json"))
    assert (
        timed.stop_reason == "timeout"
        and "30 s" in timed.error
        and "stop hung" in timed.error
        and timed.tool_calls_admitted == 1
    )
    assert timed.all_tool_calls[0].completion_received is False
    child = CopilotResult.load(every["children"].save(tmp_path / "c.json")).subagent_invocations[0].result
    assert child.all_tool_calls[0].name == "grep"
    images = CopilotResult.load(every["images"].save(tmp_path / "i.json")).all_tool_calls[0]
    assert images.image_content == b"\x89PNG\x00\xff" and images.additional_images[0].content == b"\x00\x01"
    failed = CopilotResult.load(every["failed"].save(tmp_path / "f.json"))
    assert failed.request_audit == AUDIT and failed.request_audit[0].image_details == [None, "low"]


def test_shipped_schema_is_what_the_model_generates():
    shipped = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    assert shipped == copilot_result_json_schema(), (
        "regenerate: python -c 'from copilot_eval.evidence.native_json import write_copilot_result_json_schema as w; w()'"
    )


@pytest.mark.parametrize("name", list(runs()))
def test_saved_results_validate_against_the_schema(name, tmp_path):
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    saved = json.loads(runs()[name].save(tmp_path / "r.json").read_text(encoding="utf-8"))
    jsonschema.validate(saved, schema)


def test_schema_rejects_a_wrong_type():
    schema = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"success": "yes"}, schema)
