"""Built-in scanners of what the agent answered: platform errors, refusals, empty or cut-off answers, claimed actions.

Each reads only events the agent authored (``Event.authored``): its answers and, for a claimed
action, the calls it made. Each docstring says what it matches and what it cannot see.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from copilot_eval.evidence.platform_error import platform_error_code
from copilot_eval.scans.protocol import Hit
from copilot_eval.scans.transcript import CaseTranscript

_HEAD = 200  # an error read as an answer shows itself at the start; deep in an answer it is discussion

_ERROR_HEAD = re.compile(
    r"^\W{0,3}(?:"
    r"(?:HTTP(?:/\d(?:\.\d)?)?|status(?: code)?|error)[\s:=]*[45]\d\d\b"
    r"|[45]\d\d\s+(?:Too Many Requests|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout"
    r"|Unauthorized|Forbidden|Not Found|Bad Request)"
    r"|(?:\w+)?(?:Error|Exception)\s*:"
    r"|request failed\b|failed to get response\b|rate limit(?:ed)?\b|too many requests\b|quota exceeded\b"
    r"|(?:ECONNREFUSED|ETIMEDOUT|ECONNRESET|ENOTFOUND)\b"
    r")",
    re.IGNORECASE,
)
_STACK_PY = re.compile(r"Traceback \(most recent call last\):")
_STACK_FRAMES = re.compile(r"(?:^\s+at [\w.<>$]+ \(.*:\d+(?::\d+)?\)\s*$|^\s+File \".*\", line \d+)", re.MULTILINE)


def _straight(text: str) -> str:
    """``text`` with typographic apostrophes made straight (same length: positions still point into the original)."""
    return text.replace("\u2019", "'")


class PlatformErrorAnswer:
    """An error of the platform or the runtime read as the agent's answer.

    Matches an answer that starts with an error's shape (``HTTP 503``, ``429 Too Many Requests``,
    ``SomeError:``, ``Request failed``, ``rate limit``, ``ECONNRESET``), carries a Copilot Studio
    error code (``Error code: SystemError``), or holds a Python or JavaScript stack trace (two
    frames or more). Cannot see: an error sentence later in an otherwise real answer (read as the
    agent discussing an error), an error worded in a language other than English, or a platform
    failure that left no text at all (the empty-answer scanner and the runtime limitation see that).
    """

    name = "platform_error"
    description = "platform or runtime error text read as the answer"
    deterministic = True

    def scan(self, case: CaseTranscript) -> Iterator[Hit]:
        """Each answer that is an error text rather than an answer."""
        for event in case.authored():
            if event.kind != "answer":
                continue
            text = event.text
            code = platform_error_code(text)
            head = _ERROR_HEAD.search(text.strip()[:_HEAD])
            stack = _STACK_PY.search(text) or (
                len(_STACK_FRAMES.findall(text)) >= 2 and next(_STACK_FRAMES.finditer(text))
            )
            if code is not None:
                yield Hit.at(event, f"the answer carries the platform error code {code}", severity="error")
            elif stack:
                yield Hit.at(event, "the answer holds a stack trace", start=stack.start(), severity="error")
            elif head is not None:
                offset = len(text) - len(text.lstrip())
                yield Hit.at(
                    event, "the answer is an error message", start=offset, end=offset + head.end(), severity="error"
                )


_REFUSAL = re.compile(
    r"(?:^|[.!?\n]\s*)(?:(?:I'm |I am )?sorry,?\s*(?:but\s+)?)?"
    r"(I\s+(?:can(?:no|')t|cannot|am unable to|'m unable to|am not able to|'m not able to"
    r"|won't be able to|will not be able to|do not have (?:access|the ability|permission)"
    r"|don't have (?:access|the ability|permission)|give up|must decline)"
    r"|(?:unfortunately,?\s+)?(?:this|that) (?:is|was) (?:not possible|beyond (?:my|what I)))",
    re.IGNORECASE,
)
_NOT_A_REFUSAL = re.compile(
    r"^I\s+(?:can(?:no|')t|cannot)\s+(?:wait|stress|recommend|thank|believe|emphasi[sz]e)", re.I
)
_ASKS_INSTEAD = re.compile(
    r"(?:could you (?:please )?(?:provide|clarify|confirm|tell me|share|specify)|please (?:provide|clarify|confirm|specify)"
    r"|can you (?:please )?(?:provide|clarify|confirm|share|specify)|which (?:one|file|option) (?:do|would) you)[^?]*\?\s*$",
    re.IGNORECASE,
)


class Refusal:
    """A refusal or a give-up: the agent says it cannot or will not do the task, or asks instead of doing it.

    Matches, at the start of a sentence of an answer, "I can't", "I cannot", "I'm unable to",
    "I'm not able to", "I don't have access", "I give up", "Sorry, but I cannot" and "this is not
    possible", but not "I can't wait/stress/recommend..."; an answer that ends by asking the user
    to provide, clarify, confirm or specify when the agent made no call in the turn; and a question
    put to the user through the runtime's ``ask_user`` tool. Cannot see: whether the test expected a
    refusal (a safety case that should refuse is flagged too: the verdict, not the finding, says
    whether that was right), a refusal in a language other than English, or one worded politely
    around the task ("Here is what I would do...").
    """

    name = "refusal"
    description = "the agent refused, gave up or asked instead of doing the task"
    deterministic = True

    def scan(self, case: CaseTranscript) -> Iterator[Hit]:
        """Each refusing answer and each question put to the user."""
        authored = case.authored()
        called = any(e.kind == "call" and e.tool != "ask_user" for e in authored)
        for event in authored:
            if event.kind == "call" and event.tool == "ask_user":
                yield Hit.at(
                    event, "the agent asked the user a question instead of finishing the task", severity="info"
                )
            if event.kind != "answer":
                continue
            text = _straight(event.text)
            for match in _REFUSAL.finditer(text):
                if not _NOT_A_REFUSAL.match(text[match.start(1) :]):
                    yield Hit.at(event, "the answer refuses or gives up", start=match.start(1), end=match.end(1))
                    break
            else:
                asked = _ASKS_INSTEAD.search(_straight(event.text).strip())
                if asked and not called:
                    yield Hit.at(event, "the answer asks the user instead of doing the task", start=asked.start())


_CUT_END = re.compile(r"(?:[,:;(\[{/-]|\b(?:and|or|the|a|an|to|of|with|for|in|is|but|because))\s*$", re.IGNORECASE)


class EmptyAnswer:
    """A final answer that is empty, or cut off part way.

    Matches a case whose turn has no answer with text, and an answer that stops mid-sentence: an
    unclosed code fence (an odd number of ```), or a last word that cannot end a sentence (``and``,
    ``the``, ``to``, a trailing comma, colon or opening bracket). Cannot see: an answer cut at a
    sentence's end, an answer the platform shortened before it was recorded, an empty answer
    that was expected, or a case whose answer was never recorded (a platform's run without its text); a case whose session failed is flagged too (its verdict is already an error). A play set to stop at a
    choice (``stop_at_tools``, as trigger plays are) that ended at that call is not flagged.
    """

    name = "empty_answer"
    description = "the final answer is empty or cut off"
    deterministic = True

    def scan(self, case: CaseTranscript) -> Iterator[Hit]:
        """The case's answer when it is missing or stops mid-sentence."""
        answer = case.answer
        if answer is None and not case.answers_known:
            return  # nothing was recorded of the answer: unknown, not empty
        if answer is None and case.stopped_at_choice:
            return  # a trigger play ends at its choice by design: no answer was to come
        if answer is None:
            ended = f" (the session ended: {case.stop_reason})" if case.stop_reason else ""
            yield Hit(f"the agent gave no final answer{ended}", "", None, severity="error")
            return
        text = answer.text.rstrip()
        if text.count("```") % 2 == 1:
            yield Hit.at(answer, "the answer stops inside a code block", start=max(0, len(text) - 80), severity="error")
        elif _CUT_END.search(text):
            yield Hit.at(answer, "the answer stops mid-sentence", start=max(0, len(text) - 80), severity="error")


# A first-person claim of a finished action, and the tools that could have done it.
_CLAIMS: tuple[tuple[str, str], ...] = (
    (
        r"sav(?:ed)|wr(?:itten|ote)|creat(?:ed)|updat(?:ed)|modifi(?:ed)|edit(?:ed)|chang(?:ed)|add(?:ed)|fix(?:ed)|appended",
        r"write|edit|creat|save|update|str_replace|patch|insert|append|bash|shell|powershell|file",
    ),
    (
        r"sent|emailed|mailed|posted|messaged|notified|forwarded|replied",
        r"send|mail|post|message|notify|forward|reply|slack|teams|chat",
    ),
    (r"delet(?:ed)|remov(?:ed)|eras(?:ed)", r"delete|remove|rm|erase|bash|shell|powershell|edit|write"),
    (
        r"book(?:ed)|schedul(?:ed)|reserv(?:ed)|cancel(?:l)?ed|ordered|paid|transferred|refunded",
        r"book|schedul|reserv|cancel|order|pay|transfer|refund|calendar|event",
    ),
    (
        r"r[au]n|execut(?:ed)|deploy(?:ed)|install(?:ed)|commit(?:ted)|push(?:ed)|upload(?:ed)",
        r"run|exec|deploy|install|commit|push|upload|bash|shell|powershell|git",
    ),
)
_CLAIM = re.compile(
    r"\b(?:I(?:'ve| have)?|I just|I've now|I have now|I have successfully|I successfully)\s+(?:now\s+|successfully\s+|just\s+|also\s+)?("
    + "|".join(verbs for verbs, _ in _CLAIMS)
    + r")\b(?!\s+(?:into|across|out of)\b)",
    re.IGNORECASE,
)


class ClaimedAction:
    """An answer that claims an action no tool call performed ("I have saved the file" with no write).

    Matches a first-person past claim ("I saved", "I've sent", "I have deleted", "I booked", "I ran")
    when no call of the case's turn, or before it, has a name that could do it (a write, edit,
    send, delete, booking or shell tool) and did not fail. Cannot see: an action claimed in the
    passive ("the file has been saved"), an action a tool did that is not named like one, or
    whether the call that was made actually did what the answer says (only that one was made).
    """

    name = "claimed_action"
    description = "the answer claims an action that no tool call performed"
    deterministic = True

    def scan(self, case: CaseTranscript) -> Iterator[Hit]:
        """Each claim in an answer with no call that could have done it."""
        calls = [e for e in case.events if e.kind == "call" and (case.turn is None or (e.turn or 0) <= case.turn)]
        done = [e.tool or "" for e in calls if e.succeeded is not False]
        for event in case.authored():
            if event.kind != "answer":
                continue
            for match in _CLAIM.finditer(_straight(event.text)):
                verb = match.group(1).lower()
                tools = next(t for v, t in _CLAIMS if re.fullmatch(v, verb, re.IGNORECASE))
                if not any(re.search(tools, name, re.IGNORECASE) for name in done):
                    yield Hit.at(
                        event,
                        f"the answer says the agent {verb} something, and no call that could have done it succeeded",
                        start=match.start(),
                        end=match.end(),
                    )
                    break


__all__ = ["ClaimedAction", "EmptyAnswer", "PlatformErrorAnswer", "Refusal"]
