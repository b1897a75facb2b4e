"""Install lines in the README and the docs work for someone who has only what they name."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DOCUMENTS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def _lines(pattern: str) -> list[str]:
    return [
        f"{document.relative_to(REPO)}:{number}: {line.strip()}"
        for document in DOCUMENTS
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), start=1)
        if re.search(pattern, line)
    ]


def test_no_doc_installs_the_package_from_an_index_that_does_not_have_it():
    # `pip install 'copilot-eval[x]'` asks PyPI, which has no copilot-eval: a clone or a git URL is the way.
    assert _lines(r"pip install ['\"]?copilot-eval(\[[a-z,]+\])?['\"]?(?!\s*@)(\s|$)") == []


def test_building_the_wheel_says_what_it_needs():
    # `python -m build` needs the `build` package, which only the dev extra brings: say so where it is named.
    unexplained = [line for line in _lines(r"python -m build") if "pip install build" not in line and "dev" not in line]
    assert unexplained == []


def test_every_shipped_prompt_file_validates_as_it_is():
    # A new user's first `copilot-eval validate` on an example must pass without options only the docs name.
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app

    shipped = sorted(
        str(path) for pattern in ("*.prompt.yml", "*.prompt.yaml") for path in (REPO / "examples").rglob(pattern)
    )
    assert shipped, "no prompt file found under examples/"
    done = CliRunner().invoke(app, ["validate", *shipped])
    assert done.exit_code == 0, done.output


def test_the_readmes_command_table_names_each_command_once():
    import re as _re

    text = (REPO / "README.md").read_text(encoding="utf-8")
    table = text[text.index("## Commands") :].split("\n\n")[1]
    # a command and its subcommand (`history agreement`), never an argument (`run SET`)
    named = [_re.match(r"\|[^|]*\| `copilot-eval ([a-z-]+(?: [a-z|-]+(?=[ `]))?)", row) for row in table.splitlines()]
    commands = [match.group(1) for match in named if match]
    assert commands and sorted(commands) == sorted(set(commands)), commands
