"""VS Code prompt files (`*.prompt.md`) as test sets: the body is the question, `${input:...}` filled from a
sidecar or `--var`, and what the runtime cannot apply (tools, a mode other than agent) named, never dropped."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets import load_prompt_file, looks_like_prompt_file
from copilot_eval.evalsets.prompt_cases import played_prompt

PROMPT = """\
---
description: Review one module for error handling
agent: ask
model: GPT-4.1 (copilot)
tools: ['codebase', 'editFiles']
---
Review ${input:module:the module to review} for error handling.
Focus on ${input:focus}.
"""
ROWS = """\
- name: orders
  module: orders.py
  focus: retries
  expected: retry
- name: billing
  module: billing.py
  focus: timeouts
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_the_body_is_the_question_filled_from_the_sidecar_rows(tmp_path):
    path = _write(tmp_path, "review.prompt.md", PROMPT)
    _write(tmp_path, "review.inputs.yaml", ROWS)
    assert looks_like_prompt_file(path)
    test_set, problems, _ = load_prompt_file(path)
    assert problems == [] and test_set is not None
    assert [case.case_key for case in test_set.cases] == ["orders", "billing"]
    assert played_prompt(test_set.cases[0]) == "Review orders.py for error handling.\nFocus on retries.\n"
    assert test_set.cases[0].response == "retry"
    assert test_set.prompt_file.description == "Review one module for error handling"
    assert test_set.prompt_file.model == "gpt-4.1"  # VS Code's name, as the runtime names it


def test_what_the_runtime_cannot_apply_is_named(tmp_path):
    path = _write(tmp_path, "review.prompt.md", PROMPT)
    test_set, _, notes = load_prompt_file(path, variables={"module": "a.py", "focus": "x"})
    assert any("tools (codebase, editFiles): not applied" in note for note in notes)
    assert any("agent/mode 'ask': not applied" in note for note in notes)
    assert "tools (codebase, editFiles)" in test_set.note  # what `run` prints before it starts


def test_a_variable_without_a_value_and_a_broken_frontmatter_are_problems(tmp_path):
    path = _write(tmp_path, "review.prompt.md", PROMPT)
    _, problems, _ = load_prompt_file(path, variables={"module": "a.py"})
    assert len(problems) == 1 and "{{focus}}" in problems[0] and "--var focus=VALUE" in problems[0]
    broken = _write(tmp_path, "broken.prompt.md", "---\nmodel: 'gpt-4.1\n---\nhello\n")
    _, problems, _ = load_prompt_file(broken)
    assert problems and problems[0].startswith("frontmatter: ")
    empty = _write(tmp_path, "empty.prompt.md", "---\ndescription: nothing\n---\n\n")
    assert "the prompt has no body" in load_prompt_file(empty)[1][0]


@pytest.mark.runtime
def test_a_prompt_file_runs_as_a_test_set_through_the_runtime(tmp_path):
    path = _write(tmp_path, "review.prompt.md", PROMPT)
    _write(tmp_path, "review.inputs.yaml", ROWS)
    script = _write(
        tmp_path, "script.yaml", "rules:\n  - when: {prompt_contains: orders.py}\n    turns: [{text: add a retry}]\n"
    )
    agent = _write(tmp_path, "agent.yaml", f"model:\n  scripted: {script.name}\ntimeout_s: 60\n")
    out = tmp_path / "out"
    outcome = CliRunner().invoke(
        app, ["run", str(path), "--agent", str(agent), "--grader", "keywords:retry", "--out", str(out), "--no-history"]
    )
    assert "tools (codebase, editFiles): not applied" in outcome.output
    run = json.loads((out / "run.json").read_text())
    statuses = {case["caseKey"]: case["status"] for case in run["results"]}
    assert statuses == {"orders": "pass", "billing": "fail"}, outcome.output


def test_a_folder_of_prompt_files_is_one_set_keyed_by_file(tmp_path):
    from copilot_eval.evalsets.prompt_cases import load_prompt_folder

    _write(tmp_path, "review.prompt.md", PROMPT)
    _write(tmp_path, "review.inputs.yaml", ROWS)
    _write(tmp_path, "summary.prompt.md", "---\nmodel: gpt-4o\n---\nSummarise ${input:topic}.\n")
    _write(tmp_path, "notes.md", "not a prompt file\n")
    test_set, problems, notes = load_prompt_folder(tmp_path, variables={"topic": "the release"})
    assert problems == []
    assert [case.case_key for case in test_set.cases] == ["review:orders", "review:billing", "summary"]
    assert [case.conversation_number for case in test_set.cases] == [1, 2, 3]
    assert test_set.prompt_file.model == ""  # two models: the agent's plays every case, and a note says so
    assert any("different models (gpt-4.1, gpt-4o)" in note for note in notes)
    assert any(note.startswith("review.prompt.md: ") and "tools (codebase, editFiles)" in note for note in notes)
    _, problems, _ = load_prompt_folder(tmp_path)
    assert problems == [
        "summary.prompt.md: messages[1].content: placeholder has no value: {{topic}}; give --var topic=VALUE, "
        "or the values in summary.inputs.yaml"
    ]
