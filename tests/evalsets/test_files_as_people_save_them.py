"""Test sets as people save them: Excel's `;` CSV of many European locales, a workbook given as CSV,
headers that differ from a template only in case or spacing, a set without its reference column.
Each file is written here the way the program writes it (our own content).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import check_csv, load_csv, read_csv

SAVE_AS = 'save it as "CSV UTF-8 (comma delimited) (*.csv)"'


def _excel_semicolon_export(path: Path) -> Path:
    """What Excel writes for "CSV UTF-8" where the list separator is ';' (de-DE, fr-FR, ...): BOM, ';', CRLF."""
    rows = [
        "conversationNumber;question;response",
        '1;Wann öffnet der Laden?;"Um 9 Uhr; samstags um 10"',
        "2;Gibt es Leihräder?;Ja, ab 15 EUR am Tag",
    ]
    path.write_bytes(b"\xef\xbb\xbf" + "\r\n".join(rows).encode("utf-8") + b"\r\n")
    return path


def _workbook(path: Path) -> Path:
    """The start of an .xlsx (a ZIP with the parts every workbook has), renamed or given as the test set."""
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types/>')
        book.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook><sheets/></workbook>')
        book.writestr("xl/worksheets/sheet1.xml", '<?xml version="1.0"?><worksheet/>')
    return path


def test_a_semicolon_export_names_the_separator_and_how_to_save_it(tmp_path):
    problems = check_csv(_excel_semicolon_export(tmp_path / "fragen.csv"))
    assert problems == [
        "line 1: the fields are separated by ';', as Excel saves CSV where the list separator is ';' "
        f"(many European locales); the importer needs commas: in Excel, {SAVE_AS}, or set the list "
        "separator to ',' before saving"
    ]


@pytest.mark.parametrize("name", ["answers.xlsx", "answers.csv"])
def test_a_workbook_is_named_as_a_workbook(tmp_path, name):
    (problem,) = check_csv(_workbook(tmp_path / name))
    assert problem == f"this is an Excel workbook (.xlsx), not a CSV file: open it in Excel and {SAVE_AS}"
    assert "PK" not in problem


def test_a_header_that_differs_only_in_case_or_spacing_is_its_template(tmp_path):
    path = tmp_path / "community.csv"
    path.write_text("Question,Expected response\nWhat can you help me with?,Orders and returns\n", encoding="utf-8")
    test_set, problems = load_csv(path)
    assert problems == []
    assert [(c.question, c.response) for c in test_set.cases] == [("What can you help me with?", "Orders and returns")]
    spaced = tmp_path / "spaced.csv"
    spaced.write_text(" ConversationNumber , Question , Response \n1,hi,hello\n", encoding="utf-8")
    assert read_csv(spaced).cases[0].response == "hello"


@pytest.mark.parametrize(
    ("header", "missing"),
    [
        ("conversationNumber,question", "the conversation template's 'response' column"),
        ("question", "the single-response template's 'expectedResponse' column"),
    ],
)
def test_a_set_without_its_reference_column_names_the_column(tmp_path, header, missing):
    path = tmp_path / "short.csv"
    path.write_text(f"{header}\n" + ",".join(["1", "hi"][-len(header.split(",")) :]) + "\n", encoding="utf-8")
    (problem, *_) = check_csv(path)
    assert problem.startswith(f"line 1: header {header!r} lacks {missing}")
    assert "add the column" in problem and "matches no known template" not in problem


def test_validate_says_it_too(tmp_path):
    result = CliRunner().invoke(app, ["validate", str(_excel_semicolon_export(tmp_path / "fragen.csv"))])
    assert result.exit_code == 2  # unusable input (the table of exit codes)
    assert "the fields are separated by ';'" in result.stdout and "comma inside a field" not in result.stdout


def test_the_collector_takes_these_files_for_test_sets_so_their_problems_are_reported(tmp_path):
    from copilot_eval.evalsets.csv_reader import looks_like_test_set

    community = tmp_path / "community.csv"
    community.write_text("Question,Expected response\nhi,hello\n", encoding="utf-8")
    assert looks_like_test_set(_excel_semicolon_export(tmp_path / "fragen.csv"))
    assert looks_like_test_set(community)
