"""The customization files a run's working directory and user folders hold, found on disk.

Where the pinned runtime (1.0.102) looks was measured with a scripted model and the request audit
(docs/customizations.md): the git root (or the working directory outside git) for
``.github/copilot-instructions.md``, ``.github/instructions/**/*.instructions.md`` and
``.claude/rules/**/*.md``; every folder from the git root down to the working directory for
``AGENTS.md``, ``CLAUDE.md`` and ``GEMINI.md``; and the session's own COPILOT_HOME for the user's
``copilot-instructions.md`` and ``instructions/**/*.instructions.md``. This module only finds the
files and says what the runtime should do with each; whether it did is read from the requests.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

import yaml

from copilot_eval.agent.config import CopilotEval
from copilot_eval.bounded_yaml import load_yaml
from copilot_eval.evidence.customizations import CustomizationKind, CustomizationScope, FoundCustomization
from copilot_eval.path_globs import glob_regex

__all__ = [
    "FOLDER_FILES",
    "MAX_FILES_WALKED",
    "apply_to_pattern",
    "copy_user_instructions",
    "find_customizations",
    "found_for_run",
    "git_root",
    "split_frontmatter",
]

FOLDER_FILES: dict[str, CustomizationKind] = {
    "AGENTS.md": "agents-md",
    "CLAUDE.md": "claude-md",
    "GEMINI.md": "gemini-md",
}
MAX_FILES_WALKED = 20_000  # a repository's files looked at for applyTo matches and stray files
MAX_FILE_BYTES = 1_000_000
MAX_FRONTMATTER_CHARS = 16_000
_SKIPPED_DIRS = {".git", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".mypy_cache"}
_APPLY_TO_LINE = re.compile(r"^applyTo\s*:\s*(.*?)\s*$", re.MULTILINE)
PROMPT_NOT_INSTRUCTIONS = (
    "a prompt file is run on request (VS Code's /name); the runtime never loads it as instructions"
)
NOT_IN_SESSION_HOME = (
    "copilot-eval gives each session its own COPILOT_HOME and the runtime reads user-level instructions "
    "from there, not from ~/.copilot; set user_instructions_dir to deliver them"
)


def git_root(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` holding ``.git``; None outside a git repository."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def apply_to_pattern(glob: str) -> re.Pattern[str]:
    """One applyTo glob as a regular expression over ``/``-separated relative paths (``**`` any depth)."""
    return re.compile(glob_regex(glob) + r"\Z")


def _globs(apply_to: str) -> list[str]:
    return [part.strip().strip("'\"").lstrip("/") for part in apply_to.split(",") if part.strip()]


def _read(path: Path) -> str:
    with path.open("rb") as handle:
        data = handle.read(MAX_FILE_BYTES + 1)
    return data[:MAX_FILE_BYTES].decode("utf-8", errors="replace")


def split_frontmatter(text: str) -> tuple[str | None, str | None, str]:
    """(applyTo as the runtime reads it, the problem with the frontmatter, the body).

    The runtime reads ``applyTo`` from its line even where the frontmatter is not valid YAML
    (measured: ``applyTo: **`` applied to every file, ``applyTo: '**`` was listed as ``'**``),
    so the value is taken from the line and the YAML problem reported beside it.
    """
    if not text.startswith("---"):
        return None, None, text
    end = re.search(r"^---\s*$", text[3:], re.MULTILINE)
    if end is None:
        return None, "the frontmatter has no closing '---' line", text
    front, body = text[3 : 3 + end.start()], text[3 + end.end() :]
    problem = None
    if len(front) > MAX_FRONTMATTER_CHARS:
        problem = f"the frontmatter is longer than {MAX_FRONTMATTER_CHARS} characters"
    else:
        try:
            data = load_yaml(front, source="frontmatter")  # bounded: other people's files
            if data is not None and not isinstance(data, dict):
                problem = "the frontmatter is not a mapping of fields"
        except yaml.YAMLError as error:
            # Where the broken value starts (an unclosed quote's opening), else where parsing stopped;
            # the frontmatter's first line is the file's first line, the one of the opening '---'.
            mark = getattr(error, "context_mark", None) or getattr(error, "problem_mark", None)
            where = f" (line {mark.line + 1})" if mark is not None else ""
            problem = f"the frontmatter does not parse as YAML{where}: {getattr(error, 'problem', None) or error}"
    line = _APPLY_TO_LINE.search(front)
    apply_to = line.group(1) if line else None
    if apply_to and len(apply_to) >= 2 and apply_to[0] == apply_to[-1] and apply_to[0] in "'\"":
        apply_to = apply_to[1:-1]
    return apply_to, problem, body.lstrip("\n")


def _walk(root: Path) -> Iterator[Path]:
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in sorted(files):
            seen += 1
            if seen > MAX_FILES_WALKED:
                return
            yield Path(folder) / name


class _Candidates(list[str]):
    """The paths an ``applyTo`` glob is matched against, and whether they are all of the repository's."""

    complete = True


