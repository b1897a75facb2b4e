"""Text that was UTF-8 once and was read as Windows-1252 on the way (``theyâ€™ll`` for they'll, curly).

A spreadsheet that opened a UTF-8 file as Windows-1252 and saved it again turns every curly quote
and dash into two or three Latin characters. The file is valid UTF-8 afterwards, so nothing fails;
the agent is simply asked a question with ``â€™`` in it. The damage can be undone exactly: encode
the characters back to Windows-1252 bytes and decode those as UTF-8. A run of characters that
survives that round trip and comes back different is mis-decoded text; ordinary accented words
(``café``, ``Straße``) do not survive it, so they are not flagged.
"""

from __future__ import annotations

import re

# Characters a UTF-8 sequence turns into when read as Windows-1252: Latin-1 letters and the
# punctuation cp1252 puts at 0x80-0x9F. A mis-decoded sequence is at least two of them.
_SUSPECT_RUN = re.compile(
    r"[\u0080-\u00ff\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc\u2013-\u2122]{2,}"
)


def _as_cp1252_bytes(text: str) -> bytes | None:
    out = bytearray()
    for char in text:
        try:
            out += char.encode("cp1252")
        except UnicodeEncodeError:
            if ord(char) < 0x100:  # the five bytes cp1252 leaves undefined come through as C1 controls
                out.append(ord(char))
            else:
                return None
    return bytes(out)


def repaired(text: str) -> str | None:
    """``text`` with its mis-decoded runs put right, or ``None`` when it has none."""
    changed = False

    def fix(match: re.Match[str]) -> str:
        nonlocal changed
        raw = _as_cp1252_bytes(match.group(0))
        if raw is None:
            return match.group(0)
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            return match.group(0)
        if decoded == match.group(0) or all(ord(c) < 0x80 for c in decoded):
            return match.group(0)
        changed = True
        return decoded

    fixed = _SUSPECT_RUN.sub(fix, text)
    return fixed if changed else None


def mis_decoded_warning(text: str, *, where: str) -> str | None:
    """A warning naming ``where`` and what the text probably said, or ``None`` for clean text."""
    if repaired(text) is None:
        return None
    word = _damaged_word(text)
    return (
        f"{where}: '{_shown(word)}' looks mis-decoded (UTF-8 read as Windows-1252; probably "
        f"'{_shown(repaired(word) or word)}'); save the original as CSV UTF-8 again, or fix the text"
    )


def _shown(word: str) -> str:
    """``word`` as a spreadsheet shows it: a C1 control (what Latin-1 makes of 0x80-0x9F) as its Windows-1252
    character (``â€™``, not ``â\x80\x99``); any other unprintable character escaped."""
    out = []
    for char in word:
        if 0x80 <= ord(char) <= 0x9F:
            try:
                char = bytes([ord(char)]).decode("cp1252")
            except UnicodeDecodeError:
                char = f"\\x{ord(char):02x}"
        out.append(char if char.isprintable() or char.startswith("\\") else repr(char)[1:-1])
    return "".join(out)


def _damaged_word(text: str) -> str:
    """The first word holding a damaged run (what a person searches the file for)."""
    for match in _SUSPECT_RUN.finditer(text):
        if repaired(match.group(0)) is not None:
            start = max(text.rfind(" ", 0, match.start()) + 1, 0)
            end = text.find(" ", match.end())
            return text[start : end if end != -1 else len(text)]
    return text


__all__ = ["mis_decoded_warning", "repaired"]
