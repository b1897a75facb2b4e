"""`copilot-eval quickstart`: its options (the run itself: tests/cli/test_installed_package.py)."""

from __future__ import annotations

import os
import subprocess

from tests.runs.runs_helpers import CLI


def quickstart(*args: object, cwd: object) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*CLI, "quickstart", *map(str, args)], capture_output=True, text=True, env=env, cwd=cwd, timeout=240
    )


def test_help_names_the_real_model_option(tmp_path):
    shown = quickstart("--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "--model" in shown.stdout


# The quickstart itself runs from the installed wheel, outside any clone: tests/cli/test_installed_package.py.
