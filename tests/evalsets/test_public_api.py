"""The package's public surface: a curated __all__, docstrings, and no imports of other layers."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import copilot_eval.evalsets as evalsets

PACKAGE_DIR = Path(evalsets.__file__).parent


def test_all_names_exist_and_are_documented():
    for name in evalsets.__all__:
        value = getattr(evalsets, name)
        if inspect.isclass(value) or inspect.isfunction(value):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"


def test_all_is_sorted_and_has_no_duplicates():
    assert list(evalsets.__all__) == sorted(set(evalsets.__all__), key=list(evalsets.__all__).index)
    assert len(set(evalsets.__all__)) == len(evalsets.__all__)


# The redactor is not a layer: it sits below all of them so every file writer can use it.
ALLOWED = ("copilot_eval.evalsets", "copilot_eval.redaction")


def test_evalsets_imports_no_other_copilot_eval_layer():
    for module in PACKAGE_DIR.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("copilot_eval"):
                assert node.module.startswith(ALLOWED), f"{module.name} imports {node.module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("copilot_eval") or alias.name.startswith(ALLOWED)
