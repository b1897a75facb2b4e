"""The README's and the docs' code snippets hold: Python compiles, and the snippets that need nothing
from their surroundings run; YAML and JSON parse; every `copilot-eval ...` command line names a real
command with real options; every relative link leads to a file; and the README's first test is the
file `copilot-eval init` writes (which tests/cli/test_installed_package.py runs)."""

from __future__ import annotations

import ast
import json
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.main import get_command

from copilot_eval.cli.app import app

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
_FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[a-z]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Snippet:
    """One fenced block: where it is, its language and its text."""

    document: Path
    line: int
    lang: str
    text: str

    def __str__(self) -> str:
        return f"{self.document.relative_to(REPO)}:{self.line}"


def snippets(lang: str | None = None) -> list[Snippet]:
    """Every fenced block of the README and the docs (of one language when given)."""
    found = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        for match in _FENCE.finditer(text):
            indent = match["indent"]
            body = "\n".join(line.removeprefix(indent) for line in match["body"].splitlines())
            block = Snippet(document, text[: match.start()].count("\n") + 1, match["lang"], body)
            if lang is None or block.lang == lang:
                found.append(block)
    return found


def test_the_docs_have_snippets_of_each_kind_this_test_checks() -> None:
    kinds = {block.lang for block in snippets()}
    assert {"python", "yaml", "bash", "json"} <= kinds  # the checks below cannot pass by finding nothing


@pytest.mark.parametrize("block", snippets("python"), ids=str)
def test_python_snippets_compile(block: Snippet) -> None:
    compile(block.text, str(block), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


@pytest.mark.parametrize("block", snippets("yaml"), ids=str)
def test_yaml_snippets_parse(block: Snippet) -> None:
    assert list(yaml.safe_load_all(block.text)), f"{block}: empty"


@pytest.mark.parametrize("block", snippets("json"), ids=str)
def test_json_snippets_parse(block: Snippet) -> None:
    json.loads(block.text)


def command_lines(text: str) -> list[list[str]]:
    """The `copilot-eval ...` invocations of a shell snippet, as argument lists."""
    joined = re.sub(r"\\\n\s*", " ", text)
    found = []
    for line in joined.splitlines():
        line = re.sub(r"(^|\s)#.*$", "", line)
        for part in re.split(r"&&|\|\||;|\|", line):
            words = shlex.split(part.strip(), posix=True) if part.strip() else []
            while words and "=" in words[0] and not words[0].startswith("-"):
                words = words[1:]  # VAR=value before the command
            if words and words[0] == "copilot-eval":
                found.append(words[1:])
    return found


def _unknown_options(words: list[str]) -> list[str]:
    """The commands or options of one invocation that the command line does not have."""
    command: Any = get_command(app)  # Typer's own click classes: a group is what has subcommands
    known = {opt for param in command.params for opt in param.opts + param.secondary_opts}
    problems = []
    for word in words:
        if hasattr(command, "list_commands") and not word.startswith("-"):
            sub = command.get_command(command.context_class(command), word)
            if sub is None:
                problems.append(f"no command {word!r}")
                break
            command = sub
            known |= {opt for param in command.params for opt in param.opts + param.secondary_opts}
            continue
        if word.startswith("--") and word.split("=", 1)[0] not in known | {"--help"}:
            problems.append(f"{' '.join(words[:2])}: no option {word.split('=', 1)[0]}")
    return problems


@pytest.mark.parametrize("block", snippets("bash"), ids=str)
def test_shell_snippets_use_real_commands_and_options(block: Snippet) -> None:
    problems = [problem for words in command_lines(block.text) for problem in _unknown_options(words)]
    assert not problems, f"{block}: {problems}"


def test_the_checker_finds_a_wrong_option_and_a_wrong_command() -> None:
    assert _unknown_options(["run", "SET.csv", "--agnet", "A.yaml"]) == ["run SET.csv: no option --agnet"]
    assert _unknown_options(["quikstart"]) == ["no command 'quikstart'"]
    assert _unknown_options(["history", "trends", "--last", "5"]) == []
    assert command_lines("X=1 copilot-eval run a \\\n  --out b  # note\ncd x && copilot-eval init") == [
        ["run", "a", "--out", "b"],
        ["init"],
    ]


def test_the_readmes_first_test_is_the_file_init_writes() -> None:
    starter = (REPO / "examples" / "starter" / "test_agent.py").read_text(encoding="utf-8")
    readme = [block.text.strip() for block in snippets("python") if block.document.name == "README.md"]
    assert starter.strip() in readme, "README.md shows examples/starter/test_agent.py verbatim"


def test_relative_links_of_the_readme_and_the_docs_lead_to_files_that_exist() -> None:
    broken = []
    for document in DOCUMENTS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", document.read_text(encoding="utf-8")):
            if "://" in target or target.startswith("mailto:"):
                continue
            if not (document.parent / target).exists():
                broken.append(f"{document.relative_to(REPO)}: {target}")
    assert not broken, broken


def _free_names(tree: ast.AST) -> set[str]:
    """Names a snippet reads but neither imports, defines nor binds (builtins aside)."""
    import builtins

    bound = set(dir(builtins)) | {"__file__"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            bound |= {alias.asname or alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
    read = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    return read - bound


def self_contained() -> list[Snippet]:
    """The Python snippets that name nothing they do not define: these are run, not only compiled."""
    found = []
    for block in snippets("python"):
        tree = compile(block.text, str(block), "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT | ast.PyCF_ONLY_AST)
        if not _free_names(tree):
            found.append(block)
    return found


# Runs each snippet as a reader would paste it: top-level await on an event loop, in a folder that
# holds the files the docs name (knowledge.csv, agent.yaml, the examples), every snippet in one process.
RUNNER = """
import ast, asyncio, json, sys, traceback
failures = []
for name, text in json.load(open(sys.argv[1])):
    code = compile(text, name, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    try:
        outcome = eval(code, {"__name__": "__snippet__", "__file__": "snippet.py"})
        if asyncio.iscoroutine(outcome):
            asyncio.run(outcome)
    except Exception:
        failures.append(name + "\\n" + traceback.format_exc(limit=3))
print(json.dumps(failures))
"""


def test_the_self_contained_snippets_are_found() -> None:
    names = {str(block) for block in self_contained()}
    assert any(name.startswith("docs/scripted-model.md") for name in names), names
    assert len(names) >= 4, names


@pytest.mark.runtime
def test_the_self_contained_snippets_run(tmp_path: Path) -> None:
    shutil.copy(REPO / "examples" / "evalsets" / "knowledge.csv", tmp_path / "knowledge.csv")
    shutil.copy(REPO / "examples" / "evaluation" / "agent-good.yaml", tmp_path / "agent.yaml")
    shutil.copy(REPO / "examples" / "evaluation" / "script-good.yaml", tmp_path / "script-good.yaml")
    (tmp_path / "examples").symlink_to(REPO / "examples")
    (tmp_path / "snippets.json").write_text(json.dumps([(str(block), block.text) for block in self_contained()]))
    done = subprocess.run(
        [sys.executable, "-c", RUNNER, str(tmp_path / "snippets.json")],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    failures = json.loads(done.stdout.strip().splitlines()[-1])
    assert not failures, "\n".join(failures)
