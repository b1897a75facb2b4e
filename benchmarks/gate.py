"""The gate's speed on a 1,000-case run: bless, gate against the history, gate against a folder, the Markdown.

Prints wall-clock and CPU seconds (medians of ``--repeat``) of each step on SQLite, for a run of
``--cases`` cases (one evidence file each, a few tool calls per case) whose every tenth case
regressed. The machine is shared: the CPU time is the figure to compare with the 1 s target.

    python benchmarks/gate.py [--cases 1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the run-folder maker of the tests

from copilot_eval.gate import GateOptions, bless_folder, gate_folder, gate_markdown
from copilot_eval.history import HistoryStore, resolve_history
from tests.gate.gate_fixtures import gate_run


def _timed(action: Callable[[], object], repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        action()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    """Build the two runs, then time each step."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        root = Path(temp)
        tools = {n: ["lookup_order", "check_stock", "reply"] for n in range(1, options.cases + 1)}
        then = ["pass"] * options.cases
        now = ["fail" if n % 10 == 0 else "pass" for n in range(1, options.cases + 1)]
        gate_run(root / "main", then, tools=tools)
        gate_run(root / "pr", now, tools={n: ["lookup_order", "reply"] for n in tools})
        location = resolve_history(str(root / "history.db"))
        assert location is not None
        with HistoryStore.open(location) as store:
            figures = {
                "bless (store the run, read 1 evidence file a case)": _timed(
                    lambda: bless_folder(store, root / "main"), options.repeat
                ),
                "gate against the history's baseline": _timed(
                    lambda: gate_folder(root / "pr", options=GateOptions(), store=store), options.repeat
                ),
            }
            result = gate_folder(root / "pr", options=GateOptions(), store=store)
        figures["gate against a run folder (--baseline-dir)"] = _timed(
            lambda: gate_folder(root / "pr", options=GateOptions(), baseline_dir=root / "main"), options.repeat
        )
        figures["the Markdown"] = _timed(lambda: gate_markdown(result), options.repeat)
        text = gate_markdown(result)
    print(f"{options.cases} cases, {result.counts()['regressed']} regressed; Markdown {len(text):,} characters")
    for name, (wall, cpu) in figures.items():
        print(f"{name:55} wall {wall:6.2f} s  cpu {cpu:6.2f} s  ({cpu:.2f}x the 1 s target)")


if __name__ == "__main__":
    main()
