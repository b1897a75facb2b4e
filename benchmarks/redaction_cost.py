"""What the redactor costs per run: capture of a real event log under each redaction case.

Prints milliseconds per log for ``redact_data`` alone and for ``result_from_events`` (which calls
it): with nothing registered (token shapes are still looked for), with two secrets registered,
with one of them echoed inside the log, and with an unregistered token shape echoed; then what
reading an environment for secrets costs (the redactor's start-up, and every runtime start).
Each figure is the best of ``--rounds`` rounds (the machine is shared: the best round is the one
least disturbed). Compare with a run's own time (about 150-200 ms for a pooled two-turn run).

    python benchmarks/redaction_cost.py [--repeat 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import copy
import os
import time
from pathlib import Path

from copilot_eval import redaction
from copilot_eval.capture import load_event_log, result_from_events
from copilot_eval.redaction import redact_data, register_environment_secrets, register_secret

LOG = Path(__file__).parent.parent / "tests" / "capture" / "data" / "task_subagent.jsonl"


def _best_ms(function, repeat: int, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(repeat):
            function()
        best = min(best, (time.perf_counter() - started) / repeat * 1000)
    return best


def main() -> None:
    """Print the cost figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    repeat, rounds = options.repeat, options.rounds
    redaction._environment_read = True  # the cases below register what they measure, nothing else
    clean = load_event_log(LOG)

    def report(label: str, events: list) -> None:
        scrub = _best_ms(lambda: redact_data(events), repeat, rounds)
        build = _best_ms(lambda: result_from_events(events), max(repeat // 4, 1), rounds)
        print(f"{label:<40} redact_data {scrub:7.3f} ms   result_from_events {build:7.2f} ms   ({len(events)} events)")

    report("nothing registered (shapes only)", clean)
    register_secret("sk-bench-0123456789abcdef", "BENCH_KEY")
    register_secret("ghp_benchtoken0123456789", "GH_TOKEN")
    report("two secrets registered", clean)
    echoed = copy.deepcopy(clean)
    echoed[5].setdefault("data", {})["echo"] = "Authorization: Bearer sk-bench-0123456789abcdef"
    report("two secrets, one echoed in the log", echoed)
    shaped = copy.deepcopy(clean)
    shaped[5].setdefault("data", {})["echo"] = "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE"
    report("two secrets, a token shape echoed", shaped)

    environment = {
        **os.environ,
        "BENCH_API_KEY": "bench-api-key-0123456789",
        "DATABASE_URL": "postgres://u:pw-0123456789@h/db",
    }
    scan = _best_ms(lambda: register_environment_secrets(environment), repeat, rounds)
    print(f"{'reading an environment for secrets':<40} {scan:7.3f} ms   ({len(environment)} variables)")


if __name__ == "__main__":
    main()
