"""validate_eval_test_set under the seed rule set: one test per rule, the limits at and one past the edge."""

from __future__ import annotations

from copilot_eval.evalsets import (
    EVAL_MAX_CONVERSATION_PAIRS,
    EVAL_REFERENCE_MAX_LENGTH,
    EvalDataType,
    EvalTestCase,
    EvalTestSet,
    reference_length,
    validate_eval_test_set,
)


def _set(count: int, *, data_type=EvalDataType.CONVERSATION, response="r") -> EvalTestSet:
    cases = [EvalTestCase(conversation_number=i, question=f"q{i}", response=response) for i in range(1, count + 1)]
    return EvalTestSet(name="s", data_type=data_type, cases=cases)


def test_set_at_every_limit_is_clean():
    assert (
        validate_eval_test_set(_set(EVAL_MAX_CONVERSATION_PAIRS, response="x" * EVAL_REFERENCE_MAX_LENGTH), "seed")
        == []
    )


def test_empty_set_is_reported():
    assert validate_eval_test_set(EvalTestSet(name="s"), "seed") == [
        "test set 's' has no cases; at least one is required"
    ]


def test_conversation_set_one_past_the_pair_cap():
    problems = validate_eval_test_set(_set(EVAL_MAX_CONVERSATION_PAIRS + 1), "seed")
    assert problems == ["test set 's' has 7 question-and-answer pairs; seed allows at most 6 in a Conversation set"]


def test_single_turn_set_has_no_pair_cap():
    assert validate_eval_test_set(_set(50, data_type=EvalDataType.SINGLE_TURN), "seed") == []


def test_reference_one_past_the_length_limit():
    problems = validate_eval_test_set(_set(1, response="x" * (EVAL_REFERENCE_MAX_LENGTH + 1)), "seed")
    assert problems == [
        "case 1 (conversationNumber 1): response (the reference answer) is 1001 characters; seed allows at most 1000"
    ]


def test_reference_length_counts_utf16_units_like_the_platform():
    assert reference_length("\N{BICYCLE}") == 2
    assert validate_eval_test_set(_set(1, response="\N{BICYCLE}" * 500), "seed") == []
    assert len(validate_eval_test_set(_set(1, response="\N{BICYCLE}" * 501), "seed")) == 1


def test_non_positive_numbers_are_reported():
    test_set = _set(2)
    test_set.cases[0].conversation_number = 0
    test_set.cases[1].conversation_number = -4
    assert validate_eval_test_set(test_set, "seed") == [
        "case 1 (conversationNumber 0): conversationNumber must be a positive integer (seed)",
        "case 2 (conversationNumber -4): conversationNumber must be a positive integer (seed)",
    ]


def test_duplicates_are_reported_once_naming_every_case():
    test_set = _set(3)
    test_set.cases[2].conversation_number = 1
    assert validate_eval_test_set(test_set, "seed") == [
        "case 1 (conversationNumber 1): conversationNumber 1 is used by 2 cases (cases 1, 3); seed requires unique numbers"
    ]


def test_whitespace_only_fields_are_blank():
    test_set = EvalTestSet(name="s", cases=[EvalTestCase(conversation_number=1, question=" \t\n", response="\u3000 ")])
    assert validate_eval_test_set(test_set, "seed") == [
        "case 1 (conversationNumber 1): question is blank; seed requires one",
        "case 1 (conversationNumber 1): response (the reference answer) is blank; seed requires one",
    ]


def test_every_problem_comes_back_in_one_pass():
    test_set = _set(8, response="")
    test_set.cases[1].conversation_number = 1
    problems = validate_eval_test_set(test_set, "seed")
    assert problems[0].startswith("test set 's' has 8 question-and-answer pairs")
    assert sum("is blank" in p for p in problems) == 8
    assert sum("requires unique numbers" in p for p in problems) == 1
