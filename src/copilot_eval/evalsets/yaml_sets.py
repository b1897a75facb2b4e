"""Test sets in YAML: the JSON format's shape (camelCase keys), for sets people write by hand.

A ``.yaml``/``.yml`` test set that is not a prompt file holds what a JSON test set holds (``name``,
``dataType``, ``cases`` with their ``workspace`` ...). It is read through the one bounded YAML
reader (``copilot_eval.bounded_yaml``: size, alias expansion and depth refused before anything is built).
"""

from __future__ import annotations

from pathlib import Path

import yaml
from pydantic import ValidationError

from copilot_eval.bounded_yaml import YamlRefused, check_yaml_size, load_yaml
from copilot_eval.evalsets.errors import EvalSetReadError
from copilot_eval.evalsets.json_io import validation_problems
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.validation import validate_eval_test_set


def read_test_set_yaml(path: Path | str) -> EvalTestSet:
    """Read a YAML test set; EvalSetReadError names the file and every bad field (``cases[0].workspace.source``)."""
    path = Path(path)
    try:
        check_yaml_size(path)
        text = path.read_bytes().decode("utf-8-sig")
        data = load_yaml(text, source=str(path))
    except UnicodeDecodeError as exc:
        raise EvalSetReadError(path, [f"byte {exc.start} is not UTF-8; save the file as UTF-8"]) from None
    except YamlRefused as exc:
        raise EvalSetReadError(path, [str(exc)]) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"line {mark.line + 1}: " if mark is not None else ""
        raise EvalSetReadError(path, [f"{where}not valid YAML: {exc.problem or exc}"]) from None
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


__all__ = ["check_yaml", "read_test_set_yaml"]
