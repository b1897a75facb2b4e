"""Check a test set against the importer's rules and report every problem in one pass."""

from __future__ import annotations

from collections import Counter

from copilot_eval.evalsets.limits import EVAL_MAX_CONVERSATION_PAIRS, EVAL_REFERENCE_MAX_LENGTH
from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet


def _label(position: int, case: EvalTestCase) -> str:
    # Name the case both ways: position finds it in the file, the number finds it on the platform.
    return f"case {position} (conversationNumber {case.conversation_number!r})"


def _is_positive_int(value: object) -> bool:
    # bool is an int subclass; True must not pass for conversation 1.
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def reference_length(text: str) -> int:
    """Length of ``text`` as the importer counts it: UTF-16 code units, like JavaScript."""
    # An emoji is one Python character but two units on the platform; counting code points
    # would let a reference of 1000 emoji pass here and fail on import.
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


def validate_eval_test_set(test_set: EvalTestSet) -> list[str]:
    """Return every reason the importer would refuse ``test_set``; an empty list means it imports."""
    problems: list[str] = []
    cases = test_set.cases
    if not cases:
        problems.append(f"test set {test_set.name!r} has no cases; at least one is required")
    if test_set.data_type is EvalDataType.CONVERSATION and len(cases) > EVAL_MAX_CONVERSATION_PAIRS:
        problems.append(
            f"test set {test_set.name!r} has {len(cases)} pairs; a Conversation set holds at "
            f"most {EVAL_MAX_CONVERSATION_PAIRS}"
        )
    counts = Counter(case.conversation_number for case in cases)
    reported_duplicates: set[object] = set()
    for position, case in enumerate(cases, start=1):
        label = _label(position, case)
        number = case.conversation_number
        if not _is_positive_int(number):
            problems.append(f"{label}: conversationNumber must be a positive integer")
        elif counts[number] > 1 and number not in reported_duplicates:
            reported_duplicates.add(number)
            positions = [str(i) for i, c in enumerate(cases, start=1) if c.conversation_number == number]
            problems.append(
                f"{label}: conversationNumber {number} is used by {counts[number]} cases "
                f"(cases {', '.join(positions)}); numbers must be unique"
            )
        # The importer trims before testing emptiness, so whitespace-only counts as blank.
        if not case.question.strip():
            problems.append(f"{label}: question is blank")
        if not case.response.strip():
            problems.append(f"{label}: response (the reference answer) is blank")
        length = reference_length(case.response)
        if length > EVAL_REFERENCE_MAX_LENGTH:
            problems.append(
                f"{label}: response (the reference answer) is {length} characters; "
                f"the limit is {EVAL_REFERENCE_MAX_LENGTH}"
            )
    return problems


__all__ = ["reference_length", "validate_eval_test_set"]
