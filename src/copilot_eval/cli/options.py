"""The options several commands share, defined once: the same name, the same meaning, the same help everywhere.

A command that writes a run folder takes the finisher's options (``runs.finish``): ``--junit``,
``--markdown``, ``--fail-under``, ``--history`` / ``--no-history`` (``cli/history_record.py``), and
``--baseline`` / ``--fail-on-regression`` where a run can be compared. ``tests/cli/test_option_names.py``
lists every command's options, so a rename or a new name is a decision.

Options several commands take together are a group, declared once in ``cli/option_groups.py``
from these aliases: a command names the group as one parameter and ``takes_groups`` hands typer
its options. What the options mean is decided once: here (name, help,
range), in ``runs.settings`` (rules) and in ``runs.finish.finish_options`` (the finisher's, by name).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

# Every alias below is declared the same way (Annotated type, typer.Option): alike in shape only,
# each is another option with its own name, type and help.
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

# --- what is played and how it is read (run, convert, validate, lift, triggers, attack) ------------
DataTypeOption = Annotated[
    str | None,
    typer.Option("--data-type", help="SingleTurn or Conversation, over what the file or its template says."),
]
ProfileOption = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="Rule set the set is checked against: copilot-studio (today's templates, the default) or seed "
        "(the earlier importer: unique numbers, at most 6 pairs, references required).",
    ),
]
VarOption = Annotated[
    list[str] | None,
    typer.Option(
        "--var",
        metavar="NAME=VALUE",
        help="A value for a prompt file's {{NAME}} placeholders: of a file without testData, or under each "
        "row's own (as `gh models run --var`), repeatable.",
    ),
]
ModelOption = Annotated[
    str | None,
    typer.Option(
        "--model",
        metavar="NAME",
        help="The session model, over the agent file's and a prompt file's (a runtime model name, e.g. gpt-4.1).",
    ),
]
AllowDraftsOption = Annotated[
    bool,
    typer.Option(
        "--allow-drafts",
        help="Play a set whose cases are all drafts of `generate` (FILE.provenance.json); refused without it.",
    ),
]
OutOption = Annotated[
    Path | None,
    typer.Option(
        "--out", metavar="DIR", help="The run folder to write (default: a new one named after the input and the time)."
    ),
]
RepeatOption = Annotated[
    int, typer.Option("--repeat", min=1, metavar="N", help="Play every case N times (pass@k, pass^k).")
]
ConcurrencyOption = Annotated[int, typer.Option("--concurrency", min=1, help="Plays at a time.")]
# Cassettes (docs/replay.md): the agent's model calls recorded once, answered offline after.
RecordOption = Annotated[
    Path | None,
    typer.Option(
        "--record",
        metavar="DIR",
        help="Record the agent's live model calls to cassettes in DIR, one per case (docs/replay.md).",
    ),
]
ReplayOption = Annotated[
    Path | None,
    typer.Option("--replay", metavar="DIR", help="Answer the agent's model from the cassettes in DIR, offline."),
]
RecordMissingOption = Annotated[
    bool,
    typer.Option("--record-missing", help="With --record: keep DIR's cassettes and record only the calls they lack."),
]

# --- how it is graded (run, regrade, lift) ---------------------------------------------------------
GraderOption = Annotated[
    list[str] | None,
    typer.Option(
        "--grader",
        help="Grader spec, repeatable: exact, keywords:all:a,b, similarity:0.7, capability:tool:NAME, "
        "trajectory:FILE, compare_meaning[:50], general_quality, labels:ok=pass,bad=fail; over a --workspace: "
        "command:CMD, file_exists:PATH, file_contains:PATH=TEXT, diff:..., honesty. Default: similarity "
        "(a prompt file's own evaluators for a prompt file).",
    ),
]
JudgeOption = Annotated[Path | None, typer.Option("--judge", metavar="FILE", help="Judge agent file for LLM graders.")]
JudgeRepeatOption = Annotated[
    int,
    typer.Option(
        "--judge-repeat",
        min=1,
        help="Ask each LLM judge J times per answer: the majority decides, disagreement marks the case "
        "'judge unstable'.",
    ),
]
PromptPassScoreOption = Annotated[
    list[str] | None,
    typer.Option(
        "--prompt-pass-score",
        metavar="[NAME=]MARK",
        help="A prompt file's LLM evaluators pass at this share of the top choice score (0.6 or 60; NAME=0.6 "
        "for one evaluator), repeatable. Default: half the top score, four stars of five for github/ built-ins.",
    ),
]

# --- the gate (run --gate, gate) -------------------------------------------------------------------
GoldenOption = Annotated[
    Path | None,
    typer.Option("--golden", metavar="FILE", help="With a gate: case keys (one a line) no regression may touch."),
]
MaxRegressionsOption = Annotated[
    int,
    typer.Option("--max-regressions", metavar="N", help="With a gate: regressions allowed besides golden cases."),
]

# --- where the report is online (gate, comment) -----------------------------------------------------
DetailsUrlOption = Annotated[
    str | None,
    typer.Option(
        "--details-url",
        metavar="URL",
        help="The run's report online (its report.html): cases link to it, and a body cut to GitHub's limit "
        "names it (default for `comment`: the Actions run).",
    ),
]

# --- signing in to the Power Platform with an app registration (login, studio-eval) -----------------
ClientIdOption = Annotated[
    str | None,
    typer.Option(
        "--client-id",
        help="The app registration to sign in with (`copilot-eval login --client-id`), instead of an agent file.",
    ),
]
TenantOption = Annotated[
    str | None, typer.Option("--tenant-id", help="Tenant of --client-id (default: organizations).")
]

# --- how plays are spent, split and placed (run, triggers, lift) ---------------------------------------
# A run's budgets, shards and executor (runs/run_budget.py, runs/shards.py, runs/ray_executor.py).
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
MaxJudgeTokensOption = Annotated[
    int | None,
    typer.Option(
        "--max-judge-tokens", metavar="N", help="The same for the LLM judges' tokens, counted apart from the agent."
    ),
]
MaxJudgePremiumRequestsOption = Annotated[
    float | None,
    typer.Option("--max-judge-premium-requests", metavar="N", help="The same for the judges' premium requests."),
]
MaxJudgeAiCreditsOption = Annotated[
    float | None, typer.Option("--max-judge-ai-credits", metavar="X", help="The same for the judges' AI credits.")
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

# --- what a reading command prints ------------------------------------------------------------------
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text or tables.")]

# A trigger run's gates (triggers/gates.py): `triggers`, and `merge` of its shards.
MinPrecisionOption = Annotated[
    list[str] | None,
    typer.Option(
        "--min-precision", metavar="SHARE|NAME=SHARE", help="Exit 1 when a skill's precision is below (0..1)."
    ),
]
MinRecallOption = Annotated[
    list[str] | None,
    typer.Option("--min-recall", metavar="SHARE|NAME=SHARE", help="Exit 1 when a skill's recall is below (0..1)."),
]

# Continuing an interrupted run (runs/checkpoint.py): `run`, `lift` and `triggers`.
ResumeOption = Annotated[bool, typer.Option("--resume", help="Continue the interrupted run recorded in --out.")]


__all__ = [
    "AllowOtherSetOption",
    "BaselineOption",
    "ExecutorOption",
    "FailOnRegressionOption",
    "FailUnderOption",
    "JunitOption",
    "MarkdownOption",
    "MaxErrorsOption",
    "MaxJudgeAiCreditsOption",
    "MaxJudgePremiumRequestsOption",
    "MaxJudgeTokensOption",
    "MaxRunAiCreditsOption",
    "MaxRunPremiumRequestsOption",
    "MaxRunTokensOption",
    "MinPrecisionOption",
    "MinRecallOption",
    "RayAddressOption",
    "RayWorkersOption",
    "ResumeOption",
    "ShardOption",
]
