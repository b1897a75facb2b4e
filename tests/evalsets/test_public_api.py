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


# The one writer every layer uses (it imports nothing of copilot_eval), and the compatibility
# re-exports of the results CSV writer that moved to reports.
_ALLOWED_OUTSIDE = {"copilot_eval.reports.atomic"}
_COMPAT_SHIMS = {"results_csv.py": {"copilot_eval.reports.results_csv"}, "__init__.py": {"copilot_eval.reports"}}


def test_evalsets_imports_no_other_copilot_eval_layer():
    for module in PACKAGE_DIR.glob("*.py"):
        allowed = _ALLOWED_OUTSIDE | _COMPAT_SHIMS.get(module.name, set())
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("copilot_eval"):
                assert node.module.startswith("copilot_eval.evalsets") or node.module in allowed, (
                    f"{module.name} imports {node.module}"
                )
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("copilot_eval") or alias.name.startswith("copilot_eval.evalsets")


def test_the_atomic_writer_is_a_leaf_module():
    atomic = PACKAGE_DIR.parent / "reports" / "atomic.py"
    tree = ast.parse(atomic.read_text(encoding="utf-8"))
    imported = [node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
    # The redactor is the one exception: a leaf too, and the reason no written file holds a secret.
    outside = [name for name in imported if name and name.startswith("copilot_eval")]
    assert outside in ([], ["copilot_eval.redaction"])
