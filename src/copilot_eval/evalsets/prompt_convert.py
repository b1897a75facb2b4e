"""Between a prompt file and a Copilot Studio test set, where the fields map; what cannot map is refused by name.

A prompt file maps onto a single-response set when it asks one user message per row: each row's
filled-in user message is a question, its ``expected`` the reference. Its system message, its
evaluators and its response format have no place in a Copilot Studio set: each is refused, naming
the field, unless ``drop`` names it too (``--drop system``, ``--drop evaluators``, ``--drop
responseFormat``). Earlier user or assistant messages cannot map at all. What is run settings
rather than data (``model``, ``modelParameters``, ``description``, row names) is dropped with a
warning. The other way, each case becomes a row ``{input, expected}`` of a file asking
``{{input}}``; a conversation of several turns cannot map, nor a legacy testing method unless
dropped (``--drop testingMethod``).
"""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import yaml

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets.conversations import group_conversations
from copilot_eval.evalsets.errors import EvalSetError
from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.prompt_text import placeholders
from copilot_eval.evalsets.prompt_yaml import plain_value

#: The fields ``drop`` may name, each of which would otherwise refuse the conversion.
DROPPABLE = ("system", "evaluators", "responseFormat", "testingMethod")
_ROW_KEYS_KEPT = ("expected",)


class PromptConvertError(EvalSetError):
    """A conversion that would lose a field the other format has no place for; ``problems`` names each."""


def _check_drop(drop: Collection[str]) -> None:
    unknown = sorted(set(drop) - set(DROPPABLE))
    if unknown:
        raise ValueError(f"--drop {', '.join(unknown)}: expected one of {', '.join(DROPPABLE)}")


def copilot_studio_set(
    test_set: EvalTestSet, *, drop: Collection[str] = (), source: Path | str | None = None
) -> tuple[EvalTestSet, list[str]]:
    """A prompt file's set as a Copilot Studio single-response set, and the warnings of what was left out."""
    _check_drop(drop)
    record = test_set.prompt_file
    if record is None:
        raise ValueError("not a prompt file's set")
    problems, warnings = [], []
    for index, message in enumerate(record.messages, start=1):
        if message.role == "system" and message.content.strip() and "system" not in drop:
            problems.append(
                f"messages[{index}] (system): a Copilot Studio test set has no system message; the agent holds its "
                "instructions (give --drop system to convert without it)"
            )
    if any(case.prompt is not None and case.prompt.history for case in test_set.cases):
        problems.append(
            "messages: earlier user or assistant messages before the question cannot map to a test set's rows "
            "(a Copilot Studio conversation is the agent's own answers, not written ones)"
        )
    if record.evaluators and "evaluators" not in drop:
        problems.append(
            f"evaluators ({len(record.evaluators)}): a Copilot Studio test set holds no graders; choose them when "
            "the set is run (give --drop evaluators to convert without them)"
        )
    if record.response_format not in (None, "text") and "responseFormat" not in drop:
        problems.append(
            f"responseFormat {record.response_format}: a Copilot Studio test set cannot ask for a format "
            "(give --drop responseFormat to convert without it)"
        )
    if problems:
        raise PromptConvertError(source, problems)
    for name in ("model", "description"):
        if getattr(record, name):
            warnings.append(f"{name} is not kept: a Copilot Studio test set has none")
    if record.model_parameters:
        warnings.append("modelParameters are not kept: a Copilot Studio test set has none")
    used = {name for message in record.messages for name in placeholders(message.content)}
    keys = {key for case in test_set.cases if case.prompt is not None for key in case.prompt.variables}
    if "name" in keys:
        warnings.append("row names are not kept: Copilot Studio numbers the rows 1..n")
    lost = sorted(keys - used - {"name", *_ROW_KEYS_KEPT})
    if lost:
        warnings.append(f"testData keys not kept (no message uses them): {', '.join(lost)}")
    cases = [
        EvalTestCase(conversation_number=position, question=case.question, response=case.response)
        for position, case in enumerate(test_set.cases, start=1)
    ]
    converted = EvalTestSet(name=test_set.name, data_type=EvalDataType.SINGLE_TURN, cases=cases)
    return converted, warnings


def prompt_document(
    test_set: EvalTestSet, *, drop: Collection[str] = (), source: Path | str | None = None
) -> tuple[dict[str, Any], list[str]]:
    """A Copilot Studio set as a prompt file's content (``{{input}}`` and ``expected`` per row), and warnings."""
    _check_drop(drop)
    problems, warnings = [], []
    if test_set.data_type is EvalDataType.CONVERSATION:
        for group in group_conversations(test_set.cases):
            if len(group.cases) > 1:
                problems.append(
                    f"conversationNumber {group.number}: a conversation of {len(group.cases)} turns cannot map to a "
                    "prompt file, whose rows are one question each"
                )
    methods = [index for index, case in enumerate(test_set.cases, start=1) if case.testing_method]
    if methods and "testingMethod" not in drop:
        shown = ", ".join(str(index) for index in methods[:10])
        problems.append(
            f"testingMethod (cases {shown}): a prompt file names its evaluators, not a method per row "
            "(give --drop testingMethod to convert without them)"
        )
    if problems:
        raise PromptConvertError(source, problems)
    if test_set.preamble:
        warnings.append("the comment block before the CSV header is not kept")
    warnings.append("the prompt file names no model: add model: (gh-models needs one), or run it with --model")
    rows = []
    for case in test_set.cases:
        row: dict[str, Any] = {"input": case.question}
        if case.response:
            row["expected"] = case.response
        rows.append(row)
    document = {
        "name": test_set.name,
        "messages": [{"role": "user", "content": "{{input}}"}],
        "testData": rows,
    }
    return document, warnings


class _Dumper(yaml.SafeDumper):
    """Multi-line text as a block (``|``), as people write prompt files; everything else as PyYAML writes it."""


def _text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style: str | None = None
    if "\n" in value and not value.startswith(" ") and all(c.isprintable() or c == "\n" for c in value):
        style = "|"
    elif plain_value(value) != value:
        style = '"'  # text gh-models' reader would take for a number, a boolean or null (0o17, True): quoted
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def prompt_file_text(document: dict[str, Any]) -> str:
    """A prompt file's YAML text for ``document``, keys in the order given."""
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def write_prompt_file(document: dict[str, Any], path: Path | str) -> None:
    """Write ``document`` as a prompt file at ``path``, all at once."""
    write_bytes_atomically(Path(path), prompt_file_text(document).encode("utf-8"))


__all__ = [
    "DROPPABLE",
    "PromptConvertError",
    "copilot_studio_set",
    "prompt_document",
    "prompt_file_text",
    "write_prompt_file",
]
