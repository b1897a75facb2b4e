"""RunSettings: every choice of a run in one object, checked when it is made, owned by ``runs``.

``copilot-eval run`` parses its options into one ``RunSettings`` (each option is a field of the same
name), ``runs.plan.plan_run`` turns it into what plays (the set read once, every agent loaded once,
graders built once), and ``run_eval_set`` plays one agent with it; the several-``--agent`` path
plays every surface with the same object. A Python caller builds one the same way:
``await run_eval_set(test_set, agent, RunSettings(repeat=3, out="runs/x"))``.

A new option is one field here and, when some values cannot work, one check in ``CHECKS``: a
function of the settings that returns the problem, naming the option and how to fix it, or None.
Every problem is found at construction (``SettingsError`` lists them), before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.evalsets import RULE_SETS, ShardInfo
from copilot_eval.evalsets.prompt_cases import parse_variables
from copilot_eval.runs.dispatch import DEFAULT_RATE_LIMIT_RETRIES
from copilot_eval.runs.independence import refuse_replayed_repeats
from copilot_eval.runs.shards import ShardError, parse_shard

DEFAULT_CONCURRENCY = 4
EXECUTORS = ("local", "ray")
DATA_TYPES = ("SingleTurn", "Conversation")


class SettingsError(ValueError):
    """Settings that cannot work; ``problems`` holds one line per problem, each naming its option."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        text = self.problems[0] if len(self.problems) == 1 else "; ".join(self.problems)
        super().__init__(text)


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """How a test set is played, graded, written and judged: the options of ``copilot-eval run``.

    ``graders`` are grader specs (``"similarity:0.7"``) or grader objects; none means similarity (a
    prompt file's evaluators for a prompt file). ``min_pass_rate`` is a fraction (0.8) or a percent
    (80). ``shard`` is ``"I/N"`` (or a ShardInfo). ``out`` is the run folder (evidence, checkpoint, run.json).
    """

    # what the set is and how it is read
    data_type: str | None = None
    profile: str | None = None
    var: tuple[str, ...] = ()
    model: str | None = None
    # how it is graded
    graders: tuple[Any, ...] = ()
    judge: Path | None = None
    judge_repeat: int = 1
    prompt_pass_score: tuple[str, ...] = ()
    # how it is played
    repeat: int = 1
    min_pass_rate: float | None = None
    allow_replayed_repeats: bool = False
    concurrency: int = DEFAULT_CONCURRENCY
    shard: str | ShardInfo | None = None
    executor: str = "local"
    ray_address: str | None = None
    ray_workers: int | None = None
    record: Path | None = None
    replay: Path | None = None
    record_missing: bool = False
    rate_limit_retries: int = DEFAULT_RATE_LIMIT_RETRIES
    progress: bool = False
    # the fixture every case without its own is played on, copied fresh per play (runs.workspaces)
    workspace: Path | None = None
    protect: tuple[str, ...] = ()
    otel_endpoint: str | None = None
    otel_capture_content: bool = False
    # what the whole run may spend (runs.run_budget): the agent's sessions and the judges, apart
    max_run_tokens: int | None = None
    max_run_premium_requests: float | None = None
    max_run_ai_credits: float | None = None
    max_judge_tokens: int | None = None
    max_judge_premium_requests: float | None = None
    max_judge_ai_credits: float | None = None
    # where it goes and what finishes it (runs.finish)
    out: Path | None = None
    resume: bool = False
    discard_passing_workdirs: bool = False
    junit: Path | None = None
    markdown: str | None = None
    baseline: Path | None = None
    allow_other_set: bool = False
    fail_on_regression: bool = False
    fail_under: float | None = None
    max_errors: int = 0
    gh_json: Path | None = None
    gate: str | None = None
    golden: Path | None = None
    max_regressions: int = 0
    history: str | None = None
    no_history: bool = False
    # the transcript scanners run over the finished folder (scans.choice); None: the built-in set
    scan: str | None = None
    fail_on_finding: str | None = None

    def __post_init__(self) -> None:
        for name in ("var", "graders", "prompt_pass_score", "protect"):  # lists from the command line, tuples kept
            object.__setattr__(self, name, tuple(getattr(self, name) or ()))
        for name in ("judge", "record", "replay", "out", "junit", "baseline", "gh_json", "golden", "workspace"):
            if isinstance(getattr(self, name), str):
                object.__setattr__(self, name, Path(getattr(self, name)))
        problems = [problem for check in CHECKS if (problem := check(self)) is not None]
        if problems:
            raise SettingsError(problems)

    @property
    def pass_rate(self) -> float | None:
        """``min_pass_rate`` as a fraction: 0.8 stays 0.8, 80 becomes 0.8 (1 is every try)."""
        rate = self.min_pass_rate
        return None if rate is None else rate / 100 if rate > 1 else rate

    @property
    def shard_info(self) -> ShardInfo | None:
        """``shard`` parsed (checked at construction)."""
        if self.shard is None or isinstance(self.shard, ShardInfo):
            return self.shard
        return parse_shard(self.shard)

    @property
    def variables(self) -> dict[str, str]:
        """``var`` as ``{NAME: VALUE}`` (checked at construction)."""
        return parse_variables(list(self.var))

    @property
    def recording(self) -> bool:
        """Whether cassettes record or replay the model's answers."""
        return bool(self.record or self.replay or self.record_missing)

    def specs(self) -> list[str] | None:
        """The grader specs given as text (for fingerprints), None when none was."""
        specs = [g for g in self.graders if isinstance(g, str)]
        return specs or None


Check = Callable[[RunSettings], str | None]


