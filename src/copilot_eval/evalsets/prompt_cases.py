"""A prompt file as a test set: each ``testData`` row one single-turn case, played as gh-models would send it.

Each row's variables fill the messages (plain ``{{name}}`` replacement, see ``prompt_text``). The
system message(s) become the session's instructions; the last user message is the case's
question; the user and assistant messages before it are the conversation so far, which the
runtime cannot be handed as turns it did not play, so they are written before the question as a
transcript (``played_prompt``). A file without ``testData`` is one case filled from ``--var``.
A row's ``expected`` is the case's reference answer; its ``name`` (else its position) its case key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.prompt_checks import case_key, check_prompt_file, effective_rows
from copilot_eval.evalsets.prompt_markdown import (
    combine_prompt_sets,
    is_prompt_markdown,
    parse_prompt_markdown,
    prompt_markdown_files,
)
from copilot_eval.evalsets.prompt_model import PromptFileRecord, PromptMessage, PromptRow
from copilot_eval.evalsets.prompt_reader import PromptFileParse, read_prompt_file
from copilot_eval.evalsets.prompt_text import fill, go_text
from copilot_eval.evalsets.set_kind import PROMPT_SUFFIXES, YAML_SUFFIXES, SetKind, kind_by_name, kind_of_set


def is_prompt_file_name(path: Path | str) -> bool:
    """Whether ``path`` is named as a prompt file: ``*.prompt.yml`` or ``*.prompt.yaml``."""
    return kind_by_name(path) is SetKind.PROMPT


def looks_like_prompt_file(path: Path | str) -> bool:
    """A prompt file by name, or another ``.yml``/``.yaml`` file whose top level holds ``messages`` (``kind_of_set``)."""
    return kind_of_set(path) in (SetKind.PROMPT, SetKind.PROMPT_MARKDOWN)


def set_name(record: PromptFileRecord, path: Path) -> str:
    """The set's name: the file's ``name``, else the file name without ``.prompt.yml``."""
    if record.name.strip():
        return record.name.strip()
    name = path.name
    for suffix in (*PROMPT_SUFFIXES, *YAML_SUFFIXES):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)] or name
    return path.stem


def _case(
    record: PromptFileRecord, variables: dict[str, Any], position: int, key: str, answer_format: str | None
) -> EvalTestCase:
    filled = [PromptMessage(role=m.role, content=fill(m.content, variables)) for m in record.messages]
    system = [m.content for m in filled if m.role == "system" and m.content.strip()]
    rest = [m for m in filled if m.role != "system"]
    last_user = max(index for index, message in enumerate(rest) if message.role == "user")
    expected = variables.get("expected")
    return EvalTestCase(
        conversation_number=position,
        question=rest[last_user].content,
        response=go_text(expected) if expected is not None and not isinstance(expected, (dict, list)) else "",
        case_key=key,
        prompt=PromptRow(
            variables=variables,
            instructions="\n\n".join(system) or None,
            history=rest[:last_user],
            answer_format=answer_format,
        ),
    )


def prompt_test_set(parse: PromptFileParse, variables: Mapping[str, Any] | None = None) -> EvalTestSet:
    """The test set of a checked prompt file: one SingleTurn case per row (or one from ``variables``)."""
    assert parse.record is not None and not parse.problems, "build a set only from a file without problems"
    rows = effective_rows(parse, variables or {})
    originals = parse.rows if parse.rows is not None else [{}]
    answer_format = answer_format_instruction(parse.record)
    cases = [
        _case(parse.record, row, position, case_key(original, position), answer_format)
        for position, (row, original) in enumerate(zip(rows, originals, strict=True), start=1)
    ]
    return EvalTestSet(
        name=set_name(parse.record, parse.path),
        data_type=EvalDataType.SINGLE_TURN,
        cases=cases,
        evidence=[parse.path.name],
        prompt_file=parse.record,
    )


def load_prompt_file(
    path: Path | str, *, variables: Mapping[str, Any] | None = None, var_option: str = "--var"
) -> tuple[EvalTestSet | None, list[str], list[str]]:
    """Read and check a prompt file in one pass: the set (``None`` with problems), every problem, and the notes.

    ``variables`` are the ``--var`` values; messages name ``var_option`` as the way to give one.
    """
    parse = _read(Path(path))
    check_prompt_file(parse, variables, var_option=var_option)
    if parse.problems or parse.record is None:
        return None, parse.problems, parse.notes
    test_set = prompt_test_set(parse, variables)
    if is_prompt_markdown(parse.path) and parse.notes:  # what a run does not apply is said by `run` too
        test_set = test_set.model_copy(update={"note": "; ".join(parse.notes)})
    return test_set, parse.problems, parse.notes


def load_prompt_folder(
    folder: Path | str, *, variables: Mapping[str, Any] | None = None, var_option: str = "--var"
) -> tuple[EvalTestSet | None, list[str], list[str]]:
    """A folder of VS Code prompt files (``*.prompt.md``) as one set: every file's problems, named by file."""
    folder = Path(folder)
    files = prompt_markdown_files(folder)
    if not files:
        return None, [f"{folder}: no *.prompt.md file in this folder"], []
    problems: list[str] = []
    sets: list[tuple[Path, EvalTestSet]] = []
    for path in files:
        test_set, found, _ = load_prompt_file(path, variables=variables, var_option=var_option)
        problems += [f"{path.name}: {problem}" for problem in found]
        if test_set is not None:
            sets.append((path, test_set))
    if problems:
        return None, problems, []
    combined, notes = combine_prompt_sets(folder, sets)
    return combined, [], notes


