"""The wire client stays apart from the mapping and the CLI; the public names resolve and are documented."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import copilot_eval.platform_runs as platform_runs
import copilot_eval.studio_eval as studio_eval

# Leaf helpers any layer may use, and the token cache shared with the Agents SDK targets.
_WIRE_MAY_IMPORT = {
    "copilot_eval.redaction",
    "copilot_eval.reports.atomic",
    "copilot_eval.runtime.process.home",
    "copilot_eval.targets.tokens",
}


def _imports(package: Path) -> dict[str, set[str]]:
    found = {}
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        names |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        found[module.name] = {name for name in names if name.startswith("copilot_eval")}
    return found


def test_the_wire_client_imports_no_run_model_mapping_or_cli():
    for module, names in _imports(Path(studio_eval.__file__).parent).items():
        outside = {n for n in names if not n.startswith("copilot_eval.studio_eval")} - _WIRE_MAY_IMPORT
        assert not outside, f"studio_eval/{module} imports {sorted(outside)}"


def test_platform_runs_do_not_import_the_cli_or_the_fakes():
    for module, names in _imports(Path(platform_runs.__file__).parent).items():
        assert not {n for n in names if n.startswith(("copilot_eval.cli", "copilot_eval.testing"))}, module


def test_public_names_resolve_and_are_documented():
    for package in (studio_eval, platform_runs):
        for name in package.__all__:
            value = getattr(package, name)
            if inspect.isclass(value) or inspect.isfunction(value):
                assert (value.__doc__ or "").strip(), f"{package.__name__}.{name} has no docstring"
