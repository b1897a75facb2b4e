"""Benchmark: what a workspace adds to a play, and what copying a 1,000-file fixture costs.

Part 1 (no runtime): a fixture of N files (default 1,000, 4 kB each, in 20 folders) is staged,
copied into a fresh working directory, set up (no commands), measured before the agent (the
manifest), changed a little and concluded (manifest, changes, patch, findings). Prints the median
of each step over R rounds.
Part 2 (the real runtime, a scripted agent that views a file and answers): one case
played P times in one run (``--repeat P``, one at a time) without a workspace (the files already in
place) and with ``--workspace`` (the example repository, and the N-file fixture), the kinds
interleaved over R rounds; prints the median wall time per play (the run's staging and checks
spread over its plays, as in a real run) and the ratio to the play without.
Run: python benchmarks/bench_workspace.py [--files 1000] [--rounds 5] [--plays 6] [--no-runtime]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.workspace_model import CaseWorkspace
from copilot_eval.workspace.changes import manifest
from copilot_eval.workspace.fixtures import FixtureStage, copy_fixture
from copilot_eval.workspace.play import conclude_workspace, prepare_workspace

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "workspace"


def make_fixture(root: Path, files: int) -> None:
    """``files`` text files of about 4 kB each, spread over 20 folders."""
    for index in range(files):
        folder = root / f"pkg{index % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"module_{index}.py").write_text(f"# module {index}\n" + "x = 1\n" * 680, encoding="utf-8")


def _median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.1f} ms"


def copy_costs(files: int, rounds: int) -> None:
    """Part 1: every step of a workspace's life on a fixture of ``files`` files, no runtime."""
    with tempfile.TemporaryDirectory(prefix="bench-fixture-") as folder:
        fixture = Path(folder)
        make_fixture(fixture, files)
        spec = CaseWorkspace(source=str(fixture))
        stage = FixtureStage()
        staged = stage.stage(spec)
        known = stage.manifest_of(staged)
        copy_only: list[float] = []
        prepare: list[float] = []
        conclude: list[float] = []
        for _ in range(rounds):
            target = Path(tempfile.mkdtemp(prefix="bench-copy-"))
            started = time.perf_counter()
            copy_fixture(staged, target)
            copy_only.append(time.perf_counter() - started)
            shutil.rmtree(target)
            started = time.perf_counter()
            prepared = prepare_workspace(spec, staged, fixture_manifest=known)
            prepare.append(time.perf_counter() - started)
            (prepared.directory / "pkg0" / "module_0.py").write_text("# changed\n", encoding="utf-8")
            started = time.perf_counter()
            conclude_workspace(prepared, [])
            conclude.append(time.perf_counter() - started)
            shutil.rmtree(prepared.directory)
        size = sum(p.stat().st_size for p in fixture.rglob("*") if p.is_file())
        print(f"fixture: {files} files, {size / 1e6:.1f} MB, medians over {rounds} rounds")
        print(f"  copy only (shutil.copytree):            {_median_ms(copy_only)}")
        print(f"  prepare (fresh folder + copy):          {_median_ms(prepare)}")
        print(f"  conclude (manifest, diff, patch, finds): {_median_ms(conclude)}")
        started = time.perf_counter()
        manifest(staged)
        print(f"  one manifest alone:                     {(time.perf_counter() - started) * 1000:.1f} ms")


async def play_costs(plays: int, files: int, rounds: int) -> None:
    """Part 2: the same scripted session (view a file, answer) with and without the workspace machinery.

    Without: the agent works in a folder that already holds the files (``working_directory``), nothing
    copied or measured. With: ``--workspace`` (checked, staged, copied per play, concluded), on the
    example repository and on a fixture of ``files`` files. The kinds are interleaved, round by round,
    so that the machine's load falls on each alike.
    """
    from copilot_eval.agent.config import CopilotEval
    from copilot_eval.models.scripted import ScriptedModel
    from copilot_eval.runs import run_eval_set
    from copilot_eval.runs.settings import RunSettings

    turns = [{"tool_calls": [{"name": "view", "arguments": {"path": "{working_directory}/calc.py"}}]}, {"text": "Seen"}]
    model = ScriptedModel.from_dict({"rules": [{"turns": turns}]})
    cases = [EvalTestCase(conversation_number=1, question="look at calc.py")]
    test_set = EvalTestSet(name="bench", data_type=EvalDataType.SINGLE_TURN, cases=cases)
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        ready, big = Path(folder) / "ready", Path(folder) / "big"
        shutil.copytree(EXAMPLE / "repo", ready)
        shutil.copytree(EXAMPLE / "repo", big)
        make_fixture(big, files)
        kinds = {
            "without (files in place)": (
                CopilotEval(name="b", timeout_s=120, model=model, working_directory=ready),
                None,
            ),
            "--workspace (example, 2 files)": (CopilotEval(name="b", timeout_s=120, model=model), EXAMPLE / "repo"),
            f"without ({files} files in place)": (
                CopilotEval(name="b", timeout_s=120, model=model, working_directory=big),
                None,
            ),
            f"--workspace ({files} files)": (CopilotEval(name="b", timeout_s=120, model=model), big),
        }
        times: dict[str, list[float]] = {label: [] for label in kinds}
        warm = RunSettings.of(graders=("keywords:Seen",), concurrency=1)
        await run_eval_set(test_set, kinds["without (files in place)"][0], warm)  # the pool started
        for _ in range(rounds):
            for label, (agent, workspace) in kinds.items():
                settings = RunSettings.of(graders=("keywords:Seen",), concurrency=1, workspace=workspace, repeat=plays)
                started = time.perf_counter()
                run = await run_eval_set(test_set, agent, settings)
                times[label].append((time.perf_counter() - started) / plays)
                assert run.passed == plays, f"{label}: every play must pass to be measured"
        base = statistics.median(times["without (files in place)"])
        for label, samples in times.items():
            ratio = statistics.median(samples) / base
            print(f"  {label:<34} {_median_ms(samples)} per play, {ratio:.2f}x")


def main() -> None:
    """Parse the options and print both parts."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--plays", type=int, default=6)
    parser.add_argument("--no-runtime", action="store_true")
    options = parser.parse_args()
    copy_costs(options.files, options.rounds)
    if not options.no_runtime:
        print(f"plays through the real runtime (scripted agent: view calc.py, answer), {options.plays} plays per run:")
        asyncio.run(play_costs(options.plays, options.files, options.rounds))


if __name__ == "__main__":
    main()
