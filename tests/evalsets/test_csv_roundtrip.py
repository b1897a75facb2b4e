"""write_csv then read_csv gives the same set back, for arbitrary text.

Preserved exactly: leading/trailing and whitespace-only text, ``\\r``, ``\\n``, ``\\r\\n``, commas,
quotes, NUL and any Unicode scalar value. Not representable: lone surrogates (UTF-8 has no form
for them), which write_csv refuses before writing. In the single-response templates numbers are
file order and an empty testing method reads back as None.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copilot_eval.evalsets import (
    EvalDataType,
    EvalSetWriteError,
    EvalTestCase,
    EvalTestSet,
    csv_text,
    read_csv,
    write_csv,
)

# Surrogates (category Cs) are excluded: they are the one thing the round trip cannot carry.
TEXT = st.text(
    alphabet=st.one_of(
        st.characters(blacklist_categories=("Cs",)),
        st.sampled_from([",", '"', "\r", "\n", " ", "\t", "\ufeff"]),
    ),
    max_size=40,
)

# A plain function, not the model class: hypothesis would add the camelCase aliases from the
# model's signature on top of the snake_case names.
CASE = st.builds(
    lambda number, question, response: EvalTestCase(conversation_number=number, question=question, response=response),
    st.integers(min_value=-(10**12), max_value=10**12),
    TEXT,
    TEXT,
)


def _sets(cases: list[EvalTestCase], data_type: EvalDataType) -> EvalTestSet:
    return EvalTestSet(name="roundtrip", data_type=data_type, cases=cases, evidence=["roundtrip.csv"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cases=st.lists(CASE, max_size=8), data_type=st.sampled_from(list(EvalDataType)))
def test_conversation_template_round_trip(tmp_path, cases, data_type):
    original = _sets(cases, data_type)
    path = tmp_path / "roundtrip.csv"
    write_csv(original, path)
    assert read_csv(path, data_type=data_type) == original


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    texts=st.lists(st.tuples(TEXT, TEXT, st.none() | TEXT.filter(bool)), max_size=8),
    legacy=st.booleans(),
    bom=st.booleans(),
)
def test_single_response_templates_round_trip(tmp_path, texts, legacy, bom):
    cases = [
        EvalTestCase(conversation_number=i, question=q, response=r, testing_method=m if legacy else None)
        for i, (q, r, m) in enumerate(texts, start=1)
    ]
    original = _sets(cases, EvalDataType.SINGLE_TURN)
    path = tmp_path / "roundtrip.csv"
    write_csv(original, path, template="legacy-single-response" if legacy else "single-response", bom=bom)
    assert read_csv(path) == original


def test_header_comes_from_the_constant_and_every_field_is_quoted():
    test_set = _sets([EvalTestCase(conversation_number=1, question="a", response="b")], EvalDataType.CONVERSATION)
    assert csv_text(test_set) == '"conversationNumber","question","response"\r\n"1","a","b"\r\n'
    assert csv_text(test_set, template="legacy-single-response").splitlines()[0] == (
        '"Question","Expected response","Testing method"'
    )


def test_lone_surrogate_is_refused_and_nothing_is_written(tmp_path):
    test_set = _sets(
        [EvalTestCase(conversation_number=4, question="ok", response="bad \ud800 text")], EvalDataType.CONVERSATION
    )
    path = tmp_path / "out.csv"
    with pytest.raises(EvalSetWriteError) as caught:
        write_csv(test_set, path)
    assert caught.value.problems == [
        "case 1 (conversationNumber 4), response: character 5 is a lone surrogate ('\\ud800') that UTF-8 cannot encode"
    ]
    assert list(tmp_path.iterdir()) == []


def test_unknown_template_name_is_refused(tmp_path):
    with pytest.raises(ValueError, match="unknown CSV template 'excel'; known templates: conversation"):
        write_csv(_sets([], EvalDataType.CONVERSATION), tmp_path / "x.csv", template="excel")
