"""The layers hold: what each part of copilot_eval may import, no import circle, lazy imports with a reason.

Every import of our own modules counts: at module level, inside functions, and the module paths
the lazy loaders name as strings. A new dependency between parts is a design decision: make it
by changing ``MAY_IMPORT`` here, not by importing through a re-export.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

import copilot_eval

SRC = Path(copilot_eval.__file__).parent
PACKAGE = "copilot_eval"

# Leaf modules: any part may import them; they import nothing of copilot_eval but other leaves.
# exit_codes: the one table of exit codes, read by the command modules at import time and by runs' gates.
LEAVES = frozenset(
    {
        "atomic_write",
        "bounded_json",
        "bounded_yaml",
        "cache_root",
        "exit_codes",
        "loopback_server",
        "path_globs",
        "redaction",
        "retry_after",
        "safe_paths",
        "suggest",
        "untrusted",
        "version",
        "workdirs",
    }
)
# The leaves that are packages: the redactor keeps its environment reader and its token shapes in
# modules of their own, which import nothing of copilot_eval at all; untrusted keeps one module per
# output kind (its sanitisers: terminal, Markdown, XML, UTF-8).
LEAF_PACKAGES = frozenset({"redaction", "untrusted"})

# What each part may import besides itself, bottom of the stack first.
MAY_IMPORT: dict[str, frozenset[str]] = {
    "redaction": frozenset(),
    "bounded_json": frozenset(),
    "bounded_yaml": frozenset(),
    "cache_root": frozenset(),
    "exit_codes": frozenset(),
    "loopback_server": frozenset(),
    "path_globs": frozenset(),
    "retry_after": frozenset(),
    "safe_paths": frozenset(),
    "suggest": frozenset(),
    "untrusted": frozenset(),
    "version": frozenset(),
    "workdirs": frozenset(),
    "atomic_write": frozenset({"redaction", "untrusted"}),
    "evidence": LEAVES,
    "capture": LEAVES | {"evidence"},
    "evalsets": LEAVES,
    "models": LEAVES,
    # A Copilot Studio target's evidence names where it was played (evidence.PlayedOn), as a CopilotResult does.
    "targets": LEAVES | {"evidence"},
    "testing": LEAVES,
    "agent": LEAVES | {"models"},
    "runtime": LEAVES | {"agent", "capture", "evidence", "models"},
    # workspace: a coding task's fixture, copied per play, and what the agent changed in it (evalsets: its shape).
    "workspace": LEAVES | {"evalsets"},
    "grading": LEAVES | {"agent", "evalsets", "evidence", "runtime", "workspace"},
    "reports": LEAVES | {"evalsets", "evidence"},
    # models: a Ray worker checks on its node that the agent's model can be chosen before it plays.
    # history: the finisher (runs/finish.py) records a finished folder, read back through the folder (the contract).
    # otel: a run's settings name the OTLP endpoint; runs/plan.py makes each surface's exporter.
    # scans: the finisher scans the folder it finished (`--scan`), before the report that shows the findings.
    "runs": LEAVES
    | {
        "agent",
        "evalsets",
        "evidence",
        "grading",
        "history",
        "models",
        "otel",
        "reports",
        "runtime",
        "scans",
        "targets",
        "workspace",
    },
    # Transcript scanners read a run folder (the contract) and either kind of evidence; a judge scanner
    # plays its judge through the runtime, as the graders' judges do.
    "scans": LEAVES | {"agent", "evalsets", "evidence", "grading", "models", "reports", "runtime", "targets"},
    # Copilot Studio's evaluation API: the wire client knows no run model (the token cache of
    # `login` is shared with the Agents SDK targets); runs the platform made become EvalRuns beside runs.
    "studio_eval": LEAVES | {"targets"},
    # GitHub's REST API for a pull request's comment: a wire client that knows nothing of runs.
    "github": LEAVES,
    # The platform writes its error codes where an answer belongs: one detector, in evidence, reads them.
    "platform_runs": LEAVES | {"evalsets", "evidence", "grading", "reports", "runs", "studio_eval"},
    # Injection suites play through the runtime (their scripted agents are FunctionModels) and write
    # a normal run folder through the run summary and the reports.
    "security": LEAVES | {"agent", "evalsets", "evidence", "models", "reports", "runs", "runtime", "scans"},
    # Trigger evaluations play prompts through the runtime (a scripted answer lists the catalogue) and
    # write a normal run folder through the run summary and the finisher.
    "triggers": LEAVES | {"agent", "evalsets", "evidence", "models", "reports", "runs", "runtime"},
    # Drafting sets from what an agent says it is: the agent's own session lists its tools and catalogue,
    # the generator is played like a judge, and the draft is written through the sets' writers.
    "generate": LEAVES | {"agent", "evalsets", "evidence", "models", "runtime", "triggers"},
    # Lift plays two arms through the engine's units and graders and finishes each arm's folder.
    "lift": LEAVES | {"agent", "evalsets", "evidence", "grading", "models", "reports", "runs", "runtime", "triggers"},
    # A new user's first steps: the shipped examples, the quickstart's stories (read back from the
    # evidence and run folders they wrote) and the starter `init` writes.
    "first_steps": LEAVES | {"evidence", "reports"},
    # The OpenTelemetry export: a graded case (evalsets) and the evidence that played it, out over OTLP.
    "otel": LEAVES | {"evalsets", "evidence"},
    # The memory across runs reads run folders (the contract), never the internals of runs.
    "history": LEAVES | {"evalsets", "reports"},
    # The gate reads run folders and the history's baselines; runs only to load either kind of evidence.
    "gate": LEAVES | {"evalsets", "evidence", "history", "reports", "runs"},
    # Entry points: thin, on top of everything below them.
    "pytest_history": LEAVES | {"history", "reports", "runs"},
    "pytest_budget": LEAVES | {"agent"},
    "pytest_evalset": LEAVES
    | {
        "evalsets",
        "grading",
        "pytest_budget",
        "pytest_history",
        "pytest_otel",
        "pytest_triggers",
        "reports",
        "runs",
        "runtime",
    },
    # Trigger sets as items: played by the trigger layer on the runtime host (pytest_evalset hands the settings over).
    "pytest_triggers": LEAVES | {"runtime", "triggers"},
    "pytest_repeat": LEAVES | {"evalsets", "reports", "runs"},
    "pytest_otel": LEAVES | {"evalsets", "otel"},
    "pytest_plugin": LEAVES
    | {
        "models",
        "otel",
        "pytest_budget",
        "pytest_evalset",
        "pytest_history",
        "pytest_otel",
        "pytest_repeat",
        "reports",
        "runs",
        "runtime",
        "workspace",
        # the trigger_eval fixture plays a trigger set as the copilot_eval fixture plays a prompt
        "triggers",
        # the lift_eval fixture plays a test set through two arms
        "lift",
    },
    # The commands floor: each writing command as plan -> play -> finish, above the engine and the gate
    # (so that the gate runs inside the finisher); nothing below it imports it.
    "commands": LEAVES
    | {
        "agent",
        "evalsets",
        "evidence",
        "gate",
        "history",
        "models",
        "platform_runs",
        "reports",
        "runs",
        "runtime",
        "scans",
        "security",
        "studio_eval",
        "triggers",
    },
    "cli": LEAVES
    | {
        "agent",
        "capture",
        "commands",
        "evalsets",
        "evidence",
        "first_steps",
        "gate",
        "generate",
        "github",
        "history",
        "models",
        "otel",
        "platform_runs",
        "reports",
        "runs",
        "runtime",
        "scans",
        "security",
        "studio_eval",
        "triggers",
        "targets",
        "lift",
    },
}
# The package itself (``copilot_eval/__init__.py``) is the public facade and may name anything.
FACADE = PACKAGE

# Inside runtime/: the process, then the request chain, then the session; never the other way.
RUNTIME_ORDER = (
    "sdk_internals",
    "customization_files",
    "process",
    "requests",
    "session",
    "offered_tools",
    "customization_check",
)

# Inside models/: the three in-process sources (scripted, function, replay) share the wire and
# never import each other; the boundary (base), the live-model guard, the choice and sampling (an MCP
# server's sampling request answered by any source, through its endpoint or BYOK provider) sit beside them.
# in_process: what the scripted and function models share (wire settings, provider, loopback server).
MODELS_MAY_IMPORT: dict[str, frozenset[str]] = {
    "wire": frozenset(),
    "renames": frozenset(),
    "base": frozenset(),
    "byok": frozenset({"base"}),
    "github": frozenset({"base"}),
    "guard": frozenset({"base"}),
    "choice": frozenset({"base", "byok", "github", "guard"}),
    "sampling": frozenset(),
    "in_process": frozenset({"base", "wire"}),
    "scripted": frozenset({"in_process", "wire", "renames"}),
    "function": frozenset({"in_process", "wire"}),
    "replay": frozenset({"base", "choice", "wire"}),
}

_MODULE_PATH = re.compile(rf"^{PACKAGE}(\.\w+)+$")


@dataclass(frozen=True)
class Import:
    """One import of a copilot_eval module by another."""

    source: str
    target: str
    line: int
    in_function: bool
    type_only: bool

    def where(self) -> str:
        """``copilot_eval/x/y.py:12`` for messages."""
        return f"{_MODULES[self.source].relative_to(SRC.parent)}:{self.line}"


def _module_files() -> dict[str, Path]:
    files = {}
    for path in sorted(SRC.rglob("*.py")):
        name = ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")
        files[name] = path
    return files


_MODULES = _module_files()


def _resolve(name: str) -> str | None:
    while name and name not in _MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _nodes_inside(tree: ast.AST, kinds: tuple[type[ast.AST], ...]) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, kinds):
            inside.update(id(child) for child in ast.walk(node) if child is not node)
    return inside


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside.update(id(child) for child in ast.walk(node))
    return inside


def _lazy_module_names(tree: ast.AST) -> set[int]:
    """Strings that name a module to load later: ``import_module("...")`` arguments and registry dict values."""
    named: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module") and node.args:
            named.add(id(node.args[0]))
        elif isinstance(node, ast.Dict):
            named.update(id(value) for value in node.values)
    return named


def _targets(node: ast.AST, module: str, path: Path, lazy_names: set[int]) -> list[str]:
    """The copilot_eval modules an import statement (or a lazy loader's module path) loads."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module if path.name == "__init__.py" else module.rpartition(".")[0]
            for _ in range(node.level - 1):
                package = package.rpartition(".")[0]
            base = f"{package}.{base}" if base else package
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in _MODULES else base for alias in node.names]
    elif id(node) in lazy_names and isinstance(node, ast.Constant) and _MODULE_PATH.match(str(node.value)):
        names = [node.value]
    else:
        return []
    resolved = {_resolve(name) for name in names if name == PACKAGE or name.startswith(PACKAGE + ".")}
    return sorted(target for target in resolved if target and target != module)


