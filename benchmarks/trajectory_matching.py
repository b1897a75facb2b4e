"""Benchmark: how long the trajectory engine takes to match expected steps against recorded calls.

Prints, per mode and size, the milliseconds of one match (median of a few) and the ratio to the
smallest size. Every mode grows with steps x calls: in order fills an alignment table, the
order-free modes search a maximum matching, and every mode's diff looks for the nearest call of
each missing step. Real trajectories are tens of calls (well under a millisecond); the large
sizes show that nothing falls off a cliff.
Run: python benchmarks/trajectory_matching.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

from copilot_eval.evidence.trajectory import ObservedCall, Step, match_trajectory

SIZES = ((10, 20), (50, 100), (200, 400))
MODES = ("strict", "in_order", "unordered", "superset", "subset")


def calls(count: int) -> list[ObservedCall]:
    """Calls of five tools in turn, each with an order id; every seventh one failed."""
    return [
        ObservedCall(
            position=i + 1,
            name=f"tool_{i % 5}",
            arguments={"order_id": 1000 + i % 13, "note": f"call {i}"},
            succeeded=i % 7 != 0,
            turn=1,
        )
        for i in range(count)
    ]


def steps(count: int) -> list[Step]:
    """Steps that match about half of the calls, with an equality matcher each."""
    return [Step(f"tool_{(2 * i) % 5}", args={"order_id": 1000 + (2 * i) % 13}) for i in range(count)]


def timed(mode: str, expected: list[Step], made: list[ObservedCall], repeat: int) -> float:
    """Median milliseconds of one match."""
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        match_trajectory(expected, made, mode=mode)
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    print(f"{'mode':<10} " + " ".join(f"{f'{n} steps/{m} calls':>22}" for n, m in SIZES))
    for mode in MODES:
        times = [timed(mode, steps(n), calls(m), options.repeat) for n, m in SIZES]
        cells = [f"{t:9.2f} ms ({t / times[0]:6.1f}x)" for t in times]
        print(f"{mode:<10} " + " ".join(f"{cell:>22}" for cell in cells))


if __name__ == "__main__":
    main()
