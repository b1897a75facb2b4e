"""The per-row method dialect (Prompt, Expected response, Test Method Type, Passing Score), as real files carry it.

The files here are written by the tests in the shape of Microsoft's Employee Self-Service samples
(a BOM, CRLF, a header cell with a trailing space, blank ``,,,`` rows at the end, a row mis-decoded
by a spreadsheet, columns to delete before upload); the samples themselves are never used.
"""

from __future__ import annotations

import pytest

from copilot_eval.evalsets import (
    EvalDataType,
    EvalTestSet,
    inspect_csv,
    looks_like_test_set,
    read_csv,
    read_test_set_json,
    write_csv,
    write_json,
)
from copilot_eval.evalsets.csv_templates import default_template_for
from copilot_eval.evalsets.mis_decoded import repaired


def _write(tmp_path, lines, name="set.csv"):
    path = tmp_path / name
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode("utf-8") + b"\r\n")
    return path


ESS_LIKE = [
    "Prompt,Expected response ,Test Method Type,Passing Score",
    'How many days of leave do I get?,"Twenty days a year, more after five years.",CompareMeaning,70',
    "Who approves my expenses?,Your manager approves them.,CompareMeaning,50",
    "What is the helpdesk number?,0800 123 456,ExactMatch,",
    "Where is the parking policy?,parking,KeywordMatch,",
    "How do I reset my password?,,GeneralQuality,",
    "Can you send it so theyâ€™ll see it today?,They will see it today.,TextSimilarity,0.6",
    ",,,",
    ",,,",
    ",,,",
]


def test_each_row_keeps_its_method_and_pass_mark(tmp_path):
    found = inspect_csv(_write(tmp_path, ESS_LIKE))
    assert found.problems == []
    cases = found.test_set.cases
    assert [(c.conversation_number, c.testing_method, c.passing_score) for c in cases] == [
        (1, "CompareMeaning", 70.0),
        (2, "CompareMeaning", 50.0),
        (3, "ExactMatch", None),
        (4, "KeywordMatch", None),
        (5, "GeneralQuality", None),
        (6, "TextSimilarity", 0.6),
    ]
    assert cases[0].question == "How many days of leave do I get?"
    assert cases[0].response == "Twenty days a year, more after five years."  # the trailing-space header still found
    assert found.test_set.data_type is EvalDataType.SINGLE_TURN


def test_trailing_blank_rows_are_ignored_and_counted(tmp_path):
    found = inspect_csv(_write(tmp_path, ESS_LIKE))
    assert found.notes == ["3 blank rows ignored (lines 8-10)"]
    assert "3 blank rows ignored (lines 8-10)" in found.test_set.note  # the note travels with the set


def test_mis_decoded_text_is_warned_with_its_line(tmp_path):
    found = inspect_csv(_write(tmp_path, ESS_LIKE))
    assert any(
        w.startswith("line 7, Prompt: 'theyâ€™ll' looks mis-decoded") and "probably 'they\u2019ll'" in w
        for w in found.warnings
    ), found.warnings
    assert found.problems == []  # the file still loads: a person decides whether to fix it


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("theyâ€™ll", "they\u2019ll"),
        ("company\u00e2\u20ac\u2018managed", "company\u2011managed"),
        ("â€œquotedâ€\x9d", "\u201cquoted\u201d"),
        ("Ã©tÃ©", "été"),
        ("café, Straße, naïve", None),  # real accented words are not mis-decoded text
        ("\u201ccurly\u201d and € 100", None),
    ],
)
def test_what_counts_as_mis_decoded(text, fixed):
    assert repaired(text) == fixed


def test_an_unknown_method_is_named_with_the_known_ones(tmp_path):
    lines = ["Prompt,Expected response,Test Method Type,Passing Score", "Hello?,Hi.,CompareMeening,70"]
    found = inspect_csv(_write(tmp_path, lines))
    assert found.read_problems == [
        "line 2, Test Method Type: 'CompareMeening' is not a test method Copilot Studio names (known: "
        "GeneralQuality, CompareMeaning, TextSimilarity, ExactMatch, KeywordMatch, AllKeywordMatch, CapabilityUse)"
    ]


def test_a_row_without_a_method_is_left_to_the_default_graders_and_said(tmp_path):
    lines = [
        "Prompt,Expected response,Test Method Type",
        "How do I set up a passkey?,Open your security settings.,GeneralQuality",
        "My connection keeps dropping,Tell me which network you use.,",
        "I need help,Share the error message.,",
    ]
    found = inspect_csv(_write(tmp_path, lines))
    assert found.problems == []
    assert [c.testing_method for c in found.test_set.cases] == ["GeneralQuality", None, None]
    assert found.notes == [
        "2 rows name no Test Method Type (lines 3-4): graded by the run's default graders (--grader)"
    ]


def test_columns_to_delete_before_testing_are_named_and_ignored(tmp_path):
    lines = [
        "Prompt,Category  (delete before testing),Sub-area  (delete before testing),Expected response,"
        "Test Method Type,Passing Score",
        "Am I eligible for promotion?,Promotions,Eligibility,Ask your manager.,CompareMeaning,70",
    ]
    found = inspect_csv(_write(tmp_path, lines))
    assert found.problems == []
    case = found.test_set.cases[0]
    assert (case.question, case.response, case.testing_method) == (
        "Am I eligible for promotion?",
        "Ask your manager.",
        "CompareMeaning",
    )
    assert found.warnings == [
        "columns 'Category  (delete before testing)', 'Sub-area  (delete before testing)' are not part of the "
        "template and are ignored (the template's columns: Prompt, Expected response, Test Method Type, "
        "Passing Score)"
    ]


