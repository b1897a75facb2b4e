"""The test methods Copilot Studio names, as data: what a row's method column may say, and what it takes.

A file names a method the way the platform does (``CompareMeaning``, ``GeneralQuality``), the
way its UI writes it (``Compare meaning``) or the way its evaluation API does (``AnyKeywordMatch``);
all mean one canonical name here. Which grader plays a method is the grading layer's business
(``grading.row_methods``); this module only knows the names, so a reader can refuse an unknown
one with the known ones listed, without loading any grader.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class TestMethod:
    """A test method: its canonical name, whether it compares with the reference, and its pass mark's range."""

    __test__ = False  # not a pytest test class

    name: str
    needs_reference: bool
    # The pass mark a row may give (Passing Score): None when the method takes none.
    pass_mark: tuple[float, float] | None = None
    judge: bool = False  # an LLM judge plays it (needs --judge)


GENERAL_QUALITY = TestMethod("GeneralQuality", needs_reference=False, judge=True)
COMPARE_MEANING = TestMethod("CompareMeaning", needs_reference=True, pass_mark=(0, 100), judge=True)
# Text similarity's threshold is a cosine similarity 0-1 on the platform; 0-100 is read as a percent.
TEXT_SIMILARITY = TestMethod("TextSimilarity", needs_reference=True, pass_mark=(0, 100))
EXACT_MATCH = TestMethod("ExactMatch", needs_reference=True)
# The keywords (and the capabilities) are the row's Expected response, comma-separated.
KEYWORD_MATCH = TestMethod("KeywordMatch", needs_reference=True)
ALL_KEYWORD_MATCH = TestMethod("AllKeywordMatch", needs_reference=True)
CAPABILITY_USE = TestMethod("CapabilityUse", needs_reference=True)

TEST_METHODS: dict[str, TestMethod] = {
    method.name: method
    for method in (
        GENERAL_QUALITY,
        COMPARE_MEANING,
        TEXT_SIMILARITY,
        EXACT_MATCH,
        KEYWORD_MATCH,
        ALL_KEYWORD_MATCH,
        CAPABILITY_USE,
    )
}

# Other spellings of the same methods: the API's enumeration and the UI's labels.
_ALIASES = {
    "anykeywordmatch": "KeywordMatch",
    "keywordmatchany": "KeywordMatch",
    "keywordmatchall": "AllKeywordMatch",
    "similarity": "TextSimilarity",
    "capability": "CapabilityUse",
    "quality": "GeneralQuality",
}
_FOLD = re.compile(r"[\s_\-()]+")


def _folded(text: str) -> str:
    return _FOLD.sub("", text).casefold()


_BY_FOLDED = {_folded(name): name for name in TEST_METHODS} | _ALIASES


def test_method(text: str | None) -> TestMethod | None:
    """The method ``text`` names (case, spaces and underscores ignored), or ``None`` when it names none."""
    if text is None or not text.strip():
        return None
    name = _BY_FOLDED.get(_folded(text))
    return TEST_METHODS[name] if name else None


vars(test_method)["__test__"] = False  # not a pytest test: pytest reads this flag, which a def cannot declare


def known_methods() -> str:
    """The known method names, for messages."""
    return ", ".join(TEST_METHODS)


__all__ = [
    "ALL_KEYWORD_MATCH",
    "CAPABILITY_USE",
    "COMPARE_MEANING",
    "EXACT_MATCH",
    "GENERAL_QUALITY",
    "KEYWORD_MATCH",
    "TEST_METHODS",
    "TEXT_SIMILARITY",
    "TestMethod",
    "known_methods",
    "test_method",
]
