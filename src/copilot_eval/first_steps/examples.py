"""The examples the quickstart plays: shipped inside the package, or the examples/ folder of a clone.

A wheel carries them as ``copilot_eval/examples`` (pyproject.toml's force-include); an editable
install of a clone finds the repository's own folder. The quickstart plays a copy in a temporary
folder, so it writes nothing beside the installed package and the user can read what it ran.
"""

from __future__ import annotations

import shutil
from pathlib import Path

# What the quickstart plays: its pytest suite, the evaluation stories and the Copilot Studio ones.
QUICKSTART_FOLDERS = ("quickstart", "evalsets", "evaluation", "copilot-studio")
_MARKER = Path("quickstart") / "test_quickstart.py"


class ExamplesNotFound(FileNotFoundError):
    """Neither the package nor a clone holds the examples (a damaged install)."""


def shipped_examples() -> Path:
    """The examples folder: the package's own copy (a wheel), else the clone's (an editable install)."""
    here = Path(__file__).resolve()
    candidates = (here.parents[1] / "examples", here.parents[3] / "examples")
    for candidate in candidates:
        if (candidate / _MARKER).is_file():
            return candidate
    raise ExamplesNotFound(
        "the examples are missing from this copilot-eval install (looked in "
        + " and ".join(str(c) for c in candidates)
        + "); reinstall the package: pip install --force-reinstall copilot-eval"
    )


def copy_examples(destination: Path, folders: tuple[str, ...] = QUICKSTART_FOLDERS) -> Path:
    """Copy the named example folders into ``destination`` (created); returns ``destination``."""
    source = shipped_examples()
    destination.mkdir(parents=True, exist_ok=True)
    for name in folders:
        if (source / name).is_dir():
            shutil.copytree(
                source / name,
                destination / name,
                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                dirs_exist_ok=True,
            )
    return destination


__all__ = ["QUICKSTART_FOLDERS", "ExamplesNotFound", "copy_examples", "shipped_examples"]
