"""Option groups: options several commands take together, declared once as one frozen dataclass.

typer reads a command's options from its signature and has no groups of its own. A group here is a
frozen dataclass whose fields are the options (each annotated with its ``cli/options.py`` alias and
its default); a command names the group as ONE parameter (``finishing: FinishGroup``) and is decorated
with ``takes_groups``. The decorator puts the group's options in that parameter's place in the
signature typer reads (``__signature__``), and calls the command with one object of the group's
values. The options' names, help and defaults stay those of their single declaration.
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any, dataclass_transform

from copilot_eval.cli.history_record import NoHistoryOption, RecordHistoryOption
from copilot_eval.cli.options import (
    AllowOtherSetOption,
    BaselineOption,
    ExecutorOption,
    FailOnFindingOption,
    FailOnRegressionOption,
    FailUnderOption,
    GraderOption,
    JudgeOption,
    JudgeRepeatOption,
    JunitOption,
    MarkdownOption,
    MaxErrorsOption,
    MaxJudgeAiCreditsOption,
    MaxJudgePremiumRequestsOption,
    MaxJudgeTokensOption,
    MaxRunAiCreditsOption,
    MaxRunPremiumRequestsOption,
    MaxRunTokensOption,
    PromptPassScoreOption,
    RayAddressOption,
    RayWorkersOption,
    RecordMissingOption,
    RecordOption,
    ReplayOption,
    ScanOption,
)
from copilot_eval.scans.choice import choose_scanners, gate_names
from copilot_eval.scans.protocol import Scanner


@dataclass_transform(frozen_default=True, kw_only_default=True)
@dataclass(frozen=True, kw_only=True)
class OptionGroup:
    """A group of options several commands take together: a subclass is a frozen, keyword-only dataclass of options."""

    def __init_subclass__(cls) -> None:
        """Make every group a frozen, keyword-only dataclass (the decorator takes its fields in this order)."""
        super().__init_subclass__()
        dataclass(frozen=True, kw_only=True)(cls)

    @classmethod
    def parameters(cls) -> list[inspect.Parameter]:
        """The group's options as keyword parameters, with their annotations resolved, in declaration order."""
        hints = typing.get_type_hints(cls, include_extras=True)
        return [
            inspect.Parameter(
                each.name,
                inspect.Parameter.KEYWORD_ONLY,
                annotation=hints[each.name],
                default=inspect.Parameter.empty if each.default is MISSING else each.default,
            )
            for each in fields(cls)
        ]

    def values(self) -> dict[str, Any]:
        """The options' values by name (as a command's ``locals()`` would hold them), to pass on by name.

        Any: the values are of the fields' several types; the receivers (``runs.settings``' groups,
        ``runs.finish.finish_options``) take them by name and check them there.
        """
        return {each.name: getattr(self, each.name) for each in fields(self)}


def flat(options: Mapping[str, object]) -> dict[str, Any]:
    """A command's values by name, each group's options in place of the group (what ``locals()`` held before groups)."""
    found: dict[str, Any] = {}
    for name, value in options.items():
        found.update(value.values() if isinstance(value, OptionGroup) else {name: value})
    return found


def _is_group(annotation: object) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, OptionGroup)


def takes_groups(command: Callable[..., None]) -> Callable[..., None]:
    """Expand each ``OptionGroup`` parameter of a typer command into its options; call it with the group's object.

    Every parameter of the signature typer sees is keyword-only (typer passes them by name), so a
    required option may follow one with a default. A group option named like another parameter is
    refused when the command is defined, naming both.
    """
    hints = typing.get_type_hints(command, include_extras=True)
    groups: dict[str, type[OptionGroup]] = {}
    seen: dict[str, str] = {}
    parameters: list[inspect.Parameter] = []
    for parameter in inspect.signature(command).parameters.values():
        annotation = hints.get(parameter.name, parameter.annotation)
        if _is_group(annotation):
            groups[parameter.name] = annotation
            expanded = annotation.parameters()
        else:
            expanded = [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=annotation)]
        for each in expanded:
            if each.name in seen:
                raise TypeError(
                    f"{command.__module__}.{command.__qualname__}: option parameter {each.name!r} comes from both "
                    f"{seen[each.name]} and {parameter.name!r}; rename the command's parameter"
                )
            seen[each.name] = repr(parameter.name)
        parameters.extend(expanded)
    if not groups:
        raise TypeError(f"{command.__qualname__}: takes_groups found no OptionGroup parameter; drop the decorator")

    @functools.wraps(command)
    def call(**given: object) -> None:
        for name, group in groups.items():
            given[name] = group(**{each.name: given.pop(each.name) for each in fields(group)})
        command(**given)

    returns = hints.get("return", inspect.Signature.empty)
    # typer reads inspect.signature(), which takes a function's __signature__ over its code's.
    call.__dict__["__signature__"] = inspect.Signature(parameters, return_annotation=returns)
    call.__annotations__ = {each.name: each.annotation for each in parameters} | {"return": returns}
    return call


