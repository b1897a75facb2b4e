"""Per-case verdicts over repeats, repeats that are not independent, and judges asked several times, end to end."""

from __future__ import annotations

import itertools
import json
import subprocess
import xml.etree.ElementTree as ET

import pytest

from copilot_eval import CopilotEval, FunctionModel
from copilot_eval.evalsets import CaseStatus, read_run_json
from copilot_eval.grading import Grade, parse_grader_spec
from copilot_eval.reports.html_run import write_run_report
from copilot_eval.reports.junit import junit_xml
from copilot_eval.reports.markdown import run_summary_markdown
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import CLI, EXAMPLES, KNOWLEDGE, echo_agent, numbered_set

pytestmark = pytest.mark.runtime


class ByTry:
    """A grader whose verdict on case N, try R is written down in advance (what a varying agent would produce)."""

    name = "by try"
    needs_reference = False

    def __init__(self, verdicts: dict[int, list[CaseStatus]]) -> None:
        self.verdicts, self.seen = verdicts, dict.fromkeys(verdicts, 0)

    async def grade(self, case, evidence):
        number = case.conversation_number
        status = self.verdicts[number][self.seen[number]]
        self.seen[number] += 1
        return Grade(self.name, status, f"written down: {status.value}")


async def test_each_case_gets_a_verdict_over_its_graded_tries(tmp_path):
    P, F, E = CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR
    grader = ByTry({1: [P, P, P, P], 2: [P, F, P, F], 3: [E, P, P, P]})
    run = await run_eval_set(
        numbered_set(3), echo_agent(), RunSettings.of(graders=[grader], repeat=4, min_pass_rate=0.75, out=tmp_path)
    )
    by_case = {r.conversation_number: r for r in run.case_repeats}
    assert [(r.tries, r.passes, r.errors, r.verdict) for r in by_case.values()] == [
        (4, 4, 0, P),
        (4, 2, 0, F),
        (3, 3, 1, P),  # the errored try is reported apart and is not a try
    ]
    assert by_case[2].flaky and by_case[2].pass_rate_interval == [
        pytest.approx(0.15, abs=0.01),
        pytest.approx(0.85, abs=0.01),
    ]
    # A ScriptedModel answers every try alike: the run says so instead of counting one sample four times.
    assert run.repeats_independent is False and "ScriptedModel" in run.repeat_dependence
    saved = json.loads((tmp_path / "run.json").read_text())
    assert saved["minPassRate"] == 0.75 and saved["repeatsIndependent"] is False
    assert saved["caseRepeats"][1] == {
        "conversationNumber": 2,
        "turn": 1,
        "attempts": 4,
        "tries": 4,
        "passes": 2,
        "errors": 0,
        "passRate": 0.5,
        "passRateInterval": [0.15, 0.85],
        "verdict": "fail",
        "judgeUnstable": False,
        "flaky": True,
    }
    assert read_run_json(tmp_path / "run.json").case_repeats == run.case_repeats
    suite = ET.fromstring(junit_xml(run)).find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["case 1", "case 2", "case 3"]  # one verdict per case, not per try
    assert suite.get("failures") == "1" and cases[1].find("failure") is not None
    properties = {p.get("name"): p.get("value") for p in cases[1].find("properties")}
    assert properties["pass_rate"] == "0.5" and properties["pass_rate_interval_95"] == "0.15-0.85"
    markdown = run_summary_markdown(run)
    assert "| case 2 | 4 | 2/4 passed (50%, 95% interval 15-85%) | fail, flaky |" in markdown
    assert "at a minimum pass rate of 75%: 2 passed, 1 failed, 0 without a graded try" in markdown
    assert "repeats are not independent" in markdown
    html = (write_run_report(tmp_path)).read_text(encoding="utf-8")
    assert "2/4 passed (50%, 95% interval 15-85%)" in html and "fail, flaky" in html


async def test_a_judge_asked_three_times_that_disagrees_marks_the_case_judge_unstable(tmp_path):
    # The judge's model answers each call in turn: a score of 90, then 10, then 90 again, and so on.
    scores = itertools.cycle([90, 10, 90])
    judge = CopilotEval(
        name="judge",
        model=FunctionModel(lambda messages, tools: json.dumps({"score": next(scores), "reason": "as scripted"})),
        timeout_s=30,
    )
    grader = parse_grader_spec("compare_meaning", judge=judge, judge_repeat=3)
    run = await run_eval_set(numbered_set(1), echo_agent(), RunSettings.of(graders=[grader], out=tmp_path))
    (result,) = run.results
    (grade,) = result.grades
    assert grade.judge.calls == 3 and sorted(grade.judge.verdicts) == [
        CaseStatus.FAIL,
        CaseStatus.PASS,
        CaseStatus.PASS,
    ]
    assert grade.judge.agreement == pytest.approx(0.6667, abs=1e-4)
    assert result.effective_status is CaseStatus.PASS and result.judge_unstable  # the majority, marked unstable
    assert grade.score == pytest.approx(63.33, abs=0.01)
    assert "2 of 3 judge calls pass (the judge is unstable on this answer)" in grade.explanation
    judged = sorted(p.name for p in (tmp_path / "evidence").glob("*.judge.json"))
    assert judged == [
        "case1-r0.compare-meaning.judge.json",
        "case1-r0.compare-meaning.try2.judge.json",
        "case1-r0.compare-meaning.try3.judge.json",
    ]
    markdown = run_summary_markdown(run)
    assert "judge unstable: case 1 (an LLM judge disagreed with itself" in markdown
    assert "| 1 | 1 | 0 | judge unstable |" in markdown
    assert "LLM judges: 3 calls (3 per answer) for 1 verdicts" in markdown
    html = write_run_report(tmp_path).read_text(encoding="utf-8")
    assert '<span class="badge judge-unstable">judge unstable</span>' in html and 'id="judge-cost"' in html
    testcase = ET.fromstring(junit_xml(run)).find("testsuite/testcase")
    assert {p.get("name"): p.get("value") for p in testcase.find("properties")} == {"judge_unstable": "true"}


def cli(*args: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "run", *map(str, args), "--no-progress"], capture_output=True, text=True, timeout=300)


def test_the_command_line_exits_1_when_a_case_misses_its_minimum_pass_rate(tmp_path):
    done = cli(
        KNOWLEDGE,
        "--agent",
        EXAMPLES / "evaluation" / "agent-good.yaml",
        "--grader",
        "keywords:any:euro,open",  # cases 4 (cancellation) and 6 (flat tyre) name neither
        "--repeat",
        2,
        "--min-pass-rate",
        80,
        "--out",
        tmp_path,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1] == (
        "exit 1 (below a gate): 2 case(s) below --min-pass-rate 80%: case 4, case 6"
    )
    assert "each case over its tries" in done.stdout and "0/2 passed" in done.stdout
    assert json.loads((tmp_path / "run.json").read_text())["minPassRate"] == 0.8


def test_repeats_over_replayed_answers_are_refused_before_anything_runs(tmp_path):
    done = cli(
        KNOWLEDGE,
        "--agent",
        EXAMPLES / "evaluation" / "agent-good.yaml",
        "--repeat",
        3,
        "--replay",
        tmp_path / "cassettes",
        "--out",
        tmp_path / "out",
    )
    assert done.returncode == 2
    assert "--repeat 3 with replayed answers" in done.stderr and "--allow-replayed-repeats" in done.stderr
    assert not (tmp_path / "out").exists()
