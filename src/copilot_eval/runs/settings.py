"""RunSettings: every choice of a run, in five small groups each checked when it is made, owned by ``runs``.

A run's options fall in five groups that the commands share, each a frozen dataclass with its own rules:
``WhatToPlay`` (the set's reading, the model, the shard), ``HowToPlay`` (repeats, concurrency, the
executor, cassettes, workspaces, telemetry), ``HowToGrade`` (graders, judge, pass marks),
``RunBudget`` (what the agent's sessions and the judges may spend) and ``HowToFinish`` (the run
folder and what finishes it: reports, baseline, gates, history, scanners). ``RunSettings`` holds one
of each (``settings.play.repeat``, ``settings.finish.out``); a command that needs fewer groups takes
only those (``resolve_graders`` takes a ``HowToGrade``).

``copilot-eval run`` parses its options into one ``RunSettings`` by option name (``settings_from``;
each option is a field, of the same name, of exactly one group), ``runs.plan.plan_run`` turns it into
what plays, and ``play_eval_set`` plays one agent with it. A Python caller builds one the same way,
``RunSettings.of(repeat=3, out="runs/x")``, or group by group,
``RunSettings(play=HowToPlay(repeat=3), finish=HowToFinish(out=Path("runs/x")))``.

A new option is one field of its group and, when some values cannot work, one rule in the group's
``RULES``: a function of the group that returns the problem, naming the option and how to fix it, or
None. Every problem is found at construction (``SettingsError`` lists them), before anything runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, ClassVar

from copilot_eval.evalsets import RULE_SETS, ShardInfo
from copilot_eval.evalsets.prompt_cases import parse_variables
from copilot_eval.runs.dispatch import DEFAULT_RATE_LIMIT_RETRIES
from copilot_eval.runs.independence import refuse_replayed_repeats
from copilot_eval.runs.shards import ShardError, parse_shard
from copilot_eval.scans.choice import ScanChoiceError, choose_scanners, gate_names

DEFAULT_CONCURRENCY = 4
EXECUTORS = ("local", "ray")
DATA_TYPES = ("SingleTurn", "Conversation")
MEASURES = ("tokens", "premium_requests", "ai_credits")
SIDES = ("run", "judge")


class SettingsError(ValueError):
    """Settings that cannot work; ``problems`` holds one line per problem, each naming its option."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        text = self.problems[0] if len(self.problems) == 1 else "; ".join(self.problems)
        super().__init__(text)


def option_name(side: str, measure: str) -> str:
    """The command-line option of one cap: ``--max-run-tokens``, ``--max-judge-ai-credits`` ..."""
    return f"--max-{side}-{measure.replace('_', '-')}"


def _settle(group: Any, tuples: Sequence[str], paths: Sequence[str]) -> None:
    """Take lists as tuples and text as paths (as the command line gives them), then refuse what cannot work."""
    for name in tuples:
        object.__setattr__(group, name, tuple(getattr(group, name) or ()))
    for name in paths:
        if isinstance(getattr(group, name), str):
            object.__setattr__(group, name, Path(getattr(group, name)))
    problems = [problem for rule in group.RULES if (problem := rule(group)) is not None]
    if problems:
        raise SettingsError(problems)


def _at_least_one(option: str, value: int | None) -> str | None:
    return None if value is None or value >= 1 else f"{option} {value}: must be at least 1"


def _percent(option: str, value: float | None) -> str | None:
    if value is None or 0 <= value <= 100:
        return None
    return f"{option} {value:g}: expected a percent from 0 to 100"


# --- what to play --------------------------------------------------------------------------------


def _data_type(s: WhatToPlay) -> str | None:
    if s.data_type in (None, *DATA_TYPES):
        return None
    return f"--data-type {s.data_type!r}: expected {' or '.join(DATA_TYPES)}"


def _profile(s: WhatToPlay) -> str | None:
    if s.profile is None or s.profile in RULE_SETS:
        return None
    return f"--profile {s.profile!r}: expected one of {', '.join(RULE_SETS)}"


def _refusal(parse: Callable[[], object], error: type[Exception]) -> str | None:
    """What ``parse`` refuses, raised as ``error`` (None: it parsed): an option checked by parsing it."""
    try:
        parse()
    except error as exc:
        return str(exc)
    return None


def _shard(s: WhatToPlay) -> str | None:
    return _refusal(lambda: s.shard_info, ShardError)


def _var(s: WhatToPlay) -> str | None:
    return _refusal(lambda: s.variables, ValueError)


@dataclass(frozen=True, kw_only=True)
class WhatToPlay:
    """What is played: how the set is read (``data_type``, ``profile``, ``var``), the ``model``, the ``shard``.

    ``shard`` is ``"I/N"`` (or a ShardInfo); ``var`` is ``NAME=VALUE`` texts for a prompt file's variables.
    """

    data_type: str | None = None
    profile: str | None = None
    var: tuple[str, ...] = ()
    model: str | None = None
    shard: str | ShardInfo | None = None

    RULES: ClassVar[tuple[Callable[[Any], str | None], ...]] = (_data_type, _profile, _shard, _var)

    def __post_init__(self) -> None:
        _settle(self, ("var",), ())

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


