"""Evidence file names: one place decides what a saved CopilotResult file is called."""

from __future__ import annotations

from copilot_eval.safe_paths import path_component


def evidence_file_name(test_id: str, index: int = 0) -> str:
    """File name for the ``index``-th run of a test (a pytest node id): safe characters only."""
    safe = path_component(test_id, fallback="test", separator="_")
    return f"{safe}{'' if index == 0 else f'-{index}'}.json"


def unit_evidence_name(unit_key: str) -> str:
    """File name for one unit of an evaluation run (``case3#1`` -> ``case3-r1.json``)."""
    return f"{unit_key.replace('#', '-r')}.json"


def unit_workspace_names(unit_key: str) -> tuple[str, str]:
    """The patch and setup-output files of one unit's workspace, beside its evidence (``case3-r1.workspace.patch``)."""
    stem = unit_key.replace("#", "-r")
    return f"{stem}.workspace.patch", f"{stem}.setup.txt"


__all__ = ["evidence_file_name", "unit_evidence_name", "unit_workspace_names"]
