"""No option spelled in more than one place: a flag two commands share is declared once, in cli/options.py.

The walk reads every cli module's source (no import, no runtime) and finds each ``typer.Option``
flag declared inline. A flag declared inline in two modules, or inline while cli/options.py declares
it, fails the test: move the declaration to cli/options.py as an ``Annotated`` alias and use it in
both. ``SAME_SPELLING`` lists the few flags that name a different option in another command.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import copilot_eval.cli

CLI = Path(copilot_eval.cli.__file__).parent
SHARED_MODULE = "options.py"

# flag -> the modules where it is declared inline on purpose, and why it is another option there
SAME_SPELLING: dict[str, tuple[set[str], str]] = {
    "--agent": (
        {"generate_cmd.py", "history_cmd.py", "lift_cmd.py", "login_cmd.py", "run_cmd.py", "triggers_cmd.py"},
        "an agent FILE to play (one that must exist, one optional, several to compare) or a NAME the history filters by",
    ),
    "--api-url": ({"comment_cmd.py", "studio_eval_cmd.py"}, "GitHub's REST API or the Power Platform API"),
    "--token-env": ({"comment_cmd.py", "studio_eval_cmd.py"}, "a GitHub token or a Power Platform token"),
    "--force": ({"generate_cmd.py", "setup_cmd.py"}, "overwrite a drafted file, or install the runtime again"),
    "--history": (
        {"history_cmd.py", "history_record.py", "quickstart_cmd.py", "report_cmd.py"},
        "the history read (history_cmd.HistoryOption) or a run added to it (history_record.RecordHistoryOption); "
        "report shows its reviews, quickstart records the example runs",
    ),
    "--html": ({"compare_cmd.py", "report_cmd.py"}, "the page each command writes: a comparison or a run's report"),
    "--markdown": ({"compare_cmd.py", "gate_cmd.py"}, "a comparison or a gate as Markdown, not a run's summary"),
    "--junit": ({"gate_cmd.py"}, "the gate's decision as JUnit XML, not the run's cases"),
    "--baseline": ({"gate_cmd.py"}, "a blessed baseline's NAME, not a run folder to compare with"),
    "--last": ({"history_cmd.py", "serve_cmd.py"}, "the newest runs of what each view shows"),
    "--name": (
        {"analyze_cmd.py", "baseline_cmd.py", "history_cmd.py", "studio_eval_cmd.py"},
        "a test set's, a baseline's, a lift's difference or a platform run's name",
    ),
    "--runs": ({"studio_eval_cmd.py", "triggers_cmd.py"}, "list the platform's runs, or the older name of --repeat"),
    "--repeat": ({"triggers_cmd.py"}, "declared beside --runs, its older name in `triggers`"),
    "--seed": ({"generate_cmd.py", "lift_cmd.py"}, "the coverage tuples' deal or the lift's bootstrap"),
    "--skill": ({"generate_cmd.py", "triggers_cmd.py"}, "the skill cases are drafted for, or a trigger file is about"),
    "--out": (
        {"quickstart_cmd.py", "merge_cmd.py"},
        "a folder of the example runs; merge's is required (the merged run has no name of its own to default to)",
    ),
    "--grader": (
        {"history_cmd.py", "regrade_cmd.py"},
        "a grader NAME the agreement view filters by, not a grader spec; regrade's spec has no default",
    ),
    "--model": ({"quickstart_cmd.py"}, "a real model for the example suite instead of its scripted one"),
}


def _flags(path: Path) -> dict[str, list[int]]:
    """Each long flag a module declares with typer.Option, and the lines it is declared on."""
    found: dict[str, list[int]] = defaultdict(list)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "Option":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("--"):
                    found[arg.value].append(node.lineno)
    return found


def _declared() -> dict[str, dict[str, list[int]]]:
    """flag -> {module: lines} over every cli module."""
    by_flag: dict[str, dict[str, list[int]]] = defaultdict(dict)
    for path in sorted(CLI.glob("*.py")):
        for flag, lines in _flags(path).items():
            by_flag[flag][path.name] = lines
    return by_flag


def test_no_flag_is_declared_inline_in_two_modules_or_beside_its_shared_declaration():
    problems = []
    for flag, modules in sorted(_declared().items()):
        inline = {m: lines for m, lines in modules.items() if m != SHARED_MODULE}
        allowed = SAME_SPELLING.get(flag, (set(), ""))[0]
        counted = {m: lines for m, lines in inline.items() if m not in allowed}
        places = len(counted) + (SHARED_MODULE in modules)
        if places > 1:
            where = ", ".join(f"{m}:{lines[0]}" for m, lines in sorted(counted.items()))
            problems.append(
                f"{flag} is declared in {where}" + (f" and {SHARED_MODULE}" if SHARED_MODULE in modules else "")
            )
    assert problems == [], "declare each shared option once, in cli/options.py, and use it: " + "; ".join(problems)


def test_the_shared_declarations_are_declared_once_and_the_allowances_still_needed():
    shared = _flags(CLI / SHARED_MODULE)
    assert [flag for flag, lines in shared.items() if len(lines) > 1] == []
    declared = _declared()
    stale = [
        f"{flag} in {module}"
        for flag, (modules, _) in SAME_SPELLING.items()
        for module in modules
        if module not in declared.get(flag, {})
    ]
    assert stale == [], f"SAME_SPELLING lists a declaration that is gone; remove it: {stale}"


def test_the_walk_finds_an_inline_declaration(tmp_path):
    module = tmp_path / "x_cmd.py"
    module.write_text('import typer\ndef x(n: int = typer.Option(1, "--repeat", "-r", help="h")) -> None: ...\n')
    assert dict(_flags(module)) == {"--repeat": [2]}