# --- how to play it ------------------------------------------------------------------------------


def _play_counts(s: HowToPlay) -> str | None:
    found = [
        _at_least_one(option, value)
        for option, value in (
            ("--repeat", s.repeat),
            ("--concurrency", s.concurrency),
            ("--ray-workers", s.ray_workers),
        )
    ]
    return "; ".join(p for p in found if p) or None


def _rate_limit_retries(s: HowToPlay) -> str | None:
    return None if s.rate_limit_retries >= 0 else f"rate_limit_retries {s.rate_limit_retries}: must be 0 or more"


def _executor(s: HowToPlay) -> str | None:
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


def _cassettes(s: HowToPlay) -> str | None:
    if s.record_missing and s.record is None:
        return "--record-missing needs --record DIR"
    if s.record is not None and s.replay is not None:
        return "--record and --replay exclude each other: give one of them"
    return None


def _replayed_repeats(s: HowToPlay) -> str | None:
    return refuse_replayed_repeats(
        s.repeat, replaying=s.replay is not None, allowed=s.allow_replayed_repeats, option="--allow-replayed-repeats"
    )


@dataclass(frozen=True, kw_only=True)
class HowToPlay:
    """How it is played: repeats, concurrency, the executor, cassettes, retries, progress, workspaces, telemetry.

    ``workspace`` is the fixture every case without its own is played on, copied fresh per play
    (``runs.workspaces``); ``discard_passing_workdirs`` removes the working directories of passing plays.
    """

    repeat: int = 1
    allow_replayed_repeats: bool = False
    concurrency: int = DEFAULT_CONCURRENCY
    executor: str = "local"
    ray_address: str | None = None
    ray_workers: int | None = None
    record: Path | None = None
    replay: Path | None = None
    record_missing: bool = False
    rate_limit_retries: int = DEFAULT_RATE_LIMIT_RETRIES
    progress: bool = False
    workspace: Path | None = None
    protect: tuple[str, ...] = ()
    discard_passing_workdirs: bool = False
    otel_endpoint: str | None = None
    otel_capture_content: bool = False

    RULES: ClassVar[tuple[Callable[[Any], str | None], ...]] = (
        _play_counts,
        _rate_limit_retries,
        _executor,
        _cassettes,
        _replayed_repeats,
    )

    def __post_init__(self) -> None:
        _settle(self, ("protect",), ("record", "replay", "workspace"))

    @property
    def recording(self) -> bool:
        """Whether cassettes record or replay the model's answers."""
        return bool(self.record or self.replay or self.record_missing)


# --- how to grade --------------------------------------------------------------------------------


def _judge_repeat(s: HowToGrade) -> str | None:
    return _at_least_one("--judge-repeat", s.judge_repeat)


def _min_pass_rate(s: HowToGrade) -> str | None:
    return _percent("--min-pass-rate", s.min_pass_rate)


@dataclass(frozen=True, kw_only=True)
class HowToGrade:
    """How it is graded: ``graders``, the LLM ``judge`` and its repeats, pass marks, the pass rate a case needs.

    ``graders`` are grader specs (``"similarity:0.7"``) or grader objects; none means similarity (a
    prompt file's evaluators for a prompt file). ``min_pass_rate`` is a fraction (0.8) or a percent (80).
    """

    graders: tuple[Any, ...] = ()
    judge: Path | None = None
    judge_repeat: int = 1
    prompt_pass_score: tuple[str, ...] = ()
    min_pass_rate: float | None = None

    RULES: ClassVar[tuple[Callable[[Any], str | None], ...]] = (_judge_repeat, _min_pass_rate)

    def __post_init__(self) -> None:
        _settle(self, ("graders", "prompt_pass_score"), ("judge",))

    @property
    def pass_rate(self) -> float | None:
        """``min_pass_rate`` as a fraction: 0.8 stays 0.8, 80 becomes 0.8 (1 is every try)."""
        rate = self.min_pass_rate
        return None if rate is None else rate / 100 if rate > 1 else rate

    def specs(self) -> list[str] | None:
        """The grader specs given as text (for fingerprints), None when none was."""
        specs = [g for g in self.graders if isinstance(g, str)]
        return specs or None


# --- budgets -------------------------------------------------------------------------------------


def _caps_above_zero(s: RunBudget) -> str | None:
    found = [
        f"{option_name(side, measure)} {limit:g}: must be more than 0 (leave it out for no cap)"
        for side, measure, limit in s.caps()
        if not limit > 0
    ]
    return "; ".join(found) or None


