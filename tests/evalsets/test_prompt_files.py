"""Prompt files (``*.prompt.yml``): read as gh-models reads them, every problem in one pass, rows as cases."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from copilot_eval.evalsets import EvalDataType, validate_eval_test_set
from copilot_eval.evalsets.prompt_cases import (
    load_prompt_file,
    looks_like_prompt_file,
    parse_variables,
    played_prompt,
    session_instructions,
)


def write(tmp_path: Path, text: str, name: str = "case.prompt.yml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def problems_of(tmp_path: Path, text: str, **options) -> list[str]:
    return load_prompt_file(write(tmp_path, text), **options)[1]


GOOD = """
    name: Capitals
    model: openai/gpt-4o-mini
    messages:
      - role: system
        content: You answer with the capital only.
      - role: user
        content: "Capital of {{country}}?"
    testData:
      - name: france
        country: France
        expected: Paris
      - country: Peru
        expected: Lima
    evaluators:
      - name: exact
        string:
          equals: "{{expected}}"
"""


def test_a_good_file_gives_one_single_turn_case_per_row(tmp_path):
    test_set, problems, notes = load_prompt_file(write(tmp_path, GOOD))
    assert problems == [] and notes == []
    assert test_set is not None
    assert test_set.name == "Capitals"
    assert test_set.data_type is EvalDataType.SINGLE_TURN
    assert [c.question for c in test_set.cases] == ["Capital of France?", "Capital of Peru?"]
    assert [c.response for c in test_set.cases] == ["Paris", "Lima"]
    # The row's name is its case key; a row without one is named by its 1-based position.
    assert [c.case_key for c in test_set.cases] == ["france", "2"]
    assert [c.conversation_number for c in test_set.cases] == [1, 2]
    assert test_set.cases[0].prompt.variables == {"name": "france", "country": "France", "expected": "Paris"}
    assert session_instructions(test_set.cases[0]) == "You answer with the capital only."
    assert test_set.prompt_file.evaluators == [{"name": "exact", "string": {"equals": "{{expected}}"}}]


def test_rows_keep_every_key_and_values_read_as_gh_models_reads_them(tmp_path):
    test_set, problems, _ = load_prompt_file(
        write(
            tmp_path,
            """
            messages:
              - role: user
                content: "{{answer}} {{day}} {{count}} {{ratio}} {{big}} {{flag}} {{nothing}} {{items}}"
            testData:
              - answer: yes
                day: 2024-05-01
                count: 0x1F
                ratio: 0.5
                big: 1000000.0
                flag: true
                nothing: null
                items: [a, 2]
                unused: kept
            """,
        )
    )
    assert problems == []
    case = test_set.cases[0]
    # YAML 1.1 readers turn `yes` into a boolean and the date into a date; gh-models keeps the text.
    assert case.prompt.variables["answer"] == "yes"
    assert case.prompt.variables["day"] == "2024-05-01"
    assert case.prompt.variables["unused"] == "kept"
    # Values that are not text are written as Go writes them.
    assert case.question == "yes 2024-05-01 31 0.5 1e+06 true <nil> [a 2]"


def test_role_case_does_not_matter_and_a_bad_role_is_named(tmp_path):
    problems = problems_of(
        tmp_path,
        """
        messages:
          - role: System
            content: Be brief.
          - role: robot
            content: Beep.
          - role: USER
            content: Hello
        """,
    )
    assert problems == ["line 4: messages[2].role: 'robot' is not a role; expected system, user or assistant"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("model: openai/gpt-4o\n", "line 1: no messages: a prompt file needs a 'messages' list"),
        ("messages: []\n", "line 1: messages: the list is empty"),
        ("- role: user\n", "line 1: expected a mapping of name, model, messages"),
        (
            "messages:\n  - role: system\n    content: hi\n",
            "line 1: messages: no user message: copilot-eval asks the last user message as the question",
        ),
        (
            "messages:\n  - role: user\n    content: hi\n  - role: assistant\n    content: Sure,\n",
            "line 4: messages[2]: the last message is an assistant message",
        ),
        ("messages: [\n", "line 2, column 1: not valid YAML"),
    ],
)
def test_structural_problems_name_the_line(tmp_path, text, expected):
    problems = problems_of(tmp_path, text)
    assert len(problems) == 1 and problems[0].startswith(expected), problems


def test_response_formats(tmp_path):
    base = "messages:\n  - role: user\n    content: Describe a dog.\n"
    assert problems_of(tmp_path, base + "responseFormat: xml\n") == [
        "line 4: responseFormat: 'xml' is not one of text, json_object, json_schema"
    ]
    assert problems_of(tmp_path, base + "responseFormat: json_schema\n") == [
        "line 4: responseFormat: json_schema needs a jsonSchema: a JSON string holding 'name' and 'schema'"
    ]
    mapping = problems_of(tmp_path, base + "responseFormat: json_schema\njsonSchema:\n  name: dog\n")
    assert mapping[0].startswith("line 5: jsonSchema: must be a JSON string (gh-models reads no YAML mapping here)")
    nameless = problems_of(tmp_path, base + "responseFormat: json_schema\njsonSchema: '{\"schema\": {}}'\n")
    assert nameless == ["line 5: jsonSchema: has no 'name' (gh-models requires 'name' and 'schema')"]
    broken = problems_of(tmp_path, base + "responseFormat: json_schema\njsonSchema: '{\"name\": '\n")
    assert broken[0].startswith("line 5: jsonSchema: not valid JSON")
    bad_schema = problems_of(
        tmp_path, base + 'responseFormat: json_schema\njsonSchema: \'{"name": "d", "schema": {"type": 5}}\'\n'
    )
    assert bad_schema[0].startswith("line 5: jsonSchema: 'schema' is not a valid JSON Schema at type:")
    _, problems, notes = load_prompt_file(write(tmp_path, base + 'jsonSchema: \'{"name": "d", "schema": {}}\'\n'))
    assert problems == [] and notes == [
        "line 4: jsonSchema is ignored unless responseFormat is json_schema, as in gh-models"
    ]


def test_placeholders_no_row_fills_are_named_with_their_rows(tmp_path):
    problems = problems_of(
        tmp_path,
        """
        messages:
          - role: user
            content: "{{input}} in {{city}} {{ input }}"
        testData:
          - input: a
            city: Oslo
          - input: b
          - input: c
        evaluators:
          - name: e
            string:
              contains: "{{wanted}}"
        """,
    )
    assert problems == [
        "line 3: messages[1].content: placeholder {{city}} is not filled in rows 2, 3 (2 of 3)",
        "line 3: messages[1].content: placeholder '{{ input }}' is never filled: gh-models replaces '{{input}}' "
        "exactly, so remove the spaces",
        "line 12: evaluators[1].string.contains: placeholder {{wanted}} is filled by no testData row (nor --var)",
    ]


def test_a_file_without_test_data_is_one_case_filled_from_var(tmp_path):
    text = """
        messages:
          - role: system
            content: You are {{persona}}.
          - role: user
            content: "{{input}}"
        """
    assert problems_of(tmp_path, text) == [
        "line 3: messages[1].content: placeholder has no value: {{persona}}; the file has no testData, so give "
        "--var persona=VALUE",
        "line 5: messages[2].content: placeholder has no value: {{input}}; the file has no testData, so give "
        "--var input=VALUE",
    ]
    test_set, problems, _ = load_prompt_file(
        write(tmp_path, text), variables=parse_variables(["persona=a pirate", "input= Ahoy? "])
    )
    assert problems == []
    assert len(test_set.cases) == 1
    assert test_set.cases[0].question == " Ahoy? "  # the value kept as written, as gh models run keeps it
    assert test_set.cases[0].case_key == "1"
    assert session_instructions(test_set.cases[0]) == "You are a pirate."


def test_var_values_under_rows(tmp_path):
    test_set, problems, _ = load_prompt_file(
        write(
            tmp_path,
            """
            messages:
              - role: user
                content: "{{greeting}}, {{name}}"
            testData:
              - name: Ann
              - name: Bo
                greeting: Hey
            """,
        ),
        variables={"greeting": "Hello"},
    )
    assert problems == []
    assert [c.question for c in test_set.cases] == ["Hello, Ann", "Hey, Bo"]


def test_parse_variables_refuses_what_gh_models_refuses():
    assert parse_variables(["a=1=2", "b="]) == {"a": "1=2", "b": ""}
    with pytest.raises(ValueError, match="expected NAME=VALUE"):
        parse_variables(["novalue"])
    with pytest.raises(ValueError, match="the name before '=' is empty"):
        parse_variables(["=x"])
    with pytest.raises(ValueError, match="given twice"):
        parse_variables(["a=1", "a=2"])


def test_evaluator_problems(tmp_path):
    problems = problems_of(
        tmp_path,
        """
        messages:
          - role: user
            content: "{{input}}"
        testData:
          - input: hi
        evaluators:
          - name: nothing
          - name: both
            string: {contains: a}
            uses: github/fluency
          - name: unknown built-in
            uses: github/similarty
          - name: regex
            string:
              regex: "^a"
          - name: empty rule
            string:
              equals: ""
          - name: judge
            llm:
              prompt: Rate {{completion}}
              modelId: openai/gpt-4.1
              choices:
                - choice: "Yes"
                  score: 1
                - choice: " yes "
                  score: 0.5
                - choice: "no"
                  score: high
          - name: hopeless
            llm:
              modelId: ""
              choices:
                - {choice: a, score: 0}
          - name: similar
            uses: github/similarity
        """,
    )
    assert problems == [
        "line 7: evaluators[1]: evaluator 'nothing' has none of string, llm, uses (gh-models stops the run on it)",
        "line 8: evaluators[2]: evaluator 'both' has string and uses; give one (gh-models would use only string)",
        "line 12: evaluators[3].uses: unknown built-in 'github/similarty' (did you mean 'github/similarity'?); "
        "gh-models has github/similarity, github/coherence, github/fluency, github/relevance, github/groundedness "
        "(it scores any other as 0)",
        "line 15: evaluators[4].string.regex: unknown string rule 'regex'; gh-models knows equals, contains, "
        "startsWith, endsWith and would ignore it",
        "line 17: evaluators[5].string: no string rule: give one of equals, contains, startsWith, endsWith with a "
        "non-empty value",
        "line 26: evaluators[6].llm.choices[2]: choice ' yes ' repeats choice 1 (choices are matched trimmed, "
        "ignoring case)",
        "line 28: evaluators[6].llm.choices[3]: choice 'no': score must be a number, got 'high'",
        "line 31: evaluators[7].llm.prompt: no prompt: the judge needs one (use {{completion}} for the answer)",
        "line 33: evaluators[7].llm.choices: no choice scores above 0: no answer could pass (gh-models passes a "
        "score above 0)",
        "line 32: evaluators[7].llm.modelId: no modelId: gh-models needs the judge's model (copilot-eval also takes "
        "--judge)",
        "line 36: evaluators[8].uses: github/similarity reads each row's 'expected'; row 1 (1 of 1) has none",
    ]


def test_duplicate_keys_names_and_unknown_keys(tmp_path):
    test_set, problems, notes = load_prompt_file(
        write(
            tmp_path,
            """
            messages:
              - role: user
                content: "{{input}}"
            testData:
              - name: same
                input: a
              - name: same
                input: b
            evaluator:
              - name: x
            modelParameters:
              temperature: warm
              seed: 3
            model: openai/gpt-4o
            model: openai/gpt-4.1
            """,
        )
    )
    assert test_set is None
    assert problems == [
        "line 15: key 'model' is already defined at line 14 (gh-models refuses the file)",
        "line 12: modelParameters.temperature: expected a number, got 'warm'",
        "line 7: testData[2]: row 2 has the case key 'same' of row 1: a row's name (else its position) names its "
        "case in every report; give each row its own name",
    ]
    assert notes == [
        "line 9: unknown key 'evaluator' is ignored, as gh-models ignores it (did you mean 'evaluators'?)",
        "line 13: modelParameters.seed is not one gh-models reads; it is ignored",
    ]


def test_a_file_that_is_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "latin.prompt.yml"
    path.write_bytes(b"messages:\n  - role: user\n    content: caf\xe9\n")
    assert load_prompt_file(path)[1] == ["line 3: byte 0xe9 is not UTF-8; save the file as UTF-8"]


def test_earlier_messages_are_asked_as_a_transcript_before_the_question(tmp_path):
    test_set, problems, _ = load_prompt_file(
        write(
            tmp_path,
            """
            messages:
              - role: system
                content: Be kind.
              - role: user
                content: My name is {{name}}.
              - role: assistant
                content: Hello {{name}}!
              - role: user
                content: What is my name?
            testData:
              - name: Ada
            """,
        )
    )
    assert problems == []
    case = test_set.cases[0]
    assert case.question == "What is my name?"
    assert [(m.role, m.content) for m in case.prompt.history] == [
        ("user", "My name is Ada."),
        ("assistant", "Hello Ada!"),
    ]
    prompt = played_prompt(case)
    assert prompt.startswith("The conversation so far:\n\n[user]\nMy name is Ada.\n\n[assistant]\nHello Ada!")
    assert prompt.endswith("Now answer this message:\n\nWhat is my name?")


def test_json_formats_are_told_to_the_session(tmp_path):
    test_set, problems, _ = load_prompt_file(
        write(
            tmp_path,
            """
            messages:
              - role: user
                content: Describe a {{animal}}.
            responseFormat: json_schema
            jsonSchema: '{"name": "animal", "schema": {"type": "object", "required": ["name"]}}'
            testData:
              - animal: cat
            """,
        )
    )
    assert problems == []
    instructions = session_instructions(test_set.cases[0])
    assert instructions.startswith("Answer with one JSON object and nothing else")
    assert '"required": [\n    "name"\n  ]' in instructions


def test_recognised_by_name_or_by_content(tmp_path):
    named = write(tmp_path, "messages: []\n", "a.prompt.yaml")
    other = write(tmp_path, "messages:\n  - role: user\n    content: hi\n", "plain.yml")
    agent = write(tmp_path, "name: agent\nmodel: gpt-4.1\n", "agent.yml")
    assert looks_like_prompt_file(named)
    assert looks_like_prompt_file(other)
    assert not looks_like_prompt_file(agent)
    assert not looks_like_prompt_file(tmp_path / "set.csv")


def test_the_importer_rules_do_not_apply_to_a_prompt_file(tmp_path):
    rows = "".join(f"  - input: '{'x' * 600} {i}'\n" for i in range(120))
    path = write(tmp_path, "messages:\n  - role: user\n    content: '{{input}}'\ntestData:\n" + rows)
    test_set, problems, _ = load_prompt_file(path)
    assert problems == []
    # 120 questions of 600 characters: over Copilot Studio's import limits, and no concern of a prompt file.
    assert validate_eval_test_set(test_set) == []
