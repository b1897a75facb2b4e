"""`copilot-eval init [DIR]`: write a starter suite that passes at once (examples/starter, shipped in the package).

The starter is an agent file with a scripted model, a pytest test giving it a Python tool, a
Copilot Studio test set, a judge file for the LLM graders and a GitHub Actions workflow. Nothing
is overwritten: a file that exists already stops the command before anything is written. The
workflow installs copilot-eval from what this copy was installed from (PEP 610's
``direct_url.json``): a git repository at its commit, a PyPI release by its version.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from copilot_eval.first_steps.examples import shipped_examples
from copilot_eval.version import __version__

DISTRIBUTION = "copilot-eval"
INSTALL_SPEC_MARK = "{install_spec}"
# A local wheel or folder cannot be installed on a CI machine; the workflow then says what to write.
PLACEHOLDER_SPEC = "copilot-eval @ git+https://github.com/OWNER/copilot-eval@vVERSION"


class StarterExists(FileExistsError):
    """The target folder already holds files of the starter; nothing was written."""


@dataclass(frozen=True)
class Starter:
    """What `init` wrote: the folder, its files (relative), and the install line the workflow uses."""

    folder: Path
    files: list[Path]
    install_spec: str

    @property
    def spec_is_placeholder(self) -> bool:
        """Whether the workflow's install line must be edited before CI can use it."""
        return self.install_spec == PLACEHOLDER_SPEC


def install_spec(distribution: str = DISTRIBUTION) -> str:
    """How a CI machine installs this copilot-eval: ``git+URL@COMMIT``, ``copilot-eval==X``, or a placeholder."""
    try:
        dist = metadata.distribution(distribution)
    except metadata.PackageNotFoundError:
        return PLACEHOLDER_SPEC
    text = dist.read_text("direct_url.json")
    if not text:
        return f"{distribution}=={dist.version}"  # from an index: the same release
    try:
        origin = json.loads(text)
    except ValueError:
        return PLACEHOLDER_SPEC
    vcs = origin.get("vcs_info") or {}
    url = str(origin.get("url", ""))
    if vcs.get("vcs") == "git" and url and not url.startswith("file:"):
        return f"{distribution} @ git+{url}@{vcs.get('commit_id') or vcs.get('requested_revision') or 'main'}"
    if url.startswith(("https://", "http://")):
        return f"{distribution} @ {url}"  # a wheel or sdist on a server the CI machine can reach too
    return PLACEHOLDER_SPEC


def starter_files() -> Path:
    """The starter's source folder (examples/starter)."""
    return shipped_examples() / "starter"


def write_starter(folder: Path, *, spec: str | None = None) -> Starter:
    """Write the starter into ``folder`` (created); refuses, writing nothing, if any of its files exist."""
    source = starter_files()
    files = sorted(p.relative_to(source) for p in source.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    taken = [name for name in files if (folder / name).exists()]
    if taken:
        raise StarterExists(
            f"{folder} already holds {', '.join(str(name) for name in taken)}; "
            "give `copilot-eval init` an empty or new folder (nothing was written)"
        )
    chosen = spec or install_spec()
    for name in files:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        text = (source / name).read_text(encoding="utf-8")
        target.write_text(text.replace(INSTALL_SPEC_MARK, chosen.replace("VERSION", __version__)), encoding="utf-8")
    return Starter(folder=folder, files=files, install_spec=chosen)


__all__ = ["PLACEHOLDER_SPEC", "Starter", "StarterExists", "install_spec", "starter_files", "write_starter"]
