"""What a refused YAML bomb costs: seconds and peak memory of each refusal, in this process.

Bombs: billion laughs (9 levels of 9 aliases, ~4.9e8 nodes), a deeper one (30 levels of 2,
~2e9 nodes), a wide one (one anchor of 10,000 items aliased 2,000 times), a file just over the size
limit (refused from its size on disk, never read), and deep nesting. Each is refused through
``bounded_yaml.load_yaml_file``, the path every reader takes. Also times an ordinary 400 kB file
with aliases that is accepted, for scale. Prints wall seconds, CPU seconds and tracemalloc's peak
(Python allocations during one more refusal, traced apart; the process's RSS before and after is printed too).

    python benchmarks/yaml_bombs.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path

import yaml

from copilot_eval.bounded_yaml import MAX_YAML_BYTES, YamlRefused, load_yaml_file


def _chain(levels: int, fan: int) -> str:
    lines = [f"l0: &a0 [{', '.join(['lol'] * fan)}]"]
    lines += [f"l{i}: &a{i} [{', '.join([f'*a{i - 1}'] * fan)}]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


def _files(folder: Path) -> dict[str, tuple[Path, bool]]:
    wide = "base: &b [" + ", ".join(str(i) for i in range(10_000)) + "]\nuse: [" + ", ".join(["*b"] * 2000) + "]\n"
    ordinary = "".join(f"k{i}: &x{i} {{text: value {i}, n: {i}}}\nr{i}: *x{i}\n" for i in range(10_000))
    texts = {
        "billion laughs (9x9)": (_chain(9, 9), False),
        "deep chain (30x2)": (_chain(30, 2), False),
        "wide (10k x 2k)": (wide, False),
        "deep nesting (5,000)": ("[" * 5000 + "]" * 5000, False),
        "ordinary 10k aliases": (ordinary, True),
    }
    files = {}
    for index, (name, (text, accepted)) in enumerate(texts.items()):
        path = folder / f"{index}.yaml"
        path.write_text(text, encoding="utf-8")
        files[name] = (path, accepted)
    big = folder / "big.yaml"
    with big.open("w", encoding="utf-8") as out:
        out.write("# " + "x" * 1000 + "\n")
        out.truncate(MAX_YAML_BYTES + 1)
    files["over the size limit"] = (big, False)
    return files


def _load(path: Path) -> str:
    try:
        load_yaml_file(path)
    except YamlRefused:
        return "refused"
    except yaml.YAMLError:
        return "invalid"  # libyaml's own nesting limit (1,000 levels) answers first
    return "accepted"


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    """Print each bomb's refusal time and peak memory."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        files = _files(Path(folder))
        print(f"peak RSS before: {_rss_mib():.1f} MiB")
        print(f"{'file':<24} {'bytes':>10} {'outcome':>9} {'wall ms':>9} {'cpu ms':>8} {'peak KiB':>9}")
        for name, (path, accepted) in files.items():
            walls, cpus, peaks, outcome = [], [], [], ""
            for _ in range(args.repeat):
                wall, cpu = time.perf_counter(), time.process_time()
                outcome = _load(path)
                walls.append(time.perf_counter() - wall)
                cpus.append(time.process_time() - cpu)
            tracemalloc.start()  # memory measured apart: tracing slows the walk several times over
            _load(path)
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
            assert (outcome == "accepted") == accepted, (name, outcome)
            print(
                f"{name:<24} {path.stat().st_size:>10,} {outcome:>9} {statistics.median(walls) * 1000:>9.1f}"
                f" {statistics.median(cpus) * 1000:>8.1f} {max(peaks) / 1024:>9.0f}"
            )
        print(f"peak RSS after: {_rss_mib():.1f} MiB")


if __name__ == "__main__":
    main()
