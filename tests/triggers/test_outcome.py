"""A play's outcome from recorded facts: setup first, an error is never a miss, delivery proven, the first choice wins."""

from __future__ import annotations

from typing import Any

import pytest

from copilot_eval import CopilotEval
from copilot_eval.evidence import CopilotResult, RequestAuditRecord
from copilot_eval.evidence.skills import DiscoveredSkill, SkillDiscovery
from copilot_eval.triggers import CatalogueNeeds, decide_trigger_outcome

NEEDS = CatalogueNeeds(skills=("pdf", "csv"), agents=("reviewer",), markers={"pdf": "PDF forms", "csv": "CSV files"})


def start(tool: str, agent_id: str | None = None, **arguments: Any) -> dict[str, Any]:
    event = {"type": "tool.execution_start", "data": {"toolName": tool, "arguments": arguments}}
    return {**event, "agentId": agent_id} if agent_id else event


def result(
    *events: dict[str, Any],
    success: bool = True,
    delivered: dict[str, bool] | None = None,
    loaded: list[DiscoveredSkill] | None = None,
    errors: list[str] | None = None,
    audit: bool = True,
) -> CopilotResult:
    skills = (
        loaded
        if loaded is not None
        else [
            DiscoveredSkill(name="pdf", enabled=True, path="/s/pdf/SKILL.md"),
            DiscoveredSkill(name="csv", enabled=True, path="/s/csv/SKILL.md"),
        ]
    )
    markers = delivered if delivered is not None else {"PDF forms": True, "CSV files": True}
    record = RequestAuditRecord(request_id="r1", instructions_sha256="x", markers=markers)
    return CopilotResult(
        success=success,
        error=None if success else "HTTP 400 from the model",
        stop_reason="completed" if success else "execution_error",
        raw_events=list(events),
        skill_discovery=SkillDiscovery(skills=skills, errors=errors or [], complete=True),
        request_audit=[record] if audit else None,
    )


@pytest.mark.parametrize(
    ("evidence", "label"),
    [
        (result(start("skill", skill="pdf")), "chose:pdf"),
        (result({"type": "skill.invoked", "data": {"name": "csv", "trigger": "agent-invoked"}}), "chose:csv"),
        (result({"type": "skill.invoked", "data": {"name": "csv", "trigger": "context-load"}}), "chose:none"),
        (result(start("task", agent_type="reviewer", prompt="look")), "chose:reviewer"),
        (result(start("task", agent_type="general-purpose", prompt="look")), "chose:none"),
        (result({"type": "subagent.selected", "agentId": "c1", "data": {"agentName": "reviewer"}}), "chose:reviewer"),
        (result(start("skill", skill="customize-cloud-agent")), "chose:customize-cloud-agent"),
        (result(start("skill", skill="csv"), start("skill", skill="pdf")), "chose:csv"),
        (result(), "chose:none"),
        (result(success=False), "error"),
        (result(start("skill", skill="pdf"), success=False), "chose:pdf"),  # the choice was made before it failed
        (result(audit=False), "undelivered"),
        (result(start("skill", skill="pdf"), delivered={"PDF forms": True, "CSV files": False}), "undelivered"),
    ],
)
def test_the_outcome_follows_the_precedence(evidence: CopilotResult, label: str) -> None:
    outcome = decide_trigger_outcome(evidence, NEEDS)
    assert outcome.label == label, outcome.reason
    assert outcome.counts is label.startswith("chose:")


def test_an_error_is_never_a_miss_and_says_why() -> None:
    outcome = decide_trigger_outcome(result(success=False), NEEDS)
    assert outcome.kind == "error" and outcome.chosen is None and "HTTP 400" in outcome.reason


def test_a_skill_the_runtime_did_not_load_is_a_setup_problem_with_the_loaders_reason() -> None:
    loaded = [DiscoveredSkill(name="pdf", enabled=True, path="/s/pdf/SKILL.md")]
    broken = result(
        start("skill", skill="pdf"), loaded=loaded, errors=["/s/csv/SKILL.md: missing or malformed YAML frontmatter"]
    )
    outcome = decide_trigger_outcome(broken, NEEDS)
    assert outcome.label == "setup" and "malformed YAML frontmatter" in outcome.reason
    disabled = [*loaded, DiscoveredSkill(name="csv", enabled=False, path="/s/csv/SKILL.md")]
    outcome = decide_trigger_outcome(result(loaded=disabled, success=False), NEEDS)
    assert outcome.label == "setup" and "'csv' is loaded but disabled" in outcome.reason


def test_a_skill_chosen_inside_a_subagent_counts_for_the_parent_with_its_path() -> None:
    evidence = result(
        start("task", agent_type="general-purpose", name="helper"),
        {"type": "subagent.started", "agentId": "c1", "data": {"agentName": "helper", "toolCallId": "t1"}},
        start("skill", "c1", skill="csv"),
    )
    outcome = decide_trigger_outcome(evidence, NEEDS)
    assert outcome.label == "chose:csv" and outcome.choice is not None
    assert outcome.choice.path == ("helper",) and "inside helper" in outcome.reason


def test_reading_a_skill_file_is_reported_apart_from_an_invocation() -> None:
    outcome = decide_trigger_outcome(result(start("view", path="/s/pdf/SKILL.md")), NEEDS)
    assert outcome.label == "chose:none" and outcome.read_skill_files == ("pdf",)


def test_stop_at_tools_names_a_tool_or_an_agent_type() -> None:
    assert CopilotEval(stop_at_tools=("skill", "task:reviewer")).stop_at_tools == ("skill", "task:reviewer")
    with pytest.raises(ValueError, match=r"stop_at_tools\.1: give a tool name, or task:AGENT"):
        CopilotEval(stop_at_tools=("skill", " "))
