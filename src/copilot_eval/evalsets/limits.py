"""Platform numbers observed on the Copilot Studio test-set importer, kept in one place.

The importer belongs to a preview product and its limits have moved between releases, so every
number the evalsets layer enforces lives here and nowhere else: when the product changes, this is
the only file to edit.
"""

from __future__ import annotations

from typing import Final

#: Header of the conversation template, in the only order the positional importer accepts.
EVAL_CSV_COLUMNS: Final[tuple[str, str, str]] = ("conversationNumber", "question", "response")

#: A Conversation test set holds at most this many question/response pairs.
EVAL_MAX_CONVERSATION_PAIRS: Final[int] = 6

#: The reference response (the ``response`` column) holds at most this many characters.
EVAL_REFERENCE_MAX_LENGTH: Final[int] = 1000

#: An import file larger than this many bytes is refused (5 MB, read as 5 * 1024 * 1024).
EVAL_IMPORT_MAX_BYTES: Final[int] = 5 * 1024 * 1024

__all__ = [
    "EVAL_CSV_COLUMNS",
    "EVAL_IMPORT_MAX_BYTES",
    "EVAL_MAX_CONVERSATION_PAIRS",
    "EVAL_REFERENCE_MAX_LENGTH",
]
