"""One play's workspace: prepared before the agent starts, concluded after it ends.

``prepare_workspace`` makes a fresh working directory (``copilot_eval.workdirs``, like every run's),
copies the staged fixture into it, runs the setup commands and takes the manifest the agent's
changes are measured from. ``conclude_workspace`` reads what the agent left: the changes, the patch,
the files its tools read and wrote, and the honesty findings. Nothing here writes outside the
play's working directory; the run writes the patch beside the play's evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.evalsets.workspace_model import CaseWorkspace, WorkspaceFinding, WorkspaceRecord
from copilot_eval.workdirs import new_working_directory
from copilot_eval.workspace.changes import Changes, Manifest, compare, manifest, unified_patch
from copilot_eval.workspace.commands import DEFAULT_TIME_LIMIT_S, CommandOutcome, run_command
from copilot_eval.workspace.findings import HonestyPolicy, honesty_findings
from copilot_eval.workspace.fixtures import copy_fixture
from copilot_eval.workspace.paths import FilesTouched, files_touched


@dataclass
class PreparedWorkspace:
    """A play's working directory, ready for the agent: where it is, where it came from, the setup's outcome."""

    spec: CaseWorkspace
    fixture: Path
    directory: Path
    before: Manifest
    setup: list[CommandOutcome] = field(default_factory=list)
    policy: HonestyPolicy = field(default_factory=HonestyPolicy)

    @property
    def setup_problem(self) -> str | None:
        """Why setup failed (the first command that did not succeed), or ``None``."""
        failed = next((c for c in self.setup if not c.succeeded), None)
        if failed is None:
            return None
        return f"setup command {failed.command!r} failed: {failed.problem or f'exit code {failed.exit_code}'}"


@dataclass(frozen=True)
class WorkspaceOutcome:
    """What the agent left in its workspace, measured once after its session ended."""

    prepared: PreparedWorkspace
    changes: Changes
    patch: str
    files: FilesTouched
    findings: list[WorkspaceFinding]

    @property
    def directory(self) -> Path:
        """The play's working directory."""
        return self.prepared.directory

    def record(self, patch_path: str | None) -> WorkspaceRecord:
        """The case result's record of this outcome (``patch_path`` relative to the run folder)."""
        return WorkspaceRecord(
            directory=str(self.directory),
            patch_path=patch_path,
            added=self.changes.added,
            removed=self.changes.removed,
            changed=self.changes.changed,
            files_read=self.files.read,
            files_written=self.files.written,
            findings=self.findings,
        )

    def setup_text(self) -> str:
        """Every setup command's outcome as text (kept as evidence)."""
        return "\n".join(c.as_text() for c in self.prepared.setup)


def prepare_workspace(
    spec: CaseWorkspace,
    fixture: Path,
    *,
    protect: tuple[str, ...] = (),
    setup_time_limit_s: float = DEFAULT_TIME_LIMIT_S,
    fixture_manifest: Manifest | None = None,
) -> PreparedWorkspace:
    """A fresh working directory holding a copy of ``fixture``, set up; setup failures are recorded, not raised.

    ``fixture_manifest`` is the fixture's own manifest when the caller has it: with no setup commands
    the copy's is the same, and the folder is not walked again.
    """
    directory = new_working_directory()
    copy_fixture(fixture, directory)
    setup: list[CommandOutcome] = []
    for command in spec.setup:
        outcome = run_command(command, directory, time_limit_s=setup_time_limit_s)
        setup.append(outcome)
        if not outcome.succeeded:
            break
    policy = HonestyPolicy(protect=(*protect, *spec.protect), answer_keys=tuple(spec.answer_keys))
    before = fixture_manifest if fixture_manifest is not None and not spec.setup else manifest(directory)
    return PreparedWorkspace(spec, fixture, directory, before, setup, policy)


def conclude_workspace(prepared: PreparedWorkspace, tool_calls: list[Any]) -> WorkspaceOutcome:
    """Measure what the agent left in ``prepared``'s directory, from the files and its ``tool_calls``."""
    directory = prepared.directory
    changes = compare(prepared.before, manifest(directory))
    patch = unified_patch(prepared.fixture, prepared.before, directory, changes)
    files = files_touched(tool_calls, directory)
    findings = honesty_findings(changes, files, prepared.policy, fixture=prepared.fixture, workspace=directory)
    return WorkspaceOutcome(prepared, changes, patch, files, findings)


__all__ = ["PreparedWorkspace", "WorkspaceOutcome", "conclude_workspace", "prepare_workspace"]
