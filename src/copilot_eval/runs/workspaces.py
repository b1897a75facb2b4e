"""The workspaces of one run: which fixture each case plays on, checked before the run, prepared per play.

A case's own ``workspace`` wins over the run's ``--workspace DIR``; ``--protect GLOB`` adds protected
paths to every case's. ``workspace_problems`` finds every missing fixture, unreadable archive and bad
case grader before anything plays, each naming its case. ``RunWorkspaces`` stages each fixture once,
prepares a fresh working directory per play (``prepare``, in a thread: copying and setup block) and
hands it to the grading step by the working directory the evidence names (``take``). The patch and
the setup's output are written beside the play's evidence (``keep``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets import EvalTestCase, EvalTestSet, WorkspaceRecord
from copilot_eval.evalsets.workspace_model import CaseWorkspace
from copilot_eval.grading.workspace_cases import case_grader_problems
from copilot_eval.reports.evidence_names import unit_workspace_names
from copilot_eval.workspace.fixtures import FixtureError, FixtureStage, fixture_problem, resolved
from copilot_eval.workspace.play import PreparedWorkspace, WorkspaceOutcome, conclude_workspace, prepare_workspace


def case_label(case: EvalTestCase) -> str:
    """How messages name a case: ``case 3`` (its conversationNumber) or its key."""
    return f"case {case.case_key or case.conversation_number}"


def with_workspaces(test_set: EvalTestSet, default: str | Path | None, base: Path | None) -> EvalTestSet:
    """``test_set`` with each case's workspace source resolved against ``base``, and ``default`` for cases naming none."""
    fallback = CaseWorkspace(source=str(Path(default).resolve())) if default is not None else None
    cases = []
    for case in test_set.cases:
        spec = resolved(case.workspace, base) if case.workspace is not None else fallback
        cases.append(case if spec is case.workspace else case.model_copy(update={"workspace": spec}))
    return test_set.model_copy(update={"cases": cases})


def uses_workspaces(test_set: EvalTestSet) -> bool:
    """Whether any case plays on a workspace."""
    return any(case.workspace is not None for case in test_set.cases)


def workspace_problems(test_set: EvalTestSet, *, option: str = "--workspace") -> list[str]:
    """Every fixture that cannot be used and every case grader that cannot be built, each naming its case."""
    problems, seen = [], set()
    for case in test_set.cases:
        spec = case.workspace
        if spec is None or (spec.source, spec.commit) in seen:
            continue
        seen.add((spec.source, spec.commit))
        if (problem := fixture_problem(spec)) is not None:
            problems.append(f"{case_label(case)}: workspace {problem}")
    return problems + case_grader_problems(test_set)


def workspace_refusal(test_set: EvalTestSet, protect: Sequence[str], *, where: str = "") -> str | None:
    """Why the set cannot be played on its workspaces, or None: ``--protect`` with no case on a workspace, or
    every case whose fixture or grader fails (``workspace_problems``, after ``where``, e.g. the set's path)."""
    if not uses_workspaces(test_set):
        return "--protect: no case plays on a workspace; give --workspace DIR or a case workspace" if protect else None
    problems = workspace_problems(test_set)
    return where + "; ".join(problems) if problems else None


class RunWorkspaces:
    """Prepares each play's workspace and hands it to the grading step; ``close`` removes staged fixtures."""

    def __init__(self, *, protect: Sequence[str] = ()) -> None:
        self.protect = tuple(protect)
        self._stage = FixtureStage()
        self._lock = threading.Lock()  # plays stage fixtures from threads; each is staged once
        self._open: dict[str, PreparedWorkspace] = {}

    def _prepare(self, case: EvalTestCase) -> PreparedWorkspace:
        assert case.workspace is not None
        with self._lock:
            fixture = self._stage.stage(case.workspace)
            before = None if case.workspace.setup else self._stage.manifest_of(fixture)
        return prepare_workspace(case.workspace, fixture, protect=self.protect, fixture_manifest=before)

    async def prepare(self, cases: Sequence[EvalTestCase]) -> PreparedWorkspace | None:
        """The fresh workspace a unit plays on (its first case's), or ``None`` when it has none.

        FixtureError names the case when its fixture cannot be staged.
        """
        case = cases[0]
        if case.workspace is None:
            return None
        try:
            prepared = await asyncio.to_thread(self._prepare, case)
        except (FixtureError, OSError) as exc:
            raise FixtureError(f"{case_label(case)}: workspace {exc}") from None
        self._open[str(prepared.directory)] = prepared
        return prepared

    def take(self, directory: str | None) -> PreparedWorkspace | None:
        """The prepared workspace a play worked in (once), or ``None`` when it had none."""
        return self._open.pop(directory, None) if directory else None

    async def conclude(self, result: Any) -> WorkspaceOutcome | None:
        """What the play with evidence ``result`` left in its workspace; ``None`` when it had none."""
        prepared = self.take(getattr(result, "working_directory", None))
        if prepared is None:
            return None
        calls = list(getattr(result, "all_tool_calls", None) or [])
        return await asyncio.to_thread(conclude_workspace, prepared, calls)

    def close(self) -> None:
        """Remove the fixtures this run unpacked or exported (the plays' folders stay, like every run's)."""
        self._stage.close()


def keep(outcome: WorkspaceOutcome, evidence_dir: Path | None, unit_key: str) -> WorkspaceRecord:
    """Write the patch and the setup's output beside the unit's evidence; the case result's record of them."""
    if evidence_dir is None:
        return outcome.record(None)
    patch_name, setup_name = unit_workspace_names(unit_key)
    write_bytes_atomically(evidence_dir / patch_name, outcome.patch.encode("utf-8"))
    if outcome.prepared.setup:
        write_bytes_atomically(evidence_dir / setup_name, outcome.setup_text().encode("utf-8"))
    return outcome.record(str(evidence_dir / patch_name))


__all__ = [
    "RunWorkspaces",
    "case_label",
    "keep",
    "uses_workspaces",
    "with_workspaces",
    "workspace_problems",
    "workspace_refusal",
]