def test_a_template_not_filled_in_yet_says_its_rows_will_be_errors(tmp_path):
    lines = ["Prompt,Expected response,Test Method Type,Passing Score", "Open a ticket,,CompareMeaning,70"]
    found = inspect_csv(_write(tmp_path, lines))
    assert found.problems == []  # today's importer takes an empty reference
    assert found.warnings == [
        "1 row (line 2) name CompareMeaning but give no Expected response: it will be graded as errors "
        "(no reference) until filled in"
    ]


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ("seventy", "line 2, Passing Score: 'seventy' is not a number"),
        ("170", "line 2, Passing Score: '170' is outside CompareMeaning's range 0-100"),
    ],
)
def test_a_bad_pass_mark_is_a_problem_with_its_line(tmp_path, cell, problem):
    lines = ["Prompt,Expected response,Test Method Type,Passing Score", f"Hello?,Hi.,CompareMeaning,{cell}"]
    assert inspect_csv(_write(tmp_path, lines)).read_problems == [problem]


def test_a_pass_mark_for_a_method_without_one_is_ignored_with_a_warning(tmp_path):
    lines = ["Prompt,Expected response,Test Method Type,Passing Score", "Number?,42,ExactMatch,80"]
    found = inspect_csv(_write(tmp_path, lines))
    assert found.problems == [] and found.test_set.cases[0].passing_score is None
    assert found.warnings == ["line 2, Passing Score: '80' is ignored: ExactMatch takes no pass mark"]


def test_method_names_as_the_ui_and_the_api_write_them(tmp_path):
    lines = [
        "prompt,expected response,test method type,passing score",
        "A?,a,Compare meaning,60",
        "B?,b,general_quality,",
        "C?,b,AnyKeywordMatch,",
    ]
    found = inspect_csv(_write(tmp_path, lines))
    assert [c.testing_method for c in found.test_set.cases] == ["CompareMeaning", "GeneralQuality", "KeywordMatch"]


def test_the_dialect_round_trips_through_csv_and_json(tmp_path):
    test_set = read_csv(_write(tmp_path, ESS_LIKE))
    assert default_template_for(test_set).name == "method-rows"
    write_csv(test_set, tmp_path / "out.csv", template=default_template_for(test_set))
    again = read_csv(tmp_path / "out.csv", name=test_set.name)
    assert again.cases == test_set.cases
    write_json(test_set, tmp_path / "out.json")
    assert read_test_set_json(tmp_path / "out.json").cases == test_set.cases
    assert (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines()[0] == (
        '"Prompt","Expected response","Test Method Type","Passing Score"'
    )


def test_the_pytest_collector_knows_the_dialect(tmp_path):
    assert looks_like_test_set(_write(tmp_path, ESS_LIKE))


def test_a_set_without_pass_marks_keeps_its_legacy_template(tmp_path):
    test_set = EvalTestSet(name="x", cases=[{"conversationNumber": 1, "question": "q", "testingMethod": "ExactMatch"}])
    assert default_template_for(test_set).name == "legacy-single-response"


def test_validate_and_convert_say_the_warnings_and_notes_and_keep_the_methods(tmp_path):
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app

    path = _write(tmp_path, ESS_LIKE)
    runner = CliRunner()
    checked = runner.invoke(app, ["validate", str(path)])
    assert checked.exit_code == 0, checked.output  # warnings and notes never fail the check
    assert "OK, imports cleanly" in checked.output
    assert "  warning: line 7, Prompt: 'theyâ€™ll' looks mis-decoded" in checked.output
    assert "  note: 3 blank rows ignored (lines 8-10)" in checked.output
    converted = runner.invoke(app, ["convert", str(path), str(tmp_path / "set.json")])
    assert converted.exit_code == 0, converted.output
    assert "note: 3 blank rows ignored" in converted.output
    cases = read_test_set_json(tmp_path / "set.json").cases
    assert [(c.testing_method, c.passing_score) for c in cases][:2] == [
        ("CompareMeaning", 70.0),
        ("CompareMeaning", 50.0),
    ]
    dropped = runner.invoke(
        app,
        ["convert", str(tmp_path / "set.json"), str(tmp_path / "legacy.csv"), "--template", "legacy-single-response"],
    )
    assert "passing-score column; the rows' pass marks are dropped" in dropped.output


def test_mis_decoded_text_read_as_latin_1_is_shown_as_a_spreadsheet_shows_it():
    from copilot_eval.evalsets.mis_decoded import mis_decoded_warning

    # Latin-1 makes C1 controls of 0x80 and 0x99; the warning shows what a person sees, not \x80\x99.
    warning = mis_decoded_warning("they\u00e2\u0080\u0099ll be late", where="line 4, Prompt")
    assert warning is not None and warning.startswith("line 4, Prompt: 'theyâ€™ll' looks mis-decoded")
    assert "\\x80" not in warning and "probably 'they\u2019ll'" in warning
