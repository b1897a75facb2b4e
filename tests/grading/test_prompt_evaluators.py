"""A prompt file's evaluators: gh-models' string rules, exact choice matching, pass marks, both verdicts."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase, PromptRow
from copilot_eval.evalsets.prompt_cases import load_prompt_file
from copilot_eval.evalsets.prompt_evaluators import Choice, EvaluatorSpec
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading.prompt_builtins import STAR_CHOICES, builtin_judge
from copilot_eval.grading.prompt_choice import PromptChoiceJudge, exact_choice, gh_models_choice
from copilot_eval.grading.prompt_graders import (
    PassScores,
    gh_models_case_passed,
    parse_pass_scores,
    prompt_graders,
)
from copilot_eval.grading.prompt_string import PromptStringCheck, string_rule_holds
from copilot_eval.grading.protocol import CaseEvidence
from copilot_eval.grading.response_format import ResponseFormatCheck

JUDGE = CopilotEval(name="judge", model="gpt-4.1")  # never started here: the judges' answers are fed directly


def evidence(answer: str | None) -> CaseEvidence:
    result = CopilotResult(
        success=True, prompt="q", turns=[Turn(role="user", content="q"), Turn(role="assistant", content=answer or "")]
    )
    return CaseEvidence(answer=answer, result=result)


def case(**variables) -> EvalTestCase:
    return EvalTestCase(conversation_number=1, question="q", prompt=PromptRow(variables=variables))


@pytest.mark.parametrize(
    ("rule", "answer", "text", "holds"),
    [
        ("equals", "PASS", "PASS", True),
        ("equals", "pass", "PASS", False),  # exact and case-sensitive
        ("contains", "The capital is PARIS.", "paris", True),
        ("contains", "Lyon", "paris", False),
        ("startsWith", "Yes, it is", "YES", True),
        ("startsWith", "Well, yes", "yes", False),
        ("endsWith", "That is all. DONE", "done", True),
        ("endsWith", "done. Bye", "done", False),
    ],
)
def test_string_rules_are_gh_models_rules(rule, answer, text, holds):
    assert string_rule_holds(rule, answer, text) is holds


async def test_a_string_evaluator_trims_the_answer_and_fills_its_rules_from_the_row():
    check = PromptStringCheck(EvaluatorSpec(1, "verdict", string_rules=(("equals", "{{expected}}"),)))
    passed = await check.grade(case(expected="FAIL"), evidence("\n  FAIL \n"))
    assert passed.status is CaseStatus.PASS and passed.score == 100.0
    assert passed.gh_models.passed is True and passed.gh_models.score == 1.0
    failed = await check.grade(case(expected="FAIL"), evidence("Fail"))
    assert failed.status is CaseStatus.FAIL
    assert failed.reason == "does not equal 'FAIL' (answer 'Fail')"
    assert failed.to_record().gh_models.details == "Expected exact match: 'FAIL'"


async def test_every_rule_given_must_hold_where_gh_models_checks_only_the_first():
    spec = EvaluatorSpec(1, "both", string_rules=(("contains", "paris"), ("endsWith", ".")))
    grade = await PromptStringCheck(spec).grade(case(), evidence("Paris, I think"))
    assert grade.status is CaseStatus.FAIL
    assert grade.reason.startswith("does not end with '.'")
    # gh-models applies contains alone (the first of equals, contains, startsWith, endsWith) and passes it.
    assert grade.gh_models.passed is True


def test_a_judge_answer_must_be_exactly_one_choice():
    choices = tuple(Choice(str(n), n / 5) for n in range(1, 6))
    assert exact_choice(choices, " 4\n") == choices[3]
    assert exact_choice(choices, "15") is None
    assert exact_choice((Choice("Yes", 1), Choice("No", 0)), "YES") is not None
    # gh-models takes the first choice the answer contains: "15" scores as "1", "4 stars" as 4.
    assert gh_models_choice(choices, "15").details == "LLM evaluation matched choice: '1'"
    assert gh_models_choice(choices, "No match").passed is False


def choice_judge(**options) -> PromptChoiceJudge:
    return PromptChoiceJudge(
        JUDGE,
        name="rating",
        prompt="Rate {{completion}} for {{input}}",
        choices=STAR_CHOICES,
        **options,
    )


def test_an_answer_that_is_no_choice_is_an_error_never_a_fail():
    grade = choice_judge().read_answer("15")
    assert grade.status is CaseStatus.ERROR
    assert grade.reason == "the judge answered '15', not one of 1, 2, 3, 4, 5"
    assert grade.gh_models.score == 0.0  # gh-models read "1" in it, worth 0
    assert grade.gh_models.details == "LLM evaluation matched choice: '1'"


def test_the_pass_mark_and_gh_models_verdict_differ_where_they_should():
    judge = choice_judge()  # default pass mark: half the top score
    two_stars = judge.read_answer("2")
    assert two_stars.status is CaseStatus.FAIL
    assert two_stars.score == 25.0 and two_stars.passing_score == 50.0
    # gh-models passes any score above 0: two stars of five ("mostly not similar") pass there.
    assert two_stars.gh_models.passed is True
    assert judge.read_answer("3").status is CaseStatus.PASS
    strict = choice_judge(pass_fraction=0.8)
    assert strict.read_answer("4").status is CaseStatus.FAIL
    assert strict.read_answer("5").status is CaseStatus.PASS


def test_the_judge_prompt_is_filled_from_the_row_and_the_trimmed_answer():
    prompt = choice_judge().prompt_text(case(input="Why?"), evidence("  Because.  "))
    assert prompt == "Rate Because. for Why?"


def test_a_system_prompt_becomes_the_judge_sessions_whole_system_message():
    judge = choice_judge(system_prompt="Reply with a digit.")
    assert judge.judge.instructions == "Reply with a digit."
    assert judge.judge.system_message_mode == "replace"


def test_builtins_pass_at_four_stars_with_our_own_prompts():
    judge = builtin_judge("similarity", JUDGE, name="similarity check")
    assert judge.read_answer("3").status is CaseStatus.FAIL
    assert judge.read_answer("4").status is CaseStatus.PASS
    prompt = judge.prompt_text(case(input="Q?", expected="REF"), evidence("ANS"))
    assert "Q?" in prompt and "REF" in prompt and "ANS" in prompt and "{{" not in prompt
    assert builtin_judge("fluency", JUDGE, name="f", pass_fraction=0.5).read_answer("3").status is CaseStatus.PASS


def test_pass_scores_are_parsed_for_all_or_one_evaluator():
    scores = parse_pass_scores(["0.6", "similarity check=80"])
    assert scores == PassScores(0.6, {"similarity check": 0.8})
    assert scores.for_evaluator("other") == 0.6
    with pytest.raises(ValueError, match="is not a number"):
        parse_pass_scores(["high"])
    with pytest.raises(ValueError, match="between 0 and 1"):
        parse_pass_scores(["x=150"])
    with pytest.raises(ValueError, match="already given"):
        parse_pass_scores(["0.5", "0.6"])


def prompt_set(tmp_path: Path, evaluators: str, extra: str = ""):
    path = tmp_path / "set.prompt.yml"
    path.write_text(
        textwrap.dedent(
            """
            messages:
              - role: user
                content: "{{input}}"
            testData:
              - input: hi
                expected: hello
            """
        )
        + extra
        + "evaluators:\n"
        + textwrap.indent(textwrap.dedent(evaluators), "  "),
        encoding="utf-8",
    )
    test_set, problems, _ = load_prompt_file(path)
    assert problems == []
    return test_set


def test_prompt_graders_follow_the_file(tmp_path):
    test_set = prompt_set(
        tmp_path,
        """
        - name: greets
          string: {startsWith: hello}
        - name: judged
          llm:
            modelId: meta/llama-3.3-70b-instruct
            prompt: "{{completion}}?"
            choices: [{choice: good, score: 2}, {choice: bad, score: 0}]
        - name: similar
          uses: github/similarity
        """,
        extra='responseFormat: json_schema\njsonSchema: \'{"name": "g", "schema": {"type": "object"}}\'\n',
    )
    with pytest.raises(ValueError, match=r"modelId 'meta/llama-3\.3-70b-instruct' has no Copilot runtime equivalent"):
        prompt_graders(test_set)
    graders = prompt_graders(test_set, judge=JUDGE, pass_scores=parse_pass_scores(["judged=1"]))
    assert [g.name for g in graders] == ["greets", "judged", "similar", "responseFormat json_schema (g)"]
    assert graders[1].pass_fraction == 1.0 and graders[2].pass_fraction == 0.75
    with pytest.raises(ValueError, match="'greets' is a string evaluator"):
        prompt_graders(test_set, judge=JUDGE, pass_scores=parse_pass_scores(["greets=0.5"]))
    with pytest.raises(ValueError, match="no LLM evaluator of that name"):
        prompt_graders(test_set, judge=JUDGE, pass_scores=parse_pass_scores(["nobody=0.5"]))


async def test_gh_models_case_verdict_is_every_evaluator_above_zero(tmp_path):
    test_set = prompt_set(
        tmp_path,
        """
        - name: greets
          string: {contains: hello}
        - name: rated
          llm:
            modelId: openai/gpt-4.1
            prompt: "{{completion}}"
            choices: [{choice: "1", score: 0}, {choice: "2", score: 0.25}, {choice: "3", score: 1}]
        """,
    )
    greets, rated = prompt_graders(test_set)
    assert rated.judge.model == "gpt-4.1"  # the modelId, mapped to the runtime's name
    row = test_set.cases[0]
    grades = [await greets.grade(row, evidence("hello there")), rated.read_answer("2")]
    assert [g.status for g in grades] == [CaseStatus.PASS, CaseStatus.FAIL]
    assert gh_models_case_passed([greets, rated], grades) is True
    grades[1] = rated.read_answer("1")
    assert gh_models_case_passed([greets, rated], grades) is False
    # No grades (the session gave no answer): gh-models would have stopped the run, so no verdict.
    assert gh_models_case_passed([greets, rated], []) is None


async def test_the_response_format_is_checked_on_the_trimmed_answer():
    schema = {
        "name": "animal",
        "schema": {"type": "object", "required": ["name"], "properties": {"legs": {"type": "integer"}}},
    }
    check = ResponseFormatCheck("json_schema", schema)
    ok = await check.grade(case(), evidence(' {"name": "cat", "legs": 4} '))
    assert ok.status is CaseStatus.PASS
    wrong = await check.grade(case(), evidence('{"name": "cat", "legs": "four"}'))
    assert wrong.status is CaseStatus.FAIL
    assert wrong.reason == "does not conform to the schema: at legs: 'four' is not of type 'integer'"
    fenced = await check.grade(case(), evidence('```json\n{"name": "cat"}\n```'))
    assert fenced.reason == "the answer is JSON inside a code fence, not bare JSON"
    listed = await ResponseFormatCheck("json_object").grade(case(), evidence("[1]"))
    assert listed.reason == "the answer is JSON but not an object (list)"
