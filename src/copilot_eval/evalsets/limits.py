"""Platform numbers observed on the Copilot Studio test-set importer, kept in one place.

The importer belongs to a preview product and its limits have moved between releases, so every
number the evalsets layer enforces lives here and nowhere else: when the product changes, this is
the only file to edit. Two generations are kept side by side (see ``rule_sets``): the ``EVAL_*``
names are the seed's importer, the ``COPILOT_STUDIO_*`` names today's downloadable templates.
"""

from __future__ import annotations

from typing import Final

#: Header of the conversation template, in the only order the positional importer accepts.
EVAL_CSV_COLUMNS: Final[tuple[str, str, str]] = ("conversationNumber", "question", "response")

#: Seed importer: a Conversation test set holds at most this many question/response pairs.
EVAL_MAX_CONVERSATION_PAIRS: Final[int] = 6

#: Seed importer (and today's): the reference response holds at most this many characters.
EVAL_REFERENCE_MAX_LENGTH: Final[int] = 1000

#: An import file larger than this many bytes is refused (5 MB, read as 5 * 1024 * 1024).
EVAL_IMPORT_MAX_BYTES: Final[int] = 5 * 1024 * 1024

#: Today's conversation template: one conversation (rows sharing a number) holds at most this many pairs.
COPILOT_STUDIO_MAX_CONVERSATION_PAIRS: Final[int] = 8

#: Today's conversation template: a file holds at most this many conversations (one copy says 100).
COPILOT_STUDIO_MAX_CONVERSATIONS: Final[int] = 50

#: Today's single-response template: a file holds at most this many questions.
COPILOT_STUDIO_MAX_QUESTIONS: Final[int] = 100

#: Today's templates: a question holds at most this many characters, spaces included.
COPILOT_STUDIO_QUESTION_MAX_LENGTH: Final[int] = 500

#: The results export of the Evaluate tab: these columns, then one group per test method ``i``.
RESULTS_BASE_COLUMNS: Final[tuple[str, ...]] = ("question", "expectedResponse", "actualResponse")
#: One test method's columns in a results export, each suffixed ``_i`` (1-based).
RESULTS_GRADER_COLUMNS: Final[tuple[str, ...]] = ("testMethodType", "result", "passingScore", "explanation")

__all__ = [
    "COPILOT_STUDIO_MAX_CONVERSATIONS",
    "COPILOT_STUDIO_MAX_CONVERSATION_PAIRS",
    "COPILOT_STUDIO_MAX_QUESTIONS",
    "COPILOT_STUDIO_QUESTION_MAX_LENGTH",
    "EVAL_CSV_COLUMNS",
    "EVAL_IMPORT_MAX_BYTES",
    "EVAL_MAX_CONVERSATION_PAIRS",
    "EVAL_REFERENCE_MAX_LENGTH",
    "RESULTS_BASE_COLUMNS",
    "RESULTS_GRADER_COLUMNS",
]
