"""The importer's rules as data: the seed's importer and today's templates, each chosen by name.

Both are real. ``seed`` is what the importer enforced when the seed's Raybot set met it (unique
conversation numbers, at most six pairs in a Conversation set, a non-blank reference).
``copilot-studio`` is what the templates users download today print in their own comment block
(rows sharing a number form one conversation of at most eight pairs, references optional).

The default, for files and for sets alike, is ``copilot-studio``: it is what a user holding a
file from Copilot Studio today has. ``seed`` applies only when asked for by name.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.evalsets.limits import (
    COPILOT_STUDIO_MAX_CONVERSATION_PAIRS,
    COPILOT_STUDIO_MAX_CONVERSATIONS,
    COPILOT_STUDIO_MAX_QUESTIONS,
    COPILOT_STUDIO_QUESTION_MAX_LENGTH,
    EVAL_IMPORT_MAX_BYTES,
    EVAL_MAX_CONVERSATION_PAIRS,
    EVAL_REFERENCE_MAX_LENGTH,
)


@dataclass(frozen=True, slots=True)
class RuleSet:
    """One generation of importer rules; ``None`` means the rule set states no such limit."""

    name: str
    #: Pairs in a whole Conversation set (the seed reads the set as one conversation).
    max_pairs_per_set: int | None
    #: Pairs in one conversation (rows sharing a conversationNumber).
    max_pairs_per_conversation: int | None
    #: Conversations in a Conversation set.
    max_conversations: int | None
    #: Questions in a SingleTurn set.
    max_questions: int | None
    max_question_length: int | None
    max_reference_length: int
    max_file_bytes: int
    unique_numbers: bool
    reference_required: bool


SEED = RuleSet(
    name="seed",
    max_pairs_per_set=EVAL_MAX_CONVERSATION_PAIRS,
    max_pairs_per_conversation=None,
    max_conversations=None,
    max_questions=None,  # never exercised past six cases, so no cap is asserted
    max_question_length=None,
    max_reference_length=EVAL_REFERENCE_MAX_LENGTH,
    max_file_bytes=EVAL_IMPORT_MAX_BYTES,
    unique_numbers=True,
    reference_required=True,
)

COPILOT_STUDIO = RuleSet(
    name="copilot-studio",
    max_pairs_per_set=None,
    max_pairs_per_conversation=COPILOT_STUDIO_MAX_CONVERSATION_PAIRS,
    max_conversations=COPILOT_STUDIO_MAX_CONVERSATIONS,
    max_questions=COPILOT_STUDIO_MAX_QUESTIONS,
    max_question_length=COPILOT_STUDIO_QUESTION_MAX_LENGTH,
    max_reference_length=EVAL_REFERENCE_MAX_LENGTH,
    max_file_bytes=EVAL_IMPORT_MAX_BYTES,
    unique_numbers=False,
    reference_required=False,
)

RULE_SETS: dict[str, RuleSet] = {rules.name: rules for rules in (SEED, COPILOT_STUDIO)}

#: The rule set used when none is named (see the module docstring for why).
DEFAULT_RULE_SET = COPILOT_STUDIO.name


def rule_set_named(name: str | RuleSet | None) -> RuleSet:
    """Return the rule set called ``name`` (``None`` is the default); ValueError lists the known names."""
    if isinstance(name, RuleSet):
        return name
    try:
        return RULE_SETS[name or DEFAULT_RULE_SET]
    except KeyError:
        raise ValueError(f"unknown rule set {name!r}; known rule sets: {', '.join(RULE_SETS)}") from None


__all__ = ["COPILOT_STUDIO", "DEFAULT_RULE_SET", "RULE_SETS", "SEED", "RuleSet", "rule_set_named"]
