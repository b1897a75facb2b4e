"""Trigger sets read from what people write: our YAML/JSON, a CSV, skill-creator's JSON; every problem at once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from copilot_eval.triggers import NONE, TriggerSetError, read_trigger_set, split_trigger_set


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_our_yaml_keeps_prompts_labels_tags_and_lines(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "pdf.yaml",
        "name: pdf-skills\nsiblings: [docx]\nprompts:\n"
        "  - {prompt: Fill in this PDF form, expected: pdf, tags: [explicit]}\n"
        "  - prompt: What is a PDF?\n    expected: None\n    tags: near-miss\n",
    )
    trigger_set = read_trigger_set(path)
    assert trigger_set.name == "pdf-skills" and trigger_set.names == ("docx", "pdf")
    first, second = trigger_set.prompts
    assert (first.number, first.expected, first.tags, first.line) == (1, "pdf", ("explicit",), 4)
    assert (second.expected, second.near_miss, second.should_trigger, second.line) == (NONE, True, False, 5)


def test_every_problem_is_named_at_once_with_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bad.yaml",
        "prompts:\n  - {prompt: '', expected: pdf}\n  - {prompt: ok, expcted: pdf}\n  - {prompt: twice, expected: a}\n"
        "  - {prompt: twice, expected: b}\n",
    )
    with pytest.raises(TriggerSetError) as caught:
        read_trigger_set(path)
    problems = caught.value.problems
    assert str(path) in str(caught.value)
    assert any(p.startswith("line 2:") and "prompt" in p for p in problems), problems
    assert any(p.startswith("line 3:") and "did you mean 'expected'" in p for p in problems), problems
    assert any(p.startswith("line 5:") and "already labelled 'a' (line 4)" in p for p in problems), problems


def test_json_in_our_shape_names_lines_too(tmp_path: Path) -> None:
    path = write(tmp_path, "s.json", '{\n "prompts": [\n  {"prompt": "x", "expected": 3}\n ]\n}\n')
    with pytest.raises(TriggerSetError) as caught:
        read_trigger_set(path)
    assert caught.value.problems[0].startswith("line 3:") and "expected" in caught.value.problems[0]


def test_csv_with_tags_and_problems_by_line(tmp_path: Path) -> None:
    good = write(tmp_path, "s.csv", 'prompt,expected,tags\n"Merge a, b and c",pdf,explicit;implicit\nhello,none,\n')
    trigger_set = read_trigger_set(good)
    assert [(p.prompt, p.expected, p.tags, p.line) for p in trigger_set.prompts] == [
        ("Merge a, b and c", "pdf", ("explicit", "implicit"), 2),
        ("hello", NONE, (), 3),
    ]
    bad = write(tmp_path, "b.csv", "prompt,expected\n,pdf\nok,\n")
    with pytest.raises(TriggerSetError) as caught:
        read_trigger_set(bad)
    assert caught.value.problems == [
        "line 2: prompt: the cell is empty",
        "line 3: expected: give the skill or custom agent's name, or 'none' (got '')",
    ]
    header = write(tmp_path, "h.csv", "question,answer\nx,y\n")
    with pytest.raises(TriggerSetError, match=r"line 1: the header must be prompt,expected\[,tags\]"):
        read_trigger_set(header)


def test_skill_creator_trigger_json_loads_as_published(tmp_path: Path) -> None:
    published = [
        {"query": "Can you turn this spreadsheet into a chart?", "should_trigger": True},
        {"query": "What's the capital of France?", "should_trigger": False},
    ]
    path = write(tmp_path, "trigger_evals.json", json.dumps(published, indent=2))
    trigger_set = read_trigger_set(path, skill="xlsx")
    assert [(p.prompt, p.expected) for p in trigger_set.prompts] == [
        ("Can you turn this spreadsheet into a chart?", "xlsx"),
        ("What's the capital of France?", NONE),
    ]
    with pytest.raises(TriggerSetError, match="about one skill: name it"):
        read_trigger_set(path)
    ported = write(tmp_path, "p.json", json.dumps({"evals": [{"prompt": "Chart this", "should_trigger": True}]}))
    assert [(p.prompt, p.expected) for p in read_trigger_set(ported, skill="xlsx").prompts] == [("Chart this", "xlsx")]
    wrong = write(tmp_path, "w.json", '[{"query": "x", "should_trigger": "yes"}]')
    with pytest.raises(TriggerSetError, match="line 1: \\[0\\]: should_trigger: expected true or false"):
        read_trigger_set(wrong, skill="xlsx")


def test_an_empty_or_unknown_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TriggerSetError, match="holds no prompt"):
        read_trigger_set(write(tmp_path, "e.yaml", "prompts: []\n"))
    with pytest.raises(TriggerSetError, match=r"use \.yaml, \.yml, \.json or \.csv"):
        read_trigger_set(write(tmp_path, "e.txt", "x"))
    with pytest.raises(TriggerSetError, match="cannot read the file"):
        read_trigger_set(tmp_path / "missing.yaml")


def test_the_split_is_seeded_stratified_and_keeps_numbers(tmp_path: Path) -> None:
    lines = [f"  - {{prompt: a{i}, expected: a}}" for i in range(10)]
    lines += [f"  - {{prompt: b{i}, expected: b}}" for i in range(5)]
    lines += [f"  - {{prompt: n{i}, expected: none, tags: [near-miss]}}" for i in range(5)]
    trigger_set = read_trigger_set(write(tmp_path, "s.yaml", "prompts:\n" + "\n".join(lines) + "\n"))
    train, held = split_trigger_set(trigger_set, validation=0.4, seed=7)
    assert sorted(p.number for p in train.prompts + held.prompts) == list(range(1, 21))
    assert [sum(p.expected == e for p in held.prompts) for e in ("a", "b", NONE)] == [4, 2, 2]
    again, _ = split_trigger_set(trigger_set, validation=0.4, seed=7)
    assert again.prompts == train.prompts
    other, _ = split_trigger_set(trigger_set, validation=0.4, seed=8)
    assert other.prompts != train.prompts


def test_the_examples_three_formats_load() -> None:
    example = Path(__file__).parents[2] / "examples" / "skills"
    assert len(read_trigger_set(example / "triggers.yaml").prompts) == 9
    assert read_trigger_set(example / "triggers.csv").prompts[1].expected == "dependency-audit"
    creator = read_trigger_set(example / "skill-creator-evals.json", skill="changelog-writer")
    assert [p.expected for p in creator.prompts] == ["changelog-writer", NONE]
