"""Placeholders of prompt files: ``{{name}}`` filled by plain replacement, values written as Go writes them.

gh-models replaces every ``{{key}}`` of a row's keys with the key's value; a value that is not
text is written with Go's ``%v`` (``1e+06`` for a million as a float, ``true``, ``[a b]``), and a
placeholder no key names stays as it was. Two choices here differ on purpose, both documented in
docs/prompt-files.md: the replacement is one pass over the template (gh-models replaces key by key
in Go's random map order, so a value that itself holds ``{{other}}`` may or may not be filled
again), and a placeholder nothing fills is reported by the checks instead of reaching the model.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any

#: A placeholder as people write it: ``{{name}}``; the checks also catch ``{{ name }}``, which gh-models never fills.
PLACEHOLDER = re.compile(r"\{\{([^{}\n]+)\}\}")


def _go_exponent(exponent: int) -> str:
    return f"e{'-' if exponent < 0 else '+'}{abs(exponent):02d}"


def go_float(value: float) -> str:
    """A float as Go's ``%v`` writes it: shortest digits, in exponent form below 1e-4 and from 1e6 up (``1e+06``)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if value == 0:
        return "-0" if math.copysign(1.0, value) < 0 else "0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    text = "".join(str(d) for d in digits)
    assert isinstance(exponent, int)
    point = len(text) + exponent  # where the decimal point falls in the digit string
    minus = "-" if sign else ""
    if point - 1 < -4 or point - 1 >= 6:  # Go's rule for the shortest form: exponent below -4 or at least 6
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{minus}{mantissa}{_go_exponent(point - 1)}"
    if point <= 0:
        return f"{minus}0.{'0' * -point}{text}"
    if point >= len(text):
        return f"{minus}{text}{'0' * (point - len(text))}"
    return f"{minus}{text[:point]}.{text[point:]}"


def go_text(value: Any) -> str:
    """``value`` written as gh-models writes a non-text value into a placeholder (Go's ``%v``)."""
    if isinstance(value, str):
        return value
    if value is None:
        return "<nil>"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return go_float(value)
    if isinstance(value, list):
        return "[" + " ".join(go_text(item) for item in value) + "]"
    if isinstance(value, Mapping):
        return "map[" + " ".join(f"{go_text(k)}:{go_text(value[k])}" for k in sorted(value, key=str)) + "]"
    return str(value)


@lru_cache(maxsize=64)
def _pattern(keys: tuple[str, ...]) -> re.Pattern[str]:
    # Longest first, so that a key never wins over a longer key it is the start of.
    alternatives = "|".join(re.escape(key) for key in sorted(keys, key=len, reverse=True))
    return re.compile(r"\{\{(" + alternatives + r")\}\}")


def fill(template: str, variables: Mapping[str, Any]) -> str:
    """``template`` with each ``{{key}}`` of ``variables`` replaced by its value, in one pass; others left as written."""
    if not variables or "{{" not in template:
        return template
    pattern = _pattern(tuple(variables))
    return pattern.sub(lambda match: go_text(variables[match.group(1)]), template)


def placeholders(template: str) -> list[str]:
    """The names of the placeholders in ``template``, in order of first appearance (spaces kept as written)."""
    return list(dict.fromkeys(match.group(1) for match in PLACEHOLDER.finditer(template)))


def _go_space(char: str) -> bool:
    # Go's unicode.IsSpace: the ASCII spaces, NEL, NBSP and the Unicode space separators (not line separators).
    return char in "\t\n\v\f\r \x85\xa0" or unicodedata.category(char) == "Zs"


def go_trim(text: str) -> str:
    """``text`` without leading and trailing white space as Go's ``strings.TrimSpace`` sees it (gh-models trims answers so)."""
    start, end = 0, len(text)
    while start < end and _go_space(text[start]):
        start += 1
    while end > start and _go_space(text[end - 1]):
        end -= 1
    return text[start:end]


__all__ = ["PLACEHOLDER", "fill", "go_float", "go_text", "go_trim", "placeholders"]
