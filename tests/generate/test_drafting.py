"""The generator's answer has one strict shape; anything else is a gap with its reason, never a case."""

from __future__ import annotations

import pytest

from copilot_eval.generate.drafting import read_case_answer, read_prompt_answer


def test_a_fenced_answer_of_the_shape_is_read():
    text = '```json\n{"question": " Where is order 12? ", "expected_response": null, "keywords": ["shipped"]}\n```'
    assert read_case_answer(text) == {
        "question": "Where is order 12?",
        "expected_response": None,
        "keywords": ["shipped"],
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "no answer"),
        ("Sure! Here is a question: where is my order?", "not one JSON object"),
        ("[1, 2]", "not an object"),
        ('{"question": ""}', "question must be a non-empty string"),
        ('{"question": "' + "x" * 501 + '"}', "at most 500"),
        ('{"question": "q", "keywords": ["a,b"]}', "without commas"),
        ('{"question": "q", "answer": "a"}', "unexpected key(s) answer"),
        ('{"question": "q", "expected_response": 3}', "expected_response must be"),
    ],
)
def test_unusable_answers_are_gaps_with_a_reason(text, reason):
    found = read_case_answer(text)
    assert isinstance(found, str) and reason in found


def test_trigger_prompt_shape():
    assert read_prompt_answer('{"prompt": "refund my order"}') == {"prompt": "refund my order"}
    assert isinstance(read_prompt_answer('{"prompt": "x", "expected": "y"}'), str)
