"""`copilot-eval regrade` on runs of multi-turn conversations with repeats, played through the real runtime.

The run that is regraded is a real `copilot-eval run` of two two-turn conversations, twice
(``--repeat 2``), against a scripted agent that answers every question but one (an HTTP 400 the
runtime does not retry, so the run stays fast). Regrading reads the run folder (run.json and
test-set.json) and grades every turn against its own reference.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase, read_run_json
from copilot_eval.grading import CompareMeaning, ExactMatch, KeywordMatch
from copilot_eval.grading.protocol import CaseEvidence, Grade
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs import regrade_run, run_eval_set
from copilot_eval.runs.regrade import RegradeError
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import CLI, cli_here, conversation_set

pytestmark = pytest.mark.runtime

SCRIPT = """\
rules:
  - when: {prompt_contains: b2}
    turns: [{error: {status: 400, message: context too long}}]
  - turns: [{text: 'answer to: {prompt}'}]
"""
# Conversation 1 turn 2's reference is what the agent answers to a2, never what it answers to a1:
# graded against turn 1's reference (the old bug) it would fail. Conversation 2 turn 1's reference
# has a "!" the agent never says, so exact match fails it while the keywords pass it.
SET = """\
"conversationNumber","question","response"
"1","a1","answer to: a1"
"1","a2","answer to: a2"
"2","b1","answer to: b1!"
"2","b2","answer to: b2"
"""
GRADERS = ["--grader", "exact", "--grader", "keywords:all:answer,to"]


# `run` plays in a process of its own (the fixture); `regrade` with these graders plays nothing, so
# it runs in this process (cli_here): its verdicts, files, lines and exit codes are what is tested.
def _cli(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "COLUMNS": "200"},
    )


def _verdicts(folder: Path) -> dict[tuple[int, int, int], tuple[str, list[str]]]:
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    return {
        (r["conversationNumber"], r.get("turn", 1), r.get("repeatIndex", 0)): (
            r["status"],
            [g["method"] for g in r["grades"]],
        )
        for r in run["results"]
    }


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run folder (``run``, written with a relative --out) of two two-turn conversations, twice."""
    root = tmp_path_factory.mktemp("regrade")
    (root / "script.yaml").write_text(SCRIPT, encoding="utf-8")
    (root / "agent.yaml").write_text("name: echo\nmodel: {scripted: script.yaml}\ntimeout_s: 30\n", encoding="utf-8")
    (root / "set.csv").write_text(SET, encoding="utf-8")
    done = _cli(root, "run", "set.csv", "--agent", "agent.yaml", *GRADERS, "--repeat", "2", "--out", "run")
    # Exit 0 or 1 (the run has an agent failure); anything else is a broken run.
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return root


