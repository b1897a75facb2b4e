"""A VS Code prompt file (``*.prompt.md``) read into the same shape as a GitHub prompt file (``*.prompt.yml``).

The body is the case's question (one user message); its ``${input:name}`` and
``${input:name:placeholder}`` variables become ``{{name}}`` placeholders, filled like a
``.prompt.yml`` file's: from ``--var NAME=VALUE`` and from the rows of a sidecar file beside it
(``NAME.inputs.yaml`` for ``NAME.prompt.md``: one mapping, one case; or a list of mappings, one case
each, with ``name`` and ``expected`` as in ``testData``). Other VS Code variables (``${file}``,
``${selection}``, ``${workspaceFolder}`` ...) have no value outside the editor: they are
placeholders too, and a run without a value for one is refused, naming it.

Frontmatter: ``description`` is the set's description; ``model`` the session model where the
runtime knows it (``GPT-4.1`` and ``gpt-4.1 (copilot)`` read as ``gpt-4.1``); ``mode``/``agent``
``agent`` is what the runtime does; every other value, and ``tools`` (VS Code's tool names are not
the runtime's), is named in a note as not applied, never silently dropped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.prompt_model import PromptFileRecord, PromptMessage
from copilot_eval.evalsets.prompt_reader import PromptFileParse
from copilot_eval.evalsets.prompt_runtime import runtime_model_name
from copilot_eval.evalsets.prompt_yaml import YamlDocument, read_yaml

__all__ = [
    "KNOWN_KEYS",
    "MARKDOWN_SUFFIX",
    "combine_prompt_sets",
    "inputs_file_for",
    "is_prompt_markdown",
    "parse_prompt_markdown",
    "prompt_markdown_files",
]

MARKDOWN_SUFFIX = ".prompt.md"
KNOWN_KEYS = ("description", "mode", "agent", "model", "tools", "name", "argument-hint")
_VARIABLE = re.compile(r"\$\{(?:input:)?([A-Za-z_][\w-]*)(?::[^}]*)?\}")
_FRONT_END = re.compile(r"^---[ \t]*$", re.MULTILINE)


def is_prompt_markdown(path: Path | str) -> bool:
    """Whether ``path`` is named as a VS Code prompt file (``*.prompt.md``)."""
    return str(path).lower().endswith(MARKDOWN_SUFFIX)


def inputs_file_for(path: Path) -> Path:
    """The sidecar of variables for ``NAME.prompt.md``: ``NAME.inputs.yaml`` beside it."""
    return path.with_name(path.name[: -len(MARKDOWN_SUFFIX)] + ".inputs.yaml")


def _split(text: str) -> tuple[str | None, str, int]:
    """(frontmatter text or None, body, the body's first line number)."""
    if not text.startswith("---"):
        return None, text, 1
    end = _FRONT_END.search(text, 3)
    if end is None:
        return text[3:], "", 1
    front, body = text[3 : end.start()], text[end.end() :].lstrip("\n")
    return front, body, text[: end.end()].count("\n") + 2


def _model(value: Any) -> str:
    written = str(value).strip() if value is not None else ""
    if not written:
        return ""
    normal = re.sub(r"\s*\(copilot\)\s*$", "", written, flags=re.IGNORECASE).strip().lower().replace(" ", "-")
    if runtime_model_name(normal) is not None:
        return normal
    return written  # the run names it as having no runtime equivalent unless the agent or --model chooses one


def _notes(parse: PromptFileParse, front: dict[str, Any]) -> None:
    for key in front:
        if key not in KNOWN_KEYS:
            parse.note((key,), f"frontmatter {key!r}: not a prompt-file key VS Code documents; ignored")
    mode = front.get("agent", front.get("mode"))
    if mode is not None and str(mode).strip().lower() != "agent":
        parse.note(
            ("agent" if "agent" in front else "mode",),
            f"agent/mode {mode!r}: not applied; the Copilot runtime plays every prompt as an agent "
            "(a custom agent is chosen with the agent file's custom_agents)",
        )
    tools = front.get("tools")
    if tools:
        names = ", ".join(str(t) for t in tools) if isinstance(tools, list) else str(tools)
        parse.note(
            ("tools",),
            f"tools ({names}): not applied; VS Code's tool names are not the runtime's, so the agent "
            "file's allowed_tools and excluded_tools decide which tools the model is offered",
        )


def _rows(parse: PromptFileParse, sidecar: Path) -> list[dict[str, Any]] | None:
    if not sidecar.is_file():
        return None
    document = read_yaml(sidecar.read_text(encoding="utf-8"))
    parse.problems.extend(f"{sidecar.name}: {problem}" for problem in document.problems)
    value = document.value
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list) and all(isinstance(row, dict) for row in value):
        return list(value)
    if not document.problems:
        parse.problems.append(f"{sidecar.name}: expected a mapping of variables, or a list of them (one case each)")
    return None


