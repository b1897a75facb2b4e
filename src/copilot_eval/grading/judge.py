"""LLM judges run through the same Copilot runtime as the agent, with their own evidence.

The judge is a ``CopilotEval`` whose model the user picks (GitHub-hosted, BYOK or a ScriptedModel).
Prompts are package data files (``grading/prompts/*.md``) filled with ``string.Template``
(``$question``, ``$reference``, ``$answer`` ...) so braces in answers need no escaping. A judge
replies with one JSON object; an answer that cannot be read is an ``error`` grade, never a fail.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
from importlib import resources
from pathlib import Path
from string import Template
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import CaseStatus, EvalTestCase
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.grading.judge_votes import JudgeCall, combine_calls
from copilot_eval.grading.protocol import CaseEvidence, Grade, ungradable
from copilot_eval.safe_paths import path_component

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.IGNORECASE)


def load_prompt(name: str) -> Template:
    """The judge prompt template ``prompts/<name>.md`` shipped with the package."""
    text = resources.files("copilot_eval.grading").joinpath("prompts", f"{name}.md").read_text(encoding="utf-8")
    return Template(text)


def parse_judge_answer(text: str | None) -> dict[str, Any] | None:
    """The JSON object in a judge's answer (bare or fenced), or ``None`` when there is none."""
    if not text:
        return None
    candidates = [_FENCE.sub("", text.strip())]
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None


def _slug(text: str) -> str:
    return path_component(re.sub(r"[^a-z0-9]+", "-", text.lower()), fallback="judge")


class LlmJudge:
    """Base of the judge graders: fills the prompt, runs the judge session ``repeat`` times, keeps its evidence.

    With ``repeat`` above 1 the judge is asked that many times per answer (concurrently, each call
    its own session) and its grade is their majority (``judge_votes.combine_calls``).
    """

    prompt_name = ""
    needs_reference = True

    def __init__(self, judge: CopilotEval, *, name: str, pool: Any = None, repeat: int = 1) -> None:
        if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
            raise ValueError(f"judge repeat must be a whole number of at least 1, got {repeat!r}")
        self.judge, self.name, self.pool, self.repeat = judge, name, pool, repeat
        # A judge that writes its own prompt (a prompt file's llm evaluator) has no package template.
        self.template = load_prompt(self.prompt_name) if self.prompt_name else Template("")

    def prompt_fields(self, case: EvalTestCase, evidence: CaseEvidence) -> dict[str, str]:
        """Values for the prompt template."""
        return {"question": case.question, "reference": case.response, "answer": evidence.answer or ""}

    def prompt_text(self, case: EvalTestCase, evidence: CaseEvidence) -> str:
        """The judge's prompt for this answer: the package template filled with ``prompt_fields``."""
        return self.template.safe_substitute(self.prompt_fields(case, evidence))

    def verdict(self, answer: dict[str, Any]) -> Grade | None:
        """Turn the parsed JSON into a grade; ``None`` when the JSON lacks what is needed."""
        raise NotImplementedError

    def read_answer(self, text: str | None) -> Grade | None:
        """The grade a judge's answer gives (the JSON object it holds, through ``verdict``); ``None`` if unreadable."""
        parsed = parse_judge_answer(text)
        grade = self.verdict(parsed) if parsed is not None else None
        if grade is None:
            return None
        return dataclasses.replace(grade, details={**grade.details, "judge": parsed})

    def read_answer_for(self, case: EvalTestCase, evidence: CaseEvidence, text: str | None) -> Grade | None:
        """The grade of the judge's answer on this case; a judge whose rule depends on the case (its context) overrides it."""
        return self.read_answer(text)

    async def grade(self, case: EvalTestCase, evidence: CaseEvidence) -> Grade:
        """Ask the judge ``repeat`` times; errors of the agent, the reference or the judge become ``error`` grades."""
        if (error := ungradable(self.name, case, evidence, needs_reference=self.needs_reference)) is not None:
            return error
        calls = await asyncio.gather(*(self.ask(case, evidence, attempt=n) for n in range(1, self.repeat + 1)))
        return combine_calls(self.name, calls)

    async def ask(self, case: EvalTestCase, evidence: CaseEvidence, *, attempt: int = 1) -> JudgeCall:
        """One judge call on a gradable answer: its grade and its session (``attempt`` names its evidence file)."""
        # imported on use: running a judge loads the Copilot SDK (about 0.6 s); deterministic graders never need it
        from copilot_eval.runtime.session.runner import run_copilot

        prompt = self.prompt_text(case, evidence)
        try:
            result = await run_copilot(self.judge, prompt, pool=self.pool)
        except Exception as exc:
            return JudgeCall(
                Grade(self.name, CaseStatus.ERROR, f"judge could not run: {type(exc).__name__}: {exc}"), None
            )
        path = self._save(result, evidence, attempt)
        if not result.success:
            return JudgeCall(
                Grade(self.name, CaseStatus.ERROR, f"judge call failed: {result.error}", evidence_path=path), result
            )
        grade = self.read_answer_for(case, evidence, result.final_response)
        if grade is None:
            shown = (result.final_response or "").strip().replace("\n", " ")[:120]
            return JudgeCall(
                Grade(self.name, CaseStatus.ERROR, f"unreadable judge answer: {shown!r}", evidence_path=path), result
            )
        return JudgeCall(dataclasses.replace(grade, evidence_path=path), result)

    def _save(self, result: CopilotResult, evidence: CaseEvidence, attempt: int = 1) -> str | None:
        if evidence.evidence_path is None:
            return None
        case_path = Path(evidence.evidence_path)
        # The turns of a conversation share one session file; each turn's judge needs its own,
        # and so does each call of a repeated judge.
        turn = f".turn{evidence.turn_index + 1}" if evidence.turn_index else ""
        again = f".try{attempt}" if attempt > 1 else ""
        path = case_path.with_name(f"{case_path.stem}{turn}.{_slug(self.name)}{again}.judge.json")
        return str(result.save(path))


def reason_of(answer: dict[str, Any]) -> str:
    """The judge's one-line reasoning, or a placeholder saying it gave none."""
    reason = answer.get("reason")
    return " ".join(str(reason).split()) if reason else "(the judge gave no reason)"


__all__ = ["LlmJudge", "load_prompt", "parse_judge_answer", "reason_of"]
