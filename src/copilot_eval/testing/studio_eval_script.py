"""What the fake evaluation API answers: test sets with scripted per-case metric results.

A ``FakeTestSet`` holds the ``TestCaseResult`` bodies a finished run of it returns (for the draft
and, when they differ, for the published agent) and the state the run ends in. ``metric_result`` and
``case_result`` build those bodies in the documented shape, so a test reads like the platform's output:
``case_result(metric_result("GeneralQuality", "Pass", "Relevant and grounded."))``.
"""

from __future__ import annotations

import io
import json
import uuid
import zipfile
from dataclasses import dataclass, field
from typing import Any

#: States a run can end in on the platform (the fake's ``final_state``).
FINAL_STATES = ("Completed", "Failed", "Cancelled", "Abandoned")


def metric_result(
    type: str,
    status: str,
    reason: str | None = None,
    *,
    error: str | None = None,
    data: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One ``metricsResults`` entry: ``{"type", "result": {"status", "aiResultReason", "errorReason", "data"}}``."""
    return {
        "type": type,
        "result": {"status": status, "aiResultReason": reason, "errorReason": error, "data": dict(data or {})},
    }


def case_result(*metrics: dict[str, Any], state: str = "Completed", case_id: str | None = None) -> dict[str, Any]:
    """One ``TestCaseResult`` (a fresh uuid unless ``case_id`` is given)."""
    return {"testCaseId": case_id or str(uuid.uuid4()), "state": state, "metricsResults": list(metrics)}


def no_answer_case(*types: str, case_id: str | None = None) -> dict[str, Any]:
    """A case every metric of which errored with ``AgentResponseIsNullOrEmpty`` (the agent gave no answer)."""
    return case_result(
        *(metric_result(t, "Error", None, error="AgentResponseIsNullOrEmpty") for t in types or ("GeneralQuality",)),
        case_id=case_id,
    )


@dataclass
class FakeTestSet:
    """A test set of the fake agent and what a run of it returns.

    ``cases`` are the results of a draft run; ``published_cases`` those of a run of the published
    agent (default: the same). Case ids are shared between the two, as on the platform, where a
    case keeps its id from run to run. ``final_state`` is where runs of this set end.
    """

    display_name: str
    cases: list[dict[str, Any]]
    published_cases: list[dict[str, Any]] | None = None
    id: str = field(default_factory=lambda: str(uuid.uuid4()))
    state: str = "Active"
    description: str = ""
    final_state: str = "Completed"

    def __post_init__(self) -> None:
        if self.final_state not in FINAL_STATES:
            raise ValueError(f"final_state {self.final_state!r}: expected one of {', '.join(FINAL_STATES)}")
        if self.published_cases is not None:
            # The same test cases, answered by another version of the agent: the ids carry over.
            for draft, published in zip(self.cases, self.published_cases, strict=False):
                published["testCaseId"] = draft["testCaseId"]

    def results_for(self, *, published: bool) -> list[dict[str, Any]]:
        """The case results a finished run of this set returns."""
        chosen = self.published_cases if published and self.published_cases is not None else self.cases
        return json.loads(json.dumps(chosen))  # a copy: a test may edit the set between runs

    def body(self) -> dict[str, Any]:
        """The ``TestSet`` body the API returns for this set."""
        return {
            "id": self.id,
            "displayName": self.display_name,
            "description": self.description,
            "state": self.state,
            "totalTestCases": len(self.cases),
            "auditInfo": {
                "createdBy": "00000000-0000-0000-0000-00000000a11c",
                "createdTimeUtc": "2026-11-02T09:00:00Z",
                "modifiedBy": "00000000-0000-0000-0000-00000000a11c",
                "modifiedTimeUtc": "2026-11-20T16:30:00Z",
            },
        }


def snapshot_zip(*, bot_id: str, agent_name: str, run_id: str, published: bool) -> bytes:
    """A small, deterministic ZIP standing in for the tested agent's snapshot."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo("bot.json", date_time=(2026, 12, 1, 0, 0, 0))
        description = {"botId": bot_id, "name": agent_name, "testRunId": run_id, "published": published}
        archive.writestr(info, json.dumps(description, indent=2))
        topic = zipfile.ZipInfo("topics/greeting.yaml", date_time=(2026, 12, 1, 0, 0, 0))
        archive.writestr(topic, "kind: AdaptiveDialog\nbeginDialog:\n  kind: OnConversationStart\n")
    return buffer.getvalue()


__all__ = ["FINAL_STATES", "FakeTestSet", "case_result", "metric_result", "no_answer_case", "snapshot_zip"]