def _at_least_one(option: str, value: int | None) -> str | None:
    return None if value is None or value >= 1 else f"{option} {value}: must be at least 1"


def _counts(s: RunSettings) -> str | None:
    found = [
        _at_least_one(option, value)
        for option, value in (
            ("--repeat", s.repeat),
            ("--concurrency", s.concurrency),
            ("--judge-repeat", s.judge_repeat),
            ("--ray-workers", s.ray_workers),
        )
    ]
    return "; ".join(p for p in found if p) or None


def _rate_limit_retries(s: RunSettings) -> str | None:
    return None if s.rate_limit_retries >= 0 else f"rate_limit_retries {s.rate_limit_retries}: must be 0 or more"


def _percent(option: str, value: float | None) -> str | None:
    if value is None or 0 <= value <= 100:
        return None
    return f"{option} {value:g}: expected a percent from 0 to 100"


def _min_pass_rate(s: RunSettings) -> str | None:
    return _percent("--min-pass-rate", s.min_pass_rate)


def _fail_under(s: RunSettings) -> str | None:
    return _percent("--fail-under", s.fail_under)


def _max_errors(s: RunSettings) -> str | None:
    return None if s.max_errors >= 0 else f"--max-errors {s.max_errors}: must be 0 or more"


def _data_type(s: RunSettings) -> str | None:
    if s.data_type in (None, *DATA_TYPES):
        return None
    return f"--data-type {s.data_type!r}: expected {' or '.join(DATA_TYPES)}"


def _profile(s: RunSettings) -> str | None:
    if s.profile is None or s.profile in RULE_SETS:
        return None
    return f"--profile {s.profile!r}: expected one of {', '.join(RULE_SETS)}"


def _shard(s: RunSettings) -> str | None:
    try:
        s.shard_info  # noqa: B018  # parsed to be checked
    except ShardError as exc:
        return str(exc)
    return None


def _var(s: RunSettings) -> str | None:
    try:
        s.variables  # noqa: B018  # parsed to be checked
    except ValueError as exc:
        return str(exc)
    return None


def _executor(s: RunSettings) -> str | None:
    if s.executor not in EXECUTORS:
        return f"--executor {s.executor!r}: expected one of {', '.join(EXECUTORS)}"
    if s.executor == "local":
        if s.ray_address is not None or s.ray_workers is not None:
            return "--ray-address and --ray-workers need --executor ray"
        return None
    if s.recording:
        return "--record/--replay run with --executor local only (cassettes are files of this machine)"
    if s.workspace is not None or s.protect:
        return "--workspace and --protect run with --executor local only (the fixture is copied on this machine)"
    if s.discard_passing_workdirs:
        return (
            "--discard-passing-workdirs runs with --executor local only: with ray the working "
            "directories are on the worker nodes (`copilot-eval clean` there removes them)"
        )
    return None


def _cassettes(s: RunSettings) -> str | None:
    if s.record_missing and s.record is None:
        return "--record-missing needs --record DIR"
    if s.record is not None and s.replay is not None:
        return "--record and --replay exclude each other: give one of them"
    return None


def _replayed_repeats(s: RunSettings) -> str | None:
    return refuse_replayed_repeats(
        s.repeat, replaying=s.replay is not None, allowed=s.allow_replayed_repeats, option="--allow-replayed-repeats"
    )


def _resume(s: RunSettings) -> str | None:
    return "--resume needs --out naming the run directory to continue" if s.resume and s.out is None else None


def _regression(s: RunSettings) -> str | None:
    if s.fail_on_regression and s.baseline is None:
        return "--fail-on-regression needs --baseline RUN_DIR (the run a regression is against)"
    return None


def _gate(s: RunSettings) -> str | None:
    if s.gate is None and (s.golden is not None or s.max_regressions):
        return "--golden and --max-regressions gate the run: give --gate NAME (or --gate auto) with them"
    return None if s.max_regressions >= 0 else f"--max-regressions {s.max_regressions}: must be 0 or more"


def _run_budgets(s: RunSettings) -> str | None:
    found = []
    for side in ("run", "judge"):
        for measure in ("tokens", "premium_requests", "ai_credits"):
            value = getattr(s, f"max_{side}_{measure}")
            if value is not None and not value > 0:
                option = f"--max-{side}-{measure.replace('_', '-')}"
                found.append(f"{option} {value:g}: must be more than 0 (leave it out for no cap)")
    return "; ".join(found) or None


def _scan(s: RunSettings) -> str | None:
    # imported on use: the scanners are needed only to finish
    from copilot_eval.scans.choice import ScanChoiceError, choose_scanners, gate_names

    try:
        gate_names(s.fail_on_finding, choose_scanners(s.scan))
    except ScanChoiceError as exc:
        return str(exc)
    return None


CHECKS: tuple[Check, ...] = (
    _counts,
    _rate_limit_retries,
    _min_pass_rate,
    _fail_under,
    _max_errors,
    _data_type,
    _profile,
    _shard,
    _var,
    _executor,
    _cassettes,
    _replayed_repeats,
    _resume,
    _regression,
    _gate,
    _run_budgets,
    _scan,
)
"""Every check of a RunSettings, in the order their problems are listed."""


def settings_from(options: dict[str, Any], *, drop: Iterable[str] = ()) -> RunSettings:
    """A RunSettings from keyword options of the same names (``drop``: keys that are not settings)."""
    skipped = set(drop)
    return RunSettings(**{name: value for name, value in options.items() if name not in skipped})


__all__ = [
    "CHECKS",
    "DEFAULT_CONCURRENCY",
    "EXECUTORS",
    "RunSettings",
    "SettingsError",
    "settings_from",
]
