"""Check a test set against one rule set of the importer and report every problem in one pass.

Every message names the limit and the rule set it comes from, so a user holding a file for the
older importer and one holding today's template each know which rule they broke.
"""

from __future__ import annotations

from collections import Counter

from copilot_eval.evalsets.conversations import group_conversations
from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evalsets.rule_sets import RuleSet, rule_set_named


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


def _set_problems(test_set: EvalTestSet, rules: RuleSet) -> list[str]:
    problems: list[str] = []
    cases, name = test_set.cases, test_set.name
    if not cases:
        problems.append(f"test set {name!r} has no cases; at least one is required")
    conversation = test_set.data_type is EvalDataType.CONVERSATION
    if conversation and rules.max_pairs_per_set is not None and len(cases) > rules.max_pairs_per_set:
        problems.append(
            f"test set {name!r} has {len(cases)} question-and-answer pairs; {rules.name} allows "
            f"at most {rules.max_pairs_per_set} in a Conversation set"
        )
    if conversation:
        groups = group_conversations(cases)
        if rules.max_conversations is not None and len(groups) > rules.max_conversations:
            problems.append(
                f"test set {name!r} has {len(groups)} conversations; {rules.name} allows at most "
                f"{rules.max_conversations}"
            )
        limit = rules.max_pairs_per_conversation
        for group in groups:
            if limit is not None and len(group.cases) > limit:
                problems.append(
                    f"conversation {group.number} has {len(group.cases)} question-and-answer pairs; "
                    f"{rules.name} allows at most {limit}"
                )
    elif rules.max_questions is not None and len(cases) > rules.max_questions:
        problems.append(
            f"test set {name!r} has {len(cases)} questions; {rules.name} allows at most "
            f"{rules.max_questions} in a single-response set"
        )
    return problems


def _case_problems(cases: list[EvalTestCase], rules: RuleSet) -> list[str]:
    problems: list[str] = []
    counts = Counter(case.conversation_number for case in cases)
    reported_duplicates: set[object] = set()
    for position, case in enumerate(cases, start=1):
        label = _label(position, case)
        number = case.conversation_number
        if not _is_positive_int(number):
            problems.append(f"{label}: conversationNumber must be a positive integer ({rules.name})")
        elif rules.unique_numbers and counts[number] > 1 and number not in reported_duplicates:
            reported_duplicates.add(number)
            positions = [str(i) for i, c in enumerate(cases, start=1) if c.conversation_number == number]
            problems.append(
                f"{label}: conversationNumber {number} is used by {counts[number]} cases "
                f"(cases {', '.join(positions)}); {rules.name} requires unique numbers"
            )
        # The importer trims before testing emptiness, so whitespace-only counts as blank.
        if not case.question.strip():
            problems.append(f"{label}: question is blank; {rules.name} requires one")
        elif rules.max_question_length is not None and reference_length(case.question) > rules.max_question_length:
            problems.append(
                f"{label}: question is {reference_length(case.question)} characters; "
                f"{rules.name} allows at most {rules.max_question_length}"
            )
        if rules.reference_required and not case.response.strip():
            problems.append(f"{label}: response (the reference answer) is blank; {rules.name} requires one")
        length = reference_length(case.response)
        if length > rules.max_reference_length:
            problems.append(
                f"{label}: response (the reference answer) is {length} characters; "
                f"{rules.name} allows at most {rules.max_reference_length}"
            )
    return problems


def validate_eval_test_set(test_set: EvalTestSet, profile: str | RuleSet | None = None) -> list[str]:
    """Return every reason the importer would refuse ``test_set``; an empty list means it imports.

    ``profile`` names the rule set: ``"copilot-studio"`` (today's templates, the default) or
    ``"seed"`` (the earlier importer: unique numbers, at most six pairs, a reference required). A set
    read from a prompt file is held to that file's rules instead, checked when it was read.
    """
    rules = rule_set_named(profile)
    if test_set.prompt_file is not None:
        # A prompt file's rows are checked by its own rules as it is read (prompt_checks); it is not imported
        # into Copilot Studio, so the importer's limits (100 questions, 500 characters ...) do not apply.
        return [] if test_set.cases else [f"test set {test_set.name!r} has no cases; at least one is required"]
    return _set_problems(test_set, rules) + _case_problems(test_set.cases, rules)


__all__ = ["reference_length", "validate_eval_test_set"]
