"""Untrusted text for XML 1.0 (JUnit): every character a parser accepts, nothing dropped silently.

XML 1.0 allows tab, line feed, carriage return and the characters from U+0020 on, except the
surrogates and U+FFFE/U+FFFF. Anything else (NUL, ESC, the other C0 controls, a lone surrogate)
makes the whole file invalid, and a CI reporter rejects it and the run vanishes from the
dashboard. Each such character is replaced by its escape written as text (``\\x1b``,
``\\ud800``), so a reader sees where it was and which it was.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

_FORBIDDEN = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def xml_text(value: Any) -> str:
    """``value`` as text XML 1.0 accepts: forbidden characters replaced by their escape, as visible text."""
    return _FORBIDDEN.sub(_shown, "" if value is None else str(value))


def xml_safe_tree(root: ET.Element) -> ET.Element:
    """Make every tag's text, tail and attribute values under ``root`` XML 1.0 text in place; ``root``."""
    for element in root.iter():
        if element.text is not None:
            element.text = xml_text(element.text)
        if element.tail is not None:
            element.tail = xml_text(element.tail)
        for name, value in list(element.attrib.items()):
            element.set(name, xml_text(value))
    return root


__all__ = ["xml_safe_tree", "xml_text"]
