"""One reader tells the kind of a test-set file; `run`, `validate`, `convert` and the pytest collector all ask it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets.set_kind import KIND_WORDS, SetKind, kind_by_name, kind_of_set, unknown_kind_message
from copilot_eval.runs.prepare import PrepareError, read_test_set

CSV = '"conversationNumber","question","response"\n"1","Opening hours?","Nine to five."\n'
JSON = '{"name": "shop", "cases": [{"conversationNumber": 1, "question": "Opening hours?", "response": "Nine"}]}\n'
PROMPT = "messages:\n  - role: user\n    content: Opening hours?\ntestData:\n  - {}\n"
MARKDOWN = "---\nmode: agent\n---\nWhat are the opening hours?\n"
YAML_SET = "name: shop\ncases:\n  - conversationNumber: 1\n    question: Opening hours?\n    response: Nine\n"


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_an_unreadable_yaml_set_goes_to_its_own_reader_which_names_the_line(tmp_path):
    path = _write(tmp_path, "broken.yaml", YAML_SET + "  - [unclosed\n")
    assert kind_of_set(path) is SetKind.YAML
    with pytest.raises(PrepareError, match=r"(?s)broken.yaml.*line \d+: not valid YAML"):
        read_test_set(path)


@pytest.mark.parametrize(
    ("name", "text", "kind"),
    [
        ("set.csv", CSV, SetKind.CSV),
        ("set.txt", CSV, SetKind.CSV),  # another name: the test-set header says it
        ("set.json", JSON, SetKind.JSON),
        ("chat.prompt.yml", PROMPT, SetKind.PROMPT),
        ("chat.prompt.yaml", PROMPT, SetKind.PROMPT),
        ("chat.yml", PROMPT, SetKind.PROMPT),  # YAML with messages
        ("set.yaml", YAML_SET, SetKind.YAML),  # YAML with cases: the JSON form written in YAML
        ("hours.prompt.md", MARKDOWN, SetKind.PROMPT_MARKDOWN),
        ("prompts/hours.prompt.md", MARKDOWN, SetKind.PROMPT_FOLDER),  # the folder that holds it
    ],
)
def test_each_kind_is_told_and_read(tmp_path, name, text, kind):
    path = _write(tmp_path, name, text)
    if kind is SetKind.PROMPT_FOLDER:
        path = path.parent
    assert kind_of_set(path) is kind
    test_set = read_test_set(path)  # the reader `copilot-eval run` and the pytest collector use
    assert test_set.cases and "opening hours" in test_set.cases[0].question.lower()
    assert (test_set.prompt_file is not None) == kind.value.startswith("prompt")


@pytest.mark.parametrize(
    ("name", "text", "why"),
    [
        ("notes.txt", "just some notes\n", "not a test set of any kind this tool reads (no test-set header in it)"),
        (
            "agent.yaml",
            "name: shop\nmodel: gpt-4.1\n",
            "a YAML file with neither `messages` (a prompt file) nor `cases` (a test set)",
        ),
        ("empty", "", "not a test set of any kind this tool reads (no test-set header in it)"),
    ],
)
def test_a_file_of_no_known_kind_is_refused_naming_it_and_the_kinds_accepted(tmp_path, name, text, why):
    path = _write(tmp_path, name, text)
    assert kind_of_set(path) is None
    message = unknown_kind_message(path)
    assert message.startswith(f"{path}: {why}; give ") and all(words in message for words in KIND_WORDS.values())
    with pytest.raises(PrepareError) as refused:
        read_test_set(path)
    assert str(refused.value) == message


def test_a_folder_without_prompt_files_and_a_missing_file_are_named(tmp_path):
    assert kind_of_set(tmp_path) is None
    assert unknown_kind_message(tmp_path).startswith(f"{tmp_path}: a folder with no *.prompt.md file in it; give ")
    with pytest.raises(PrepareError, match=r"gone.csv: test set file not found$"):
        read_test_set(tmp_path / "gone.csv")


def test_names_alone_decide_what_is_written_and_what_the_collector_looks_at():
    assert kind_by_name("out.yml") is None and kind_by_name("out.yml", writing=True) is SetKind.PROMPT
    assert kind_by_name("a.CSV") is SetKind.CSV and kind_by_name("a.Prompt.Yml") is SetKind.PROMPT
    assert kind_by_name("notes.txt") is None and kind_by_name("x.prompt.md") is SetKind.PROMPT_MARKDOWN


def test_validate_and_convert_refuse_a_file_of_no_known_kind_with_the_same_words(tmp_path):
    path = _write(tmp_path, "notes.txt", "just some notes\n")
    runner = CliRunner()
    validated = runner.invoke(app, ["validate", str(path)])
    assert validated.exit_code == 2 and "not a test set of any kind this tool reads" in validated.output
    assert "a VS Code prompt file (.prompt.md)" in validated.output
    converted = runner.invoke(app, ["convert", str(path), str(tmp_path / "out.json")], terminal_width=1000)
    assert converted.exit_code == 2 and "not a test set of any kind this tool reads" in converted.output
    assert not (tmp_path / "out.json").exists()
    markdown = _write(tmp_path, "hours.prompt.md", MARKDOWN)  # a kind `convert` does not take, named as such
    refused = runner.invoke(app, ["convert", str(markdown), str(tmp_path / "out.json")], terminal_width=1000)
    assert refused.exit_code == 2 and "a VS Code prompt file (.prompt.md), which is not taken here" in refused.output
