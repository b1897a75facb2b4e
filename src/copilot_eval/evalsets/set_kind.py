"""The one place that tells what kind of test set a file (or a folder) is.

``copilot-eval run``, ``validate``, ``convert`` and the pytest collector all ask here, so a file is
the same kind of set to each of them. The name speaks first (``.csv``, ``.json``,
``.prompt.yml``/``.prompt.yaml``, ``.prompt.md``); where it cannot, the content does: a ``.yml`` or
``.yaml`` file is a prompt file when its top level holds ``messages`` and a YAML test set (the JSON
form in YAML) when it holds ``cases``, a folder is a set when it
holds ``*.prompt.md`` files, and a file of another name is a Copilot Studio CSV when its first
record (after any comment block) is a test-set header. Anything else is of no known kind, and
``unknown_kind_message`` says so, naming the file and the kinds accepted.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path

from copilot_eval.evalsets.csv_reader import looks_like_test_set
from copilot_eval.evalsets.prompt_markdown import MARKDOWN_SUFFIX, prompt_markdown_files
from copilot_eval.evalsets.prompt_yaml import read_yaml

PROMPT_SUFFIXES = (".prompt.yml", ".prompt.yaml")
"""The names of a gh-models prompt file."""

YAML_SUFFIXES = (".yml", ".yaml")
_SNIFF_BYTES = 1 << 20  # what the content checks read of a file: a header or a top-level key is near the start


class SetKind(StrEnum):
    """A kind of test-set file, each with its own reader."""

    CSV = "csv"  # Copilot Studio's CSV templates (evalsets.csv_reader)
    JSON = "json"  # the JSON form of a test set (evalsets.json_io)
    PROMPT = "prompt"  # a gh-models prompt file (evalsets.prompt_cases)
    PROMPT_MARKDOWN = "prompt_markdown"  # a VS Code prompt file, *.prompt.md (evalsets.prompt_markdown)
    PROMPT_FOLDER = "prompt_folder"  # a folder of *.prompt.md files, played as one set
    YAML = "yaml"  # the JSON form of a test set written in YAML (evalsets.yaml_sets)


KIND_WORDS: dict[SetKind, str] = {
    SetKind.CSV: "a Copilot Studio CSV (.csv)",
    SetKind.JSON: "a JSON test set (.json)",
    SetKind.PROMPT: "a prompt file (.prompt.yml, .prompt.yaml, or YAML with `messages`)",
    SetKind.PROMPT_MARKDOWN: "a VS Code prompt file (.prompt.md)",
    SetKind.PROMPT_FOLDER: "a folder of .prompt.md files",
    SetKind.YAML: "a YAML test set (.yaml or .yml with `cases`)",
}
"""Each kind as a message names it."""


def kind_by_name(path: Path | str, *, writing: bool = False) -> SetKind | None:
    """The kind ``path``'s name alone says; None when only its content can say (or nothing can).

    ``writing``: the file is to be written, so a ``.yml``/``.yaml`` name means a prompt file (the
    only kind written as YAML).
    """
    name = str(path).lower()
    if name.endswith(PROMPT_SUFFIXES):
        return SetKind.PROMPT
    if name.endswith(MARKDOWN_SUFFIX):
        return SetKind.PROMPT_MARKDOWN
    if writing and name.endswith(YAML_SUFFIXES):
        return SetKind.PROMPT
    return {".csv": SetKind.CSV, ".json": SetKind.JSON}.get(Path(name).suffix)


def _yaml_kind(path: Path) -> SetKind | None:
    """A YAML file's kind by its top level: ``messages`` makes a prompt file, ``cases`` a YAML test set."""
    try:
        text = path.read_bytes()[:_SNIFF_BYTES].decode("utf-8", errors="replace")
    except OSError:
        return None
    document = read_yaml(text)
    if document.problems:
        # Not readable as a whole (a syntax error, a bomb refused, a file cut at the sniff): its own
        # reader says what is wrong, so pick it by a top-level key written at the start of a line.
        return SetKind.PROMPT if re.search(r"(?m)^messages\s*:", text) else SetKind.YAML
    if not isinstance(document.value, dict):
        return None
    if "messages" in document.value:
        return SetKind.PROMPT
    return SetKind.YAML if "cases" in document.value else None


def kind_of_set(path: Path | str) -> SetKind | None:
    """The kind of the file or folder at ``path``, by its name and then its content; None for no known kind."""
    path = Path(path)
    if path.is_dir():
        return SetKind.PROMPT_FOLDER if prompt_markdown_files(path) else None
    if (kind := kind_by_name(path)) is not None:
        return kind
    if not path.is_file():
        return None
    if path.suffix.lower() in YAML_SUFFIXES:
        return _yaml_kind(path)
    try:
        return SetKind.CSV if looks_like_test_set(path) else None
    except OSError:
        return None


def unknown_kind_message(path: Path | str, accepted: Iterable[SetKind] = tuple(SetKind)) -> str:
    """``PATH: WHY; give KIND, KIND or KIND``: why ``path`` is not one of the ``accepted`` kinds, and what would do."""
    path = Path(path)
    accepted = tuple(accepted)
    kinds = [KIND_WORDS[kind] for kind in accepted]
    shown = ", ".join(kinds[:-1]) + f" or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
    if not path.exists():
        why = "test set file not found"
    elif (kind := kind_of_set(path)) is not None and kind not in accepted:
        why = f"{KIND_WORDS[kind]}, which is not taken here"
    elif path.is_dir():
        why = "a folder with no *.prompt.md file in it"
    elif path.suffix.lower() in YAML_SUFFIXES:
        why = "a YAML file with neither `messages` (a prompt file) nor `cases` (a test set)"
    else:
        why = "not a test set of any kind this tool reads (no test-set header in it)"
    return f"{path}: {why}; give {shown}"


__all__ = [
    "KIND_WORDS",
    "PROMPT_SUFFIXES",
    "YAML_SUFFIXES",
    "SetKind",
    "kind_by_name",
    "kind_of_set",
    "unknown_kind_message",
]
