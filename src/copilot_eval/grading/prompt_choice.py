"""A prompt file's ``llm`` evaluator: a judge answers with one of the evaluator's choices, worth a score.

The judge's prompt is the evaluator's ``prompt`` filled from the case's row and ``{{completion}}``
(the trimmed answer); its ``systemPrompt`` becomes the judge session's whole system message. The
judge's answer must be exactly one choice, trimmed and ignoring case: anything else is an
``error`` ("the judge answered '15', not one of 1, 2, 3, 4, 5"), never a fail. gh-models instead
takes the first choice whose text the answer contains (so "15" scores as "1") and passes any score
above 0; that verdict is recorded beside ours. Ours passes when the choice's score reaches the
pass mark: a fraction of the top score (``pass_fraction``, 0.5 by default).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evalsets.prompt_evaluators import Choice
from copilot_eval.evalsets.prompt_model import GhModelsVerdict
from copilot_eval.evalsets.prompt_text import fill, go_trim
from copilot_eval.grading.judge import LlmJudge
from copilot_eval.grading.protocol import GH_MODELS_DETAIL, CaseEvidence, Grade, passed_if

#: Our pass mark for an llm evaluator without --prompt-pass-score: half the top score.
DEFAULT_PASS_FRACTION = 0.5
_SHOWN = 60


def gh_models_choice(choices: Sequence[Choice], answer: str) -> GhModelsVerdict:
    """gh-models' reading of a judge's answer: the first choice the lower-cased answer contains; passed = score > 0."""
    said = go_trim(answer).lower()
    for choice in choices:
        if choice.text.lower() in said:
            return GhModelsVerdict(
                score=choice.score, passed=choice.score > 0, details=f"LLM evaluation matched choice: '{choice.text}'"
            )
    return GhModelsVerdict(
        score=0.0, passed=False, details=f"LLM evaluation response '{said}' did not match any defined choices"
    )


def exact_choice(choices: Sequence[Choice], answer: str) -> Choice | None:
    """The one choice the answer is, trimmed and ignoring case; ``None`` when it is none of them."""
    said = go_trim(answer).lower()
    return next((choice for choice in choices if go_trim(choice.text).lower() == said), None)


class PromptChoiceJudge(LlmJudge):
    """An LLM judge that picks one of a prompt file's choices; pass at ``pass_fraction`` of the top score."""

    needs_reference = False
    gh_models_evaluator = True

    def __init__(
        self,
        judge: CopilotEval,
        *,
        name: str,
        prompt: str,
        choices: Sequence[Choice],
        system_prompt: str = "",
        pass_fraction: float = DEFAULT_PASS_FRACTION,
        pool: Any = None,
        repeat: int = 1,
    ) -> None:
        if not choices:
            raise ValueError(f"{name}: an llm evaluator needs choices")
        if not 0 <= pass_fraction <= 1:
            raise ValueError(f"{name}: the pass mark must be a fraction of the top score, 0-1, got {pass_fraction}")
        self.top = max(choice.score for choice in choices)
        if self.top <= 0:
            raise ValueError(f"{name}: no choice scores above 0, so no answer could pass")
        if system_prompt.strip():
            judge = judge.with_options(instructions=system_prompt, system_message_mode="replace")
        super().__init__(judge, name=name, pool=pool, repeat=repeat)
        self.prompt, self.choices, self.pass_fraction = prompt, tuple(choices), pass_fraction

    @property
    def passing_score(self) -> float:
        """The pass mark on the 0-100 scale every grade uses (the choice's share of the top score)."""
        return round(100 * self.pass_fraction, 2)

    def prompt_text(self, case: EvalTestCase, evidence: CaseEvidence) -> str:
        """The evaluator's prompt filled from the row, with ``{{completion}}`` the trimmed answer."""
        variables = dict(case.prompt.variables) if case.prompt is not None else {}
        variables["completion"] = go_trim(evidence.answer or "")
        return fill(self.prompt, variables)

    def read_answer(self, text: str | None) -> Grade | None:
        """Our verdict (exactly one choice, or an error) with gh-models' reading of the same answer beside it."""
        gh = gh_models_choice(self.choices, text or "")
        details: dict[str, Any] = {GH_MODELS_DETAIL: gh, "judgeAnswer": text or ""}
        choice = exact_choice(self.choices, text or "")
        if choice is None:
            said = go_trim(text or "").replace("\n", " ")
            shown = said if len(said) <= _SHOWN else said[:_SHOWN] + "..."
            listed = ", ".join(c.text for c in self.choices)
            return Grade(
                self.name,
                CaseStatus.ERROR,
                f"the judge answered {shown!r}, not one of {listed}",
                passing_score=self.passing_score,
                details=details,
            )
        share = choice.score / self.top
        return Grade(
            self.name,
            passed_if(share >= self.pass_fraction),
            f"the judge chose {choice.text!r} (score {choice.score:g} of {self.top:g}; pass from "
            f"{self.pass_fraction * self.top:g})",
            score=round(100 * share, 2),
            passing_score=self.passing_score,
            details={**details, "choice": choice.text},
        )


__all__ = ["DEFAULT_PASS_FRACTION", "PromptChoiceJudge", "exact_choice", "gh_models_choice"]
