"""A prompt file's ``evaluators``, read into specs with every problem found (grading builds graders from them).

Each evaluator has a ``name`` and exactly one of ``string`` (``equals``, ``contains``,
``startsWith``, ``endsWith``), ``llm`` (``prompt``, ``choices``, ``systemPrompt``, ``modelId``) or
``uses: github/<built-in>``. gh-models takes the first of those it finds and ignores what it does
not know; here an evaluator with none, with several, with an unknown rule or key, or naming an
unknown built-in is a problem, because its verdict would not be what the file says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from copilot_eval.suggest import did_you_mean

#: The string rules in gh-models' order: it applies only the first one given (we apply every one given).
STRING_RULES = ("equals", "contains", "startsWith", "endsWith")
LLM_KEYS = ("prompt", "choices", "systemPrompt", "modelId")
EVALUATOR_KEYS = ("name", "string", "llm", "uses")
BUILTIN_PREFIX = "github/"
#: gh-models' built-in evaluators and the row keys their prompts read (besides the answer).
BUILTIN_EVALUATORS: dict[str, tuple[str, ...]] = {
    "similarity": ("input", "expected"),
    "coherence": ("input",),
    "fluency": (),
    "relevance": ("input",),
    "groundedness": ("input", "expected"),
}
#: The model gh-models' built-ins ask; ours ask it too unless --judge names another.
BUILTIN_MODEL_ID = "openai/gpt-4o"


@dataclass(frozen=True)
class Choice:
    """One answer an LLM evaluator's judge may give, and the score it is worth."""

    text: str
    score: float


@dataclass(frozen=True)
class LlmEvaluatorSpec:
    """An ``llm`` evaluator: the judge's prompt (with ``{{completion}}`` and row placeholders), its choices."""

    prompt: str
    choices: tuple[Choice, ...]
    system_prompt: str = ""
    model_id: str = ""


@dataclass(frozen=True)
class EvaluatorSpec:
    """One evaluator of a prompt file: its name, position and kind, with the kind's settings."""

    position: int  # 1-based, as in messages: "evaluators[2]" is the second
    name: str
    string_rules: tuple[tuple[str, str], ...] = ()  # (rule, template), non-empty ones in STRING_RULES order
    llm: LlmEvaluatorSpec | None = None
    uses: str | None = None  # the built-in's name without github/

    @property
    def kind(self) -> str:
        """``string``, ``llm`` or ``uses``."""
        return "string" if self.string_rules else "llm" if self.llm is not None else "uses"

    @property
    def label(self) -> str:
        """``evaluators[2] (name)`` for messages."""
        return f"evaluators[{self.position}] ({self.name})"


Report = Callable[[tuple[str | int, ...], str], None]


def _text(value: Any) -> str | None:
    # A scalar is its text, as gh-models' decoder reads a scalar into a string field; a list or mapping is none.
    if isinstance(value, (dict, list)):
        return None
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _nearest(name: str, known: Sequence[str]) -> str:
    return did_you_mean(name, known)


def _string_rules(value: Any, at: tuple[str | int, ...], report: Report) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, Mapping):
        report(at, "expected a mapping of equals, contains, startsWith or endsWith")
        return ()
    for key in value:
        if key not in STRING_RULES:
            report(
                (*at, key),
                f"unknown string rule {key!r}{_nearest(key, STRING_RULES)}; gh-models knows "
                f"{', '.join(STRING_RULES)} and would ignore it",
            )
    rules = []
    for rule in STRING_RULES:
        if rule in value:
            text = _text(value[rule])
            if text is None:
                report((*at, rule), "expected text")
            elif text:  # gh-models treats an empty rule as not given
                rules.append((rule, text))
    if not rules and all(key in STRING_RULES for key in value):
        report(at, f"no string rule: give one of {', '.join(STRING_RULES)} with a non-empty value")
    return tuple(rules)


def _choices(value: Any, at: tuple[str | int, ...], report: Report) -> tuple[Choice, ...]:
    if not isinstance(value, list) or not value:
        report(at, "expected a non-empty list of {choice, score}")
        return ()
    choices: list[Choice] = []
    seen: dict[str, int] = {}
    for index, item in enumerate(value, start=1):
        where = (*at, index - 1)
        if not isinstance(item, Mapping):
            report(where, "expected {choice, score}")
            continue
        text, score = _text(item.get("choice")), item.get("score")
        if not text or not text.strip():
            report(where, "no choice text")
            continue
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            report(where, f"choice {text!r}: score must be a number, got {score!r}")
            continue
        folded = text.strip().lower()
        if folded in seen:
            report(where, f"choice {text!r} repeats choice {seen[folded]} (choices are matched trimmed, ignoring case)")
            continue
        seen[folded] = index
        choices.append(Choice(text, float(score)))
    if choices and max(choice.score for choice in choices) <= 0:
        report(at, "no choice scores above 0: no answer could pass (gh-models passes a score above 0)")
    return tuple(choices)


