"""Grader specs as written on the command line, e.g. ``keywords:all:refund,deposit``.

Syntax: ``NAME[:ARGS]``. Judge graders (compare_meaning, general_quality, labels) need a judge
agent. Every mistake raises GraderSpecError naming the spec and the expected form.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.grading.capability import CapabilityUse
from copilot_eval.grading.compare_meaning import DEFAULT_PASS_SCORE, CompareMeaning
from copilot_eval.grading.exact import ExactMatch, Normalisation
from copilot_eval.grading.general_quality import GeneralQuality
from copilot_eval.grading.instructions import InstructionsDelivered
from copilot_eval.grading.keywords import KeywordMatch
from copilot_eval.grading.labels import LabelClassifier
from copilot_eval.grading.protocol import Grader
from copilot_eval.grading.similarity import DEFAULT_THRESHOLD, TextSimilarity
from copilot_eval.grading.trajectory import TrajectoryGrader
from copilot_eval.grading.trajectory_file import TrajectoryFileError
from copilot_eval.grading.workspace_graders import WORKSPACE_SPEC_FORMS, build_workspace_grader
from copilot_eval.suggest import closest

#: Every spec form, shown in help and in error messages.
SPEC_FORMS: dict[str, str] = {
    "exact": "exact | exact:strict | exact:punctuation  (default ignores case and spacing)",
    "keywords": "keywords:any:WORD,WORD | keywords:all:WORD,WORD",
    "similarity": f"similarity | similarity:PASS  (a fraction 0-1 or a percent, default {DEFAULT_THRESHOLD}; "
    "scores are recorded 0-100)",
    "capability": "capability:tool:NAME,skill:NAME,subagent:NAME  (a bare NAME is a tool)",
    "trajectory": "trajectory:FILE  (a YAML file of expected steps per conversation and turn; see docs/graders.md)",
    "instructions": "instructions:FILE,FILE  (customization files, paths or globs as `copilot-eval customizations` "
    "lists them, that must reach the model: a case where one did not is an error; needs audit_requests)",
    "compare_meaning": "compare_meaning | compare_meaning:PASS_SCORE  (0-100, default 50; needs --judge)",
    "general_quality": "general_quality  (needs --judge)",
    "labels": "labels:LABEL=pass,LABEL=fail  (needs --judge)",
    **WORKSPACE_SPEC_FORMS,  # over the workspace the agent left (docs/workspace.md)
}
JUDGE_GRADERS = ("compare_meaning", "general_quality", "labels")


class GraderSpecError(ValueError):
    """A grader spec that cannot be used; the message names it and shows the expected form."""


class _Bad(ValueError):
    """A problem found while building a grader; the caller words it with the option name."""

    def __init__(self, why: str, name: str | None) -> None:
        super().__init__(why)
        self.why, self.name = why, name


def _fail(spec: str, why: str, name: str | None = None) -> _Bad:
    return _Bad(why, name)


def _unknown(kind: str, given: str, known: list[str]) -> str:
    """``unknown grader 'simlarity' (did you mean 'similarity'?)``: a typo is named with its fix."""
    guess = closest(given, known)
    return f"unknown {kind} {given!r}" + (f" (did you mean {guess!r}?)" if guess else "")


def _message(spec: str, why: str, name: str | None, option: str) -> str:
    form = SPEC_FORMS.get(name or "", "one of: " + "; ".join(SPEC_FORMS.values()))
    return f"{option} {spec!r}: {why} (expected {form})"


def _number(spec: str, name: str, text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise _fail(spec, f"{text!r} is not a number", name) from None


def _capability(spec: str, args: str) -> CapabilityUse:
    wanted: dict[str, list[str]] = {"tool": [], "skill": [], "subagent": []}
    for item in filter(None, (part.strip() for part in args.split(","))):
        kind, _, value = item.rpartition(":")
        kind = kind or "tool"
        if kind not in wanted or not value:
            raise _fail(spec, f"bad item {item!r}", "capability")
        wanted[kind].append(value)
    return CapabilityUse(tools=wanted["tool"], skills=wanted["skill"], subagents=wanted["subagent"])


def _labels(spec: str, args: str) -> dict[str, bool]:
    labels: dict[str, bool] = {}
    for item in filter(None, (part.strip() for part in args.split(","))):
        label, _, verdict = item.partition("=")
        if verdict.strip().lower() not in ("pass", "fail") or not label.strip():
            raise _fail(spec, f"bad item {item!r}", "labels")
        labels[label.strip()] = verdict.strip().lower() == "pass"
    return labels


def parse_grader_spec(
    spec: str,
    *,
    judge: Any = None,
    pool: Any = None,
    option: str = "--grader",
    judge_option: str = "--judge",
    judge_repeat: int = 1,
) -> Grader:
    """Build the grader a spec names; ``judge`` is the judge CopilotEval for judge graders.

    A judge grader asks the judge ``judge_repeat`` times per answer (``LlmJudge(repeat=...)``);
    other graders ignore it. ``option`` and ``judge_option`` are the option names errors speak of (the
    pytest plugin's differ from the command line's).
    """
    name, _, args = spec.strip().partition(":")
    name = name.strip().lower().replace("-", "_")
    if name not in SPEC_FORMS:
        raise GraderSpecError(_message(spec, _unknown("grader", name, list(SPEC_FORMS)), None, option))
    if name in JUDGE_GRADERS and judge is None:
        why = f"this grader is an LLM judge: give a judge agent file with {judge_option}"
        raise GraderSpecError(_message(spec, why, name, option))
    if judge_repeat < 1:
        raise GraderSpecError(f"judge repeat must be at least 1, got {judge_repeat}")
    try:
        return _build(spec, name, args, judge, pool, judge_repeat)
    except _Bad as exc:
        raise GraderSpecError(_message(spec, exc.why, exc.name, option)) from None
    except ValueError as exc:
        raise GraderSpecError(_message(spec, str(exc), name, option)) from None


def _build(spec: str, name: str, args: str, judge: Any, pool: Any, repeat: int) -> Grader:
    if name in WORKSPACE_SPEC_FORMS:
        return build_workspace_grader(name, args)
    if name == "exact":
        modes = {
            "": Normalisation(),
            "strict": Normalisation(case=False, whitespace=False),
            "punctuation": Normalisation(punctuation=True),
        }
        if args not in modes:
            raise _fail(spec, _unknown("option", args, [mode for mode in modes if mode]), name)
        return ExactMatch(modes[args])
    if name == "keywords":
        head, _, words = args.partition(":")
        if head not in ("any", "all"):
            words = args  # no mode given: every word is a keyword, any of them passes
        return KeywordMatch(words.split(","), mode="all" if head == "all" else "any")
    if name == "similarity":
        return TextSimilarity(_number(spec, name, args) if args else DEFAULT_THRESHOLD)
    if name == "capability":
        return _capability(spec, args)
    if name == "trajectory":
        if not args.strip():
            raise _fail(spec, "name the trajectory file", name)
        try:
            return TrajectoryGrader.from_file(args.strip())
        except TrajectoryFileError as exc:
            raise _fail(spec, str(exc), name) from None
    if name == "instructions":
        return InstructionsDelivered(args.split(","))
    if name == "compare_meaning":
        pass_score = _number(spec, name, args) if args else DEFAULT_PASS_SCORE
        return CompareMeaning(judge, pass_score=pass_score, pool=pool, repeat=repeat)
    if name == "general_quality":
        if args:
            raise _fail(spec, "takes no options", name)
        return GeneralQuality(judge, pool=pool, repeat=repeat)
    return LabelClassifier(judge, _labels(spec, args), pool=pool, repeat=repeat)


__all__ = ["JUDGE_GRADERS", "SPEC_FORMS", "GraderSpecError", "parse_grader_spec"]
