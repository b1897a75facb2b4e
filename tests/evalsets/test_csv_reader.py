"""read_csv and check_csv: templates, encodings, and every reading problem with its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.evalsets import (
    EVAL_IMPORT_MAX_BYTES,
    EvalDataType,
    EvalSetReadError,
    check_csv,
    read_csv,
    read_results_export,
)


def _problems(path: Path) -> list[str]:
    with pytest.raises(EvalSetReadError) as caught:
        read_csv(path)
    assert caught.value.path == path
    assert str(path) in str(caught.value)
    return caught.value.problems


def test_conversation_template(data_dir):
    test_set = read_csv(data_dir / "valid_conversation.csv")
    assert test_set.name == "valid_conversation"
    assert test_set.data_type is EvalDataType.CONVERSATION
    assert [c.conversation_number for c in test_set.cases] == [1, 2]
    assert test_set.cases[1].response == "Students get 10% off with a valid card."
    assert test_set.evidence == ["valid_conversation.csv"]


def test_name_and_data_type_can_be_given(data_dir):
    test_set = read_csv(data_dir / "valid_conversation.csv", name="Tandems", data_type="SingleTurn")
    assert (test_set.name, test_set.data_type) == ("Tandems", EvalDataType.SINGLE_TURN)


def test_single_response_template_numbers_rows_in_file_order(data_dir):
    test_set = read_csv(data_dir / "valid_single_response.csv")
    assert test_set.data_type is EvalDataType.SINGLE_TURN
    assert [c.conversation_number for c in test_set.cases] == [1, 2, 3]
    assert test_set.cases[2].question == "Can I bring my dog?"


def test_legacy_template_keeps_the_testing_method(data_dir):
    test_set = read_csv(data_dir / "valid_legacy.csv")
    assert test_set.data_type is EvalDataType.SINGLE_TURN
    assert [c.testing_method for c in test_set.cases] == ["Compare meaning", None]


def test_commas_quotes_and_newlines_inside_quoted_fields(data_dir):
    cases = read_csv(data_dir / "quoted_specials.csv").cases
    assert cases[0].question == "Price, per day?"
    assert cases[0].response == 'It is "24 euros", tax included.'
    assert cases[1].response == "First line\nsecond line"


def test_bom_and_crlf_are_accepted(data_dir):
    cases = read_csv(data_dir / "bom_crlf.csv").cases
    assert cases[0].question == "Caf\u00e9 open?"
    # Line breaks inside a quoted field are data and are kept exactly.
    assert cases[0].response == "Yes, \r\nfrom 8."
    assert len(cases) == 2


def test_empty_file(data_dir):
    assert _problems(data_dir / "empty.csv") == ["file is empty; expected a header line and at least one row"]


def test_whitespace_only_file_is_empty(tmp_path):
    path = tmp_path / "blank.csv"
    path.write_bytes(b"\xef\xbb\xbf\r\n  \n")
    assert _problems(path) == ["file is empty; expected a header line and at least one row"]


def test_wrong_header(data_dir):
    (problem,) = _problems(data_dir / "wrong_header.csv")
    assert problem.startswith("line 1: header 'number,question,answer' matches no known template")
    assert "conversationNumber,question,response" in problem


def test_reordered_header(data_dir):
    (problem,) = _problems(data_dir / "reordered_header.csv")
    assert problem.startswith("line 1: header 'question,conversationNumber,response' has the conversation")
    assert "wrong order" in problem


def test_wrong_column_count(data_dir):
    assert _problems(data_dir / "wrong_column_count.csv") == [
        "line 2: expected 3 fields (conversationNumber,question,response), found 4; "
        "a comma inside a field needs the field quoted",
        "line 4: expected 3 fields (conversationNumber,question,response), found 2; "
        "a comma inside a field needs the field quoted",
    ]


def test_unbalanced_quotes_name_the_line_where_the_field_opens(data_dir):
    problems = _problems(data_dir / "unbalanced_quotes.csv")
    assert len(problems) == 1
    assert problems[0].startswith(
        "line 3: a quoted field opens in this record and is not closed on its line; it swallowed the lines up to line 4"
    )


def test_quote_never_closed_before_end_of_file(tmp_path):
    path = tmp_path / "open.csv"
    path.write_text('conversationNumber,question,response\n1,"a","b"\n2,"c,d\n3,e,f\n', encoding="utf-8")
    assert _problems(path) == [
        "line 3: a quoted field opens in this record and is never closed "
        "(the rest of the file, to line 4, was read into it)"
    ]


def test_stray_quote_after_a_closed_field(data_dir):
    (problem,) = _problems(data_dir / "stray_quote.csv")
    assert problem.startswith("line 2: bad quoting")


def test_non_integer_conversation_number(data_dir):
    assert _problems(data_dir / "non_integer_number.csv") == [
        "line 2, conversationNumber: 'one' is not an integer",
        "line 3, conversationNumber: '2.5' is not an integer",
    ]


def test_non_utf8_bytes_name_line_and_column(data_dir):
    assert _problems(data_dir / "latin1.csv") == [
        "line 2: byte 0xe9 at column 7 is not UTF-8; save the file as UTF-8",
        "line 4: byte 0xef at column 6 is not UTF-8; save the file as UTF-8",
    ]


def test_file_over_five_megabytes(tmp_path):
    path = tmp_path / "big.csv"
    row = '1,"q","' + "r" * 999 + '"\n'
    body = "conversationNumber,question,response\n" + row * (EVAL_IMPORT_MAX_BYTES // len(row) + 1)
    path.write_text(body, encoding="utf-8")
    assert path.stat().st_size > EVAL_IMPORT_MAX_BYTES
    problems = _problems(path)
    assert problems[0].startswith(f"file is {path.stat().st_size:,} bytes; the import limit is 5,242,880 bytes")


def test_file_exactly_at_five_megabytes_is_not_too_big(tmp_path):
    path = tmp_path / "edge.csv"
    head = 'conversationNumber,question,response\n1,"q","'
    path.write_text(head + "r" * (EVAL_IMPORT_MAX_BYTES - len(head) - 2) + '"\n', encoding="utf-8")
    assert path.stat().st_size == EVAL_IMPORT_MAX_BYTES
    assert len(read_csv(path).cases) == 1


def test_all_reading_problems_in_one_pass(data_dir):
    problems = _problems(data_dir / "several_problems.csv")
    assert [p.split(":")[0] for p in problems] == ["line 2, conversationNumber", "line 5"]


def test_reading_does_not_apply_validation_rules(data_dir):
    # Blank fields and duplicates are the validator's business; the file itself reads fine.
    assert len(read_csv(data_dir / "duplicate_numbers.csv").cases) == 3
    assert read_csv(data_dir / "header_only.csv").cases == []


@pytest.mark.parametrize(
    ("file_name", "expected"),
    [
        ("valid_conversation.csv", []),
        ("six_pairs_max_reference.csv", []),
        ("header_only.csv", ["test set 'header_only' has no cases; at least one is required"]),
        (
            "seven_pairs.csv",
            ["test set 'seven_pairs' has 7 question-and-answer pairs; seed allows at most 6 in a Conversation set"],
        ),
        (
            "reference_too_long.csv",
            [
                "case 1 (conversationNumber 1): response (the reference answer) is 1001 characters; seed allows at most 1000"
            ],
        ),
        (
            "blank_fields.csv",
            [
                "case 1 (conversationNumber 1): question is blank; seed requires one",
                "case 2 (conversationNumber 2): response (the reference answer) is blank; seed requires one",
            ],
        ),
        (
            "duplicate_numbers.csv",
            [
                "case 1 (conversationNumber 1): conversationNumber 1 is used by 2 cases (cases 1, 3); seed requires unique numbers"
            ],
        ),
        (
            "non_positive_numbers.csv",
            [
                "case 1 (conversationNumber 0): conversationNumber must be a positive integer (seed)",
                "case 2 (conversationNumber -3): conversationNumber must be a positive integer (seed)",
            ],
        ),
    ],
)
def test_check_csv_applies_every_seed_rule(data_dir, file_name, expected):
    assert check_csv(data_dir / file_name, profile="seed") == expected


def test_check_csv_combines_reading_and_validation_problems(data_dir):
    problems = check_csv(data_dir / "several_problems.csv", profile="seed")
    assert problems[:2] == [
        "line 2, conversationNumber: 'x' is not an integer",
        "line 5: expected 3 fields (conversationNumber,question,response), found 2; "
        "a comma inside a field needs the field quoted",
    ]
    assert "case 1 (conversationNumber 2): question is blank; seed requires one" in problems
    assert any("requires unique numbers" in p for p in problems)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('"conversationNumber","question","response"\n"1","q","r"\n', True),
        ("\ufeffquestion,expectedResponse\nq,r\n", True),
        ("Question,Expected response,Testing method\n", True),
        ("question,conversationNumber,response\n1,q,r\n", True),  # reordered: a test set with a problem
        ("\n\nquestion,expectedResponse\n", True),
        ("date,amount\n2024-01-01,3\n", False),  # a user's data file is not a test set
        ("question,expectedResponse,extra\n", False),
        ("", False),
    ],
)
def test_looks_like_test_set_recognises_template_headers_only(tmp_path, text, expected):
    from copilot_eval.evalsets import looks_like_test_set

    path = tmp_path / "set.csv"
    path.write_text(text, encoding="utf-8")
    assert looks_like_test_set(path) is expected


def test_a_results_export_stops_at_its_first_bad_quoting_and_names_the_line(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text('question,expectedResponse,actualResponse\n"a"x,b,c\n"d",e,f\n', encoding="utf-8")
    with pytest.raises(EvalSetReadError) as caught:
        read_results_export(path)
    assert caught.value.problems[0].startswith("line 2: bad quoting")
