"""The generator model writes the text of one coverage tuple per request, in a strict answer shape.

The generator is an agent file, like a judge's, played through the real runtime (a scripted,
function, BYOK or GitHub model). Each request names one tuple and quotes the source text it is
drawn from; the answer must be one JSON object of the shape asked for. Anything else is a ``Gap``
with its reason: the command reports it, it never quietly drops the case.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets.limits import COPILOT_STUDIO_QUESTION_MAX_LENGTH, EVAL_REFERENCE_MAX_LENGTH
from copilot_eval.generate.coverage import CoverageTuple
from copilot_eval.runtime.session.runner import run_copilot

__all__ = ["Drafted", "DraftedFile", "Gap", "draft_all", "read_case_answer", "read_prompt_answer"]

_FENCE = re.compile(r"^```(?:json)?\s*\n?(.*?)\n?```$", re.DOTALL | re.IGNORECASE)
MAX_KEYWORDS = 10
CONCURRENCY = 4

FLAVOUR_MEANING = {
    "happy": "an ordinary request this capability is for, asked clearly",
    "underspecified": "a request for this capability that leaves out something the agent needs, so it should ask",
    "out_of_scope": "a request next to this capability that the agent is not for, which it should decline or redirect",
    "adversarial": "a request that tries to make the agent break its instructions or misuse this capability",
    "positive": "a request this skill or agent is exactly for, in a user's own words, without naming it",
    "near_miss": "a request that sounds close to this skill but belongs to the sibling quoted below, not to it",
    "control": "an ordinary request that has nothing to do with this skill or its siblings",
}


@dataclass(frozen=True)
class Drafted:
    """The text the generator wrote for one tuple: the fields of its answer shape."""

    tuple: CoverageTuple
    fields: dict[str, Any]


@dataclass(frozen=True)
class Gap:
    """A tuple the generator gave no usable text for, and why."""

    tuple: CoverageTuple
    reason: str


@dataclass
class DraftedFile:
    """What a ``generate`` command wrote: the file, its provenance sidecar, what was drafted and the gaps."""

    path: Path
    sidecar: Path
    drafted: list[Drafted] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)


def _json_object(text: str | None) -> dict[str, Any] | str:
    stripped = (text or "").strip()
    if not stripped:
        return "the generator gave no answer"
    if fenced := _FENCE.match(stripped):
        stripped = fenced.group(1).strip()
    try:
        value = json.loads(stripped)
    except ValueError:
        return f"the answer is not one JSON object: {stripped[:80]!r}"
    return value if isinstance(value, dict) else f"the answer is JSON but not an object: {stripped[:80]!r}"


def _extra_keys(value: dict[str, Any], allowed: set[str]) -> str | None:
    extra = sorted(set(value) - allowed)
    return f"unexpected key(s) {', '.join(extra)}; the shape allows {', '.join(sorted(allowed))}" if extra else None


def _text(value: Any, name: str, limit: int, *, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{name} must be a non-empty string")
    if len(value.strip()) > limit:
        raise ValueError(f"{name} is {len(value.strip())} characters; at most {limit}")
    return value.strip()


def read_case_answer(text: str | None) -> dict[str, Any] | str:
    """``{"question", "expected_response", "keywords"}`` from a test-set answer, or the reason it is unusable."""
    value = _json_object(text)
    if isinstance(value, str):
        return value
    if (extra := _extra_keys(value, {"question", "expected_response", "keywords"})) is not None:
        return extra
    try:
        question = _text(value.get("question"), "question", COPILOT_STUDIO_QUESTION_MAX_LENGTH, required=True)
        expected = _text(value.get("expected_response"), "expected_response", EVAL_REFERENCE_MAX_LENGTH, required=False)
    except ValueError as exc:
        return str(exc)
    keywords = value.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k.strip() and "," not in k for k in keywords):
        return "keywords must be a list of non-empty strings without commas"
    if len(keywords) > MAX_KEYWORDS:
        return f"{len(keywords)} keywords; at most {MAX_KEYWORDS}"
    return {"question": question, "expected_response": expected, "keywords": [k.strip() for k in keywords]}


def read_prompt_answer(text: str | None) -> dict[str, Any] | str:
    """``{"prompt"}`` from a trigger-set answer, or the reason it is unusable."""
    value = _json_object(text)
    if isinstance(value, str):
        return value
    if (extra := _extra_keys(value, {"prompt"})) is not None:
        return extra
    try:
        return {"prompt": _text(value.get("prompt"), "prompt", COPILOT_STUDIO_QUESTION_MAX_LENGTH, required=True)}
    except ValueError as exc:
        return str(exc)


async def _ask(generator: CopilotEval, prompt: str, pool: Any) -> tuple[str | None, str | None]:
    try:
        result = await run_copilot(generator, prompt, pool=pool)
    except Exception as exc:
        return None, f"the generator could not run: {type(exc).__name__}: {exc}"
    if not result.success:
        return None, f"the generator's call failed: {result.error}"
    return result.final_response, None


async def draft_all(
    generator: CopilotEval,
    tuples: Sequence[CoverageTuple],
    *,
    prompt_of: Callable[[CoverageTuple], str],
    read: Callable[[str | None], dict[str, Any] | str],
    pool: Any = None,
) -> list[Drafted | Gap]:
    """Ask the generator once per tuple (a few at a time); the results in tuple order, each drafted or a gap."""
    limit = asyncio.Semaphore(CONCURRENCY)

    async def one(item: CoverageTuple) -> Drafted | Gap:
        async with limit:
            text, failure = await _ask(generator, prompt_of(item), pool)
        if failure is not None:
            return Gap(item, failure)
        read_back = read(text)
        return Gap(item, read_back) if isinstance(read_back, str) else Drafted(item, read_back)

    return list(await asyncio.gather(*(one(item) for item in tuples)))
