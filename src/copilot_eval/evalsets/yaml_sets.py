"""Test sets in YAML: the JSON format's shape (camelCase keys), for sets people write by hand.

A ``.yaml``/``.yml`` test set that is not a prompt file holds what a JSON test set holds (``name``,
``dataType``, ``cases`` with their ``workspace`` ...). The text is bounded before anything is built:
at most ``MAX_YAML_BYTES``, no anchors or aliases (a set has no use for them, and they are how a small
file grows huge), nesting at most ``MAX_DEPTH`` deep.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from copilot_eval.evalsets.errors import EvalSetReadError
from copilot_eval.evalsets.json_io import validation_problems
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.validation import validate_eval_test_set

MAX_YAML_BYTES = 10 * 1024 * 1024
MAX_DEPTH = 32


def _bounds_problem(text: str) -> str | None:
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            line = event.start_mark.line + 1 if event.start_mark is not None else "?"
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                return f"line {line}: anchors and aliases are not taken in a test set; write the value out"
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    return f"line {line}: nested more than {MAX_DEPTH} levels deep"
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        return f"{where}not valid YAML: {exc.problem or exc}"
    return None


def read_test_set_yaml(path: Path | str) -> EvalTestSet:
    """Read a YAML test set; EvalSetReadError names the file and every bad field (``cases[0].workspace.source``)."""
    path = Path(path)
    if path.stat().st_size > MAX_YAML_BYTES:
        raise EvalSetReadError(path, [f"larger than {MAX_YAML_BYTES} bytes; split the set"])
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise EvalSetReadError(path, [f"byte {exc.start} is not UTF-8; save the file as UTF-8"]) from None
    if (problem := _bounds_problem(text)) is not None:
        raise EvalSetReadError(path, [problem])
    data = yaml.safe_load(text)
    if not isinstance(data, dict):
        raise EvalSetReadError(path, ["expected a mapping with name, dataType and cases at the top level"])
    try:
        return EvalTestSet.model_validate(data)
    except ValidationError as exc:
        raise EvalSetReadError(path, validation_problems(exc)) from None


def check_yaml(path: Path | str, *, profile: str | None = None) -> list[str]:
    """Every reading and validation problem of a YAML test set (rule set ``profile``); empty means it imports."""
    try:
        test_set = read_test_set_yaml(path)
    except EvalSetReadError as exc:
        return exc.problems
    return validate_eval_test_set(test_set, profile)


__all__ = ["MAX_DEPTH", "MAX_YAML_BYTES", "check_yaml", "read_test_set_yaml"]
