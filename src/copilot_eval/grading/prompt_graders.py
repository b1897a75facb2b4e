"""The graders of a prompt-file set: one per evaluator, each with its pass mark, and the response-format check.

``prompt_graders`` builds them from the set itself (``EvalTestSet.prompt_file``), so a run, a
regrade of its folder and a pytest item grade the same way. An ``llm`` evaluator's judge is its
``modelId`` mapped to the runtime's name, unless a judge agent file is given (``--judge``), which
then judges every LLM evaluator (a scripted judge grades offline). The pass mark of each LLM
evaluator comes from ``--prompt-pass-score`` (``0.6`` for all of them, ``NAME=0.6`` for one),
default half the top choice score, four stars of five for the built-ins. ``gh_models_case_passed``
is gh-models' own verdict on a case: every evaluator passed by its rule (score above 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalTestSet
from copilot_eval.evalsets.prompt_evaluators import BUILTIN_MODEL_ID, EvaluatorSpec, evaluator_specs
from copilot_eval.evalsets.prompt_runtime import runtime_model_name, unmapped_model_message
from copilot_eval.grading.prompt_builtins import builtin_judge
from copilot_eval.grading.prompt_choice import DEFAULT_PASS_FRACTION, PromptChoiceJudge
from copilot_eval.grading.prompt_string import PromptStringCheck
from copilot_eval.grading.protocol import Grade, Grader
from copilot_eval.grading.response_format import ResponseFormatCheck

PASS_SCORE_OPTION = "--prompt-pass-score"


@dataclass(frozen=True)
class PassScores:
    """The pass marks of a prompt file's LLM evaluators: one for all, and one per evaluator name (fractions 0-1)."""

    default: float | None = None
    by_name: Mapping[str, float] = field(default_factory=dict)

    def for_evaluator(self, name: str) -> float | None:
        """The pass mark of evaluator ``name``, ``None`` for its own default."""
        return self.by_name.get(name, self.default)


def _fraction(text: str, item: str, option: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{option} {item!r}: {text!r} is not a number (a fraction such as 0.75, or 75)") from None
    value = value / 100 if value > 1 else value
    if not 0 <= value <= 1:
        raise ValueError(f"{option} {item!r}: the pass mark must be between 0 and 1 (or 0 and 100), got {text}")
    return value


def parse_pass_scores(items: Sequence[str] | None, *, option: str = PASS_SCORE_OPTION) -> PassScores:
    """``0.75`` (every LLM evaluator) and ``NAME=0.75`` (the evaluator named NAME), repeatable; a percent works too."""
    default: float | None = None
    by_name: dict[str, float] = {}
    for item in items or []:
        name, sep, value = item.rpartition("=")
        if not sep:
            if default is not None:
                raise ValueError(f"{option} {item!r}: a pass mark for every evaluator is already given")
            default = _fraction(item.strip(), item, option)
            continue
        if not name.strip():
            raise ValueError(f"{option} {item!r}: name the evaluator before '='")
        by_name[name.strip()] = _fraction(value.strip(), item, option)
    return PassScores(default, by_name)


def judge_for_model_id(model_id: str, *, field_name: str) -> CopilotEval:
    """A judge agent asking the runtime's equivalent of a GitHub Models id (ValueError when it has none)."""
    model = runtime_model_name(model_id)
    if model is None:
        raise ValueError(
            unmapped_model_message(model_id, field=field_name).replace("--model NAME", "--judge JUDGE.yaml")
        )
    return CopilotEval(name=f"judge {model}", model=model)


def _check_pass_scores(specs: Sequence[EvaluatorSpec], scores: PassScores, option: str) -> None:
    kinds = {spec.name: spec.kind for spec in specs}
    for name in scores.by_name:
        if name not in kinds:
            known = ", ".join(repr(n) for n, kind in kinds.items() if kind != "string") or "none"
            raise ValueError(f"{option} {name}=...: the prompt file has no LLM evaluator of that name (it has {known})")
        if kinds[name] == "string":
            raise ValueError(f"{option} {name}=...: {name!r} is a string evaluator: it passes or fails, with no score")


def _judge(spec: EvaluatorSpec, judge: CopilotEval | None, model_id: str, judge_option: str) -> CopilotEval:
    if judge is not None:
        return judge
    try:
        return judge_for_model_id(model_id, field_name=f"{spec.label}: modelId")
    except ValueError as exc:
        raise ValueError(f"{exc} (or give {judge_option} JUDGE.yaml to judge every LLM evaluator)") from None


def prompt_graders(
    test_set: EvalTestSet,
    *,
    judge: CopilotEval | None = None,
    pass_scores: PassScores | None = None,
    judge_repeat: int = 1,
    pool: Any = None,
    option: str = PASS_SCORE_OPTION,
    judge_option: str = "--judge",
) -> list[Grader]:
    """The graders a prompt-file set's evaluators and response format name (none for any other set).

    ``judge`` judges every LLM evaluator instead of its ``modelId``. ValueError names the
    evaluator or the option when one cannot be built (an unmapped model, an unknown name).
    """
    record = test_set.prompt_file
    if record is None:
        return []
    scores = pass_scores or PassScores()
    specs = evaluator_specs(record.evaluators)
    _check_pass_scores(specs, scores, option)
    graders: list[Grader] = []
    for spec in specs:
        grader: Any
        if spec.kind == "string":
            grader = PromptStringCheck(spec)
        elif spec.llm is not None:
            grader = PromptChoiceJudge(
                _judge(spec, judge, spec.llm.model_id, judge_option),
                name=spec.name,
                prompt=spec.llm.prompt,
                choices=spec.llm.choices,
                system_prompt=spec.llm.system_prompt,
                pass_fraction=_or_default(scores.for_evaluator(spec.name), DEFAULT_PASS_FRACTION),
                pool=pool,
                repeat=judge_repeat,
            )
        else:
            assert spec.uses is not None
            grader = builtin_judge(
                spec.uses,
                _judge(spec, judge, BUILTIN_MODEL_ID, judge_option),
                name=spec.name,
                pass_fraction=scores.for_evaluator(spec.name),
                pool=pool,
                repeat=judge_repeat,
            )
        graders.append(grader)
    if record.response_format in ("json_object", "json_schema"):
        graders.append(ResponseFormatCheck(record.response_format, record.json_schema))
    return graders


def _or_default(value: float | None, default: float) -> float:
    return default if value is None else value


def is_gh_models_evaluator(grader: object) -> bool:
    """Whether ``grader`` stands for one of a prompt file's evaluators (gh-models would have run it)."""
    return isinstance(grader, (PromptStringCheck, PromptChoiceJudge))


def gh_models_case_passed(graders: Sequence[object], grades: Sequence[Grade]) -> bool | None:
    """gh-models' verdict on a case: every evaluator passed by its rule; ``None`` where it would have stopped instead.

    ``None`` too for a case no prompt-file evaluator graded (another kind of set, or a session
    that gave no answer, after which gh-models would have stopped the whole run).
    """
    verdicts = [
        grade.gh_models for grader, grade in zip(graders, grades, strict=False) if is_gh_models_evaluator(grader)
    ]
    if not verdicts or len(grades) < len(graders) or any(verdict is None for verdict in verdicts):
        return None
    return all(verdict.passed for verdict in verdicts if verdict is not None)


__all__ = [
    "PASS_SCORE_OPTION",
    "PassScores",
    "gh_models_case_passed",
    "is_gh_models_evaluator",
    "judge_for_model_id",
    "parse_pass_scores",
    "prompt_graders",
]
