"""Benchmark: a prompt file of cli/cli's spam-detection shape, read and checked, then run at several concurrencies.

Writes a prompt file like cli/cli's (an empty system message, `{{input}}`, an `equals: "{{expected}}"`
string evaluator, rows with `name`, `expected` and a multi-line `input`: by default 273 rows, about
440 kB), then prints how long reading and checking it takes (`copilot-eval validate`'s work, in
process, the median of five), and the wall time of playing every row through the real runtime with
a scripted agent at each `--concurrency`, with the speed-up over concurrency 1. gh-models plays one
row at a time. Run: python benchmarks/prompt_files.py [--rows 273] [--run-rows 60] [--delay 0.5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

import yaml

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import load_prompt_file
from copilot_eval.grading.prompt_graders import prompt_graders
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs import run_eval_set
from copilot_eval.runs.settings import RunSettings
from copilot_eval.runtime.process.pool import close_all_pools

BODY = "### Describe the bug\n\nThe command fails when the repository has no remote.\n\n" * 17


def write_file(folder: Path, rows: int) -> Path:
    """A spam-detection prompt file of ``rows`` rows, each about 1.6 kB, as cli/cli keeps one."""
    data = {
        "name": "Evaluate spam detection",
        "model": "openai/gpt-4o-mini",
        "messages": [{"role": "system", "content": ""}, {"role": "user", "content": "{{input}}"}],
        "evaluators": [{"name": "assert response", "string": {"equals": "{{expected}}"}}],
        "testData": [
            {
                "name": f"{'spam' if n % 4 == 0 else 'not spam'}, issue {n}",
                "expected": "FAIL" if n % 4 == 0 else "PASS",
                "input": f"<TITLE>\nIssue {n}{' buy now' if n % 4 == 0 else ''}\n</TITLE>\n\n<BODY>\n{BODY}</BODY>\n",
            }
            for n in range(1, rows + 1)
        ],
    }
    path = folder / "eval-prompts.prompt.yml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100), encoding="utf-8")
    return path


def agent(delay: float) -> CopilotEval:
    """A scripted triager: FAIL for spam, PASS for the rest, after ``delay`` seconds of model latency."""
    wait = {"delay_s": delay} if delay else {}
    rules = [
        {"when": {"prompt_contains": "buy now"}, "turns": [{"text": "FAIL", **wait}]},
        {"turns": [{"text": "PASS", **wait}]},
    ]
    return CopilotEval(name="triager", timeout_s=300, model=ScriptedModel.from_dict({"rules": rules}))


async def play(path: Path, rows: int, delay: float, concurrencies: list[int]) -> None:
    """Play the first ``rows`` rows at each concurrency and print the wall times."""
    test_set, problems, _ = load_prompt_file(path)
    assert test_set is not None and not problems, problems
    test_set = test_set.model_copy(update={"cases": test_set.cases[:rows]})
    graders = prompt_graders(test_set)
    triager = agent(delay)
    await run_eval_set(
        test_set.model_copy(update={"cases": test_set.cases[:2]}), triager, RunSettings.of(graders=graders)
    )  # warm up
    walls: dict[int, float] = {}
    for concurrency in concurrencies:
        started = time.perf_counter()
        run = await run_eval_set(test_set, triager, RunSettings.of(graders=graders, concurrency=concurrency))
        walls[concurrency] = time.perf_counter() - started
        print(
            f"  concurrency {concurrency}: {walls[concurrency]:6.1f} s for {rows} rows "
            f"({walls[concurrency] / rows * 1000:.0f} ms a row; {run.passed} passed, {run.failed} failed, "
            f"{run.errored} errors)"
        )
    base = walls.get(1)
    if base:
        for concurrency, wall in walls.items():
            if concurrency != 1:
                print(f"  speed-up at concurrency {concurrency}: {base / wall:.1f}x")


def main() -> None:
    """Read and check the file, then run it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=273)
    parser.add_argument("--run-rows", type=int, default=60, help="rows played through the runtime")
    parser.add_argument("--delay", type=float, default=0.5, help="the scripted model's latency per answer, seconds")
    parser.add_argument("--concurrency", type=int, action="append", default=None)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = write_file(Path(folder), options.rows)
        timings = []
        for _ in range(5):
            started = time.perf_counter()
            test_set, problems, _ = load_prompt_file(path)
            timings.append(time.perf_counter() - started)
        assert test_set is not None and not problems, problems
        size = path.stat().st_size
        print(f"{path.name}: {size / 1000:.0f} kB, {len(test_set.cases)} rows")
        print(f"  read and checked in {statistics.median(timings) * 1000:.0f} ms (median of 5)")
        try:
            asyncio.run(play(path, options.run_rows, options.delay, options.concurrency or [1, 4, 8]))
        finally:
            close_all_pools()


if __name__ == "__main__":
    main()
