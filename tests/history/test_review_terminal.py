"""`copilot-eval review RUN_DIR` as a person uses it: in a pseudo-terminal, typing at its prompts."""

from __future__ import annotations

import os
import sys

import pexpect
import pytest

from copilot_eval.history import HistoryStore, resolve_history
from copilot_eval.history.human_verdicts import given_verdicts
from tests.history.people_fixtures import write_graded_run

# A person at a pseudo-terminal: a new interpreter and its prompts, seconds of CPU, so out of the fast lane.
pytestmark = [pytest.mark.slow]


@pytest.fixture
def run_folder(tmp_path):
    return write_graded_run(
        tmp_path / "run",
        [["pass", "pass"], ["pass", "fail"], ["fail", "fail"]],
        methods=("General quality", "Text similarity"),
    )


def _spawn(tmp_path, run_folder) -> pexpect.spawn:
    env = {**os.environ, "COLUMNS": "160", "NO_COLOR": "1"}
    return pexpect.spawn(
        sys.executable,
        [
            "-m",
            "copilot_eval.cli.app",
            "review",
            str(run_folder),
            "--history",
            str(tmp_path / "h.db"),
            "--reviewer",
            "ada",
        ],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 160),
    )


def test_a_person_reviews_case_by_case_and_each_verdict_is_kept_at_once(tmp_path, run_folder):
    child = _spawn(tmp_path, run_folder)
    # The case where the graders disagree comes first, with everything a person needs to decide.
    child.expect(r"\[1/3\] case 2: graders say fail \(the graders disagree\)")
    child.expect("question:  Question 2\\?")
    child.expect("answer:    Answer 2\\.")
    child.expect("General quality: pass")
    child.expect(r"relevance Yes, completeness Yes")
    child.expect("Text similarity: fail")
    child.expect(r"verdict \[p/f/s/q\]")
    child.sendline("p")
    child.expect(r"note \(optional\)")
    child.sendline("the reference is worded differently; the answer is right")
    child.expect(r"\[2/3\] case 1: graders say pass")
    child.expect(r"verdict \[p/f/s/q\]")
    child.sendline("maybe")
    child.expect("type p \\(pass\\), f \\(fail\\), s \\(skip\\) or q \\(quit\\)")
    child.sendline("s")
    child.expect(r"\[3/3\] case 3: graders say fail")
    child.expect(r"verdict \[p/f/s/q\]")
    child.sendline("q")
    child.expect("1 verdict stored in run 1")
    child.expect(
        "people reviewed 1 of 3 case results and changed 1 verdict: score 33.33% by the graders, 66.67% with people's"
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    location = resolve_history(str(tmp_path / "h.db"))
    assert location is not None
    with HistoryStore.open(location, create=False) as store:
        given = given_verdicts(store, 1)
    assert list(given) == [("2.1", 0)]
    verdict = given[("2.1", 0)]
    assert (verdict.verdict, verdict.reviewer, verdict.source) == ("pass", "ada", "review")
    assert verdict.note == "the reference is worded differently; the answer is right"

    # Reviewed cases leave the queue: the next session starts with what is left.
    again = _spawn(tmp_path, run_folder)
    again.expect(r"reviewing 2 case results as ada")
    again.expect(r"\[1/2\] case 1")
    again.sendline("q")
    again.expect(pexpect.EOF)