@dataclass(frozen=True, kw_only=True)
class RunBudget:
    """What the whole run may spend (``runs.run_budget``), the agent's sessions and the judges apart; None: no cap."""

    max_run_tokens: int | None = None
    max_run_premium_requests: float | None = None
    max_run_ai_credits: float | None = None
    max_judge_tokens: int | None = None
    max_judge_premium_requests: float | None = None
    max_judge_ai_credits: float | None = None

    RULES: ClassVar[tuple[Callable[[Any], str | None], ...]] = (_caps_above_zero,)

    def __post_init__(self) -> None:
        _settle(self, (), ())

    def caps(self) -> list[tuple[str, str, float]]:
        """Every cap that is set, as (side, measure, limit)."""
        return [
            (side, measure, limit)
            for side in SIDES
            for measure in MEASURES
            if (limit := getattr(self, f"max_{side}_{measure}")) is not None
        ]

    def caps_judges(self) -> bool:
        """Whether a judges' cap is set (their spending is known only once a case is graded)."""
        return any(side == "judge" for side, _, _ in self.caps())

    def __bool__(self) -> bool:
        return bool(self.caps())


# --- how to finish -------------------------------------------------------------------------------


def _fail_under(s: HowToFinish) -> str | None:
    return _percent("--fail-under", s.fail_under)


def _max_errors(s: HowToFinish) -> str | None:
    return None if s.max_errors >= 0 else f"--max-errors {s.max_errors}: must be 0 or more"


def _resume(s: HowToFinish) -> str | None:
    return "--resume needs --out naming the run directory to continue" if s.resume and s.out is None else None


def _regression(s: HowToFinish) -> str | None:
    if s.fail_on_regression and s.baseline is None:
        return "--fail-on-regression needs --baseline RUN_DIR (the run a regression is against)"
    return None


def _gate(s: HowToFinish) -> str | None:
    if s.gate is None and (s.golden is not None or s.max_regressions):
        return "--golden and --max-regressions gate the run: give --gate NAME (or --gate auto) with them"
    return None if s.max_regressions >= 0 else f"--max-regressions {s.max_regressions}: must be 0 or more"


def _scan(s: HowToFinish) -> str | None:
    return _refusal(lambda: gate_names(s.fail_on_finding, choose_scanners(s.scan)), ScanChoiceError)


@dataclass(frozen=True, kw_only=True)
class HowToFinish:
    """Where the run goes and what finishes it (``runs.finish``): the folder, reports, baseline, gates, history, scans.

    ``out`` is the run folder (evidence, checkpoint, run.json); ``scan`` the transcript scanners run
    over the finished folder (``scans.choice``; None: the built-in set).
    """

    out: Path | None = None
    resume: bool = False
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
    scan: str | None = None
    fail_on_finding: str | None = None

    RULES: ClassVar[tuple[Callable[[Any], str | None], ...]] = (
        _fail_under,
        _max_errors,
        _resume,
        _regression,
        _gate,
        _scan,
    )

    def __post_init__(self) -> None:
        _settle(self, (), ("out", "junit", "baseline", "gh_json", "golden"))


# --- the whole ---------------------------------------------------------------------------------

GROUPS: dict[str, type] = {
    "what": WhatToPlay,
    "play": HowToPlay,
    "grade": HowToGrade,
    "budgets": RunBudget,
    "finish": HowToFinish,
}
"""Each group of a RunSettings by its field name, in the order their problems are listed."""


@dataclass(frozen=True, kw_only=True)
class RunSettings:
    """How a test set is played, graded, written and judged: the options of ``copilot-eval run``, in five groups."""

    what: WhatToPlay = field(default_factory=WhatToPlay)
    play: HowToPlay = field(default_factory=HowToPlay)
    grade: HowToGrade = field(default_factory=HowToGrade)
    budgets: RunBudget = field(default_factory=RunBudget)
    finish: HowToFinish = field(default_factory=HowToFinish)

    @classmethod
    def of(cls, **options: Any) -> RunSettings:
        """RunSettings from options by name (``repeat=3, out="x"``), each given to its group; every problem at once."""
        given: dict[str, dict[str, Any]] = {group: {} for group in GROUPS}
        for name, value in options.items():
            if name not in _GROUP_OF:
                raise TypeError(f"RunSettings has no option {name!r}")
            given[_GROUP_OF[name]][name] = value
        made: dict[str, Any] = {}
        problems: list[str] = []
        for group, kind in GROUPS.items():
            try:
                made[group] = kind(**given[group])
            except SettingsError as exc:
                problems += exc.problems
        if problems:
            raise SettingsError(problems)
        return cls(**made)

    def in_folder(self, out: Path | None) -> RunSettings:
        """The same settings writing to run folder ``out`` (each surface of several plays into its own)."""
        return replace(self, finish=replace(self.finish, out=out))


_GROUP_OF: Mapping[str, str] = {f.name: group for group, kind in GROUPS.items() for f in fields(kind)}
"""The group of each option name (every option in exactly one group)."""


def settings_from(options: dict[str, Any], *, drop: Iterable[str] = ()) -> RunSettings:
    """A RunSettings from keyword options of the same names (``drop``: keys that are not settings)."""
    skipped = set(drop)
    return RunSettings.of(**{name: value for name, value in options.items() if name not in skipped})


__all__ = [
    "DEFAULT_CONCURRENCY",
    "EXECUTORS",
    "GROUPS",
    "MEASURES",
    "HowToFinish",
    "HowToGrade",
    "HowToPlay",
    "RunBudget",
    "RunSettings",
    "SettingsError",
    "WhatToPlay",
    "option_name",
    "settings_from",
]
