"""The runtime's install and unpacking say what they do and how far they are (a first run is not silent)."""

from __future__ import annotations

import sys

import pytest

from copilot_eval.runtime.process import install
from copilot_eval.runtime.process.errors import RuntimeSetupError

# Fills the folder with 3 MiB, one MiB every 0.3 s, the way npm fills its install folder.
FILLER = """
import pathlib, sys, time
folder = pathlib.Path(sys.argv[1])
for n in range(3):
    (folder / f"part{n}").write_bytes(b"x" * 2**20)
    time.sleep(0.3)
print("filled")
"""


def test_a_long_step_says_how_far_it_is_while_it_runs_and_when_it_ends(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(install, "PROGRESS_EVERY_S", 0.2)
    lines: list[str] = []
    done = install._watched(
        [sys.executable, "-c", FILLER, str(tmp_path)], tmp_path, "filling", 3, lines.append, timeout=30
    )
    assert done.returncode == 0 and done.stdout.strip() == "filled"
    assert lines[0] == "filling (about 3 MiB, once) ..."
    during = [line for line in lines[1:-1] if " of about 3 MiB, " in line]
    assert len(during) >= 2, lines  # several readings while it ran, growing
    assert lines[-1].startswith("filling: done, 3 MiB in ")


def test_a_step_that_fails_keeps_its_output_for_the_error_and_says_no_done(tmp_path) -> None:
    lines: list[str] = []
    failing = [sys.executable, "-c", "import sys; sys.stderr.write('registry unreachable'); sys.exit(7)"]
    done = install._watched(failing, tmp_path, "installing", 189, lines.append, timeout=30)
    assert (done.returncode, done.stderr) == (7, "registry unreachable")
    assert not any("done" in line for line in lines)


def test_a_step_past_its_deadline_is_ended_and_named(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(install, "PROGRESS_EVERY_S", 0.1)
    with pytest.raises(RuntimeSetupError, match=r"waiting: no end after 0 s"):
        install._watched(
            [sys.executable, "-c", "import time; time.sleep(30)"], tmp_path, "waiting", 1, None, timeout=0.3
        )
