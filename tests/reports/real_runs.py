"""Two real evaluation runs through `copilot-eval run` (scripted models, the real runtime), shared by the report tests.

Run "tools": a two-case single-turn set against a scripted agent whose call of the runtime's
built-in `create` tool makes real tool-call evidence; case 1 passes, case 2 fails. Run "outage": the same set against
an agent whose model answers HTTP 500, compared with the first through ``--baseline``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-m", "copilot_eval.cli.app"]
TOOL_AGENT = Path(__file__).resolve().parent / "data" / "receipt-agent.yaml"
OUTAGE_AGENT = REPO / "examples" / "evaluation" / "agent-http500.yaml"
RECEIPT_ANSWER = "I looked up order 1042 and wrote receipt.txt (total 27.50 EUR)."


def cli(*args: object, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    """Run the copilot-eval command line and capture what it prints."""
    return subprocess.run(
        [*CLI, *map(str, args)], capture_output=True, text=True, timeout=timeout, env={**os.environ, "COLUMNS": "200"}
    )


@dataclass(frozen=True)
class RealRuns:
    """The folders and files the two runs wrote, and what `run` printed."""

    tools: Path
    outage: Path
    junit: Path
    tools_output: str
    outage_output: str
    outage_junit: Path


def make_real_runs(root: Path) -> RealRuns:
    """Write the test set, play both runs, and return where everything went."""
    test_set = root / "shop.csv"
    test_set.write_text(
        '"question","expectedResponse"\n'
        f'"Write a receipt for order 1042.","{RECEIPT_ANSWER}"\n'
        '"Do you sell tandems?","No, we do not sell tandems."\n',
        encoding="utf-8",
    )
    tools, outage, junit, outage_junit = (
        root / "run-tools",
        root / "run-outage",
        root / "junit.xml",
        root / "outage.xml",
    )
    first = cli(
        "run",
        test_set,
        "--agent",
        TOOL_AGENT,
        "--out",
        tools,
        "--no-progress",
        "--grader",
        "similarity:0.9",
        "--junit",
        junit,
    )
    assert first.returncode == 0, first.stdout + first.stderr
    second = cli(
        "run",
        test_set,
        "--agent",
        OUTAGE_AGENT,
        "--out",
        outage,
        "--no-progress",
        "--baseline",
        tools,
        "--junit",
        outage_junit,
    )
    # Nothing could be graded (the model answered HTTP 500): the platform's row, not a verdict on the agent.
    assert second.returncode == 3, second.stdout + second.stderr
    return RealRuns(tools, outage, junit, first.stdout, second.stdout, outage_junit)