def _matches(apply_to: str | None, paths: list[str]) -> bool | None:
    if apply_to is None:
        return None
    patterns = [apply_to_pattern(glob) for glob in _globs(apply_to)]
    if any(pattern.match(path) for pattern in patterns for path in paths):
        return True
    # A walk cut short at MAX_FILES_WALKED cannot say that nothing matches: unknown, never guessed.
    return False if getattr(paths, "complete", True) else None


def _entry(
    file: Path,
    *,
    kind: CustomizationKind,
    shown: str,
    scope: CustomizationScope,
    paths: list[str],
    listed_as: str | None = None,
    why_not_read: str | None = None,
) -> FoundCustomization:
    apply_to, problem, body = split_frontmatter(_read(file))
    # Built by keyword like otel/records.py's spans; alike in shape only.
    return FoundCustomization(
        kind=kind,
        path=shown,
        scope=scope,
        apply_to=apply_to,
        frontmatter_problem=problem,
        apply_to_matches=_matches(apply_to, paths),
        read_by_runtime=why_not_read is None,
        why_not_read=why_not_read,
        listed_as=listed_as if listed_as is not None else shown,
        text=body,
    )


def _instruction_kind(name: str) -> tuple[CustomizationKind, str | None]:
    if name.endswith(".instructions.md"):
        return "instructions", None
    if name.endswith(".prompt.md"):
        return "prompt", PROMPT_NOT_INSTRUCTIONS
    suffix = name[name.find(".") :] if "." in name else "no suffix"
    return (
        "instructions",
        f"wrong suffix: the runtime reads only files named *.instructions.md (this one ends in {suffix})",
    )


def _user_files(folder: Path, *, read_in: Path, paths: list[str], why: str | None) -> list[FoundCustomization]:
    """The user-level files of ``folder``, named by their own path; ``read_in`` is where the runtime reads them."""
    found = []
    main = folder / "copilot-instructions.md"
    files = [main] if main.is_file() else []
    instructions = folder / "instructions"
    files += sorted(instructions.rglob("*.md")) if instructions.is_dir() else []
    for file in files:
        kind, wrong = ("copilot-instructions", None) if file == main else _instruction_kind(file.name)
        listed_as = str(read_in / file.relative_to(folder))
        found.append(
            _entry(
                file,
                kind=kind,
                shown=str(file),
                scope="user",
                paths=paths,
                listed_as=listed_as,
                why_not_read=why or wrong,
            )
        )
    return found


def _shown(file: Path, cwd: Path) -> str:
    """A repository file's path as the user names it: relative to the working directory (``../`` above it)."""
    return Path(os.path.relpath(cwd / file, cwd)).as_posix()


def _strays(root: Path, cwd: Path, files: list[str], known: set[str], paths: list[str]) -> list[FoundCustomization]:
    """AGENTS.md-like files and prompt files below the working directory that the runtime does not read."""
    below = cwd.relative_to(root).as_posix()
    where = "the working directory" if cwd == root else f"the folders from the git root down to {below}"
    strays = []
    for relative in files:
        folder, _, name = relative.rpartition("/")
        if _shown(root / relative, cwd) in known or (below != "." and not relative.startswith(below + "/")):
            continue
        if name in FOLDER_FILES:
            why = (
                f"the runtime reads {name} only in {where}, not in {folder or '.'}/ "
                "(measured: not even when the agent works on files there)"
            )
        elif name.endswith(".prompt.md"):
            why = PROMPT_NOT_INSTRUCTIONS
        else:
            continue
        kind = FOLDER_FILES.get(name, "prompt")
        strays.append(
            _entry(
                root / relative,
                kind=kind,
                shown=_shown(root / relative, cwd),
                scope="folder" if name in FOLDER_FILES else "repository",
                paths=paths,
                why_not_read=why,
            )
        )
    return strays


