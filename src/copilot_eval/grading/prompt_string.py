"""A prompt file's ``string`` evaluator, with gh-models' rules: exact ``equals``, case-insensitive affixes.

On the answer trimmed as gh-models trims it (Go's ``strings.TrimSpace``): ``equals`` is exact and
case-sensitive; ``contains``, ``startsWith`` and ``endsWith`` ignore case (both sides lower-cased).
Each rule's text is filled from the case's row first (``{{expected}}``). gh-models applies only the
first rule given, in the order equals, contains, startsWith, endsWith; this grader requires every
rule the file gives, and records gh-models' own verdict (that first rule alone) beside its own.
"""

from __future__ import annotations

from copilot_eval.evalsets import EvalTestCase
from copilot_eval.evalsets.prompt_evaluators import EvaluatorSpec
from copilot_eval.evalsets.prompt_model import GhModelsVerdict
from copilot_eval.evalsets.prompt_text import fill, go_trim
from copilot_eval.grading.protocol import GH_MODELS_DETAIL, CaseEvidence, Grade, passed_if, ungradable

_HOLDS = {"equals": "equals", "contains": "contains", "startsWith": "starts with", "endsWith": "ends with"}
_FAILS = {
    "equals": "does not equal",
    "contains": "does not contain",
    "startsWith": "does not start with",
    "endsWith": "does not end with",
}
_SHOWN = 80


def string_rule_holds(rule: str, answer: str, text: str) -> bool:
    """Whether the trimmed ``answer`` meets one string rule (``equals`` exact, the others ignoring case)."""
    if rule == "equals":
        return answer == text
    folded, wanted = answer.lower(), text.lower()
    if rule == "contains":
        return wanted in folded
    if rule == "startsWith":
        return folded.startswith(wanted)
    if rule == "endsWith":
        return folded.endswith(wanted)
    raise ValueError(f"unknown string rule {rule!r}")


def _gh_details(rule: str, text: str) -> str:
    # The wording gh-models' own output uses, so a reader of both recognises the line.
    heads = {
        "equals": "Expected exact match",
        "contains": "Expected to contain",
        "startsWith": "Expected to start with",
        "endsWith": "Expected to end with",
    }
    return f"{heads[rule]}: '{text}'"


class PromptStringCheck:
    """Pass when the answer meets every string rule of the evaluator; score 100 or 0."""

    needs_reference = False

    def __init__(self, spec: EvaluatorSpec) -> None:
        if not spec.string_rules:
            raise ValueError(f"{spec.label}: not a string evaluator")
        self.spec, self.name = spec, spec.name

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Check the trimmed answer against each filled-in rule; the reason names the rules that failed."""
        if (error := ungradable(self.name, case, evidence, needs_reference=False, passing_score=100.0)) is not None:
            return error
        answer = go_trim(evidence.answer or "")
        variables = case.prompt.variables if case.prompt is not None else {}
        checks = [(rule, fill(template, variables)) for rule, template in self.spec.string_rules]
        failed = [(rule, text) for rule, text in checks if not string_rule_holds(rule, answer, text)]
        first_rule, first_text = checks[0]  # gh-models looks at the first rule only
        gh_passed = string_rule_holds(first_rule, answer, first_text)
        gh = GhModelsVerdict(
            score=1.0 if gh_passed else 0.0, passed=gh_passed, details=_gh_details(first_rule, first_text)
        )
        if failed:
            shown = answer if len(answer) <= _SHOWN else answer[:_SHOWN] + "..."
            reason = "; ".join(f"{_FAILS[rule]} {text!r}" for rule, text in failed) + f" (answer {shown!r})"
        else:
            reason = "; ".join(f"{_HOLDS[rule]} {text!r}" for rule, text in checks)
        return Grade(
            self.name,
            passed_if(not failed),
            reason,
            score=0.0 if failed else 100.0,
            passing_score=100.0,
            details={GH_MODELS_DETAIL: gh},
        )


__all__ = ["PromptStringCheck", "string_rule_holds"]
