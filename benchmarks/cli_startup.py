"""What starting the command line costs: `copilot-eval --help`, a command's `--help`, `--version`.

Each command line runs ``--runs`` times in a fresh interpreter (this Python, this checkout's
source first on the path); the script prints the median CPU seconds (user + system, the child's
own accounting, steadier than wall time on a shared machine), the median wall seconds and how
many modules of the project the process imported. The lazy command group (``cli/lazy_group.py``)
keeps `--help` from importing any command module; a command's help imports its module only.

    python benchmarks/cli_startup.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
LINES = (["--version"], ["--help"], ["validate", "--help"], ["run", "--help"])

# Runs the command and prints how many copilot_eval modules it imported, after its own output.
_PROBE = (
    "import contextlib, io, sys\n"
    "sys.argv = ['copilot-eval', *sys.argv[1:]]\n"
    "from copilot_eval.cli.app import main\n"
    "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
    "    try:\n"
    "        main()\n"
    "    except SystemExit:\n"
    "        pass\n"
    "print(sum(name.startswith('copilot_eval') for name in sys.modules), 'copilot' in sys.modules)\n"
)


def _one(args: list[str]) -> tuple[float, float, str]:
    """CPU seconds, wall seconds and the probe's line of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(SRC)},
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall, done.stdout.strip()


def main() -> None:
    """Print one line of figures per command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs of each command line (the median is printed)")
    runs = parser.parse_args().runs
    print(f"{'command line':28} {'cpu s':>7} {'wall s':>7}  project modules, SDK imported")
    for args in LINES:
        _one(args)  # a warm-up: bytecode compiled, files in the page cache
        figures = [_one(args) for _ in range(runs)]
        cpu = statistics.median(f[0] for f in figures)
        wall = statistics.median(f[1] for f in figures)
        modules, sdk = figures[-1][2].split()
        print(f"{' '.join(['copilot-eval', *args]):28} {cpu:7.3f} {wall:7.3f}  {modules:>4}, {sdk}")


if __name__ == "__main__":
    main()
