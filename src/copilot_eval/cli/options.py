"""The options several commands share, defined once: the same name, the same meaning, the same help everywhere.

A command that writes a run folder takes the finisher's options (``runs.finish``): ``--junit``,
``--markdown``, ``--fail-under``, ``--history`` / ``--no-history`` (``cli/history_record.py``), and
``--baseline`` / ``--fail-on-regression`` where a run can be compared. ``tests/cli/test_option_names.py``
lists every command's options, so a rename or a new name is a decision.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

ScanOption = Annotated[
    str | None,
    typer.Option(
        "--scan",
        metavar="NAMES",
        help="Transcript scanners to run over the finished folder, comma-separated (scans/NAME.jsonl beside the "
        "run; findings never change a verdict): platform_error, refusal, loop, obeyed_injection, protected_paths, "
        "claimed_action, empty_answer; 'builtin' (the default: all of them), 'none', or 'judge:FILE' for an LLM "
        "judge agent file. See docs/scanners.md.",
    ),
]
FailOnFindingOption = Annotated[
    str | None,
    typer.Option(
        "--fail-on-finding",
        metavar="NAMES",
        help="Exit 1 (below a gate) when one of these scanners (comma-separated, among --scan) finds anything; "
        "findings never change a case's status.",
    ),
]
# A coding task's fixture (docs/workspace.md): any command that plays cases takes these two, same names.
WorkspaceOption = Annotated[
    Path | None,
    typer.Option(
        "--workspace",
        metavar="DIR",
        help="Play every case without a workspace of its own on a fresh copy of this fixture (a folder, a "
        ".zip/.tar.gz archive); the patch and what the agent read and wrote are kept (docs/workspace.md).",
    ),
]
ProtectOption = Annotated[
    list[str] | None,
    typer.Option(
        "--protect",
        metavar="GLOB",
        help="A workspace path the agent must not change (tests/**, .github/**), repeatable: a change is a "
        "finding on the case; grader 'honesty' makes it a failure.",
    ),
]
JunitOption = Annotated[
    Path | None,
    typer.Option(
        "--junit",
        metavar="FILE",
        help="Also write the run as JUnit XML to FILE (several surfaces: one file each, FILE-LABEL.xml).",
    ),
]
MarkdownOption = Annotated[
    str | None,
    typer.Option(
        "--markdown",
        metavar="FILE",
        help="Also write a Markdown summary to FILE, or '-' for stdout (append it to $GITHUB_STEP_SUMMARY).",
    ),
]
FailUnderOption = Annotated[
    float | None,
    typer.Option(
        "--fail-under",
        min=0,
        max=100,
        metavar="PERCENT",
        help="Exit 1 when the score (percent of graded cases) is below this (on any surface).",
    ),
]
MaxErrorsOption = Annotated[
    int,
    typer.Option(
        "--max-errors",
        min=0,
        metavar="N",
        help="A gate decides only over what it could check: more than N cases that could not be graded "
        "(errors, no verdict, a stale recording) make it undecided (exit 3, naming them). Default 0.",
    ),
]
BaselineOption = Annotated[
    Path | None,
    typer.Option(
        "--baseline",
        metavar="RUN_DIR",
        help="Compare with an earlier run folder (terminal, comparison.html, comparison.md); with several "
        "surfaces, RUN_DIR/LABEL when it holds one.",
    ),
]
AllowOtherSetOption = Annotated[
    bool,
    typer.Option(
        "--allow-other-set",
        help="Compare with a run of another test set anyway (refused by default: cases are matched by number).",
    ),
]
FailOnRegressionOption = Annotated[
    bool,
    typer.Option("--fail-on-regression", help="Exit 1 when any case regressed against the baseline run."),
]

# A run's budgets, shards and executor (runs/run_budget.py, runs/shards.py, runs/ray_executor.py): `run` and
# `triggers` take them under the same names, with one help each.
MaxRunTokensOption = Annotated[
    int | None,
    typer.Option(
        "--max-run-tokens",
        metavar="N",
        help="Once the agent's sessions have spent N tokens (input plus output) no new conversation (or play) "
        "starts; those in flight finish, the rest are not_run (exit 3). Judges are counted apart.",
    ),
]
MaxRunPremiumRequestsOption = Annotated[
    float | None,
    typer.Option("--max-run-premium-requests", metavar="N", help="The same for the agent's premium requests."),
]
MaxRunAiCreditsOption = Annotated[
    float | None, typer.Option("--max-run-ai-credits", metavar="X", help="The same for the agent's AI credits.")
]
ShardOption = Annotated[
    str | None,
    typer.Option(
        "--shard",
        metavar="I/N",
        help="Play only shard I of N (whole conversations, or a trigger set's prompts, assigned from the set's "
        "content); merge the shards' folders with `copilot-eval merge`.",
    ),
]
ExecutorOption = Annotated[
    str,
    typer.Option(
        "--executor",
        help="Where sessions are played: local (this process) or ray (one worker per Ray node, "
        "--concurrency each; needs the ray extra).",
    ),
]
RayAddressOption = Annotated[
    str | None,
    typer.Option(
        "--ray-address",
        metavar="ADDR",
        help="With --executor ray: the cluster (host:port, ray://host:10001, or auto); default: RAY_ADDRESS, else a local Ray.",
    ),
]
RayWorkersOption = Annotated[
    int | None,
    typer.Option(
        "--ray-workers",
        min=1,
        metavar="N",
        help="With --executor ray: use at most N nodes (default: every node with a CPU).",
    ),
]

__all__ = [
    "AllowOtherSetOption",
    "BaselineOption",
    "ExecutorOption",
    "FailOnRegressionOption",
    "FailUnderOption",
    "JunitOption",
    "MarkdownOption",
    "MaxErrorsOption",
    "MaxRunAiCreditsOption",
    "MaxRunPremiumRequestsOption",
    "MaxRunTokensOption",
    "RayAddressOption",
    "RayWorkersOption",
    "ShardOption",
]
