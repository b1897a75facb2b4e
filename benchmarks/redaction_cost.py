"""What the redactor costs per run: capture of a real event log with and without registered secrets.

Prints milliseconds per log for ``redact_data`` alone and for ``result_from_events`` (which calls
it), with no secret registered (the scripted-model case: free), with two registered, and with one
of them echoed inside the log (the case the redactor exists for). Compare with a run's own time
(about 200 ms for a pooled two-turn run).

    python benchmarks/redaction_cost.py [--repeat 200]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from copilot_eval.capture import load_event_log, result_from_events
from copilot_eval.redaction import redact_data, register_secret

LOG = Path(__file__).parent.parent / "tests" / "capture" / "data" / "task_subagent.jsonl"


def _per_call_ms(function, repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        function()
    return (time.perf_counter() - started) / repeat * 1000


def main() -> None:
    """Print the cost figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    repeat = parser.parse_args().repeat
    events = load_event_log(LOG)

    def report(label: str) -> None:
        scrub = _per_call_ms(lambda: redact_data(events), repeat)
        build = _per_call_ms(lambda: result_from_events(events), max(repeat // 4, 1))
        print(f"{label:<38} redact_data {scrub:7.3f} ms   result_from_events {build:7.2f} ms   ({len(events)} events)")

    report("no secret registered")
    register_secret("sk-bench-0123456789abcdef", "BENCH_KEY")
    register_secret("ghp_benchtoken0123456789", "GH_TOKEN")
    report("two secrets registered")
    events[5].setdefault("data", {})["echo"] = "Authorization: Bearer sk-bench-0123456789abcdef"
    report("two secrets, one echoed in the log")


if __name__ == "__main__":
    main()
