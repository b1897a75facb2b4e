"""gh-models' built-in evaluators (``uses: github/similarity`` ...) with our own judge prompts, on a 1-5 scale.

gh-models ships five built-ins (similarity, coherence, fluency, relevance, groundedness) whose
judge rates an answer from one to five stars. Ours keep the names, the scale, the row keys each
one reads (``input``, ``expected``) and the scores of the stars (0, 0.25, 0.5, 0.75, 1, so that
gh-models' own verdict can be computed beside ours); the prompts are this package's own
(``grading/prompts/builtin_*.md``) and ask for the digit alone. Ours passes at four stars.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets.prompt_evaluators import BUILTIN_EVALUATORS, Choice
from copilot_eval.grading.prompt_choice import PromptChoiceJudge

#: The five stars and what each is worth, as gh-models scores them.
STAR_CHOICES: tuple[Choice, ...] = tuple(Choice(str(stars), (stars - 1) / 4) for stars in range(1, 6))
#: Our pass mark for the built-ins without --prompt-pass-score: four stars of five (0.75 of the top score).
BUILTIN_PASS_FRACTION = 0.75


def _prompt(name: str) -> str:
    return resources.files("copilot_eval.grading").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")


def builtin_judge(
    builtin: str,
    judge: CopilotEval,
    *,
    name: str,
    pass_fraction: float | None = None,
    pool: Any = None,
    repeat: int = 1,
) -> PromptChoiceJudge:
    """The judge of built-in ``builtin`` (``similarity`` ...), named as the file names the evaluator."""
    if builtin not in BUILTIN_EVALUATORS:
        raise ValueError(f"unknown built-in evaluator github/{builtin}")
    return PromptChoiceJudge(
        judge,
        name=name,
        prompt=_prompt(f"builtin_{builtin}"),
        choices=STAR_CHOICES,
        system_prompt=_prompt("builtin_system"),
        pass_fraction=BUILTIN_PASS_FRACTION if pass_fraction is None else pass_fraction,
        pool=pool,
        repeat=repeat,
    )


__all__ = ["BUILTIN_PASS_FRACTION", "STAR_CHOICES", "builtin_judge"]
