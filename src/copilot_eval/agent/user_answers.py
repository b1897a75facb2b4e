"""Answers to questions put to the user: scripted rules matched by the question, or a function.

A test has nobody at the keyboard, so what the agent asks (``ask_user``) and what an MCP server
asks for (an elicitation: a form to fill in or a URL to open) is answered by the agent's policy:

- ``user_answers=None`` (the default): the agent is not offered ``ask_user``; elicitations are
  declined at once;
- a list of ``UserAnswer`` rules (or mappings ``{when: {...}, answer: ...}`` in an agent file):
  the first rule whose ``when`` matches answers; a request no rule matches is declined at once;
- a function ``fn(request: UserRequest)`` (sync or async) returning the answer (see ``as_reply``).

Giving ``user_answers`` (even an empty list) is what offers the agent the ``ask_user`` tool.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from copilot_eval.suggest import unknown_key

RequestKind = Literal["question", "form", "url"]
Action = Literal["accept", "decline", "cancel"]

DECLINED_ANSWER = "The user declined to answer this question."
"""What the agent is told when its question is declined: ``ask_user`` has no way to say "no
answer", so the runtime hands this text to the agent as the user's reply (as ``User responded:
...``). Elicitations are declined with the MCP ``decline`` action and sampling requests with the
runtime's own rejection, which tells the server ``The user cancelled the request.``"""

_WHEN_KEYS = ("question_contains", "question_matches", "kind", "asked_by")


@dataclass(frozen=True)
class UserRequest:
    """A request put to the user, as a policy sees it.

    ``kind`` is ``question`` (the agent's ``ask_user``), ``form`` or ``url`` (an MCP elicitation);
    ``message`` is the question or the elicitation's message; ``asked_by`` is ``"agent"`` or the
    MCP server's name.
    """

    kind: RequestKind
    message: str
    asked_by: str | None = None
    choices: tuple[str, ...] = ()
    allow_freeform: bool = True
    requested_schema: Mapping[str, Any] | None = None
    url: str | None = None


