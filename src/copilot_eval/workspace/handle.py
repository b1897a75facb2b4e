"""One workspace in the hands of a test: a folder copied fresh, the agent pointed at it, what it left read back.

``Workspace.from_folder`` is what the pytest plugin's ``copilot_workspace`` fixture makes; it works the
same from plain Python. ``agent(a)`` is the agent working in the copy; ``conclude(result)`` measures
what it left (the patch, the files its tools read and wrote, the findings) once the run is over;
``run(command)`` runs a command there with a time limit (the repository's own tests).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.evalsets.workspace_model import CaseWorkspace
from copilot_eval.workspace.commands import DEFAULT_TIME_LIMIT_S, CommandOutcome, run_command
from copilot_eval.workspace.fixtures import FixtureError, fixture_problem
from copilot_eval.workspace.play import PreparedWorkspace, WorkspaceOutcome, conclude_workspace, prepare_workspace


class Workspace:
    """A fresh copy of a fixture folder that one test's agent works in."""

    def __init__(self, prepared: PreparedWorkspace) -> None:
        self.prepared = prepared
        self.outcome: WorkspaceOutcome | None = None

    @classmethod
    def from_folder(
        cls,
        source: str | Path,
        *,
        protect: Sequence[str] = (),
        answer_keys: Sequence[str] = (),
        setup: Sequence[str] = (),
    ) -> Workspace:
        """Copy the folder ``source`` into a fresh working directory and run ``setup`` there.

        FixtureError when the folder cannot be used or a setup command fails (its output in the message).
        """
        spec = CaseWorkspace(
            source=str(Path(source).resolve()), protect=list(protect), answer_keys=list(answer_keys), setup=list(setup)
        )
        if (problem := fixture_problem(spec)) is not None:
            raise FixtureError(problem)
        prepared = prepare_workspace(spec, Path(spec.source))
        if prepared.setup_problem is not None:
            raise FixtureError(f"{prepared.setup_problem}\n" + "\n".join(c.as_text() for c in prepared.setup))
        return cls(prepared)

    @property
    def path(self) -> Path:
        """The working directory."""
        return self.prepared.directory

    def agent(self, agent: Any) -> Any:
        """``agent`` working in this workspace (``CopilotEval.with_options(working_directory=...)``)."""
        return agent.with_options(working_directory=self.path)

    def conclude(self, result: Any = None) -> WorkspaceOutcome:
        """What the agent left, measured now (the tool records of ``result`` give the files read and written)."""
        calls = list(getattr(result, "all_tool_calls", None) or []) if result is not None else []
        self.outcome = conclude_workspace(self.prepared, calls)
        return self.outcome

    @property
    def patch(self) -> str:
        """The diff from the fixture to the workspace as it is now (or as last concluded)."""
        return (self.outcome or self.conclude()).patch

    def run(self, command: str, *, time_limit_s: float = DEFAULT_TIME_LIMIT_S) -> CommandOutcome:
        """Run a shell command in the workspace (never raises for the command's failure)."""
        return run_command(command, self.path, time_limit_s=time_limit_s)


__all__ = ["Workspace"]