def find_customizations(
    working_directory: Path,
    *,
    user_folder: Path | None = None,
    user_folder_in_session: Path | None = None,
    home: Path | None = None,
    touched: Iterable[str] = (),
) -> list[FoundCustomization]:
    """Every customization file of a run: the repository's, the folders', the user's.

    ``user_folder`` is the agent's ``user_instructions_dir`` (copied into the session's
    COPILOT_HOME, ``user_folder_in_session``, where the runtime reads it); ``home`` is the real home
    folder, whose ``.copilot`` files are reported as not read in this mode. ``touched`` are paths
    (relative to the repository root) the agent would work on, for ``applyTo``.
    """
    cwd = working_directory.resolve()
    root = git_root(cwd) or cwd
    files = [file.relative_to(root).as_posix() for file in _walk(root)]
    paths = _Candidates([*files, *(str(path).lstrip("/") for path in touched)])
    paths.complete = len(files) < MAX_FILES_WALKED
    found = _folder_files(root, cwd, paths)
    found += _strays(root, cwd, files, {item.path for item in found}, paths)
    if user_folder is not None:
        found += _user_files(user_folder, read_in=user_folder_in_session or user_folder, paths=paths, why=None)
    if (
        home is not None
        and (home / ".copilot").is_dir()
        and (home / ".copilot").resolve() != (user_folder or Path()).resolve()
    ):
        found += _user_files(home / ".copilot", read_in=home / ".copilot", paths=paths, why=NOT_IN_SESSION_HOME)
    return found


def _folder_files(root: Path, cwd: Path, paths: _Candidates) -> list[FoundCustomization]:
    """The repository's and the folders' files, each kind from the folders the runtime reads it in."""
    found: list[FoundCustomization] = []

    def add(file: Path, kind: CustomizationKind, folder: Path, why: str | None = None) -> None:
        shown = _shown(file, cwd)
        found.append(
            _entry(
                file,
                kind=kind,
                shown=shown,
                scope="repository" if folder == root else "folder",
                paths=paths,
                listed_as=file.relative_to(folder).as_posix(),
                why_not_read=why,
            )
        )

    chain = list(dict.fromkeys([root, *[f for f in reversed(cwd.parents) if root in f.parents], cwd]))
    for folder in chain:  # measured: every folder from the git root down to the working directory
        if (folder / ".github" / "copilot-instructions.md").is_file():
            add(folder / ".github" / "copilot-instructions.md", "copilot-instructions", folder)
    for folder in dict.fromkeys([root, cwd]):  # measured: the git root and the working directory only
        instructions = folder / ".github" / "instructions"
        for file in sorted(instructions.rglob("*.md")) if instructions.is_dir() else []:
            kind, why = _instruction_kind(file.name)
            add(file, kind, folder, why)
        rules = folder / ".claude" / "rules"
        for file in sorted(rules.rglob("*.md")) if rules.is_dir() else []:
            add(file, "claude-rule", folder)
    for name, kind in FOLDER_FILES.items():
        for folder in chain:
            if (folder / name).is_file():
                add(folder / name, kind, folder)
    return found


def copy_user_instructions(folder: Path | None, session_home: Path) -> None:
    """Copy a stand-in ~/.copilot's instruction files into a session's COPILOT_HOME (where the runtime reads them)."""
    if folder is None:
        return
    main = folder / "copilot-instructions.md"
    if main.is_file():
        shutil.copyfile(main, session_home / main.name)
    if (folder / "instructions").is_dir():
        shutil.copytree(folder / "instructions", session_home / "instructions", dirs_exist_ok=True)


def found_for_run(agent: CopilotEval, working_directory: Path, session_home: Path) -> list[FoundCustomization] | None:
    """The customization files of one run, or None when they cannot be read (the run goes on, unknown)."""
    try:
        return find_customizations(
            working_directory,
            user_folder=agent.user_instructions_dir,
            user_folder_in_session=session_home,
            home=Path.home(),
        )
    except OSError:
        return None
