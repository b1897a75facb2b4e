"""The security runner's working folders: marked in use while the run goes on, so `clean` meanwhile keeps them.

Fast: the session is replaced by a function that runs `copilot-eval clean --older-than 0` in the middle
of each play, in a temporary directory of the test's own, and reports whether its folder survived.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from copilot_eval import CopilotEval
from copilot_eval.cli.app import app
from copilot_eval.security import load_suite, run_suite
from copilot_eval.security import runner as security_runner
from copilot_eval.workdirs import why_kept

from .helpers import result


async def test_a_clean_during_the_run_keeps_every_plays_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    temp_root = tmp_path / "tmp"
    temp_root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp_root))
    seen: list[tuple[Path, bool, str | None]] = []

    async def play_while_cleaning(agent: CopilotEval, prompt: str, **_: Any) -> Any:
        folder = Path(str(agent.working_directory))
        outcome = CliRunner().invoke(app, ["clean", "--older-than", "0"])
        assert outcome.exit_code == 0, outcome.output
        seen.append((folder, folder.is_dir(), why_kept(folder)))
        return result(answer="done", working_directory=folder)

    monkeypatch.setattr(security_runner, "run_copilot", play_while_cleaning)
    agent = CopilotEval(name="stand-in")
    await run_suite(agent, load_suite("builtin"), cases=["mail-*/tool_result/*"], concurrency=2)
    assert len(seen) > 2
    for folder, kept, why in seen:
        assert folder.parent == temp_root and folder.name.startswith("copilot-eval-run-")
        assert kept, f"clean removed {folder} while its play was running"
        assert why is not None and why.startswith("in use by process")
