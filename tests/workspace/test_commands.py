"""Commands in a workspace: exit codes, output kept, and what could not run told apart from a failure."""

from __future__ import annotations

import sys
from pathlib import Path

from copilot_eval.workspace import run_command
from copilot_eval.workspace.commands import MAX_OUTPUT_CHARS


def test_exit_codes_and_output(tmp_path: Path) -> None:
    ok = run_command("echo out; echo err >&2", tmp_path)
    assert ok.succeeded and ok.exit_code == 0 and ok.output == "out\nerr\n"
    failed = run_command("exit 4", tmp_path)
    assert not failed.succeeded and failed.exit_code == 4 and failed.problem is None, "a failure, not a problem"


def test_a_missing_tool_or_the_time_limit_is_a_problem_not_an_exit_code(tmp_path: Path) -> None:
    missing = run_command("no-such-tool-here --version", tmp_path)
    assert missing.problem is not None and "command not found" in missing.problem
    slow = run_command(f"echo started; {sys.executable} -c 'import time; time.sleep(30)'", tmp_path, time_limit_s=0.5)
    assert slow.exit_code is None and slow.problem == "timed out after 0.5 s"
    assert slow.output == "started\n", "what it printed before the limit is kept"


def test_long_output_keeps_its_end(tmp_path: Path) -> None:
    long = run_command(f"{sys.executable} -c \"print('x' * {MAX_OUTPUT_CHARS * 2}); print('the end')\"", tmp_path)
    assert long.output.endswith("the end\n") and long.output.startswith("[...")
    assert len(long.output) < MAX_OUTPUT_CHARS + 100