def test_regrading_with_the_runs_own_graders_gives_its_verdicts_turn_by_turn(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "again"
    done = cli_here("regrade", played / "run", *GRADERS, "--out", out)
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = _verdicts(out)
    assert verdicts == _verdicts(played / "run")  # the same graders on the same answers: the same verdicts
    # Written with a relative --out, the played run still stores its paths relative to its own folder.
    played_run = read_run_json(played / "run" / "run.json")
    assert {r.evidence_path for r in played_run.results} == {
        f"evidence/conversation{n}-r{k}.json" for n in (1, 2) for k in (0, 1)
    }
    assert played_run.evidence == sorted({r.evidence_path for r in played_run.results})
    both = ["Exact match", "Keyword match"]
    for repeat in (0, 1):
        assert verdicts[(1, 1, repeat)] == ("pass", both)
        assert verdicts[(1, 2, repeat)] == ("pass", both)  # against turn 2's own reference
        assert verdicts[(2, 1, repeat)] == ("fail", both)
        # The session ended at turn 2 with an HTTP 400: an error, decided before any grader ran.
        assert verdicts[(2, 2, repeat)] == ("error", [])
    run = read_run_json(out / "run.json")
    assert (run.passed, run.failed, run.errored) == (4, 2, 2)
    error = next(r for r in run.results if r.effective_status is CaseStatus.ERROR)
    assert "400 context too long" in error.failure_reason
    # The new folder is complete on its own: the report path reads it, with the exact set and evidence.
    folder = read_run_folder(out)
    assert [c.question for c in folder.test_set.cases] == ["a1", "a2", "b1", "b2"]
    assert all(folder.evidence_file(r.evidence_path).parent == out / "evidence" for r in run.results)
    assert len({r.evidence_path for r in run.results}) == 4  # one session per conversation and repeat
    rows = (out / "results.csv").read_text(encoding="utf-8").splitlines()[1:]
    assert [row.split(",")[0] for row in rows] == ['"a1"', '"a2"', '"b1"', '"b2"'] * 2


def test_regrading_with_other_graders_changes_only_the_verdicts(played: Path, tmp_path: Path) -> None:
    out = tmp_path / "keywords"
    done = cli_here("regrade", played / "run", "--grader", "keywords:any:a2,b1", "--grader", "similarity", "--out", out)
    assert done.returncode == 0, done.stdout + done.stderr
    verdicts = _verdicts(out)
    both = ["Keyword match", "Text similarity"]
    for repeat in (0, 1):
        assert verdicts[(1, 1, repeat)] == ("fail", both)  # "answer to: a1" has neither keyword
        assert verdicts[(1, 2, repeat)] == ("pass", both)
        assert verdicts[(2, 1, repeat)] == ("pass", both)  # similar enough to "answer to: b1!"
        assert verdicts[(2, 2, repeat)] == ("error", [])
    original = read_run_json(played / "run" / "run.json")
    regraded = read_run_json(out / "run.json")
    key = lambda r: (r.conversation_number, r.turn, r.repeat_index)  # noqa: E731
    assert [(key(r), r.actual_response) for r in regraded.results] == [
        (key(r), r.actual_response) for r in original.results
    ]


def test_a_folder_written_before_run_folders_kept_their_test_set_is_refused_saying_why(
    played: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old"
    shutil.copytree(played / "run", old)
    (old / "test-set.json").unlink()
    data = json.loads((old / "run.json").read_text(encoding="utf-8"))
    del data["schemaVersion"]
    (old / "run.json").write_text(json.dumps(data), encoding="utf-8")
    done = cli_here("regrade", old, "--grader", "exact", "--out", tmp_path / "never")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"exit 2 (unusable input): {old / 'test-set.json'}: not found" in done.stderr
    assert "written before run folders kept their test set (run.json has no schemaVersion)" in done.stderr
    assert not (tmp_path / "never").exists()


def test_a_missing_evidence_file_is_named_and_nothing_is_written(played: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(played / "run", broken)
    (broken / "evidence" / "conversation2-r1.json").unlink()
    done = cli_here("regrade", broken, "--grader", "exact", "--out", tmp_path / "never")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "the evidence of case 2 (evidence/conversation2-r1.json) is not in the run folder" in done.stderr


def test_an_evidence_path_leading_out_of_a_folder_from_elsewhere_is_refused_and_nothing_copied(
    played: Path, tmp_path: Path
) -> None:
    copied = tmp_path / "artifact"
    shutil.copytree(played / "run", copied)
    moved = tmp_path / "home" / "conversation2-r1.json"  # a real evidence file, but outside the folder
    moved.parent.mkdir()
    (copied / "evidence" / "conversation2-r1.json").rename(moved)
    data = json.loads((copied / "run.json").read_text(encoding="utf-8"))
    for result in data["results"]:
        if result.get("evidencePath") == "evidence/conversation2-r1.json":
            result["evidencePath"] = str(moved)  # absolute, elsewhere ('../' is refused alike: tests/reports)
    (copied / "run.json").write_text(json.dumps(data), encoding="utf-8")
    done = cli_here("regrade", copied, "--grader", "exact", "--out", tmp_path / "never")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "case 2: evidence path" in done.stderr and "leads outside the folder" in done.stderr
    assert not (tmp_path / "never").exists()


class _Counting:
    """A grader that counts its calls and passes whatever it is given."""

    name = "counting"

    def __init__(self) -> None:
        self.calls: list[tuple[int, str | None]] = []

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        self.calls.append((case.conversation_number, evidence.answer))
        return Grade(self.name, CaseStatus.PASS, "counted")


async def test_a_judge_of_each_turn_keeps_its_own_evidence_and_no_grader_sees_an_unanswered_turn(
    tmp_path: Path,
) -> None:
    agent = CopilotEval(
        name="echo",
        timeout_s=30,
        model=ScriptedModel.from_dict(
            {
                "rules": [
                    {"when": {"prompt_contains": "q3"}, "turns": [{"error": {"status": 400, "message": "no"}}]},
                    {"turns": [{"text": "answer to: {prompt}"}]},
                ]
            }
        ),
    )
    judge = CopilotEval(
        name="judge",
        timeout_s=30,
        model=ScriptedModel.from_dict(
            {
                "rules": [
                    {
                        "when": {"prompt_contains": "answer to: q1"},
                        "turns": [{"text": '{"score": 90, "reason": "one"}'}],
                    },
                    {"turns": [{"text": '{"score": 20, "reason": "two"}'}]},
                ]
            }
        ),
    )
    test_set = conversation_set(["q1", "q2", "q3"])
    await run_eval_set(test_set, agent, RunSettings.of(graders=[ExactMatch()], out=tmp_path / "run"))
    counting = _Counting()
    run = await regrade_run(
        tmp_path / "run", [CompareMeaning(judge), counting, KeywordMatch(["answer"])], output_dir=tmp_path / "judged"
    )
    assert [r.effective_status for r in run.results] == [CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.ERROR]
    assert counting.calls == [(1, "answer to: q1"), (1, "answer to: q2")]  # never the unanswered turn 3
    judged = [Path(r.grades[0].evidence_path) for r in run.results[:2]]
    assert [p.name for p in judged] == [
        "conversation1-r0.compare-meaning.judge.json",
        "conversation1-r0.turn2.compare-meaning.judge.json",
    ]
    assert all(p.parent == tmp_path / "judged" / "evidence" and p.is_file() for p in judged)
    with pytest.raises(RegradeError, match="give another --out than the run itself"):
        await regrade_run(tmp_path / "run", [counting], output_dir=tmp_path / "run")