class UserAnswer(BaseModel):
    """One scripted answer: when a request matches, answer it this way.

    ``answer`` is the text for a question, the form values (a mapping) for a form, and nothing for
    a URL (accepting it is the answer). ``action`` is ``accept`` (the default), ``decline`` or
    ``cancel``. Matching: ``question_contains`` (case-insensitive), ``question_matches`` (a
    regular expression, ``re.search``), ``kind`` and ``asked_by``; all given must hold, none
    given matches every request.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Optional fields alike in shape only to runs/settings.py's; they mean different things.
    answer: Any = None
    action: Action = "accept"
    question_contains: str | None = None
    question_matches: str | None = None
    kind: RequestKind | None = None
    asked_by: str | None = None

    @field_validator("question_matches")
    @classmethod
    def _valid_pattern(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as error:
                raise ValueError(f"not a valid regular expression: {error}") from None
        return value

    @model_validator(mode="after")
    def _answer_fits(self) -> UserAnswer:
        if self.action != "accept" and self.answer is not None:
            raise ValueError(f"a rule that answers {self.action!r} gives no answer")
        if self.action == "accept" and self.answer is None and self.kind != "url":
            raise ValueError("give an answer (text for a question, a mapping for a form), or action: decline")
        if self.kind == "question" and self.answer is not None and not isinstance(self.answer, str):
            raise ValueError("the answer to a question is text")
        if self.kind == "form" and self.answer is not None and not isinstance(self.answer, Mapping):
            raise ValueError("the answer to a form is a mapping of field names to values")
        return self

    def matches(self, request: UserRequest) -> bool:
        """Whether this rule answers the request."""
        if self.kind is not None and self.kind != request.kind:
            return False
        if self.asked_by is not None and self.asked_by != request.asked_by:
            return False
        if self.question_contains is not None and self.question_contains.casefold() not in request.message.casefold():
            return False
        return self.question_matches is None or re.search(self.question_matches, request.message) is not None

    @classmethod
    def from_entry(cls, entry: Any) -> UserAnswer:
        """A rule from its written form ``{when: {question_contains: ...}, answer: ...}`` (or a UserAnswer)."""
        if isinstance(entry, UserAnswer):
            return entry
        if not isinstance(entry, Mapping):
            raise ValueError(f"expected a mapping with when and answer, got {entry!r:.60}")
        unknown = [key for key in entry if key not in ("when", "answer", "action")]
        if unknown:
            raise ValueError(
                f"{unknown_key(str(unknown[0]), ('when', 'answer', 'action'))} (expected when, answer, action)"
            )
        when = entry.get("when") or {}
        if not isinstance(when, Mapping):
            raise ValueError("when: expected a mapping")
        odd = [key for key in when if key not in _WHEN_KEYS]
        if odd:
            raise ValueError(
                f"when.{odd[0]}: {unknown_key(str(odd[0]), _WHEN_KEYS)} (expected one of {', '.join(_WHEN_KEYS)})"
            )
        try:
            return cls(**{k: v for k, v in entry.items() if k != "when"}, **when)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            message = str(first["msg"]).removeprefix("Value error, ")
            raise ValueError(f"{where}: {message}" if where else message) from None


@dataclass(frozen=True)
class Reply:
    """What a policy decided for one request: the action, the answer, and which rule or function."""

    action: Action
    answer: Any = None
    answered_by: str = ""
    problem: str | None = field(default=None)


def as_reply(value: Any, request: UserRequest, *, answered_by: str) -> Reply:
    """What a rule's answer or a function's return value means for this request.

    ``None`` declines; text answers a question; a mapping fills a form; ``True`` accepts a URL; a
    ``UserAnswer`` says its action and answer. Anything that does not fit the request declines it,
    with the reason kept as the problem.
    """
    if isinstance(value, UserAnswer):
        if value.action != "accept":
            return Reply(value.action, None, answered_by)
        value = True if value.answer is None and request.kind == "url" else value.answer
    if value is None:
        return Reply("decline", None, answered_by)
    if request.kind == "question" and isinstance(value, str):
        return Reply("accept", value, answered_by)
    if request.kind == "form" and isinstance(value, Mapping):
        return Reply("accept", dict(value), answered_by)
    if request.kind == "url" and value is True:
        return Reply("accept", None, answered_by)
    wanted = {"question": "text", "form": "a mapping of form values", "url": "True (accept) or None (decline)"}
    problem = f"{answered_by} gave {value!r:.60} to a {request.kind} request; expected {wanted[request.kind]}"
    return Reply("decline", None, answered_by, problem)


UserAnswerPolicy = tuple[UserAnswer, ...] | Callable[..., Any] | None


def scripted_reply(rules: tuple[UserAnswer, ...], request: UserRequest) -> Reply:
    """The first matching rule's reply, or a decline when no rule matches."""
    for index, rule in enumerate(rules):
        if rule.matches(request):
            return as_reply(rule, request, answered_by=f"user_answers[{index}]")
    return Reply("decline", None, "no matching answer: declined")


def parse_user_answers(value: Any) -> UserAnswerPolicy:
    """The ``user_answers`` field as rules, a function or ``None``; ValueError naming the entry."""
    if value is None or callable(value):
        return value
    if isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__"):
        raise ValueError("expected a list of answers ({when: ..., answer: ...}) or a function")
    rules = []
    for index, entry in enumerate(value):
        try:
            rules.append(UserAnswer.from_entry(entry))
        except ValueError as error:
            raise ValueError(f"[{index}]: {str(error).removeprefix('Value error, ')}") from None
    return tuple(rules)


__all__ = [
    "DECLINED_ANSWER",
    "Reply",
    "UserAnswer",
    "UserAnswerPolicy",
    "UserRequest",
    "as_reply",
    "parse_user_answers",
    "scripted_reply",
]
