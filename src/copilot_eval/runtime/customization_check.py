"""Which customization files the runtime loads for an agent in a folder: one scripted turn, read from its request.

The agent runs through the real runtime in the chosen working directory with the request audit on,
its model replaced by a one-line ScriptedModel of the same name (no real model is called). The
statuses are the run's own ``result.customizations``; paths the user says the agent would work on
(``touched``) are added to what ``applyTo`` globs are matched against, and the files judged again
against the same recorded requests by the same rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.capture.customizations import judge_customizations
from copilot_eval.evidence import CopilotResult, CustomizationFile
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runtime.customization_files import find_customizations, git_root
from copilot_eval.runtime.session.runner import run_copilot

__all__ = ["CHECK_PROMPT", "CustomizationCheck", "check_customizations", "root_relative"]

CHECK_PROMPT = "Which instructions were you given?"


@dataclass
class CustomizationCheck:
    """The files with their statuses, the run that read them, and each ``expect`` pattern's answer."""

    files: list[CustomizationFile] = field(default_factory=list)
    result: CopilotResult | None = None
    expected: dict[str, bool] = field(default_factory=dict)

    @property
    def missing(self) -> list[str]:
        """The ``expect`` patterns whose files did not all reach the model (or match no file)."""
        return [pattern for pattern, delivered in self.expected.items() if not delivered]

    def to_json(self) -> dict[str, Any]:
        """The JSON document of ``copilot-eval customizations --json`` (pinned by a test)."""
        result = self.result
        return {
            "working_directory": result.working_directory if result else None,
            "files": [item.model_dump(mode="json") for item in self.files],
            "expect": [{"pattern": pattern, "delivered": ok} for pattern, ok in self.expected.items()],
            "requests_read": len(result.request_audit or []) if result else 0,
            "error": None if result is None or result.request_audit else (result.error or "no request was sent"),
        }


def root_relative(working_directory: Path, paths: Sequence[str]) -> list[str]:
    """Paths given relative to the working directory, as paths relative to the repository root."""
    cwd = working_directory.resolve()
    root = git_root(cwd) or cwd
    out = []
    for path in paths:
        absolute = (cwd / path).resolve()
        out.append(absolute.relative_to(root).as_posix() if absolute.is_relative_to(root) else path)
    return out


async def check_customizations(
    agent: CopilotEval, *, working_directory: Path, touched: Sequence[str] = (), expect: Sequence[str] = ()
) -> CustomizationCheck:
    """Play one scripted turn of ``agent`` in ``working_directory`` and judge every customization file."""
    name = agent.model if isinstance(agent.model, str) else getattr(agent.model, "session_model", "scripted-model")
    model = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "ok"}]}]}, name=name)
    checking = agent.with_options(
        model=model,
        provider=None,
        audit_requests=True,
        audit_markers=(),
        working_directory=working_directory,
        max_turns=None,
        max_tool_calls=None,
    )
    result = await run_copilot(checking, CHECK_PROMPT)
    files = list(result.customizations or [])
    if touched and result.request_audit:
        found = find_customizations(
            working_directory,
            user_folder=agent.user_instructions_dir,
            home=Path.home(),
            touched=root_relative(working_directory, touched),
        )
        result.customizations = files = judge_customizations(found, result.request_audit, client_mode=agent.client_mode)
    expected = {pattern: result.instructions_delivered(pattern) is True for pattern in expect}
    return CustomizationCheck(files=files, result=result, expected=expected)
