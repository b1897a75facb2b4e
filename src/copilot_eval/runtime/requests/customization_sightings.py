"""Whether one model request carried a customization file's text, or only named it.

The runtime puts an always-on instruction file's text in the system prompt and names a
path-specific one (``applyTo`` other than ``**``) in a table of ``| pattern | 'path' | description |``
rows, leaving the reading to the agent (measured, runtime 1.0.102). Texts are compared with
whitespace collapsed, in everything the request gives the model (``given_texts``): the system
prompt, user messages, and tool results, where a file the agent viewed arrives with line numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from copilot_eval.evidence.customizations import FoundCustomization

__all__ = ["CustomizationProbe", "Sighting", "probes_for", "sightings_in"]

Sighting = Literal["text", "listed"]
_SPACE = re.compile(r"\s+")
_LINE_NUMBER = re.compile(r"^\s*\d+\.\s?", re.MULTILINE)  # the `view` tool's "12. " prefix


def _flat(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


@dataclass(frozen=True)
class CustomizationProbe:
    """What to look for of one file: its text (flattened) and the path the runtime's list would show."""

    path: str
    text: str
    listed_as: str | None


def probes_for(found: list[FoundCustomization]) -> tuple[CustomizationProbe, ...]:
    """One probe per file with text to look for (an empty file can only be listed)."""
    return tuple(CustomizationProbe(item.path, _flat(item.text), item.listed_as) for item in found)


def _listed(path: str, texts: list[str]) -> bool:
    # The list names a file of the working directory's own .github relative to some folder above
    # it; any path ending in the file's own (folder-relative) path is taken as naming it.
    row = re.compile(r"\|\s*'?(?:[^|']*/)?" + re.escape(path) + r"'?\s*\|")
    return any(row.search(text) for text in texts)


def sightings_in(texts: list[str], probes: tuple[CustomizationProbe, ...]) -> dict[str, Sighting]:
    """Path -> how a request whose given texts are ``texts`` carried each file; files it did not carry are absent."""
    if not probes:
        return {}
    flat = [_flat(text) for text in texts] + [_flat(_LINE_NUMBER.sub("", text)) for text in texts if "1." in text]
    seen: dict[str, Sighting] = {}
    for probe in probes:
        if probe.text and any(probe.text in text for text in flat):
            seen[probe.path] = "text"
        elif probe.listed_as and _listed(probe.listed_as, texts):
            seen[probe.path] = "listed"
    return seen
