"""JSON in and out for test sets and runs, with camelCase keys as on the platform.

Fields that are unknown (``None``) are left out rather than written as ``null``: absence and
``None`` read back the same, and the files stay short enough to review by eye.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.bounded_json import JsonRefused, read_json_bytes
from copilot_eval.evalsets.errors import EvalSetReadError
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.rule_sets import RuleSet
from copilot_eval.evalsets.run_model import EvalRun
from copilot_eval.evalsets.validation import validate_eval_test_set
from copilot_eval.untrusted.utf8 import model_json

_Model = TypeVar("_Model", bound=BaseModel)


def to_json(record: EvalTestSet | EvalRun, *, indent: int | None = 2) -> str:
    """Return a test set or run as JSON text with camelCase keys, unknown fields omitted (always valid UTF-8)."""
    return model_json(record, by_alias=True, exclude_none=True, indent=indent)


def _where(loc: tuple[int | str, ...]) -> str:
    # ("cases", 2, "question") -> "cases[2].question": the way a reader finds it in the file.
    text = ""
    for part in loc:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def validation_problems(error: ValidationError) -> list[str]:
    """One line per problem of a model's validation, naming where it is (``cases[2].question: ...``)."""
    problems = []
    for item in error.errors():
        if item["type"] == "json_invalid":
            problems.append(f"not valid JSON: {item['msg']}")
        else:
            problems.append(f"{_where(item['loc'])}: {item['msg']}")
    return problems


def _parse(model: type[_Model], text: str | bytes, source: Path | str | None) -> _Model:
    try:
        return model.model_validate_json(text)
    except ValidationError as exc:
        raise EvalSetReadError(source, validation_problems(exc)) from None


def test_set_from_json(text: str | bytes, *, source: Path | str | None = None) -> EvalTestSet:
    """Parse a test set from JSON; raise EvalSetReadError naming every bad field."""
    return _parse(EvalTestSet, text, source)


# pytest would otherwise try to collect the function above as a test when it is imported; it reads this
# flag, which a def cannot declare to the type checker (its namespace takes it all the same).
vars(test_set_from_json)["__test__"] = False


def run_from_json(text: str | bytes, *, source: Path | str | None = None) -> EvalRun:
    """Parse a run from JSON; raise EvalSetReadError naming every bad field."""
    return _parse(EvalRun, text, source)


def _bounded_bytes(path: Path) -> bytes:
    try:
        return read_json_bytes(path)  # a run folder may come from anywhere: its size is checked before reading
    except JsonRefused as exc:
        raise EvalSetReadError(path, [str(exc).removeprefix(f"{path}: ")]) from None


def read_test_set_json(path: Path | str) -> EvalTestSet:
    """Read a test set from a JSON file."""
    path = Path(path)
    return test_set_from_json(_bounded_bytes(path), source=path)


def read_run_json(path: Path | str) -> EvalRun:
    """Read a run from a JSON file."""
    path = Path(path)
    return run_from_json(_bounded_bytes(path), source=path)


def write_json(record: EvalTestSet | EvalRun, path: Path | str) -> None:
    """Write a test set or run to ``path`` as UTF-8 JSON, all at once."""
    text = to_json(record) + "\n"
    write_text_atomically(Path(path), text)


def check_json(path: Path | str, *, profile: str | RuleSet | None = None) -> list[str]:
    """Return every reading and validation problem of a JSON test set (rule set ``profile``); empty means it imports."""
    try:
        test_set = read_test_set_json(path)
    except EvalSetReadError as exc:
        return exc.problems
    return validate_eval_test_set(test_set, profile)


__all__ = [
    "check_json",
    "read_run_json",
    "read_test_set_json",
    "run_from_json",
    "test_set_from_json",
    "to_json",
    "validation_problems",
    "write_json",
]
