"""Test-set CSV rows as pytest items against a Copilot Studio target (Direct Line fake in a thread)."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.testing import FakeAgent, FakeDirectLine, LoopbackServer, answer, http_error

SET = """"conversationNumber","question","response"
"1","What are Ray tasks?","Ray tasks are remote functions."
"2","What is the weather?","Sunny."
"3","broken","anything"
"""


def test_rows_pass_fail_and_error_against_a_direct_line_target(pytester: pytest.Pytester, tmp_path: Path) -> None:
    agent = FakeAgent(
        rules=[
            ("ray tasks", answer("Ray tasks are remote functions.")),
            ("broken", http_error(502, "BotRejectedActivity")),
        ]
    )
    fake = FakeDirectLine(agent)
    pytester.makefile(".csv", ray=SET)
    with LoopbackServer(fake):
        agent_file = tmp_path / "raybot.yaml"
        agent_file.write_text(
            f"name: raybot\ntarget:\n  type: directline\n  token_endpoint: {fake.token_endpoint}\n"
            "  quiet_s: 0.3\n  poll_interval_s: 0.05\ntimeout_s: 10\n"
        )
        outcome = pytester.runpytest("-p", "no:cacheprovider", "-v", f"--copilot-agent={agent_file}")
    text = outcome.stdout.str()
    assert "ray.csv::conversation-1 PASSED" in text and "ray.csv::conversation-2 FAILED" in text
    assert "ERROR (not an agent failure): execution_error: HTTP 502 BotRejectedActivity" in text
    assert "1 passed, 1 failed (agent), 1 not graded (not an agent failure)" in text
    # the row `copilot-eval run` gives the same facts: an item that could not be graded leaves the gate undecided
    assert (
        "copilot-eval verdict: exit 3 (the platform or the infrastructure): 1 of 3 test-set items could not be "
        "graded: the gate over them is undecided" in text
    )
