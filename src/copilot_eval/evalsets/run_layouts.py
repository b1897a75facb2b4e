"""Older run.json layouts read into today's fields, so a run recorded before is neither lost nor misread.

Before run.json schemaVersion 2 the standing of a runtime limitation was also written into its
text ("Suspected runtime limitation: ...", rewritten to "Confirmed ..." by ``confirm_limitation``),
and what confirmed it was appended to both the text and ``evidence``. Reading such a run takes the
standing from the prefix (when the field is absent), moves each confirmation to
``limitationConfirmedBy`` and out of ``evidence``, and drops the sentences our own code wrote
around them, so an old and a new record of the same run read the same.
"""

from __future__ import annotations

from typing import Any

_PREFIXES = {"Suspected runtime limitation: ": "suspected", "Confirmed runtime limitation: ": "confirmed"}
# The exact sentences copilot-eval wrote around the standing before schemaVersion 2.
_UNTIL_CONFIRMED = " The score likely measures the platform, not the agent; a re-run or another surface confirms it."
_CONFIRMED_BY = (" The score measures the platform, not the agent; confirmed by: {by}.", " Confirmed by: {by}.")


def _pick(data: dict[str, Any], alias: str, name: str) -> str:
    """The key the caller used for a field: its JSON alias or its Python name."""
    return name if name in data and alias not in data else alias


def upgrade_limitation(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (a run as a dict) with a limitation written the old way in today's fields; others unchanged."""
    text_key = _pick(data, "runtimeLimitation", "runtime_limitation")
    text = data.get(text_key)
    if not isinstance(text, str):
        return data
    prefix = next((p for p in _PREFIXES if text.startswith(p)), None)
    if prefix is None:
        return data
    data = dict(data)
    text = text.removeprefix(prefix).replace(_UNTIL_CONFIRMED, "")
    evidence_key = _pick(data, "evidence", "evidence")
    evidence = data.get(evidence_key)
    confirmed = []
    if isinstance(evidence, list):
        for item in evidence:
            sentences = [form.format(by=item) for form in _CONFIRMED_BY] if isinstance(item, str) else []
            if any(sentence in text for sentence in sentences):
                confirmed.append(item)
                for sentence in sentences:
                    text = text.replace(sentence, "")
        data[evidence_key] = [item for item in evidence if item not in confirmed]
    data[text_key] = text
    standing_key = _pick(data, "limitationStanding", "limitation_standing")
    if data.get(standing_key) is None:
        data[standing_key] = _PREFIXES[prefix]
    by_key = _pick(data, "limitationConfirmedBy", "limitation_confirmed_by")
    if confirmed and not data.get(by_key):
        data[by_key] = confirmed
    return data


__all__ = ["upgrade_limitation"]
