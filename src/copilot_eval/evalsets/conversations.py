"""Conversations: the rows of a test set that are played together in one session.

Rows sharing a ``conversationNumber`` form one multi-turn conversation, asked in file order; rows
with different numbers are different conversations. ``EvalTestCase`` stays one row, so this
module only groups: it never changes a case.
"""

from __future__ import annotations

from dataclasses import dataclass

from copilot_eval.evalsets.model import EvalDataType, EvalTestCase, EvalTestSet


@dataclass(frozen=True)
class Conversation:
    """The cases of one conversation, in file order; a case's turn is its 1-based position here."""

    number: int
    cases: tuple[EvalTestCase, ...]

    def turn_of(self, case: EvalTestCase) -> int:
        """The 1-based turn at which ``case`` is asked (identity, not equality: rows may repeat)."""
        return next(index for index, item in enumerate(self.cases, start=1) if item is case)


def group_conversations(cases: list[EvalTestCase]) -> list[Conversation]:
    """Group ``cases`` by conversationNumber, conversations in order of first appearance."""
    groups: dict[int, list[EvalTestCase]] = {}
    for case in cases:
        groups.setdefault(case.conversation_number, []).append(case)
    return [Conversation(number, tuple(group)) for number, group in groups.items()]


def play_groups(test_set: EvalTestSet) -> list[Conversation]:
    """What is played in one session each: a conversation (Conversation sets) or a single case (SingleTurn)."""
    if test_set.data_type is EvalDataType.CONVERSATION:
        return group_conversations(test_set.cases)
    return [Conversation(case.conversation_number, (case,)) for case in test_set.cases]


def turn_numbers(cases: list[EvalTestCase]) -> list[int]:
    """For each case, in file order, its 1-based position among the rows sharing its conversationNumber."""
    seen: dict[int, int] = {}
    turns = []
    for case in cases:
        seen[case.conversation_number] = seen.get(case.conversation_number, 0) + 1
        turns.append(seen[case.conversation_number])
    return turns


def case_turns(test_set: EvalTestSet) -> dict[tuple[int, int], EvalTestCase]:
    """Every case of ``test_set`` by its identity (conversationNumber, turn), turn 1-based among rows sharing the number."""
    return {
        (group.number, turn): case
        for group in group_conversations(test_set.cases)
        for turn, case in enumerate(group.cases, start=1)
    }


__all__ = ["Conversation", "case_turns", "group_conversations", "play_groups", "turn_numbers"]
