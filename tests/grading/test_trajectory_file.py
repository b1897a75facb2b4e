"""The trajectory file: its format, every problem reported at once, and the check against a test set."""

from __future__ import annotations

import re
import subprocess
import textwrap

import pytest

from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evidence.trajectory import ANY, Equals, MatchMode, Regex
from copilot_eval.grading import GraderSpecError, parse_grader_spec
from copilot_eval.grading.trajectory import TrajectoryGrader
from copilot_eval.grading.trajectory_file import TrajectoryFileError, read_trajectory_file
from copilot_eval.runs.prepare import PrepareError
from tests.runs.runs_helpers import CLI, EXAMPLES, planned


def write(tmp_path, text: str):
    path = tmp_path / "steps.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_a_full_file_reads_into_expectations(tmp_path):
    path = write(
        tmp_path,
        """
        defaults:
          mode: in-order
          forbidden: [delete_order, /^drop_/]
          max_steps: 6
        cases:
          - conversation: 1
            steps:
              - lookup_order
              - tool: refund_order
                args: {order_id: 1042, note: {regex: damaged}, reason: {any: true}, tags: {equals: {a: 1}}}
                must_succeed: false
          - conversation: 2
            turn: 2
            mode: strict
            threshold: 0.5
            metric: recall
            subagent_calls: false
            steps:
              - subagent: reviewer
              - {tool: /^orders-/, args: [order_id], exact_args: true, agent: reviewer}
        """,
    )
    loaded = read_trajectory_file(path)
    first = loaded.expectation(1, 1)
    assert first.mode is MatchMode.IN_ORDER and first.max_steps == 6
    assert first.forbidden[0] == "delete_order" and first.forbidden[1].pattern == "^drop_"
    lookup, refund = first.steps
    assert lookup.name == "lookup_order" and lookup.must_succeed and not lookup.args
    assert refund.args == {
        "order_id": Equals(1042),
        "note": Regex("damaged"),
        "reason": ANY,
        "tags": Equals({"a": 1}),
    }
    assert refund.must_succeed is False
    second = loaded.expectation(2, 2)
    assert second.mode is MatchMode.STRICT and second.threshold == 0.5 and second.metric == "recall"
    assert second.subagent_calls is False and second.max_steps == 6  # defaults still apply
    subagent, tool = second.steps
    assert subagent.kind == "subagent" and tool.exact_args and tool.agent == "reviewer"
    assert isinstance(tool.name, re.Pattern) and tool.args == {"order_id": ANY}
    assert loaded.expectation(3, 1) is None


def test_every_problem_is_reported_at_once_with_file_line_and_case(tmp_path):
    path = write(
        tmp_path,
        """
        defaults:
          mode: sideways
        cases:
          - conversation: 1
            steps:
              - tool: lookup_order
                args: {note: {regex: "(unclosed"}}
              - tol: refund_order
              - {tool: refund_order, subagent: x}
              - {tool: x, must_succeed: maybe}
          - conversation: 1
            steps: []
          - conversation: two
            steps: []
          - conversation: 3
            steps: nope
            max_steps: -1
            threshold: 80
            colour: blue
        """,
    )
    with pytest.raises(TrajectoryFileError) as error:
        read_trajectory_file(path)
    problems = error.value.problems
    assert problems == [
        f"{path} line 3: defaults: mode: unknown trajectory mode 'sideways' (choose one of strict, in_order, "
        "unordered, subset, superset)",
        f"{path} line 7: conversation 1 turn 1: step 1: args.note: bad regular expression '(unclosed': missing ), "
        "unterminated subpattern at position 0",
        f"{path} line 9: conversation 1 turn 1: step 2: unknown step key(s) 'tol' (did you mean 'tool'?) (expected tool, "
        "subagent, topic, "
        "action, knowledge, args, exact_args, must_succeed, agent)",
        f"{path} line 10: conversation 1 turn 1: step 3: give exactly one of tool, subagent, topic, action, "
        "knowledge (got tool, subagent)",
        f"{path} line 11: conversation 1 turn 1: step 4: must_succeed: true or false, got 'maybe'",
        f"{path} line 12: conversation 1 turn 1: listed twice (first at line 5)",
        f"{path} line 14: case 3: conversation (and turn, default 1) must be whole numbers, 1 or more",
        f"{path} line 16: conversation 3 turn 1: unknown case key(s) 'colour' (expected conversation, turn, "
        "steps, "
        "mode, forbidden, max_steps, threshold, metric, subagent_calls)",
        f"{path} line 16: conversation 3 turn 1: steps: a list of steps (may be empty), got 'nope'",
        f"{path} line 16: conversation 3 turn 1: max_steps: a whole number, 0 or more, got -1",
        f"{path} line 16: conversation 3 turn 1: threshold: a fraction between 0 and 1, got 80",
    ]
    assert str(error.value).startswith(f"{path}: 11 problems in the trajectory file:\n")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[1, 2]", "expected a mapping with a `cases` list"),
        ("cases: [\n", "not valid YAML"),
        ("cases: []\nextra: 1\n", "unknown top-level key(s) 'extra' (expected defaults, cases)"),
        ("case: []\n", "expected a mapping with a `cases` list"),
        ("cases: []\ndefault: {mode: strict}\n", "unknown top-level key(s) 'default' (did you mean 'defaults'?)"),
    ],
)
def test_files_that_are_not_trajectory_files(tmp_path, text, problem):
    with pytest.raises(TrajectoryFileError, match=re.escape(problem)):
        read_trajectory_file(write(tmp_path, text))


