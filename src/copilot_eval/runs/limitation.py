"""Runtime-limitation detection: does a run's score measure the platform rather than the agent?

Signals, each with the evidence that raised it (case ids, statuses, answer text):
- most cases ended in execution errors (HTTP 5xx, timeouts, session errors) rather than answers;
- every answer is the same text, or most answers are a known fallback message;
- every non-passing case ended after nearly the same time (a platform path, not reasoning).
One run is one observation: the limitation it raises is *suspected* (``limitationStanding``) until
a re-run or another surface confirms it (``confirm_limitation``). The run's ``confidence`` stays
about the record itself and is not lowered by a limitation: the score really was what it was.

Only cases that say something about the platform are read (``platform_observed``). A replay whose
recording no longer matches the request is the test's own fixture (re-record it), and a case whose
grader or judge failed on a real answer is the grader's failure: neither is the platform's, so
neither can raise a limitation, however many there are. Nor is an MCP server that could not start:
it is the agent's own configuration.

Answers speak for the platform only where a platform can answer in the agent's place
(``platform_answers``): Copilot Studio answers with its fallback or error text when the agent did not
run. An agent played on the local runtime answers for itself: the same answer to every case, or
failed answers after the same time, is the agent's failure, and only cases that ended without an
answer (execution errors) can raise a limitation there.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from copilot_eval.evalsets import CaseStatus, EvalCaseResult, EvalRun, LimitationStanding
from copilot_eval.evidence.mcp_server import names_startup_failure
from copilot_eval.evidence.platform_error import platform_error_code
from copilot_eval.models.replay.store import is_stale_recording

#: Fallback texts platforms answer with when the agent did not run; matched ignoring case.
KNOWN_FALLBACK_TEXTS: tuple[str, ...] = (
    "I'm sorry, I'm not sure how to help with that",
    "Sorry, I wasn't able to respond to that",
    "Sorry, something went wrong",
    "An error has occurred",
)
MIN_CASES = 2  # one case says nothing about sameness or uniformity
UNIFORM_SPREAD = 0.10  # coefficient of variation under which durations count as uniform


@dataclass(frozen=True)
class Limitation:
    """Why a run looks like a measure of the runtime: reasons and the evidence behind each."""

    reasons: list[str]
    evidence: list[str] = field(default_factory=list)

    def describe(self) -> str:
        """The text stored in ``EvalRun.runtime_limitation``: the reasons, then their evidence.

        The standing (suspected, until confirmed) is ``EvalRun.limitation_standing``, never words
        in this text, so confirming a limitation changes a field and not the text.
        """
        text = "; ".join(self.reasons) + "."
        return f"{text} Evidence: {' | '.join(self.evidence)}" if self.evidence else text


def confirm_limitation(run: EvalRun, *, by: str) -> EvalRun:
    """Return ``run`` with its runtime limitation confirmed ``by`` a second observation.

    ``by`` says what answered the same questions well (for example "Preview answered all 6 with
    citations" or the evidence of a re-run); it is added to ``limitation_confirmed_by`` and the
    standing becomes confirmed. The text and ``evidence`` are left as they are, and so is the
    run's ``confidence``: it is about the record, not about the limitation.
    """
    if run.runtime_limitation is None:
        raise ValueError(f"run of {run.test_set_name!r} has no runtime limitation to confirm")
    if not by.strip():
        raise ValueError("confirm_limitation: say what confirmed it (by=...)")
    confirmed_by = list(run.limitation_confirmed_by)
    if by.strip() not in confirmed_by:
        confirmed_by.append(by.strip())
    return run.model_copy(
        update={"limitation_standing": LimitationStanding.CONFIRMED, "limitation_confirmed_by": confirmed_by}
    )


def _short(text: str | None, limit: int = 80) -> str:
    """``text`` on one line, cut at a word boundary to about ``limit`` characters (a word cut in two misleads)."""
    flat = " ".join((text or "").split())
    if len(flat) <= limit:
        return flat
    cut = flat[: limit - 1]
    words = cut.rsplit(" ", 1)[0] if " " in cut else cut
    return words.rstrip(" ,;:") + "…"


def _case_id(result: EvalCaseResult) -> str:
    repeat = f" (repeat {result.repeat_index})" if result.repeat_index else ""
    turn = f" turn {result.turn}" if result.turn and result.turn > 1 else ""
    return f"case {result.conversation_number}{turn}{repeat}"


def stale_recording(result: EvalCaseResult) -> bool:
    """Whether the case errored because its replayed recording no longer matches what was asked."""
    return result.effective_status is CaseStatus.ERROR and is_stale_recording(result.failure_reason)


def grader_failed(result: EvalCaseResult) -> bool:
    """Whether the case is an error only because a grader or judge could not grade a real answer.

    The platform names its own grading failures (``error_reason``) and its error codes stand in the
    answer; both stay the platform's.
    """
    if result.effective_status is not CaseStatus.ERROR or not (result.actual_response or "").strip():
        return False
    if platform_error_code(result.actual_response) is not None:
        return False
    return any(g.status is CaseStatus.ERROR and g.error_reason is None for g in result.grades)


def agent_configuration_failed(result: EvalCaseResult) -> bool:
    """Whether the case errored because an MCP server of the agent could not start (the agent's configuration)."""
    return result.effective_status is CaseStatus.ERROR and names_startup_failure(result.failure_reason)


def platform_observed(results: Iterable[EvalCaseResult]) -> list[EvalCaseResult]:
    """The cases whose outcome says something about the platform: not a stale recording, not a grader's
    failure, not an MCP server of the agent that could not start."""
    return [r for r in results if not stale_recording(r) and not grader_failed(r) and not agent_configuration_failed(r)]


def _errors(results: Sequence[EvalCaseResult]) -> tuple[str, list[str]] | None:
    errored = [r for r in results if r.effective_status is CaseStatus.ERROR and r.actual_response is None]
    if len(errored) * 2 <= len(results):
        return None
    examples = [f"{_case_id(r)}: error, {_short(r.failure_reason, 120)!r}" for r in errored[:3]]
    return f"{len(errored)} of {len(results)} cases ended in execution errors instead of answers", examples


def _same_answers(results: Sequence[EvalCaseResult], fallbacks: Iterable[str]) -> tuple[str, list[str]] | None:
    answered = [(r, r.actual_response) for r in results if r.actual_response is not None]
    if len(answered) < MIN_CASES:
        return None
    texts = {" ".join(answer.split()).casefold() for _, answer in answered}
    cited = [f"{_case_id(r)}: {r.effective_status.value}, answer {_short(answer)!r}" for r, answer in answered[:3]]
    if len(texts) == 1 and not all(r.effective_status is CaseStatus.PASS for r, _ in answered):
        return f"all {len(answered)} answers are the same text", cited
    known = [f.casefold() for f in fallbacks]
    fallback = [r for r, answer in answered if any(k in answer.casefold() for k in known)]
    if len(fallback) * 2 > len(answered):
        return f"{len(fallback)} of {len(answered)} answers are a known fallback message", cited
    return None


def _uniform(results: Sequence[EvalCaseResult], *, platform_answers: bool) -> tuple[str, list[str]] | None:
    if any(r.effective_status is CaseStatus.PASS for r in results):
        return None
    if not platform_answers and any(r.actual_response is not None for r in results):
        return None  # the agent itself answered and failed: its time says nothing about a platform
    # Cases of one conversation share a session and its duration: count each session once.
    sessions = {r.evidence_path or id(r): r.duration_ms for r in results}
    durations = [d for d in sessions.values() if d is not None]
    if len(durations) < MIN_CASES or len(durations) < len(sessions) or min(durations) <= 0:
        return None
    mean = statistics.fmean(durations)
    spread = statistics.pstdev(durations) / mean
    if spread >= UNIFORM_SPREAD:
        return None
    return (
        f"every one of {len(durations)} sessions failed or errored after nearly the same time "
        f"({mean / 1000:.1f} s, spread {spread:.0%})",
        [f"durations {min(durations) / 1000:.2f}-{max(durations) / 1000:.2f} s"],
    )


def detect_runtime_limitation(
    results: Sequence[EvalCaseResult],
    *,
    fallback_texts: Iterable[str] = KNOWN_FALLBACK_TEXTS,
    platform_answers: bool = True,
) -> Limitation | None:
    """The suspected limitation behind ``results``, or ``None`` when the score can be taken at face value.

    ``platform_answers`` says whether a platform can answer in the agent's place (a Copilot Studio
    agent, a platform's own run); ``False`` for an agent played on the local runtime, whose answers
    are its own (see the module docstring).
    """
    results = platform_observed(results)
    if not results:
        return None
    same = _same_answers(results, fallback_texts) if platform_answers else None
    found = [
        signal
        for signal in (_errors(results), same, _uniform(results, platform_answers=platform_answers))
        if signal is not None
    ]
    if not found:
        return None
    return Limitation(reasons=[reason for reason, _ in found], evidence=[e for _, cited in found for e in cited])


__all__ = [
    "KNOWN_FALLBACK_TEXTS",
    "Limitation",
    "agent_configuration_failed",
    "confirm_limitation",
    "detect_runtime_limitation",
    "grader_failed",
    "platform_observed",
    "stale_recording",
]
