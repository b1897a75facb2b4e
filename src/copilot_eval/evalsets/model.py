"""The test-set model: a named list of question/reference pairs in the Copilot Studio shape.

The model deliberately holds data the importer would refuse (a blank question, a duplicate or
negative ``conversation_number``, an over-long reference): refusing it here would make
:func:`~copilot_eval.evalsets.validation.validate_eval_test_set` unable to report it, and a user
with a broken file wants the whole list of problems, not the first exception.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import Field

from copilot_eval.evalsets.confidence import CamelModel, ConfidenceMixin
from copilot_eval.evalsets.prompt_model import PromptFileRecord, PromptRow
from copilot_eval.evalsets.workspace_model import CaseWorkspace


class EvalDataType(StrEnum):
    """Whether the cases of a set form one multi-turn conversation or stand alone."""

    CONVERSATION = "Conversation"
    SINGLE_TURN = "SingleTurn"


class EvalTestCase(CamelModel):
    """One question with its reference answer.

    Trap: ``response`` is the *expected* (reference) answer, named after the CSV column. The
    answer the agent actually produced is ``EvalCaseResult.actual_response``.
    """

    conversation_number: int = Field(
        description="Positive integer naming the conversation; rows sharing it form one multi-turn "
        "conversation, played in file order (the seed's importer wanted it unique)."
    )
    question: str
    # Optional fields, each with its own description: alike in shape, each a different column's fact.
    response: str = Field(
        default="",
        description="The expected (reference) response, NOT the agent's answer (see actualResponse); "
        "empty when the case has none (optional in today's templates).",
    )
    testing_method: str | None = Field(
        default=None,
        description="The test method the row names (the legacy template's Testing method, the per-row "
        "dialect's Test Method Type), when the file had one: that case's grader.",
    )
    passing_score: float | None = Field(
        default=None,
        description="The row's own pass mark for its test method (the per-row dialect's Passing Score), "
        "when the file gave one.",
    )
    case_key: str | None = Field(
        default=None,
        description="A stable name of the case that survives reordering: a prompt file row's 'name', else its "
        "1-based position; absent for Copilot Studio rows, which are named by conversationNumber and turn.",
    )
    prompt: PromptRow | None = Field(
        default=None, description="The prompt-file row this case was made from, with its filled-in messages."
    )
    workspace: CaseWorkspace | None = Field(
        default=None,
        description="The fixture this case is played on, copied fresh into each play's working directory "
        "(see docs/workspace.md); absent: the run's --workspace, or none.",
    )


class EvalTestSet(ConfidenceMixin):
    """A named evaluation test set: its data type and its cases, in file order."""

    name: str
    data_type: EvalDataType = EvalDataType.CONVERSATION
    cases: list[EvalTestCase] = Field(default_factory=list)
    preamble: list[str] | None = Field(
        default=None,
        description="Comment lines (each starting with '#') that came before the CSV header, kept so "
        "a round trip can write them back.",
    )
    prompt_file: PromptFileRecord | None = Field(
        default=None,
        description="Set when the set was read from a prompt file (*.prompt.yml): its settings and evaluators.",
    )


def single_turn_set(name: str, questions: Iterable[tuple[int, str]]) -> EvalTestSet:
    """A set of one single-turn case per ``(number, question)``: what a suite of plain prompts records as its set."""
    cases = [EvalTestCase(conversation_number=number, question=question) for number, question in questions]
    return EvalTestSet(name=name, data_type=EvalDataType.SINGLE_TURN, cases=cases)


__all__ = ["EvalDataType", "EvalTestCase", "EvalTestSet", "single_turn_set"]