def test_a_missing_file_is_named_by_the_grader_spec(tmp_path):
    with pytest.raises(GraderSpecError) as error:
        parse_grader_spec(f"trajectory:{tmp_path / 'nope.yaml'}")
    assert "nope.yaml" in str(error.value) and "cannot read the file" in str(error.value)
    assert "expected trajectory:FILE" in str(error.value)
    with pytest.raises(GraderSpecError, match="name the trajectory file"):
        parse_grader_spec("trajectory:")


def test_defaults_steps_cover_the_cases_not_listed(tmp_path):
    cases = [EvalTestCase(conversation_number=n, question=f"q{n}") for n in (1, 2, 3)]
    test_set = EvalTestSet(name="s", data_type=EvalDataType.SINGLE_TURN, cases=cases)
    listed_only = TrajectoryGrader.from_file(write(tmp_path, "cases:\n  - {conversation: 1, steps: [a]}\n"))
    assert listed_only.fit_problems(test_set) == [
        f"{tmp_path / 'steps.yaml'}: no expected steps for 2 case(s) of the test set (conversation 2 turn 1, "
        "conversation 3 turn 1); add an entry for each, or give `steps` under `defaults` for the cases not listed"
    ]
    covered = TrajectoryGrader.from_file(
        write(tmp_path, "defaults: {steps: [], mode: superset, forbidden: [delete_order]}\ncases: []\n")
    )
    assert covered.fit_problems(test_set) == []
    assert covered.expectations.expectation(2, 1).forbidden == ("delete_order",)


def test_prepare_refuses_a_file_that_does_not_fit_the_set(tmp_path):
    steps = write(tmp_path, "cases:\n  - {conversation: 99, steps: [a]}\n")
    with pytest.raises(PrepareError) as error:
        planned(
            EXAMPLES / "evalsets" / "knowledge.csv",
            EXAMPLES / "evaluation" / "agent-good.yaml",
            tmp_path / "out",
            graders=[f"trajectory:{steps}"],
        )
    assert "conversation 99 turn 1 is not in the test set" in str(error.value)
    assert "no expected steps for 6 case(s)" in str(error.value)


def test_the_command_line_exits_2_listing_every_problem(tmp_path):
    steps = write(tmp_path, "cases:\n  - {conversation: 1, steps: [{tol: x}], mode: sideways}\n")
    done = subprocess.run(
        [
            *CLI,
            "run",
            str(EXAMPLES / "evalsets" / "knowledge.csv"),
            "--agent",
            str(EXAMPLES / "evaluation" / "agent-good.yaml"),
            "--grader",
            f"trajectory:{steps}",
            "--out",
            str(tmp_path / "out"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert (
        "unknown step key(s) 'tol' (did you mean 'tool'?)" in done.stderr
        and "unknown trajectory mode 'sideways'" in done.stderr
    )
    assert not (tmp_path / "out").exists()
