"""run_eval_set through the real runtime with scripted agents: sets, stacking, repeats, concurrency, outputs."""

from __future__ import annotations

import json
import time

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalSetError, read_run_json
from copilot_eval.grading import ExactMatch, KeywordMatch
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs import CheckpointError, flaky_cases, pass_rates, run_eval_set
from copilot_eval.runs.settings import RunSettings
from tests.runs.runs_helpers import conversation_set, echo_agent, numbered_set

pytestmark = pytest.mark.runtime


async def test_single_turn_cases_each_get_a_fresh_session(tmp_path):
    run = await run_eval_set(numbered_set(3), echo_agent(), RunSettings.of(graders=[ExactMatch()], out=tmp_path))
    assert (run.passed, run.failed, run.errored, run.general_quality_percent) == (3, 0, 0, 100.0)
    paths = {r.evidence_path for r in run.results}
    assert len(paths) == 3  # one session (and evidence file) per case
    assert read_run_json(tmp_path / "run.json").passed == 3
    assert (tmp_path / "results.csv").read_text().startswith('"question","expectedResponse","actualResponse"')


async def test_each_conversation_is_one_session_graded_turn_by_turn(tmp_path):
    # Rows sharing a conversationNumber are one session, in file order; each number its own session.
    agent = CopilotEval(
        name="conv",
        timeout_s=30,
        model=ScriptedModel.from_dict(
            {
                "rules": [
                    {"when": {"prompt_contains": "q2"}, "turns": [{"text": "wrong"}]},
                    {"turns": [{"text": "answer to: {prompt}"}]},
                ]
            }
        ),
    )
    test_set = conversation_set(["q1", "q2", "q3"], ["q4", "q5"], ["q6"])
    run = await run_eval_set(test_set, agent, RunSettings.of(graders=[ExactMatch()], out=tmp_path, concurrency=3))
    assert [(r.conversation_number, r.turn) for r in run.results] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)]
    assert [r.effective_status for r in run.results][:3] == [CaseStatus.PASS, CaseStatus.FAIL, CaseStatus.PASS]
    assert [r.actual_response for r in run.results] == [
        "answer to: q1",
        "wrong",
        "answer to: q3",
        "answer to: q4",
        "answer to: q5",
        "answer to: q6",
    ]
    sessions = {n: {r.evidence_path for r in run.results if r.conversation_number == n} for n in (1, 2, 3)}
    assert all(len(paths) == 1 for paths in sessions.values()) and len(set().union(*sessions.values())) == 3
    from copilot_eval.evidence.result import CopilotResult

    asked = [[t.content for t in CopilotResult.load(next(iter(sessions[n]))).turns if t.role == "user"] for n in (1, 2)]
    assert asked == [["q1", "q2", "q3"], ["q4", "q5"]]
    csv_rows = (tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()
    assert [row.split(",")[0] for row in csv_rows[1:]] == ['"q1"', '"q2"', '"q3"', '"q4"', '"q5"', '"q6"']
    # Time by phase, from each session's runtime trace: the same for every turn of a conversation, and
    # the run's medians counted over its three sessions (not its six cases).
    assert all(r.phases is not None and r.phases.model_ms for r in run.results)
    assert run.results[0].phases == run.results[2].phases != run.results[3].phases
    stored = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert stored["phaseMedians"]["sessions"] == 3 and stored["results"][0]["phases"]["sessionStartMs"] is not None
    from copilot_eval.reports.html_run import write_run_report

    report = write_run_report(tmp_path).read_text(encoding="utf-8")
    assert "Time by phase (median over 3 sessions" in report and report.count("Time by phase (this session)") == 6


async def test_stacked_graders_all_must_pass():
    run = await run_eval_set(
        numbered_set(2), echo_agent(), RunSettings.of(graders=[ExactMatch(), KeywordMatch(["q1"])])
    )
    by_number = {r.conversation_number: r for r in run.results}
    assert by_number[1].effective_status is CaseStatus.PASS
    assert by_number[2].effective_status is CaseStatus.FAIL and "Keyword match" in by_number[2].failure_reason
    assert len(by_number[2].grades) == 2


async def test_repeats_give_pass_at_k_pass_all_k_and_flaky_cases():
    # The second attempt at q2 (same rule, a later session) cannot be told apart by the script, so
    # flakiness is made from a grader that alternates, the way a non-deterministic judge would.
    class Alternating:
        name = "alternating"

        def __init__(self):
            self.calls = {}

        async def grade(self, case, evidence):
            from copilot_eval.grading import Grade

            n = self.calls[case.conversation_number] = self.calls.get(case.conversation_number, 0) + 1
            ok = case.conversation_number == 1 or n % 2 == 0
            return Grade(self.name, CaseStatus.PASS if ok else CaseStatus.FAIL, "alternates")

    run = await run_eval_set(
        numbered_set(2), echo_agent(), RunSettings.of(graders=[Alternating()], repeat=2, concurrency=1)
    )
    assert len(run.results) == 4 and {r.repeat_index for r in run.results} == {0, 1}
    assert flaky_cases(run) == [2]
    assert pass_rates(run) == (100.0, 50.0)


async def test_concurrency_runs_sessions_in_parallel():
    slow = echo_agent(delay_s=1.0)
    started = time.monotonic()
    run = await run_eval_set(numbered_set(6), slow, RunSettings.of(graders=[ExactMatch()], concurrency=6))
    elapsed = time.monotonic() - started
    assert run.passed == 6
    assert elapsed < 4.5, f"6 one-second cases at concurrency 6 took {elapsed:.1f} s"


async def test_invalid_set_and_foreign_checkpoint_are_refused(tmp_path):
    broken = numbered_set(2).model_copy(update={"cases": []})
    with pytest.raises(EvalSetError):
        await run_eval_set(broken, echo_agent())
    await run_eval_set(numbered_set(1), echo_agent(), RunSettings.of(out=tmp_path))
    with pytest.raises(CheckpointError, match="--resume"):
        await run_eval_set(numbered_set(1), echo_agent(), RunSettings.of(out=tmp_path))
    with pytest.raises(CheckpointError, match="different run"):
        await run_eval_set(numbered_set(2), echo_agent(), RunSettings.of(out=tmp_path, resume=True))


async def test_checkpoint_lines_are_whole_conversations_and_resume_skips_them(tmp_path):
    test_set = conversation_set(["q1", "q2", "q3"], ["q4"])
    await run_eval_set(test_set, echo_agent(), RunSettings.of(out=tmp_path))
    lines = [json.loads(line) for line in (tmp_path / "checkpoint.jsonl").read_text().splitlines()]
    assert [line["kind"] for line in lines] == ["header", "unit", "unit"]
    assert sorted((line["unit"], len(line["results"])) for line in lines[1:]) == [
        ("conversation1#0", 3),
        ("conversation2#0", 1),
    ]
    # Drop conversation 2 as if the run had been killed before it finished: resume plays only it.
    kept = [line for line in lines if line.get("unit") != "conversation2#0"]
    (tmp_path / "checkpoint.jsonl").write_text("".join(json.dumps(line) + "\n" for line in kept), encoding="utf-8")
    run = await run_eval_set(test_set, echo_agent(), RunSettings.of(out=tmp_path, resume=True))
    assert (run.passed, len(run.results)) == (4, 4)
    lines = [json.loads(line) for line in (tmp_path / "checkpoint.jsonl").read_text().splitlines()]
    assert [line.get("unit") for line in lines[1:]] == ["conversation1#0", "conversation2#0"]


async def test_a_checkpoint_of_the_one_session_layout_is_refused_on_resume(tmp_path):
    test_set = conversation_set(["q1", "q2"])
    await run_eval_set(test_set, echo_agent(), RunSettings.of(out=tmp_path))
    lines = (tmp_path / "checkpoint.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    del header["units"]  # what an earlier version wrote: the whole set as one unit
    (tmp_path / "checkpoint.jsonl").write_text(json.dumps(header) + "\n", encoding="utf-8")
    with pytest.raises(CheckpointError, match="differs in units"):
        await run_eval_set(test_set, echo_agent(), RunSettings.of(out=tmp_path, resume=True))


async def test_missing_references_are_errors_and_a_set_without_any_is_refused_for_reference_graders():
    test_set = conversation_set(["q1", "q2"])
    test_set.cases[1].response = ""
    run = await run_eval_set(test_set, echo_agent(), RunSettings.of(graders=[ExactMatch(), KeywordMatch(["answer"])]))
    assert [r.effective_status for r in run.results] == [CaseStatus.PASS, CaseStatus.ERROR]
    assert run.results[1].grades[0].explanation == "no reference answer for this case"
    assert run.results[1].grades[1].status is CaseStatus.PASS  # keywords need no reference
    test_set.cases[0].response = " "
    with pytest.raises(EvalSetError, match="grader 'Exact match' needs a reference answer and no case has one"):
        await run_eval_set(test_set, echo_agent(), RunSettings.of(graders=[ExactMatch()]))
    run = await run_eval_set(test_set, echo_agent(), RunSettings.of(graders=[KeywordMatch(["answer"])]))
    assert run.passed == 2
