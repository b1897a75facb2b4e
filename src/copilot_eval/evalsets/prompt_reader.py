"""Read a prompt file (``*.prompt.yml``) as gh-models reads it, and report every problem of its fields in one pass.

The reference is gh-models' own loader (``pkg/prompt``): ``name``, ``description``, ``model``,
``modelParameters`` (``maxTokens``, ``temperature``, ``topP``), ``responseFormat`` (``text``,
``json_object`` or ``json_schema``, the last with a ``jsonSchema`` JSON string holding ``name`` and
``schema``), ``messages`` (``role`` system, user or assistant in any case, ``content``),
``testData`` (rows of variables, every key kept) and ``evaluators``. gh-models ignores keys it does
not know; so does this reader, saying so in a note (with the key it was probably meant to be).
Problems name the line and the field: ``line 12: messages[2].role: 'robot' is not a role ...``.
The cross-checks (placeholders against rows, what a built-in reads) are in ``prompt_checks``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.bounded_yaml import YamlRefused, check_yaml_size
from copilot_eval.evalsets.prompt_evaluators import EvaluatorSpec, read_evaluators
from copilot_eval.evalsets.prompt_model import ROLES, PromptFileRecord, PromptMessage
from copilot_eval.evalsets.prompt_yaml import YamlDocument, read_yaml
from copilot_eval.suggest import did_you_mean

# jsonschema is imported when a file has a schema: it takes about 0.1 s to import, and most test sets have none.

TOP_KEYS = (
    "name",
    "description",
    "model",
    "modelParameters",
    "responseFormat",
    "jsonSchema",
    "messages",
    "testData",
    "evaluators",
)
MODEL_PARAMETERS = {"maxTokens": int, "temperature": float, "topP": float}
RESPONSE_FORMATS = ("text", "json_object", "json_schema")


def field_name(path: tuple[str | int, ...]) -> str:
    """``("messages", 1, "role")`` -> ``messages[2].role`` (positions 1-based, as people count)."""
    text = ""
    for part in path:
        text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


@dataclass
class PromptFileParse:
    """A prompt file read: its settings, rows and evaluators as far as they could be read, and what was wrong."""

    path: Path
    record: PromptFileRecord | None = None
    rows: list[dict[str, Any]] | None = None  # None: the file has no testData (one case, from --var)
    evaluators: list[EvaluatorSpec] = field(default_factory=list)
    document: YamlDocument = field(default_factory=YamlDocument)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def report(self, path: tuple[str | int, ...], message: str) -> None:
        """Add a problem at ``path``, with its line."""
        line = self.document.line(path)
        where = f"line {line}: " if line is not None else ""
        self.problems.append(f"{where}{field_name(path)}: {message}" if path else f"{where}{message}")

    def note(self, path: tuple[str | int, ...], message: str) -> None:
        """Add a note (not a problem) at ``path``, with its line."""
        line = self.document.line(path)
        self.notes.append(f"{'line ' + str(line) + ': ' if line is not None else ''}{message}")


def _text(parse: PromptFileParse, data: Mapping[str, Any], key: str, at: tuple[str | int, ...] = ()) -> str:
    value = data.get(key)
    if isinstance(value, (dict, list)):
        parse.report((*at, key), f"expected text, found a {'mapping' if isinstance(value, dict) else 'list'}")
        return ""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _unknown_keys(parse: PromptFileParse, data: Mapping[str, Any]) -> None:
    for key in data:
        if key not in TOP_KEYS:
            hint = did_you_mean(key, TOP_KEYS)
            parse.note((key,), f"unknown key {key!r} is ignored, as gh-models ignores it{hint}")


def _model_parameters(parse: PromptFileParse, value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        parse.report(("modelParameters",), "expected a mapping of maxTokens, temperature, topP")
        return {}
    for key, wanted in MODEL_PARAMETERS.items():
        item = value.get(key)
        if item is None:
            continue
        number = isinstance(item, (int, float)) and not isinstance(item, bool)
        if not number or (wanted is int and not float(item).is_integer()):
            kind = "a whole number" if wanted is int else "a number"
            parse.report(("modelParameters", key), f"expected {kind}, got {item!r}")
    for key in value:
        if key not in MODEL_PARAMETERS:
            parse.note(("modelParameters", key), f"modelParameters.{key} is not one gh-models reads; it is ignored")
    return dict(value)


def _messages(parse: PromptFileParse, value: Any) -> list[PromptMessage]:
    if value is None:
        parse.report((), "no messages: a prompt file needs a 'messages' list holding at least one user message")
        return []
    if not isinstance(value, list):
        parse.report(("messages",), "expected a list of {role, content}")
        return []
    if not value:
        parse.report(("messages",), "the list is empty: give at least one user message")
    messages = []
    for index, item in enumerate(value):
        at: tuple[str | int, ...] = ("messages", index)
        if not isinstance(item, Mapping):
            parse.report(at, "expected {role, content}")
            continue
        role = _text(parse, item, "role", at).strip()
        if not role:
            parse.report(at, "no role; expected system, user or assistant")
            continue
        if role.lower() not in ROLES:
            parse.report((*at, "role"), f"{role!r} is not a role; expected system, user or assistant")
            continue
        messages.append(PromptMessage(role=role.lower(), content=_text(parse, item, "content", at)))
    return messages


def _json_schema(parse: PromptFileParse, value: Any, response_format: str | None) -> dict[str, Any] | None:
    if value is None:
        if response_format == "json_schema":
            parse.report(
                ("responseFormat",), "json_schema needs a jsonSchema: a JSON string holding 'name' and 'schema'"
            )
        return None
    at = ("jsonSchema",)
    if not isinstance(value, str):
        parse.report(
            at, "must be a JSON string (gh-models reads no YAML mapping here); write it as a block: jsonSchema: |"
        )
        return None
    try:
        schema = json.loads(value)
    except ValueError as exc:
        parse.report(at, f"not valid JSON: {exc}")
        return None
    if not isinstance(schema, dict):
        parse.report(at, "must be a JSON object holding 'name' and 'schema'")
        return None
    if response_format != "json_schema":
        parse.note(at, "jsonSchema is ignored unless responseFormat is json_schema, as in gh-models")
        return schema
    for key in ("name", "schema"):
        if key not in schema:
            parse.report(at, f"has no {key!r} (gh-models requires 'name' and 'schema')")
    inner = schema.get("schema")
    if inner is not None:
        _check_schema(parse, inner)
    return schema


def _check_schema(parse: PromptFileParse, schema: Any) -> None:
    import jsonschema

    if not isinstance(schema, dict):
        parse.report(("jsonSchema",), "'schema' must be a JSON object (a JSON Schema)")
        return
    try:
        jsonschema.validators.validator_for(schema).check_schema(schema)
    except jsonschema.SchemaError as exc:
        where = "/".join(str(part) for part in exc.absolute_path) or "(top)"
        parse.report(("jsonSchema",), f"'schema' is not a valid JSON Schema at {where}: {exc.message}")


def _rows(parse: PromptFileParse, value: Any) -> list[dict[str, Any]] | None:
    if value is None or value == []:
        return None
    if not isinstance(value, list):
        parse.report(("testData",), "expected a list of rows (each a mapping of variables)")
        return None
    rows = []
    for index, row in enumerate(value):
        if not isinstance(row, dict):
            parse.report(("testData", index), "expected a mapping of variables (name: value)")
            continue
        rows.append(row)
    return rows if len(rows) == len(value) else None


def parse_prompt_text(text: str, path: Path) -> PromptFileParse:
    """Read prompt-file text: the settings, rows and evaluators that could be read, and every field problem."""
    parse = PromptFileParse(path=path, document=read_yaml(text))
    parse.problems.extend(parse.document.problems)
    data = parse.document.value
    if parse.document.problems and data is None:
        return parse
    if not isinstance(data, dict):
        parse.report(
            (),
            "expected a mapping of name, model, messages, testData, evaluators ...; found "
            + ("nothing" if data is None else "a list" if isinstance(data, list) else "text"),
        )
        return parse
    _unknown_keys(parse, data)
    response_format = _text(parse, data, "responseFormat") or None
    if response_format is not None and response_format not in RESPONSE_FORMATS:
        parse.report(("responseFormat",), f"{response_format!r} is not one of {', '.join(RESPONSE_FORMATS)}")
    parse.record = PromptFileRecord(
        source=path.name,
        name=_text(parse, data, "name"),
        description=_text(parse, data, "description"),
        model=_text(parse, data, "model").strip(),
        model_parameters=_model_parameters(parse, data.get("modelParameters")),
        response_format=response_format,
        json_schema=_json_schema(parse, data.get("jsonSchema"), response_format),
        messages=_messages(parse, data.get("messages")),
        evaluators=[item for item in data.get("evaluators") or [] if isinstance(item, dict)]
        if isinstance(data.get("evaluators"), list)
        else [],
    )
    parse.rows = _rows(parse, data.get("testData"))
    parse.evaluators = read_evaluators(data.get("evaluators"), parse.report)
    return parse


def read_prompt_file(path: Path | str) -> PromptFileParse:
    """Read the prompt file at ``path``; a file that is not UTF-8 is a problem naming its line."""
    path = Path(path)
    try:
        check_yaml_size(path)
    except YamlRefused as exc:
        parse = PromptFileParse(path=path)
        parse.problems.append(str(exc).removeprefix(f"{path}: "))
        return parse
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        parse = PromptFileParse(path=path)
        parse.problems.append(f"line {line}: byte 0x{data[exc.start]:02x} is not UTF-8; save the file as UTF-8")
        return parse
    return parse_prompt_text(text, path)


__all__ = [
    "MODEL_PARAMETERS",
    "RESPONSE_FORMATS",
    "TOP_KEYS",
    "PromptFileParse",
    "field_name",
    "parse_prompt_text",
    "read_prompt_file",
]
