"""`copilot-eval validate` and `convert` with prompt files: every problem named, conversions refused by field."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import load_prompt_file, read_csv


@pytest.fixture
def runner(monkeypatch) -> CliRunner:
    import typer.rich_utils

    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 1000)
    return CliRunner()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


EVAL = """
    name: Capitals
    model: openai/gpt-4o-mini
    modelParameters: {temperature: 0.2}
    messages:
      - role: system
        content: ""
      - role: user
        content: "Capital of {{country}}?"
    testData:
      - {name: france, country: France, expected: Paris}
      - {country: Peru, expected: Lima}
    evaluators:
      - name: exact
        string: {equals: "{{expected}}"}
"""


def test_validate_a_prompt_file(runner, tmp_path):
    good = write(tmp_path, "capitals.prompt.yml", EVAL)
    result = runner.invoke(app, ["validate", str(good)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"{good}: OK, 2 cases to run (prompt file)",
        "  note: modelParameters temperature not applied: the Copilot runtime's sessions take no sampling "
        "parameters (the answers use the model's own defaults)",
    ]


def test_validate_lists_every_problem_and_takes_var(runner, tmp_path):
    bad = write(
        tmp_path,
        "ask.yml",  # not named as a prompt file: recognised by its messages
        """
        model: mistral-ai/mistral-small
        messages:
          - role: user
            content: "{{question}} {{ tone }}"
          - role: narrator
            content: x
        evaluators:
          - name: broken
        """,
    )
    result = runner.invoke(app, ["validate", "--json", str(bad), "--var", "question=Why?"])
    assert result.exit_code == 2  # unusable input (the table of exit codes)
    entry = json.loads(result.stdout)["files"][0]
    assert entry["kind"] == "prompt-file" and entry["ok"] is False
    assert entry["problems"] == [
        "line 5: messages[2].role: 'narrator' is not a role; expected system, user or assistant",
        "line 8: evaluators[1]: evaluator 'broken' has none of string, llm, uses (gh-models stops the run on it)",
        "line 4: messages[1].content: placeholder '{{ tone }}' is never filled: gh-models replaces '{{tone}}' "
        "exactly, so remove the spaces",
    ]
    usage = runner.invoke(app, ["validate", str(bad), "--var", "novalue"])
    assert usage.exit_code == 2 and "expected NAME=VALUE" in usage.stderr


def test_convert_refuses_what_cannot_map_naming_the_field(runner, tmp_path):
    source = write(tmp_path, "capitals.prompt.yml", EVAL)
    refused = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.csv")])
    assert refused.exit_code == 2  # unusable input (the table of exit codes)
    assert "evaluators (1): a Copilot Studio test set holds no graders" in refused.stderr
    assert "give --drop evaluators" in refused.stderr
    assert not (tmp_path / "out.csv").exists()
    done = runner.invoke(app, ["convert", str(source), str(tmp_path / "out.csv"), "--drop", "evaluators"])
    assert done.exit_code == 0, done.output
    assert "warning: row names are not kept" in done.stderr
    cases = read_csv(tmp_path / "out.csv").cases
    assert [(c.question, c.response) for c in cases] == [("Capital of France?", "Paris"), ("Capital of Peru?", "Lima")]


def test_a_copilot_studio_set_converts_to_a_prompt_file_and_back(runner, tmp_path):
    csv = write(
        tmp_path,
        "set.csv",
        """
        "question","expectedResponse"
        "When do you open?","At 8."
        "Say ""yes"" or no","yes"
        "Line one
        line two",
        """,
    )
    to_prompt = runner.invoke(app, ["convert", str(csv), str(tmp_path / "set.prompt.yml")])
    assert to_prompt.exit_code == 0, to_prompt.output
    test_set, problems, _ = load_prompt_file(tmp_path / "set.prompt.yml")
    assert problems == []
    assert [c.question for c in test_set.cases] == ["When do you open?", 'Say "yes" or no', "Line one\nline two"]
    assert [c.response for c in test_set.cases] == ["At 8.", "yes", ""]  # "yes" stays text
    back = runner.invoke(app, ["convert", str(tmp_path / "set.prompt.yml"), str(tmp_path / "back.csv")])
    assert back.exit_code == 0, back.output
    assert [(c.question, c.response) for c in read_csv(tmp_path / "back.csv").cases] == [
        (c.question, c.response) for c in read_csv(csv).cases
    ]


def test_a_conversation_cannot_map_to_a_prompt_file(runner, tmp_path):
    csv = write(
        tmp_path,
        "talk.csv",
        """
        conversationNumber,question,response
        1,Hi,Hello
        1,And then?,Then this
        2,Alone,Yes
        """,
    )
    result = runner.invoke(app, ["convert", str(csv), str(tmp_path / "talk.prompt.yml")])
    assert result.exit_code == 2  # unusable input (the table of exit codes)
    assert "conversationNumber 1: a conversation of 2 turns cannot map to a prompt file" in result.stderr
    assert not (tmp_path / "talk.prompt.yml").exists()
