"""The runtime's compaction calls the model; those calls are in usage and in the totals (real runtime).

A four-prompt conversation with long answers and the runtime's infinite-session compaction set to
start at 1 % of the context window: the runtime compacts in the background after turns, each time
with a model call of its own. Every model request the run made must have a usage entry; the
compaction's counts are known (``session.compaction_complete`` reports them) and belong in the totals.
Before, a run like this had 7 model requests and 4 usage entries.
"""

from __future__ import annotations

from typing import Any

import pytest

from copilot_eval import CopilotEval, FunctionModel, run_copilot

pytestmark = pytest.mark.runtime

COMPACT_EARLY = {
    "infinite_sessions": {"enabled": True, "background_compaction_threshold": 0.01, "buffer_exhaustion_threshold": 0.02}
}


@pytest.fixture(scope="module")
async def compacted() -> Any:
    model = FunctionModel(lambda messages, tools: "The dragon slept. " * 120)
    agent = CopilotEval(model=model, audit_requests=True, timeout_s=90, extra_config=COMPACT_EARLY)
    return await run_copilot(agent, ["Tell me a story.", "Continue it.", "And then?", "Finish it."])


def _completed(result: Any) -> list[dict[str, Any]]:
    return [e["data"] for e in result.raw_events if e["type"] == "session.compaction_complete"]


def test_every_model_request_has_a_usage_entry(compacted):
    assert compacted.success, compacted.error
    assert _completed(compacted), "the runtime did not compact: the test no longer makes it"
    assert len(compacted.usage) == len(compacted.request_audit)
    turns = [entry for entry in compacted.usage if entry.purpose == "turn"]
    assert len(turns) == 4


def test_compaction_counts_are_in_the_totals(compacted):
    compactions = [entry for entry in compacted.usage if entry.purpose == "compaction"]
    reported = [data["compactionTokensUsed"] for data in _completed(compacted)]
    assert [(e.input_tokens, e.output_tokens) for e in compactions] == [
        (used["inputTokens"], used["outputTokens"]) for used in reported
    ]
    assert all(entry.input_tokens for entry in compactions)
    assert compacted.total_input_tokens == sum(entry.input_tokens for entry in compacted.usage)
    assert compacted.total_output_tokens == sum(entry.output_tokens for entry in compacted.usage)
    assert not compacted.warnings
