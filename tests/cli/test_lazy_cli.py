"""The lazy command group: `--help` lists every command from app.py's table without importing one.

A command's module is imported when that command runs or shows its help, so the modules keep their
imports at module level; the last test holds cli/ to that (and to typed parameters).
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from copilot_eval.cli.app import COMMANDS, app, every_command

CLI = Path(__file__).resolve().parents[2] / "src" / "copilot_eval" / "cli"


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def _modules_after(args: list[str]) -> set[str]:
    """The modules loaded by `copilot-eval ARGS` run in a fresh interpreter (its output thrown away)."""
    code = (
        "import contextlib, io, sys\n"
        f"sys.argv = ['copilot-eval', *{args!r}]\n"
        "from copilot_eval.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    return set(_python(code).split())


def test_help_lists_every_command_without_importing_a_command_module_or_a_heavy_layer() -> None:
    loaded = _modules_after(["--help"])
    heavy = {"copilot", "copilot_eval.runs", "copilot_eval.reports", "copilot_eval.evalsets", "copilot_eval.runtime"}
    assert not loaded & heavy, f"`copilot-eval --help` imported {sorted(loaded & heavy)}"
    assert not {row.module for row in COMMANDS} & loaded, "`--help` imported a command module"


def test_a_commands_help_imports_its_own_module_and_no_other() -> None:
    loaded = _modules_after(["validate", "--help"])
    assert "copilot_eval.cli.validate_cmd" in loaded
    assert {row.module for row in COMMANDS} & loaded == {"copilot_eval.cli.validate_cmd"}


def test_the_help_lists_every_command_of_the_table() -> None:
    shown = CliRunner().invoke(app, ["--help"]).output
    for row in COMMANDS:
        assert f"│ {row.name} " in shown, f"{row.name} is missing from --help"
        assert row.short_help.split()[0] in shown


def test_the_tables_lines_are_the_commands_own_first_help_lines() -> None:
    group = every_command()
    assert sorted(group.commands) == sorted(row.name for row in COMMANDS), (
        "a module registers a command not in COMMANDS"
    )
    for row in COMMANDS:
        command = group.commands[row.name]
        own = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
        assert own == row.short_help, f"{row.name}: app.py's COMMANDS says {row.short_help!r}, the command {own!r}"


def test_groups_and_unknown_commands_still_resolve() -> None:
    runner = CliRunner()
    assert "trends" in runner.invoke(app, ["history", "--help"]).output
    assert "testset" in runner.invoke(app, ["generate", "--help"]).output
    typo = runner.invoke(app, ["histroy"])
    assert typo.exit_code == 2 and "Did you mean 'history'?" in typo.output


def _function_imports_and_any_parameters(source: str) -> list[str]:
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, ast.Import | ast.ImportFrom):
                found.append(f"line {child.lineno}: an import inside a function")
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                arguments = child.args
                every = [
                    *arguments.posonlyargs,
                    *arguments.args,
                    *arguments.kwonlyargs,
                    arguments.vararg,
                    arguments.kwarg,
                ]
                for argument in (each for each in every if each is not None and each.annotation is not None):
                    if "Any" in ast.unparse(argument.annotation).replace("[", " ").replace("]", " ").split():
                        found.append(f"line {child.lineno}: parameter {argument.arg!r} typed Any")
            visit(child, in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda))

    visit(ast.parse(source), False)
    return found


def test_cli_modules_import_at_module_level_and_type_their_parameters() -> None:
    problems = {
        path.name: found
        for path in sorted(CLI.glob("*.py"))
        if (found := _function_imports_and_any_parameters(path.read_text(encoding="utf-8")))
    }
    assert not problems, f"move these imports to the module's top and type these parameters: {problems}"


def test_the_checker_finds_a_nested_import_and_an_any_parameter() -> None:
    source = "import os\ndef f(x: Any, y: list[Any], z: int) -> None:\n    def g():\n        import json\n"
    assert _function_imports_and_any_parameters(source) == [
        "line 2: parameter 'x' typed Any",
        "line 2: parameter 'y' typed Any",
        "line 4: an import inside a function",
    ]
