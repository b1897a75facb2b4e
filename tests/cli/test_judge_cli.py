"""`copilot-eval run --grader compare_meaning --judge JUDGE.yaml` end to end, the judge a scripted agent."""

from __future__ import annotations

import csv
import json
import os
import subprocess
from pathlib import Path

import pytest

from copilot_eval.evidence.result import CopilotResult
from tests.runs.runs_helpers import CLI

pytestmark = pytest.mark.runtime

# The agent's answers carry markers the judge's script keys on (the judge's prompt quotes the answer).
AGENT_SCRIPT = """\
rules:
  - when: {prompt_contains: deposit}
    turns: [{text: "GOOD-ANSWER: each bike needs a 150 euro deposit."}]
  - when: {prompt_contains: helmet}
    turns: [{text: "BAD-ANSWER: helmets cost 20 euros extra."}]
  - turns: [{text: "ODD-ANSWER: we open at dawn."}]
"""
# The judge follows the compare_meaning prompt's format, except for the third answer.
JUDGE_SCRIPT = """\
rules:
  - when: {prompt_contains: GOOD-ANSWER}
    turns: [{text: '{"score": 92, "reason": "Same deposit amount, per bike."}'}]
  - when: {prompt_contains: BAD-ANSWER}
    turns: [{text: '```json\\n{"score": 5, "reason": "Contradicts the reference: helmets are free."}\\n```'}]
  - turns: [{text: "I think this answer is mostly fine."}]
"""
SET = """\
"question","expectedResponse"
"Do I need to leave a deposit?","Yes, a 150 euro deposit per bike."
"Is a helmet included?","Yes, a helmet is included at no extra cost."
"When do you open?","We open at 8:00 every day."
"""


def _write(folder: Path) -> tuple[Path, Path, Path]:
    (folder / "agent-script.yaml").write_text(AGENT_SCRIPT, encoding="utf-8")
    (folder / "judge-script.yaml").write_text(JUDGE_SCRIPT, encoding="utf-8")
    (folder / "agent.yaml").write_text("name: shop\nmodel: {scripted: agent-script.yaml}\ntimeout_s: 30\n")
    (folder / "judge.yaml").write_text("name: judge\nmodel: {scripted: judge-script.yaml}\ntimeout_s: 30\n")
    (folder / "set.csv").write_text(SET, encoding="utf-8")
    return folder / "set.csv", folder / "agent.yaml", folder / "judge.yaml"


def test_judge_verdicts_and_reasoning_reach_run_json_and_results_csv(tmp_path):
    test_set, agent, judge = _write(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run(
        [
            *CLI,
            "run",
            str(test_set),
            "--agent",
            str(agent),
            "--grader",
            "compare_meaning",
            "--judge",
            str(judge),
            "--out",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stdout + done.stderr

    run = json.loads((out / "run.json").read_text())
    by_case = {r["conversationNumber"]: r for r in run["results"]}
    assert [by_case[n]["status"] for n in (1, 2, 3)] == ["pass", "fail", "error"]
    # An unreadable judge answer is a grading error: not in the score, not the agent's failure.
    assert (run["passed"], run["failed"], run["errored"], run["generalQualityPercent"]) == (1, 1, 1, 50.0)

    good, bad, odd = (by_case[n]["grades"][0] for n in (1, 2, 3))
    assert good["method"] == "Compare meaning" and (good["score"], good["passingScore"]) == (92, 50)
    assert "Same deposit amount, per bike." in good["explanation"]
    assert bad["score"] == 5 and "Contradicts the reference: helmets are free." in bad["explanation"]
    assert "unreadable judge answer" in odd["explanation"] and "mostly fine" in odd["explanation"]
    assert odd.get("score") is None  # unknown stays unknown, not 0

    with (out / "results.csv").open(newline="", encoding="utf-8") as handle:
        rows = {row["question"]: row for row in csv.DictReader(handle)}
    assert rows["Do I need to leave a deposit?"]["result_1"] == "Pass"
    assert "Same deposit amount" in rows["Do I need to leave a deposit?"]["explanation_1"]
    assert rows["Is a helmet included?"]["result_1"] == "Fail"
    assert "helmets are free" in rows["Is a helmet included?"]["explanation_1"]
    assert rows["When do you open?"]["result_1"] == "Error"

    # The judge's own session is evidence too, saved beside the case's.
    judged = CopilotResult.load(out / good["evidencePath"])
    assert judged.success and '"score": 92' in (judged.final_response or "")
    assert Path(good["evidencePath"]).name == "case1-r0.compare-meaning.judge.json"


def test_judge_repeat_asks_each_judge_several_times_and_shows_the_cost(tmp_path):
    test_set, agent, judge = _write(tmp_path)
    out = tmp_path / "out"
    done = subprocess.run(
        [
            *CLI,
            "run",
            str(test_set),
            "--agent",
            str(agent),
            "--grader",
            "compare_meaning",
            "--judge",
            str(judge),
            "--judge-repeat",
            "2",
            "--out",
            str(out),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # A scripted judge agrees with itself: no case is judge unstable, and the calls are counted.
    assert "LLM judges: 6 calls (2 per answer) for 3 verdicts" in done.stdout
    assert "judge unstable" not in done.stdout
    run = json.loads((out / "run.json").read_text())
    tallies = {r["conversationNumber"]: r["grades"][0]["judge"] for r in run["results"]}
    assert tallies[1]["calls"] == 2 and tallies[1]["verdicts"] == ["pass", "pass"] and tallies[1]["agreement"] == 1
    assert (
        tallies[3]["verdicts"] == ["error", "error"] and tallies[3].get("agreement") is None
    )  # no verdict to agree on
    assert (out / "evidence" / "case1-r0.compare-meaning.try2.judge.json").is_file()