# --- the groups several commands take (each option's alias declared once in cli/options.py) ----------
# The groups look alike as declarations: each is another set of options with its own meaning, so
# they are alike in shape only.
class HistoryGroup(OptionGroup):
    """Whether and where the finished folder is added to the history: every command that writes a run folder."""

    history: RecordHistoryOption = None
    no_history: NoHistoryOption = False


class FinishGroup(HistoryGroup):
    """The finisher's outputs and gates every command that writes a run folder of graded cases takes (and the history)."""

    fail_under: FailUnderOption = None
    max_errors: MaxErrorsOption = 0
    junit: JunitOption = None
    markdown: MarkdownOption = None


class BaselineGroup(OptionGroup):
    """Comparing the finished run with an earlier run folder (run, regrade)."""

    baseline: BaselineOption = None
    allow_other_set: AllowOtherSetOption = False
    fail_on_regression: FailOnRegressionOption = False


class GradingGroup(OptionGroup):
    """How the answers are graded: the graders, the LLM judge, its repeats and a prompt file's pass marks (run, regrade)."""

    graders: GraderOption = None
    judge: JudgeOption = None
    judge_repeat: JudgeRepeatOption = 1
    prompt_pass_score: PromptPassScoreOption = None


class ScanGroup(OptionGroup):
    """The scanners run over a finished folder, and those that fail the command (run, attack, lift, triggers)."""

    scan: ScanOption = None
    fail_on_finding: FailOnFindingOption = None

    def chosen(self) -> tuple[tuple[Scanner, ...], frozenset[str]]:
        """The scanners to run and those whose findings fail the command; ScanChoiceError naming the option."""
        scanners = choose_scanners(self.scan)
        return scanners, gate_names(self.fail_on_finding, scanners)


class CassetteGroup(OptionGroup):
    """The agent's model calls recorded to cassettes or answered from them (run, triggers)."""

    record: RecordOption = None
    replay: ReplayOption = None
    record_missing: RecordMissingOption = False


class RunBudgetGroup(OptionGroup):
    """What the agent's sessions may spend before no new play starts (run, lift, triggers)."""

    max_run_tokens: MaxRunTokensOption = None
    max_run_premium_requests: MaxRunPremiumRequestsOption = None
    max_run_ai_credits: MaxRunAiCreditsOption = None


class JudgeBudgetGroup(OptionGroup):
    """What the LLM judges may spend, counted apart from the agent (run, lift; a trigger play has no judge)."""

    max_judge_tokens: MaxJudgeTokensOption = None
    max_judge_premium_requests: MaxJudgePremiumRequestsOption = None
    max_judge_ai_credits: MaxJudgeAiCreditsOption = None


class ExecutorGroup(OptionGroup):
    """Where sessions are played: this process or a Ray cluster (run, lift, triggers)."""

    executor: ExecutorOption = "local"
    ray_address: RayAddressOption = None
    ray_workers: RayWorkersOption = None


__all__ = [
    "BaselineGroup",
    "CassetteGroup",
    "ExecutorGroup",
    "FinishGroup",
    "GradingGroup",
    "HistoryGroup",
    "JudgeBudgetGroup",
    "OptionGroup",
    "RunBudgetGroup",
    "ScanGroup",
    "flat",
    "takes_groups",
]