def _llm(value: Any, at: tuple[str | int, ...], report: Report) -> LlmEvaluatorSpec | None:
    if not isinstance(value, Mapping):
        report(at, "expected a mapping of prompt, choices, systemPrompt and modelId")
        return None
    for key in value:
        if key not in LLM_KEYS:
            report(
                (*at, key), f"unknown key {key!r}{_nearest(key, LLM_KEYS)}; an llm evaluator has {', '.join(LLM_KEYS)}"
            )
    prompt = _text(value.get("prompt"))
    if not prompt or not prompt.strip():
        report((*at, "prompt"), "no prompt: the judge needs one (use {{completion}} for the answer)")
    choices = _choices(value.get("choices"), (*at, "choices"), report)
    system_prompt, model_id = _text(value.get("systemPrompt")), _text(value.get("modelId"))
    if system_prompt is None:
        report((*at, "systemPrompt"), "expected text")
    if model_id is None:
        report((*at, "modelId"), "expected text")
    elif not model_id.strip():
        report((*at, "modelId"), "no modelId: gh-models needs the judge's model (copilot-eval also takes --judge)")
    return LlmEvaluatorSpec(prompt or "", choices, system_prompt or "", (model_id or "").strip())


def _uses(value: Any, at: tuple[str | int, ...], report: Report) -> str | None:
    text = _text(value) or ""
    builtin = text.removeprefix(BUILTIN_PREFIX)
    if not text.startswith(BUILTIN_PREFIX) or builtin not in BUILTIN_EVALUATORS:
        known = ", ".join(BUILTIN_PREFIX + name for name in BUILTIN_EVALUATORS)
        report(
            at,
            f"unknown built-in {text!r}{_nearest(text, [BUILTIN_PREFIX + n for n in BUILTIN_EVALUATORS])}; "
            f"gh-models has {known} (it scores any other as 0)",
        )
        return None
    return builtin


def read_evaluators(raw: Any, report: Report, at: tuple[str | int, ...] = ("evaluators",)) -> list[EvaluatorSpec]:
    """The evaluators of ``raw`` (the file's ``evaluators`` value); every problem goes to ``report(path, message)``."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        report(at, "expected a list of evaluators")
        return []
    specs = []
    for index, item in enumerate(raw, start=1):
        where = (*at, index - 1)
        if not isinstance(item, Mapping):
            report(where, "expected a mapping with name and one of string, llm, uses")
            continue
        name = _text(item.get("name"))
        name = name if name and name.strip() else f"evaluator {index}"
        kinds = [kind for kind in ("string", "llm", "uses") if item.get(kind) not in (None, "")]
        for key in item:
            if key not in EVALUATOR_KEYS:
                report(
                    (*where, key),
                    f"unknown key {key!r}{_nearest(key, EVALUATOR_KEYS)}; an evaluator has {', '.join(EVALUATOR_KEYS)}",
                )
        if not kinds:
            report(where, f"evaluator {name!r} has none of string, llm, uses (gh-models stops the run on it)")
            continue
        if len(kinds) > 1:
            report(
                where, f"evaluator {name!r} has {' and '.join(kinds)}; give one (gh-models would use only {kinds[0]})"
            )
            continue
        kind = kinds[0]
        if kind == "string":
            rules = _string_rules(item["string"], (*where, "string"), report)
            if rules:
                specs.append(EvaluatorSpec(index, name, string_rules=rules))
        elif kind == "llm":
            llm = _llm(item["llm"], (*where, "llm"), report)
            if llm is not None:
                specs.append(EvaluatorSpec(index, name, llm=llm))
        else:
            builtin = _uses(item["uses"], (*where, "uses"), report)
            if builtin is not None:
                specs.append(EvaluatorSpec(index, name, uses=builtin))
    return specs


def evaluator_specs(raw: Sequence[Mapping[str, Any]]) -> list[EvaluatorSpec]:
    """The specs of evaluators already checked when their file was read (test-set.json, a regrade)."""
    problems: list[str] = []
    specs = read_evaluators(list(raw), lambda at, message: problems.append(message))
    if problems:
        raise ValueError("; ".join(problems))
    return specs


__all__ = [
    "BUILTIN_EVALUATORS",
    "BUILTIN_MODEL_ID",
    "BUILTIN_PREFIX",
    "STRING_RULES",
    "Choice",
    "EvaluatorSpec",
    "LlmEvaluatorSpec",
    "evaluator_specs",
    "read_evaluators",
]
