"""What a prompt file (``*.prompt.yml``) adds to the test-set and run model, as plain data.

A prompt file's rows become ordinary cases (``EvalTestCase``) so that every part of a run (shards,
repeats, resume, record and replay, reports, compare, the history) treats them as it treats a
Copilot Studio set. What only a prompt file has travels with them: on each case its row and the
messages filled in for it (``PromptRow``), on the set the file's own settings and evaluators
(``PromptFileRecord``), and on each grade gh-models' own verdict (``GhModelsVerdict``) beside ours.
"""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field

from copilot_eval.evalsets.confidence import CamelModel

ROLES = ("system", "user", "assistant")


class PromptMessage(CamelModel):
    """One message of a prompt file, as written (``content`` with its placeholders) or filled in for a row."""

    role: str = Field(description="system, user or assistant (lower case).")
    content: str


class PromptRow(CamelModel):
    """A ``testData`` row played as a case: every key of the row, and the messages filled in for it."""

    variables: dict[str, Any] = Field(
        default_factory=dict,
        description="The row as read, every key kept (or the --var values of a file without testData); "
        "placeholders and evaluators read them.",
    )
    instructions: str | None = Field(
        default=None, description="The system message(s) filled in: the session's instructions; absent when empty."
    )
    history: list[PromptMessage] = Field(
        default_factory=list,
        description="The user and assistant messages before the last user message (the question), filled in.",
    )
    answer_format: str | None = Field(
        default=None,
        description="What the session is told about the answer's format (responseFormat json_object or json_schema), "
        "which the runtime cannot enforce as the API does.",
    )


class PromptFileRecord(CamelModel):
    """The parts of a prompt file that belong to the whole set: its settings and its evaluators, as written."""

    model_config = ConfigDict(protected_namespaces=())

    source: str | None = Field(default=None, description="The prompt file's name.")
    name: str = ""
    description: str = ""
    model: str = Field(default="", description="The model the file names, as written (e.g. openai/gpt-4o).")
    model_parameters: dict[str, Any] = Field(
        default_factory=dict, description="modelParameters as written (maxTokens, temperature, topP)."
    )
    response_format: str | None = Field(default=None, description="text, json_object or json_schema.")
    json_schema: dict[str, Any] | None = Field(
        default=None, description="The parsed jsonSchema: its name, its schema and, when given, strict."
    )
    messages: list[PromptMessage] = Field(default_factory=list, description="The messages as written.")
    evaluators: list[dict[str, Any]] = Field(
        default_factory=list, description="The evaluators as written (name and one of string, llm, uses)."
    )


class GhModelsVerdict(CamelModel):
    """What ``gh models eval`` would have recorded for one evaluator on this answer: its score and ``passed``.

    gh-models passes an evaluator whenever its score is above 0 (a two-star answer of five passes)
    and matches a judge's answer to the first choice it contains; ours is the grade's own status.
    """

    score: float
    passed: bool
    details: str | None = None


__all__ = ["ROLES", "GhModelsVerdict", "PromptFileRecord", "PromptMessage", "PromptRow"]
