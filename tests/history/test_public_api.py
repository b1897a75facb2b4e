"""The history package's surface: documented public names, lazy heavy imports, and the layers it may read."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import copilot_eval.history as history

PACKAGE_DIR = Path(history.__file__).parent

# The run folder is the contract: the history reads it through reports.run_folder, the evalsets
# models and the redactor, never the internals of runs, the runtime or the targets.
_ALLOWED = ("copilot_eval.history", "copilot_eval.evalsets", "copilot_eval.reports", "copilot_eval.redaction")


def test_public_names_are_documented():
    for name in history.__all__:
        value = getattr(history, name)
        if callable(value):
            assert (value.__doc__ or "").strip(), f"{name} has no docstring"
    assert len(set(history.__all__)) == len(history.__all__)


def test_the_history_reads_run_folders_not_the_internals_of_runs():
    for module in PACKAGE_DIR.rglob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                if name.startswith("copilot_eval"):
                    assert name.startswith(_ALLOWED), f"{module.relative_to(PACKAGE_DIR)} imports {name}"


def test_importing_the_package_loads_neither_sqlalchemy_nor_alembic():
    code = "import sys, copilot_eval.history, copilot_eval.cli.app; print(sorted(m for m in ('sqlalchemy', 'alembic') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