def _read(path: Path) -> PromptFileParse:
    """A GitHub prompt file (``.prompt.yml``), or a VS Code one (``.prompt.md``) read into the same shape."""
    if not is_prompt_markdown(path):
        return read_prompt_file(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return PromptFileParse(path=path, problems=[f"byte {exc.start}: not UTF-8; save the file as UTF-8"])
    return parse_prompt_markdown(text, path)


def parse_variables(items: list[str] | None, *, option: str = "--var") -> dict[str, str]:
    """``--var NAME=VALUE`` options as gh models run reads them: the value kept as written, a name given once."""
    variables: dict[str, str] = {}
    for item in items or []:
        if not item.strip():
            continue
        name, sep, value = item.partition("=")
        name = name.strip()
        if not sep:
            raise ValueError(f"{option} {item!r}: expected NAME=VALUE")
        if not name:
            raise ValueError(f"{option} {item!r}: the name before '=' is empty")
        if name in variables:
            raise ValueError(f"{option} {name}: given twice")
        variables[name] = value
    return variables


TRANSCRIPT_HEAD = "The conversation so far:"
TRANSCRIPT_TAIL = "Now answer this message:"


def played_prompt(case: EvalTestCase) -> str:
    """What the session is asked for ``case``: its question, after the earlier messages of a prompt file's row."""
    if case.prompt is None or not case.prompt.history:
        return case.question
    lines = [TRANSCRIPT_HEAD]
    for message in case.prompt.history:
        lines.append(f"[{message.role}]\n{message.content}")
    return "\n\n".join([*lines, TRANSCRIPT_TAIL, case.question])


def answer_format_instruction(record: PromptFileRecord | None) -> str | None:
    """What the session is told about the answer's format, which the runtime cannot enforce as the API does."""
    if record is None or record.response_format in (None, "text"):
        return None
    if record.response_format == "json_object":
        return "Answer with one JSON object and nothing else: no prose, no code fence."
    schema = (record.json_schema or {}).get("schema")
    return (
        "Answer with one JSON object and nothing else (no prose, no code fence), conforming to this JSON Schema:\n"
        + json.dumps(schema, indent=2, ensure_ascii=False)
    )


def session_instructions(case: EvalTestCase) -> str | None:
    """The instructions of the session that plays a prompt file's ``case``: its system message, then the answer format."""
    if case.prompt is None:
        return None
    text = "\n\n".join(part for part in (case.prompt.instructions, case.prompt.answer_format) if part)
    return text or None


__all__ = [
    "PROMPT_SUFFIXES",
    "answer_format_instruction",
    "is_prompt_file_name",
    "load_prompt_file",
    "load_prompt_folder",
    "looks_like_prompt_file",
    "parse_variables",
    "played_prompt",
    "prompt_test_set",
    "session_instructions",
    "set_name",
]
