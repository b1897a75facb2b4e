"""How long `copilot-eval customizations` takes, and where: finding the files, and the one scripted turn.

Run: python benchmarks/customizations.py [REPOSITORY]. Without a folder a small repository holding each
kind of customization file is written to a temporary folder. Prints the median of five of each:
the file scan alone, the whole check on a runtime already started (the pool keeps it), and the first
check of the process (the runtime's start included). The command line adds Python's start and the
SDK's import (about 1-2 s).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from copilot_eval import CopilotEval
from copilot_eval.runtime.customization_check import check_customizations
from copilot_eval.runtime.customization_files import find_customizations

FILES = {
    ".github/copilot-instructions.md": "Answer briefly.\n",
    ".github/instructions/all.instructions.md": "---\napplyTo: '**'\n---\nKeep it short.\n",
    ".github/instructions/py.instructions.md": "---\napplyTo: '**/*.py'\n---\nType hints.\n",
    "AGENTS.md": "Run the tests.\n",
    "src/AGENTS.md": "Folder rules.\n",
    "src/app.py": "print(1)\n",
}


def _repository() -> Path:
    root = Path(tempfile.mkdtemp(prefix="customizations-bench-"))
    for relative, text in FILES.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


async def main(folder: Path) -> None:
    """Print the medians."""
    agent = CopilotEval(model="gpt-4.1", timeout_s=60)
    started = time.perf_counter()
    first = await check_customizations(agent, working_directory=folder)
    first_s = time.perf_counter() - started
    scans, checks = [], []
    for _ in range(5):
        started = time.perf_counter()
        find_customizations(folder)
        scans.append(time.perf_counter() - started)
        started = time.perf_counter()
        await check_customizations(agent, working_directory=folder)
        checks.append(time.perf_counter() - started)
    print(f"{folder}: {len(first.files)} files")
    print(f"first check (runtime start included): {first_s:.2f} s")
    print(f"file scan, median of 5: {statistics.median(scans) * 1000:.1f} ms")
    print(f"check on a started runtime, median of 5: {statistics.median(checks):.2f} s")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else _repository()))
