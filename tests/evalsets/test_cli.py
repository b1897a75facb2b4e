"""`copilot-eval validate` and `copilot-eval convert`: output and exact exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import read_csv, read_test_set_json

EXAMPLE = Path(__file__).parents[2] / "examples" / "evalsets" / "knowledge.csv"


@pytest.fixture
def runner(monkeypatch) -> CliRunner:
    # Typer draws usage errors in a panel as wide as the terminal; widen it so that long tmp
    # paths are not wrapped in the middle of the text the tests look for.
    import typer.rich_utils

    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 1000)
    return CliRunner()


def test_validate_clean_file_exits_0(runner):
    result = runner.invoke(app, ["validate", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{EXAMPLE}: OK, imports cleanly (copilot-studio rules)\n"


def test_validate_lists_every_problem_and_exits_2_as_unusable_input(runner, data_dir):
    bad = data_dir / "several_problems.csv"
    result = runner.invoke(app, ["validate", "--profile", "seed", str(EXAMPLE), str(bad)])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"exit 2 (unusable input): 1 of 2 files would not import: {bad}"
    lines = result.stdout.splitlines()
    assert lines[0].endswith("OK, imports cleanly (seed rules)")
    assert lines[1].startswith(f"{bad}: ") and lines[1].endswith("problems (seed rules)")
    assert "  - line 2, conversationNumber: 'x' is not an integer" in lines
    assert "  - case 1 (conversationNumber 2): question is blank; seed requires one" in lines


def test_validate_json_output_is_pure_json(runner, data_dir):
    bad = data_dir / "seven_pairs.csv"
    result = runner.invoke(app, ["validate", "--json", "--profile", "seed", str(EXAMPLE), str(bad)])
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["ok"] is False and document["profile"] == "seed"
    assert document["files"][0] == {"path": str(EXAMPLE), "ok": True, "problems": [], "warnings": [], "notes": []}
    assert document["files"][1]["problems"] == [
        "test set 'seven_pairs' has 7 question-and-answer pairs; seed allows at most 6 in a Conversation set"
    ]


def test_validate_reads_json_sets(runner, tmp_path):
    path = tmp_path / "set.json"
    path.write_text('{"name": "x", "cases": []}', encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 2
    assert "has no cases" in result.stdout


def test_validate_missing_file_is_a_usage_error(runner, tmp_path):
    missing = tmp_path / "nope.csv"
    result = runner.invoke(app, ["validate", str(EXAMPLE), str(missing)])
    assert result.exit_code == 2
    assert "nope.csv" in result.stderr and "does not exist" in result.stderr


def test_validate_without_files_is_a_usage_error(runner):
    assert runner.invoke(app, ["validate"]).exit_code == 2


def test_convert_csv_to_json_and_back(runner, tmp_path):
    as_json = tmp_path / "k.json"
    result = runner.invoke(app, ["convert", str(EXAMPLE), str(as_json)])
    assert result.exit_code == 0, result.output
    assert read_test_set_json(as_json).cases == read_csv(EXAMPLE).cases
    back = tmp_path / "k.csv"
    assert runner.invoke(app, ["convert", str(as_json), str(back)]).exit_code == 0
    assert back.read_bytes().startswith(b'"conversationNumber","question","response"\r\n')
    assert read_csv(back).cases == read_csv(EXAMPLE).cases


def test_convert_between_templates(runner, data_dir, tmp_path):
    out = tmp_path / "single.csv"
    result = runner.invoke(
        app, ["convert", str(data_dir / "valid_legacy.csv"), str(out), "--template", "single-response"]
    )
    assert result.exit_code == 0
    assert "testing-method column; methods are dropped" in result.stderr
    assert out.read_text(encoding="utf-8").splitlines()[0] == '"question","expectedResponse"'
    legacy = tmp_path / "legacy.csv"
    assert runner.invoke(app, ["convert", str(data_dir / "valid_legacy.csv"), str(legacy)]).exit_code == 0
    assert read_csv(legacy).cases == read_csv(data_dir / "valid_legacy.csv").cases


def test_convert_unreadable_input_exits_2_and_writes_nothing(runner, data_dir, tmp_path):
    out = tmp_path / "out.json"
    result = runner.invoke(app, ["convert", str(data_dir / "unbalanced_quotes.csv"), str(out)])
    assert result.exit_code == 2
    assert result.stderr.startswith("exit 2 (unusable input): ")
    assert "line 3:" in result.stderr
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["OUT.txt"], "suffix must be .csv, .json or .prompt.yml"),
        (["OUT.csv", "--template", "excel"], "unknown CSV template 'excel'"),
        (["OUT.json", "--template", "conversation"], "--template applies only to CSV output"),
        (["OUT.csv", "--data-type", "Chat"], "Chat"),
    ],
)
def test_convert_usage_errors_exit_2(runner, tmp_path, args, message):
    result = runner.invoke(app, ["convert", str(EXAMPLE), str(tmp_path / args[0]), *args[1:]])
    assert result.exit_code == 2
    assert message in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_convert_missing_input_exits_2(runner, tmp_path):
    result = runner.invoke(app, ["convert", str(tmp_path / "gone.csv"), str(tmp_path / "out.json")])
    assert result.exit_code == 2
    assert "gone.csv" in result.stderr
