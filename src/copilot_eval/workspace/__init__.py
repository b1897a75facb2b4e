"""Workspaces for coding tasks: fixtures copied fresh per play, what the agent changed, and honesty findings.

A case (or a whole run, ``--workspace DIR``) names a fixture: a folder, an archive, or a git
repository at a commit (``evalsets.CaseWorkspace``). ``fixtures`` checks and stages it,
``play`` prepares each play's working directory (a fresh copy, setup commands) and concludes it after
the agent (``changes``: what changed and the patch; ``paths``: files read and written from the tool
records; ``findings``: protected paths changed, answer keys read, tests deleted or skipped).
``commands`` runs shell commands in a workspace with a time limit (setup, the command grader).
"""

from __future__ import annotations

from copilot_eval.workspace.archives import ArchiveError, check_archive, extract_archive
from copilot_eval.workspace.changes import Changes, compare, manifest, unified_patch
from copilot_eval.workspace.commands import CommandOutcome, run_command
from copilot_eval.workspace.findings import TEST_GLOBS, HonestyPolicy, honesty_findings
from copilot_eval.workspace.fixtures import FixtureError, FixtureStage, copy_fixture, fixture_problem
from copilot_eval.workspace.handle import Workspace
from copilot_eval.workspace.paths import FilesTouched, files_touched, matches
from copilot_eval.workspace.play import PreparedWorkspace, WorkspaceOutcome, conclude_workspace, prepare_workspace

__all__ = [
    "TEST_GLOBS",
    "ArchiveError",
    "Changes",
    "CommandOutcome",
    "FilesTouched",
    "FixtureError",
    "FixtureStage",
    "HonestyPolicy",
    "PreparedWorkspace",
    "Workspace",
    "WorkspaceOutcome",
    "check_archive",
    "compare",
    "conclude_workspace",
    "copy_fixture",
    "extract_archive",
    "files_touched",
    "fixture_problem",
    "honesty_findings",
    "manifest",
    "matches",
    "prepare_workspace",
    "run_command",
    "unified_patch",
]
