"""Test-set CSV files as pytest items, end to end in a subprocess: collection, outcomes, messages, evidence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD_AGENT = ROOT / "examples" / "evaluation" / "agent-good.yaml"
KNOWLEDGE = ROOT / "examples" / "evalsets" / "knowledge.csv"

SINGLE_TURN = """question,expectedResponse
What are the opening hours of Spoke & Pedal Rentals?,"We are open every day from 8:00 to 19:00, except on 25 December and 1 January, when the shop is closed."
Do I need to leave a deposit?,"Yes. We take a 150 euro deposit on a credit card for each bike, or 300 euros for an e-bike. It is released when the bike comes back undamaged."
Do you rent tandems?,"Yes, tandems cost 40 euros a day."
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


def _run_here(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """In this process, for sessions that only collect or refuse (a subprocess costs about 2 s of start-up)."""
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", *args)


ONLY_WHAT_IT_NEEDS = """
import sys

def pytest_unconfigure(config):
    with open("loaded.txt", "w") as out:
        out.write(",".join(name for name in ("copilot", "copilot_eval.runtime.process.pool") if name in sys.modules))
"""


@pytest.mark.runtime
def test_single_turn_set_gives_one_item_per_case_and_writes_evidence(pytester: pytest.Pytester) -> None:
    pytester.makefile(".csv", single=SINGLE_TURN, data="date,amount\n2024-01-01,3\n")
    evidence = pytester.path / "evidence"
    outcome = _run(pytester, "-v", f"--copilot-agent={GOOD_AGENT}", f"--copilot-evidence-dir={evidence}")
    outcome.assert_outcomes(passed=2, failed=1)
    outcome.stdout.fnmatch_lines(
        [
            "single.csv::case-1 PASSED*",
            "single.csv::case-2 PASSED*",
            "single.csv::case-3 FAILED*",
            "case 3 failed: Do you rent tandems?",
            "  expected: Yes, tandems cost 40 euros a day.",
            "  actual:   [[]scripted model: no rule matches this prompt[]]",
            "  Text similarity (fail): similarity 35.62 < pass score 70 (of 100)",
            f"  evidence: {evidence}/single.csv_case-3.json",
            "copilot-eval test sets: 2 passed, 1 failed (agent), 0 not graded (not an agent failure)",
        ]
    )
    assert "data.csv" not in outcome.stdout.str()  # a user's data CSV is not a test set
    assert sorted(p.name for p in evidence.glob("*.json")) == [f"single.csv_case-{n}.json" for n in (1, 2, 3)]
    saved = json.loads((evidence / "single.csv_case-2.json").read_text())
    assert saved["success"] is True and "150 euro deposit" in saved["derived"]["final_response"]


# Today's conversation template as downloaded: a quoted comment block, the quoted header, rows whose
# conversationNumber groups them into multi-turn conversations, and a reference left empty.
CHAT = (
    '"# Import the test cases you want to use to test your agent"\n'
    '"#"\n'
    '"# Rows with the same conversationNumber are one conversation, asked in order."\n'
    '"# Limitations"\n'
    '"# - maximum of 8 question-and-answer pairs per conversation"\n'
    '"conversationNumber","question","response"\n'
    '"1","Are helmets and locks included?","Every rental includes a helmet and a D-lock at no extra cost. '
    'Child seats are available for 5 euros a day, on request."\n'
    '"1","Do you rent tandems?","Yes, tandems cost 40 euros a day."\n'
    '"2","What are the opening hours of Spoke & Pedal Rentals?","We are open every day from 8:00 to 19:00, '
    'except on 25 December and 1 January, when the shop is closed."\n'
    '"2","Do I need to leave a deposit?","Yes. We take a 150 euro deposit on a credit card for each bike, or '
    '300 euros for an e-bike. It is released when the bike comes back undamaged."\n'
)


@pytest.mark.runtime
def test_each_conversation_is_one_item_with_each_turns_verdict(pytester: pytest.Pytester) -> None:
    pytester.makefile(".csv", chat=CHAT)
    evidence = pytester.path / "evidence"
    outcome = _run(pytester, "-v", f"--copilot-agent={GOOD_AGENT}", f"--copilot-evidence-dir={evidence}")
    outcome.assert_outcomes(passed=1, failed=1)
    outcome.stdout.fnmatch_lines(
        [
            "chat.csv::conversation-1 FAILED*",
            "chat.csv::conversation-2 PASSED*",
            "conversation 1 failed: 1 of 2 turns did not pass",
            "  turn 1 PASS: Are helmets and locks included?",
            "  turn 2 FAIL: Do you rent tandems?",
            "      expected: Yes, tandems cost 40 euros a day.",
            "      Text similarity (fail): *",
        ]
    )
    # One session per conversation, each asked its own questions in file order.
    asked = {}
    for path in sorted(evidence.glob("*.json")):
        turns = json.loads(path.read_text())["turns"]
        asked[path.name] = [t["content"] for t in turns if t["role"] == "user"]
    assert asked == {
        "chat.csv_conversation-1.json": ["Are helmets and locks included?", "Do you rent tandems?"],
        "chat.csv_conversation-2.json": [
            "What are the opening hours of Spoke & Pedal Rentals?",
            "Do I need to leave a deposit?",
        ],
    }


def test_a_set_behind_a_comment_block_that_cannot_be_read_is_a_collection_error(pytester: pytest.Pytester) -> None:
    pytester.makefile(".csv", broken=CHAT + '"3","an unclosed quote\n')
    outcome = _run_here(pytester, f"--copilot-agent={GOOD_AGENT}")
    outcome.assert_outcomes(errors=1)
    outcome.stdout.fnmatch_lines(["*ERROR collecting broken.csv*", "*line 11: a quoted field opens in this record*"])


def test_an_invalid_set_lists_every_problem_and_runs_nothing(pytester: pytest.Pytester) -> None:
    pytester.makefile(".csv", bad="conversationNumber,question,response\n1,,r\nx,q,r\n2,q\n")
    evidence = pytester.path / "evidence"
    outcome = _run_here(pytester, f"--copilot-agent={GOOD_AGENT}", f"--copilot-evidence-dir={evidence}")
    assert outcome.ret == pytest.ExitCode.INTERRUPTED
    outcome.assert_outcomes(errors=1)
    outcome.stdout.fnmatch_lines(
        [
            "*ERROR collecting bad.csv*",
            f"{pytester.path}/bad.csv: 3 problems",
            "  - line 3, conversationNumber: 'x' is not an integer",
            "  - line 4: expected 3 fields (conversationNumber,question,response), found 2; *",
            "  - case 1 (conversationNumber 1): question is blank; copilot-studio requires one",
        ]
    )
    assert not evidence.exists()


@pytest.mark.runtime
def test_a_runtime_failure_is_an_error_not_an_agent_failure(pytester: pytest.Pytester) -> None:
    # HTTP 400 is not retried, so this stays fast.
    pytester.makefile(
        ".yaml",
        script="rules:\n  - turns: [{error: {status: 400, message: context too long}}]\n",
        agent="name: broken\nmodel:\n  scripted: script.yaml\ntimeout_s: 30\n",
    )
    pytester.makefile(".csv", single=SINGLE_TURN.split("\n", 2)[0] + "\n" + SINGLE_TURN.split("\n")[1] + "\n")
    outcome = _run(pytester, "--copilot-agent=agent.yaml")
    outcome.assert_outcomes(failed=1)
    outcome.stdout.fnmatch_lines(
        [
            "ERROR (not an agent failure): execution_error: 400 context too long (HTTP 400)",
            "case 1 was not graded: What are the opening hours of Spoke & Pedal Rentals?",
            "  actual:   (no answer)",
            "copilot-eval test sets: 0 passed, 0 failed (agent), 1 not graded (not an agent failure)",
            "FAILED single.csv::case-1 - ERROR (not an agent failure): *",
        ]
    )


def test_without_an_agent_csv_files_are_not_collected(pytester: pytest.Pytester) -> None:
    pytester.makefile(".csv", knowledge=KNOWLEDGE.read_text(encoding="utf-8"))
    pytester.makepyfile(test_plain="def test_plain():\n    pass\n")
    pytester.makeconftest(ONLY_WHAT_IT_NEEDS)
    outcome = _run(pytester, "-v")
    outcome.assert_outcomes(passed=1)
    assert "knowledge.csv" not in outcome.stdout.str()
    # A session that runs no agent does not load the Copilot SDK (it stopped pools it never started: 2.6 s).
    assert (pytester.path / "loaded.txt").read_text() == ""


def test_a_bad_grader_spec_or_missing_agent_names_the_option(pytester: pytest.Pytester) -> None:
    outcome = _run_here(pytester, f"--copilot-agent={GOOD_AGENT}", "--copilot-grader=nonsense")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    outcome.stderr.fnmatch_lines(["*--copilot-grader 'nonsense': unknown grader 'nonsense'*"])
    outcome = _run_here(pytester, "--copilot-agent=missing.yaml")
    assert outcome.ret == pytest.ExitCode.USAGE_ERROR
    outcome.stderr.fnmatch_lines(["*--copilot-agent missing.yaml: agent file not found*"])


PROMPT_FILE = """\
name: Capitals
model: openai/gpt-4o-mini
messages:
  - role: system
    content: Answer with the capital only.
  - role: user
    content: "Capital of {{country}}?"
testData:
  - name: france
    country: France
    expected: Paris
  - country: Peru
    expected: Lima
evaluators:
  - name: exact
    string:
      equals: "{{expected}}"
"""
CAPITALS_SCRIPT = """\
rules:
  - when: {prompt_contains: France}
    turns: [{text: "Paris"}]
  - turns: [{text: "Cusco"}]
"""


@pytest.mark.runtime
def test_a_prompt_file_gives_one_item_per_row_graded_by_its_evaluators(pytester: pytest.Pytester) -> None:
    # makefile() would take ".prompt" for the suffix it replaces: the prompt file is written by name.
    (pytester.path / "capitals.prompt.yml").write_text(PROMPT_FILE, encoding="utf-8")
    pytester.makefile(".yml", workflow="on: push\njobs: {}\n")
    pytester.makefile(".yaml", script=CAPITALS_SCRIPT)
    agent = pytester.makefile(".yaml", agent="name: geo\nmodel: {scripted: script.yaml}\ntimeout_s: 60\n")
    outcome = _run(pytester, "-v", f"--copilot-agent={agent}")
    outcome.assert_outcomes(passed=1, failed=1)
    outcome.stdout.fnmatch_lines(
        [
            "capitals.prompt.yml::france PASSED*",
            "capitals.prompt.yml::2 FAILED*",
            "*exact (fail): does not equal 'Lima' (answer 'Cusco')*",
            "copilot-eval test sets: 1 passed, 1 failed (agent), 0 not graded (not an agent failure)",
        ]
    )
    assert "workflow.yml" not in outcome.stdout.str()  # only prompt files are collected, not every YAML file