@functools.cache
def all_imports() -> tuple[Import, ...]:
    """Every import between copilot_eval modules, wherever it is written."""
    found = []
    for module, path in _MODULES.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_function = _nodes_inside(tree, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        type_only = _type_checking_nodes(tree)
        lazy_names = _lazy_module_names(tree)
        for node in ast.walk(tree):
            for target in _targets(node, module, path, lazy_names):
                found.append(Import(module, target, node.lineno, id(node) in in_function, id(node) in type_only))
    return tuple(found)


def part_of(module: str) -> str:
    """The part a module belongs to: ``copilot_eval.runs.prepare`` -> ``runs``; the package itself -> itself."""
    return module.split(".")[1] if module != PACKAGE else PACKAGE


def test_every_part_of_the_package_has_a_place_in_the_layers() -> None:
    parts = {part_of(module) for module in _MODULES} - {PACKAGE}
    assert parts == set(MAY_IMPORT), "place a new part in MAY_IMPORT (and the layout section of docs/development.md)"
    runtime_parts = {module.split(".")[2] for module in _MODULES if module.startswith(f"{PACKAGE}.runtime.")}
    assert runtime_parts == set(RUNTIME_ORDER)
    models_parts = {module.split(".")[2] for module in _MODULES if module.startswith(f"{PACKAGE}.models.")}
    assert models_parts == set(MODELS_MAY_IMPORT)


@pytest.mark.parametrize("part", sorted(MAY_IMPORT))
def test_each_part_imports_only_the_layers_below_it(part: str) -> None:
    allowed = MAY_IMPORT[part] | {part}
    wrong = [
        f"{imp.where()} imports {imp.target} ({part_of(imp.target)}); {part} may import only {sorted(allowed)}"
        for imp in all_imports()
        if part_of(imp.source) == part and part_of(imp.target) not in allowed
    ]
    assert not wrong, "\n".join(wrong)


def test_the_leaves_import_only_leaves() -> None:
    for leaf in LEAVES:
        assert MAY_IMPORT[leaf] <= LEAVES, leaf
        inner = [module for module in _MODULES if module.startswith(f"{PACKAGE}.{leaf}.")]
        assert leaf in LEAF_PACKAGES or not inner, f"{leaf} is one module"
        # Inside a leaf package only the package itself gathers its modules; they import nothing of ours.
        wrong = [imp.where() for imp in all_imports() if imp.source in inner]
        assert not wrong, f"{leaf}'s modules import nothing of copilot_eval: " + ", ".join(wrong)


def test_runtime_imports_one_way_process_then_requests_then_session() -> None:
    def rank(module: str) -> int | None:
        parts = module.split(".")
        return RUNTIME_ORDER.index(parts[2]) if len(parts) > 2 and parts[1] == "runtime" else None

    wrong = [
        f"{imp.where()} imports {imp.target}: runtime/ imports one way, {' -> '.join(RUNTIME_ORDER)}"
        for imp in all_imports()
        if (source := rank(imp.source)) is not None and (target := rank(imp.target)) is not None and target > source
    ]
    assert not wrong, "\n".join(wrong)


def test_the_model_sources_share_the_wire_and_never_import_each_other() -> None:
    def piece(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and parts[1] == "models" else None

    wrong = [
        f"{imp.where()} imports {imp.target}; models/{source} may import only {sorted(MODELS_MAY_IMPORT[source])}"
        for imp in all_imports()
        if (source := piece(imp.source)) is not None
        and (target := piece(imp.target)) is not None
        and target != source
        and target not in MODELS_MAY_IMPORT[source]
    ]
    assert not wrong, "\n".join(wrong)


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def test_no_import_circle_between_files() -> None:
    # Function-level imports count: a circle that only closes at run time is still a circle.
    edges: dict[str, set[str]] = {}
    for imp in all_imports():
        if not imp.type_only:
            edges.setdefault(imp.source, set()).add(imp.target)
    circles = _circles(edges)
    assert not circles, "import circles:\n" + "\n".join(" <-> ".join(circle) for circle in circles)


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _own(node: ast.AST) -> bool:
    if isinstance(node, ast.ImportFrom):
        return bool(node.level) or (node.module or "").startswith(PACKAGE)
    return isinstance(node, ast.Import) and any(alias.name.startswith(PACKAGE) for alias in node.names)


def _unexplained_local_imports(path: Path) -> list[int]:
    """First lines of function-level import blocks of our own modules with no comment on or above them."""
    text = path.read_text(encoding="utf-8")
    comments = {
        tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(text).readline) if tok.type == tokenize.COMMENT
    }
    tree = ast.parse(text)
    in_function = _nodes_inside(tree, (ast.FunctionDef, ast.AsyncFunctionDef))
    bare = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for group in _import_runs(body):
            if id(group[0]) in in_function and any(_own(imp) for imp in group):
                first, last = group[0].lineno, group[-1].end_lineno or group[-1].lineno
                if not comments & set(range(first - 1, last + 1)):
                    bare.append(first)
    return sorted(set(bare))


def _import_runs(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    runs: list[list[ast.stmt]] = []
    for statement in body:
        if isinstance(statement, (ast.Import, ast.ImportFrom)):
            if runs and runs[-1][-1] is body[body.index(statement) - 1]:
                runs[-1].append(statement)
            else:
                runs.append([statement])
    return runs


def test_function_level_imports_of_our_modules_say_why() -> None:
    # Allowed reasons: the SDK's load time, CLI or pytest start-up, a circle that is real at run time.
    bare = [
        f"{path.relative_to(SRC.parent)}:{line}"
        for path in _MODULES.values()
        for line in _unexplained_local_imports(path)
    ]
    assert not bare, "import at module level, or say in a comment why not:\n" + "\n".join(bare)


def test_the_layout_section_names_every_part() -> None:
    readme = (SRC.parents[1] / "docs" / "development.md").read_text(encoding="utf-8")
    section = readme.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    names = [f"`{part}/`" if (SRC / part).is_dir() else f"`{part}.py`" for part in MAY_IMPORT]
    names += [
        f"`runtime/{part}/`" if (SRC / "runtime" / part).is_dir() else f"`runtime/{part}.py`" for part in RUNTIME_ORDER
    ]
    names += [f"`{part}/`" if (SRC / "models" / part).is_dir() else f"`{part}.py`" for part in MODELS_MAY_IMPORT]
    missing = [name for name in names if name not in section]
    assert not missing, f"docs/development.md's layout section does not mention {missing}"
