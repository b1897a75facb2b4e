"""Test sets played against Copilot Studio targets: the same run machinery, graders, resume, repeats."""

from __future__ import annotations

import json

from copilot_eval.evalsets import CaseStatus, EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.grading.capability import CapabilityUse
from copilot_eval.grading.exact import ExactMatch
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.targets import TargetResult
from copilot_eval.testing import FakeDirectLine, LoopbackServer, answer, http_error
from tests.targets.targets_helpers import GROUNDED_TEXT, directline_agent, ray_agent


def _set(data_type: EvalDataType, rows: list[tuple[int, str, str]]) -> EvalTestSet:
    return EvalTestSet(
        name="ray",
        data_type=data_type,
        cases=[EvalTestCase(conversation_number=n, question=q, response=r) for n, q, r in rows],
    )


SINGLE = _set(
    EvalDataType.SINGLE_TURN,
    [
        (1, "How do Ray tasks work?", GROUNDED_TEXT),
        (2, "broken question", "anything"),
        (3, "What is the weather?", "Sunny."),
    ],
)


async def test_a_single_turn_set_is_graded_from_target_evidence_and_resumes(tmp_path):
    fake = FakeDirectLine(ray_agent(broken=http_error(500)))
    async with LoopbackServer(fake):
        agent = directline_agent(fake)
        run = await run_eval_set(SINGLE, agent, RunSettings.of(graders=[ExactMatch()], out=tmp_path, concurrency=2))
        asked = len(fake.conversations)
        again = await run_eval_set(SINGLE, agent, RunSettings.of(graders=[ExactMatch()], out=tmp_path, resume=True))
    statuses = {r.conversation_number: r.effective_status for r in run.results}
    assert statuses == {1: CaseStatus.PASS, 2: CaseStatus.ERROR, 3: CaseStatus.FAIL}  # fallback fails, 500 errors
    assert (run.passed, run.failed, run.errored) == (1, 1, 1)
    assert "HTTP 500" in next(r.failure_reason for r in run.results if r.conversation_number == 2)
    evidence = TargetResult.load(next(r.evidence_path for r in run.results if r.conversation_number == 1))
    assert evidence.turns[0].citations and evidence.target_type == "directline"
    assert run.agent_name == "dl-agent" and json.loads((tmp_path / "run.json").read_text())["passed"] == 1
    assert len(fake.conversations) == asked and again.passed == 1  # resume played nothing again


async def test_a_conversation_is_one_target_conversation_answer_per_turn():
    fake = FakeDirectLine(ray_agent(hello=answer("Hi there.")))
    conversation = _set(
        EvalDataType.CONVERSATION, [(1, "hello", "Hi there."), (1, "How do Ray tasks work?", GROUNDED_TEXT)]
    )
    async with LoopbackServer(fake):
        run = await run_eval_set(conversation, directline_agent(fake), RunSettings.of(graders=[ExactMatch()]))
    assert [r.effective_status for r in run.results] == [CaseStatus.PASS, CaseStatus.PASS]
    assert len(fake.conversations) == 1


async def test_repeats_play_each_case_again_and_capability_grading_is_an_error_not_a_fail():
    fake = FakeDirectLine(ray_agent())
    one = _set(EvalDataType.SINGLE_TURN, [(1, "How do Ray tasks work?", GROUNDED_TEXT)])
    async with LoopbackServer(fake):
        run = await run_eval_set(
            one, directline_agent(fake), RunSettings.of(graders=[CapabilityUse(tools=["search"])], repeat=2)
        )
    assert len(run.results) == 2 and len(fake.conversations) == 2
    assert all(r.effective_status is CaseStatus.ERROR and "not visible" in r.failure_reason for r in run.results)


async def test_a_conversation_played_against_a_target_is_regraded_from_its_target_evidence(tmp_path):
    from copilot_eval.grading.keywords import KeywordMatch
    from copilot_eval.runs import regrade_run

    fake = FakeDirectLine(ray_agent(hello=answer("Hi there."), broken=http_error(500)))
    conversation = _set(
        EvalDataType.CONVERSATION,
        [(1, "hello", "Hi there."), (1, "How do Ray tasks work?", GROUNDED_TEXT), (2, "broken question", "x")],
    )
    async with LoopbackServer(fake):
        await run_eval_set(
            conversation, directline_agent(fake), RunSettings.of(graders=[ExactMatch()], out=tmp_path / "run")
        )
    asked = len(fake.conversations)
    run = await regrade_run(tmp_path / "run", [KeywordMatch(["actors"])], output_dir=tmp_path / "again")
    assert [(r.conversation_number, r.turn, r.effective_status) for r in run.results] == [
        (1, 1, CaseStatus.FAIL),  # "Hi there." names no actors
        (1, 2, CaseStatus.PASS),
        (2, 1, CaseStatus.ERROR),  # the target answered HTTP 500: no answer, no grader ran
    ]
    assert run.results[2].grades == [] and "HTTP 500" in run.results[2].failure_reason
    assert len(fake.conversations) == asked  # the target was not asked again