def parse_prompt_markdown(text: str, path: Path) -> PromptFileParse:
    """Read a ``.prompt.md`` text: its record (one user message), its sidecar rows, its notes and problems."""
    front_text, body, body_line = _split(text)
    parse = PromptFileParse(path=path)
    front: dict[str, Any] = {}
    if front_text is not None:
        document: YamlDocument = read_yaml(front_text)
        parse.problems.extend(f"frontmatter: {problem}" for problem in document.problems)
        if isinstance(document.value, dict):
            front = document.value
        elif document.value is not None:
            parse.problems.append("frontmatter: expected a mapping of description, agent, model, tools ...")
    if not body.strip():
        parse.problems.append(f"line {body_line}: the prompt has no body: nothing to ask")
    _notes(parse, front)
    parse.record = PromptFileRecord(
        source=path.name,
        name=str(front.get("name") or path.name[: -len(MARKDOWN_SUFFIX)]),
        description=str(front.get("description") or ""),
        model=_model(front.get("model")),
        messages=[PromptMessage(role="user", content=_VARIABLE.sub(lambda m: "{{" + m.group(1) + "}}", body))],
    )
    parse.rows = _rows(parse, inputs_file_for(path))
    return parse


def prompt_markdown_files(folder: Path) -> list[Path]:
    """The ``*.prompt.md`` files directly in ``folder``, sorted by name."""
    return sorted(path for path in folder.iterdir() if path.is_file() and is_prompt_markdown(path))


def combine_prompt_sets(folder: Path, sets: list[tuple[Path, EvalTestSet]]) -> tuple[EvalTestSet, list[str]]:
    """One test set of a folder's prompt files: each file's cases in turn, keyed ``FILE`` or ``FILE:ROW``.

    The set's model is the files' common model; files that name different ones are played on the
    agent's (or ``--model``'s), and a note says so.
    """
    cases: list[EvalTestCase] = []
    notes: list[str] = []
    models = {test_set.prompt_file.model for _, test_set in sets if test_set.prompt_file is not None}
    for path, test_set in sets:
        stem = path.name[: -len(MARKDOWN_SUFFIX)]
        single = len(test_set.cases) == 1
        for case in test_set.cases:
            key = stem if single else f"{stem}:{case.case_key}"
            cases.append(case.model_copy(update={"conversation_number": len(cases) + 1, "case_key": key}))
        if test_set.note:
            notes.append(f"{path.name}: {test_set.note}")
    if len(models) > 1:
        notes.append(
            f"the files name different models ({', '.join(sorted(m or '(none)' for m in models))}): "
            "the agent file's model or --model plays every case"
        )
    record = PromptFileRecord(source=folder.name, name=folder.name, model=models.pop() if len(models) == 1 else "")
    combined = EvalTestSet(
        name=folder.name,
        data_type=EvalDataType.SINGLE_TURN,
        cases=cases,
        evidence=[f"{folder.name}/"],
        prompt_file=record,
        note="; ".join(notes) or None,
    )
    return combined, notes
