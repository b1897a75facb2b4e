"""Benchmark: a latency-bound set on 1, 2 and 4 Ray nodes against one local run.

120 single-turn cases (60 questions played twice with --repeat 2: a Copilot Studio set holds at
most 100 questions) whose scripted model answers after 2 s, --concurrency 4 per node. Prints
each wall time (the command's, and the run's own duration from run.json), the speed-up of 2 and 4
nodes over one (target: 4 nodes at least 3.5x one node), the per-case overhead of one Ray node
against a local run at the same concurrency (target: at most 50 ms), and the CPU seconds per
case of every process of the cluster and its driver. Ideal walls: 120 x 2 s / (4 x nodes).

The cluster (a head without CPUs and 4 worker nodes of one CPU each) and every driver run in a
network namespace that holds only loopback; the benchmark starts and stops them by PID.
Needs root and the ray extra. Run from the repository root:
    python benchmarks/scale_out.py [--cases 120] [--delay 2] [--nodes 1,2,4]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the test cluster helper lives in tests/

from tests.scale.ray_cluster import ADDRESS, RayCluster, unavailable_reason

TICKS = os.sysconf("SC_CLK_TCK")
CLI = [sys.executable, "-m", "copilot_eval.cli.app"]


def write_set(folder: Path, cases: int, delay: float) -> tuple[Path, Path]:
    """set.csv (``cases`` questions) and agent.yaml: 'answer to: <prompt>' after ``delay`` seconds."""
    (folder / "script.yaml").write_text(f"rules:\n  - turns: [{{text: 'answer to: {{prompt}}', delay_s: {delay}}}]\n")
    (folder / "agent.yaml").write_text("name: bench\nmodel: {scripted: script.yaml}\ntimeout_s: 120\n")
    rows = ['"question","expectedResponse"'] + [f'"q{n}","answer to: q{n}"' for n in range(1, cases + 1)]
    (folder / "set.csv").write_text("\n".join(rows) + "\n")
    return folder / "set.csv", folder / "agent.yaml"


def _cpu(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(value) for value in fields[11:15]) / TICKS  # utime stime cutime cstime


class CpuMeter:
    """CPU seconds of every process seen in the namespace while a run goes on (sampled every 0.2 s)."""

    def __init__(self, netns: str) -> None:
        self.netns, self.seen = netns, {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self) -> None:
        while not self._stop.is_set():
            pids = subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
            for pid in map(int, pids):
                self.seen[pid] = max(self.seen.get(pid, 0.0), _cpu(pid))
            self._stop.wait(0.2)

    def __enter__(self) -> CpuMeter:
        self.before = {
            int(p): _cpu(int(p))
            for p in subprocess.run(["ip", "netns", "pids", self.netns], capture_output=True, text=True).stdout.split()
        }
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def seconds(self) -> float:
        """CPU spent during the run by the processes seen (those alive before count only their increase)."""
        return sum(total - self.before.get(pid, 0.0) for pid, total in self.seen.items())


def run_once(cluster: RayCluster, set_path: Path, agent: Path, out: Path, *extra: str) -> dict[str, float]:
    """One `copilot-eval run` in the namespace: the command's wall, the run's duration, CPU seconds."""
    command = cluster.netns_command(
        *CLI,
        "run",
        str(set_path),
        "--agent",
        str(agent),
        "--grader",
        "exact",
        "--out",
        str(out),
        "--no-progress",
        "--concurrency",
        "4",
        "--repeat",
        "2",
        *extra,
    )
    with CpuMeter(cluster.netns) as meter:
        started = time.monotonic()
        done = subprocess.run(command, capture_output=True, text=True, env=cluster.env)
        wall = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    run = json.loads((out / "run.json").read_text())
    if run["passed"] != len(run["results"]):
        raise SystemExit(f"not every case passed: {run['passed']} of {len(run['results'])}")
    return {"wall": wall, "duration": run["durationMs"] / 1000, "cpu": meter.seconds()}


def main() -> None:
    """Start the cluster, run locally and on 1, 2, 4 nodes, print the figures, stop everything."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=120)
    parser.add_argument("--delay", type=float, default=2.0)
    parser.add_argument("--nodes", default="1,2,4")
    args = parser.parse_args()
    nodes = [int(n) for n in args.nodes.split(",")]
    reason = unavailable_reason()
    if reason is not None:
        raise SystemExit(f"cannot start a local Ray cluster: {reason}")
    cluster = RayCluster(workers=max(nodes))
    load_before = os.getloadavg()[0]
    figures: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="scale-out-bench-") as folder:
        set_path, agent = write_set(Path(folder), args.cases // 2, args.delay)
        try:
            started = time.monotonic()
            cluster.start()
            print(
                f"cluster: head + {max(nodes)} worker nodes at 127.0.0.1, started in {time.monotonic() - started:.1f} s"
            )
            figures["local"] = run_once(cluster, set_path, agent, Path(folder) / "local")
            for count in nodes:
                figures[f"{count} node"] = run_once(
                    cluster,
                    set_path,
                    agent,
                    Path(folder) / f"ray{count}",
                    "--executor",
                    "ray",
                    "--ray-address",
                    ADDRESS,
                    "--ray-workers",
                    str(count),
                )
        finally:
            cluster.stop()
    ideal = {"local": args.cases * args.delay / 4, **{f"{n} node": args.cases * args.delay / (4 * n) for n in nodes}}
    print(f"{args.cases} cases, {args.delay:g} s of scripted latency each, --concurrency 4 per node")
    print(f"{'run':>8} {'command wall':>13} {'run duration':>13} {'ideal':>7} {'CPU s/case':>11}")
    for name, figure in figures.items():
        print(
            f"{name:>8} {figure['wall']:>12.1f}s {figure['duration']:>12.1f}s {ideal[name]:>6.1f}s {figure['cpu'] / args.cases:>11.3f}"
        )
    one = figures[f"{nodes[0]} node"]
    for count in nodes[1:]:
        mine = figures[f"{count} node"]
        print(
            f"speed-up of {count} nodes over {nodes[0]}: {one['wall'] / mine['wall']:.2f}x (command), {one['duration'] / mine['duration']:.2f}x (run)"
        )
    overhead = (
        (figures["1 node"]["duration"] - figures["local"]["duration"]) / args.cases * 1000
        if "1 node" in figures
        else None
    )
    if overhead is not None:
        print(f"per-case overhead of one Ray node against a local run: {overhead:.0f} ms (target at most 50 ms)")
    cores = os.cpu_count() or 1
    for name, figure in figures.items():
        floor = figure["cpu"] / cores
        print(
            f"{name}: {figure['cpu']:.1f} CPU-s in all, so at least {floor:.1f} s of wall on {cores} cores whatever the nodes"
        )
    print(f"machine: {cores} cores; load average at the start {load_before:.1f}, at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
