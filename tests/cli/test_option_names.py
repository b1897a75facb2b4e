"""Every command's option names, pinned: a rename or a new name is a decision, as tests/test_public_names.py pins Python's.

Walks the Typer app (every command and subcommand) and lists each one's option names. When this
fails, update ``EXPECTED`` only if the change is meant, and keep the vocabulary: the same name for
the same thing in every command (``SHARED`` below). An old spelling kept for a released doc is a
hidden option, listed here as ``--old(hidden)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer

from copilot_eval.cli.app import every_command

EXPECTED: dict[str, list[str]] = {
    "analyze": [
        "--agent-name",
        "--fail-under",
        "--history",
        "--junit",
        "--markdown",
        "--max-errors",
        "--name",
        "--no-history",
        "--out",
    ],
    "attack": [
        "--case",
        "--concurrency",
        "--fail-on-finding",
        "--history",
        "--max-attack-rate",
        "--no-history",
        "--out",
        "--repeat",
        "--scan",
        "--suite",
    ],
    "audit": ["--json", "--pin"],
    "baseline bless": ["--history", "--name", "--note"],
    "baseline list": ["--history", "--json"],
    "baseline show": ["--history", "--json"],
    "clean": ["--dry-run", "--older-than"],
    "comment": ["--api-url", "--details-url", "--key", "--pr", "--repo", "--token-env"],
    "compare": ["--allow-other-set", "--fail-on-regression", "--html", "--markdown"],
    "convert": ["--data-type", "--drop", "--name", "--no-preamble", "--preamble", "--profile", "--template", "--var"],
    "gate": [
        "--alpha",
        "--baseline",
        "--baseline-dir",
        "--details-url",
        "--golden",
        "--history",
        "--json",
        "--junit",
        "--markdown",
        "--max-regressions",
        "--stale-days",
    ],
    "generate testset": ["--agent", "--count", "--force", "--format", "--generator", "--knowledge", "--mix", "--seed"],
    "generate triggers": ["--count", "--force", "--generator", "--mix", "--seed", "--skill"],
    "history agreement": ["--grader", "--history", "--json", "--min-kappa"],
    "history ingest": ["--branch", "--ci-url", "--commit", "--detect-provenance", "--history"],
    "history parts": ["--history", "--json", "--last", "--set"],
    "history lift": ["--history", "--json", "--last", "--name"],
    "history skills": ["--agent", "--history", "--json", "--last"],
    "history runs": ["--agent", "--history", "--json", "--last", "--set"],
    "history trends": ["--agent", "--history", "--json", "--last", "--set"],
    "init": [],
    "inspect": ["--json"],
    "login": ["--agent", "--client-id", "--cloud", "--tenant-id"],
    "merge": [
        "--allow-partial",
        "--fail-under",
        "--history",
        "--junit",
        "--markdown",
        "--max-errors",
        "--min-precision",
        "--min-recall",
        "--no-history",
        "--out",
    ],
    "quickstart": ["--api-key-env", "--history", "--model", "--out", "--provider-url"],
    "regrade": [
        "--allow-other-set",
        "--baseline",
        "--fail-on-regression",
        "--fail-under",
        "--grader",
        "--history",
        "--judge",
        "--judge-repeat",
        "--junit",
        "--markdown",
        "--max-errors",
        "--no-history",
        "--out",
        "--prompt-pass-score",
    ],
    "report": ["--history", "--html", "--markdown"],
    "scan": ["--fail-on-finding", "--scan"],
    "review": ["--again", "--history", "--import", "--reviewer"],
    "run": [
        "--agent",
        "--allow-drafts",
        "--allow-other-set",
        "--allow-replayed-repeats",
        "--baseline",
        "--concurrency",
        "--data-type",
        "--discard-passing-workdirs",
        "--executor",
        "--fail-on-finding",
        "--fail-on-regression",
        "--fail-under",
        "--gate",
        "--gh-json",
        "--golden",
        "--grader",
        "--history",
        "--judge",
        "--judge-repeat",
        "--junit",
        "--markdown",
        "--max-errors",
        "--max-judge-ai-credits",
        "--max-judge-premium-requests",
        "--max-judge-tokens",
        "--max-regressions",
        "--max-run-ai-credits",
        "--max-run-premium-requests",
        "--max-run-tokens",
        "--min-pass-rate",
        "--model",
        "--no-history",
        "--no-progress",
        "--otel-capture-content",
        "--otel-endpoint",
        "--out",
        "--profile",
        "--prompt-pass-score",
        "--protect",
        "--ray-address",
        "--ray-workers",
        "--record",
        "--record-missing",
        "--repeat",
        "--replay",
        "--resume",
        "--scan",
        "--shard",
        "--var",
        "--workspace",
    ],
    "serve": ["--history", "--last", "--port"],
    "setup": ["--force"],
    "studio-eval get": [
        "--api-url",
        "--bot-id",
        "--client-id",
        "--confirm-with",
        "--environment-id",
        "--export",
        "--export-match",
        "--fail-under",
        "--history",
        "--junit",
        "--markdown",
        "--max-errors",
        "--no-history",
        "--out",
        "--poll-s",
        "--tenant-id",
        "--timeout-s",
        "--token-env",
    ],
    "studio-eval list": [
        "--api-url",
        "--bot-id",
        "--client-id",
        "--environment-id",
        "--runs",
        "--tenant-id",
        "--token-env",
    ],
    "studio-eval run": [
        "--api-url",
        "--bot-id",
        "--client-id",
        "--confirm-with",
        "--connection",
        "--environment-id",
        "--export",
        "--export-match",
        "--fail-under",
        "--history",
        "--junit",
        "--markdown",
        "--max-errors",
        "--name",
        "--no-history",
        "--out",
        "--poll-s",
        "--published",
        "--tenant-id",
        "--test-set",
        "--timeout-s",
        "--token-env",
    ],
    "customizations": ["--expect", "--json", "--touch", "--workdir"],
    "tools": ["--json"],
    "skills": ["--json"],
    "lift": [
        "--agent",
        "--arm",
        "--concurrency",
        "--fail-on-finding",
        "--grader",
        "--history",
        "--judge",
        "--markdown",
        "--max-regression",
        "--max-run-ai-credits",
        "--max-run-premium-requests",
        "--max-run-tokens",
        "--min-lift",
        "--no-history",
        "--out",
        "--protect",
        "--repeat",
        "--resume",
        "--scan",
        "--seed",
        "--vary",
        "--workspace",
    ],
    "triggers": [
        "--agent",
        "--allow-drafts",
        "--concurrency",
        "--executor",
        "--fail-on-finding",
        "--history",
        "--junit",
        "--max-run-ai-credits",
        "--max-run-premium-requests",
        "--max-run-tokens",
        "--min-precision",
        "--min-recall",
        "--no-history",
        "--no-stop-at-choice",
        "--out",
        "--ray-address",
        "--ray-workers",
        "--record",
        "--record-missing",
        "--repeat",
        "--replay",
        "--resume",
        "--runs",
        "--scan",
        "--shard",
        "--skill",
        "--stop-at-choice",
        "--threshold",
    ],
    "validate": ["--json", "--profile", "--var"],
}


# The shared options: one meaning, one name (and one help text: defined once, in cli/options.py or
# cli/history_record.py) in every command that writes a run folder.
WRITERS = ("analyze", "merge", "regrade", "run", "studio-eval get", "studio-eval run")
SHARED = ("--fail-under", "--history", "--junit", "--markdown", "--max-errors", "--no-history", "--out")


def _commands(command: Any = None, path: tuple[str, ...] = ()) -> Iterator[tuple[str, Any]]:
    command = command if command is not None else every_command()
    if hasattr(command, "commands"):  # a group: walk its commands
        for name in sorted(command.commands):
            yield from _commands(command.commands[name], (*path, name))
    else:
        yield " ".join(path), command


def _options(command: Any) -> dict[str, Any]:
    return {
        name: param
        for param in command.params
        if param.param_type_name == "option"
        for name in (*param.opts, *param.secondary_opts)
        if name.startswith("--") and name != "--help"
    }


def _names(command: Any) -> list[str]:
    return sorted(
        name + ("(hidden)" if getattr(param, "hidden", False) else "") for name, param in _options(command).items()
    )


def test_every_commands_options_are_the_pinned_ones():
    found = {path: _names(command) for path, command in _commands()}
    changed = {
        path: {"added": sorted(set(found.get(path, [])) - set(EXPECTED.get(path, []))),
               "removed": sorted(set(EXPECTED.get(path, [])) - set(found.get(path, [])))}
        for path in sorted(set(found) | set(EXPECTED))
        if found.get(path) != EXPECTED.get(path)
    }  # fmt: skip
    assert not changed, f"command options changed (a decision: update EXPECTED in {__file__}): {changed}"


def test_the_options_every_writer_shares_mean_the_same_thing_everywhere():
    commands = dict(_commands())
    for name in SHARED:
        helps = {path: _options(commands[path])[name].help for path in WRITERS if name in _options(commands[path])}
        assert set(helps) == set(WRITERS), f"{name} is missing from {sorted(set(WRITERS) - set(helps))}"
        if name != "--out":  # each writer's default folder differs; what --out is does not
            assert len(set(helps.values())) == 1, f"{name} says different things: {helps}"


# How plays are spent, split and placed: `run` and `triggers` take them from one declaration (cli/options.py).
PLAYERS = ("run", "triggers")
PLAY_OPTIONS = (
    "--executor",
    "--max-run-ai-credits",
    "--max-run-premium-requests",
    "--max-run-tokens",
    "--ray-address",
    "--ray-workers",
    "--shard",
)


def test_run_and_triggers_take_budgets_shards_and_the_executor_alike():
    commands = dict(_commands())
    for name in PLAY_OPTIONS:
        helps = {path: _options(commands[path])[name].help for path in PLAYERS}
        assert len(set(helps.values())) == 1, f"{name} says different things: {helps}"


def test_out_names_a_folder_in_every_command():
    for path, command in _commands():
        option = _options(command).get("--out")
        if option is not None:
            assert option.metavar == "DIR", f"{path} --out: metavar {option.metavar!r}, expected DIR (a folder)"


def test_the_checker_walks_groups_and_marks_hidden_options():
    tiny, sub = typer.Typer(), typer.Typer()

    @tiny.command("one")
    def one(out: str = typer.Option("", "--out"), old: bool = typer.Option(False, "--old", hidden=True)) -> None:
        """One."""

    @sub.command("two")
    def two(flag: bool = typer.Option(False, "--flag/--no-flag")) -> None:
        """Two."""

    tiny.add_typer(sub, name="group")
    found = {path: _names(command) for path, command in _commands(typer.main.get_command(tiny))}
    assert found == {"one": ["--old(hidden)", "--out"], "group two": ["--flag", "--no-flag"]}
