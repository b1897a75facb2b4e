"""A small repository holding each kind of customization file, each with a marker of its own.

Written by the tests (never real files): the marker says, in a raw request body, whether that file's
text reached the model, independently of the code under test.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

FILES: dict[str, str] = {
    ".github/copilot-instructions.md": "Answer in British English. MARK-REPO-MAIN\n",
    ".github/instructions/everywhere.instructions.md": "---\napplyTo: '**'\n---\nKeep functions short. MARK-EVERYWHERE\n",
    ".github/instructions/python.instructions.md": "---\napplyTo: '**/*.py'\ndescription: Python rules\n---\n"
    "Use type hints. MARK-PYTHON\n",
    ".github/instructions/rust.instructions.md": "---\napplyTo: '**/*.rs'\n---\nNo unsafe blocks. MARK-RUST\n",
    ".github/instructions/plain.instructions.md": "No frontmatter at all. MARK-PLAIN\n",
    ".github/instructions/misnamed.instruction.md": "---\napplyTo: '**'\n---\nNever delivered. MARK-MISNAMED\n",
    ".github/instructions/broken.instructions.md": "---\napplyTo: '**\n---\nQuote never closed. MARK-BROKEN\n",
    ".github/prompts/review.prompt.md": "---\ndescription: Review a file\n---\nReview ${input:file}. MARK-PROMPT\n",
    "AGENTS.md": "Run the tests before you finish. MARK-AGENTS-ROOT\n",
    "service/AGENTS.md": "This service speaks gRPC. MARK-AGENTS-SERVICE\n",
    "service/app.py": "print('hello')\n",
}
USER_FILES: dict[str, str] = {
    "copilot-instructions.md": "Sign every answer with a haiku. MARK-USER-MAIN\n",
    "instructions/docs.instructions.md": "---\napplyTo: '**/*.md'\n---\nWrap at 100. MARK-USER-DOCS\n",
}
MARKERS = {
    path: text.split("MARK-", 1)[1].split()[0] for path, text in {**FILES, **USER_FILES}.items() if "MARK-" in text
}


def write_files(root: Path, files: dict[str, str]) -> None:
    """Write ``files`` (relative path -> text) under ``root``."""
    for relative, text in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def make_repository(root: Path, *, git: bool = True) -> Path:
    """The fixture repository at ``root`` (a git repository unless ``git=False``)."""
    write_files(root, FILES)
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def make_user_folder(folder: Path) -> Path:
    """A stand-in ~/.copilot with the user's instruction files."""
    write_files(folder, USER_FILES)
    return folder
