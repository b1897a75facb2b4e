"""What is suspicious in the definition of a tool an agent is offered: each finding with severity, tool and matched text.

Read are the texts the model is given about a tool: its name, its description and every string
of its parameters' schema (property names excepted; descriptions, enums, defaults, titles), each
found with its place (``description``, ``parameters.properties.path.description``). Built-in
tools are the runtime's own and are not read; MCP and Python tools are.

| kind | severity | what |
| --- | --- | --- |
| ``hidden_characters`` | high | zero-width characters, bidirectional controls, Unicode tag characters (shown decoded) |
| ``model_instruction`` | high | words that tell the model to ignore its instructions, to hide something from the user, or that pose as the system |
| ``model_instruction`` | medium | words that tell the model to call, read or send something first |
| ``shadowing`` | high | the description names a tool of another server |
| ``credential_path`` | high | a path of credentials: ``~/.ssh``, private keys, ``.env``, cloud credential files, ``.netrc`` ... |
| ``outsized_description`` | medium | a description longer than :data:`OUTSIZED_CHARS` |
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["OUTSIZED_CHARS", "ToolFinding", "ToolText", "check_tools"]

Severity = Literal["high", "medium", "low"]
OUTSIZED_CHARS = 2000
"""A description longer than this is reported: the reference servers' longest was 457 characters."""


# Alike in shape only to workspace.commands.CommandOutcome (a frozen record): unrelated facts.
@dataclass(frozen=True)
class ToolText:
    """A tool to check: its name as the model sees it, its server (None: a Python tool), description, schema."""

    name: str
    server: str | None
    description: str
    parameters: Any = None


@dataclass(frozen=True)
class ToolFinding:
    """One suspicious thing in one tool's definition."""

    severity: Severity
    kind: str
    tool: str
    server: str | None
    where: str
    matched: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of ``copilot-eval audit --json``."""
        return {
            "severity": self.severity,
            "kind": self.kind,
            "tool": self.tool,
            "server": self.server,
            "where": self.where,
            "matched": self.matched,
            "message": self.message,
        }


_HIDDEN = {
    "zero-width": set(range(0x200B, 0x200E)) | {0x2060, 0xFEFF, 0x180E},
    "bidirectional control": set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C},
    "tag": set(range(0xE0000, 0xE0080)),
}

_I = re.IGNORECASE
_INSTRUCTIONS: list[tuple[Severity, str, re.Pattern[str]]] = [
    (
        "high",
        "tells the model to ignore its instructions",
        re.compile(
            r"\b(ignore|disregard|forget|override)\s+(all\s+|any\s+|the\s+)?(previous|prior|above|earlier|other|"
            r"system|your)\s+(instructions|rules|prompts?|guidelines|directives)",
            _I,
        ),
    ),
    (
        "high",
        "tells the model to keep something from the user",
        re.compile(
            r"\b(do\s+not|don'?t|never)\s+(tell|inform|mention|reveal|show|notify|alert)\s+(this\s+|it\s+|anything\s+)?"
            r"(to\s+)?the\s+user|\bwithout\s+(telling|informing|notifying|asking|alerting)\s+the\s+user|"
            r"\b(hide|conceal|keep)\s+(this|it)(\s+secret)?\s+from\s+the\s+user|\bthe\s+user\s+(must|should)\s+"
            r"(not|never)\s+(know|see|be\s+told)|\bsecretly\b",
            _I,
        ),
    ),
    (
        "high",
        "poses as the system or as new instructions",
        re.compile(
            r"<\s*/?\s*(important|system|instructions?|admin)\s*>|\[\s*system(\s+(notice|message|prompt))?\s*[:\]]|"
            r"\b(new|updated)\s+(system\s+)?instructions\b|\byou\s+are\s+now\b",
            _I,
        ),
    ),
    (
        "medium",
        "tells the model to do something first",
        re.compile(
            r"\bbefore\s+(using|calling|running|invoking)\s+(this|any|the|other)\b[^.]{0,40}?\btools?\b|"
            r"\b(always|must|first)\s+(call|run|invoke|read|send)\b[^.]{0,60}?\b(first|before)\b|"
            r"\byou\s+must\s+(first\s+)?(call|run|invoke|read|send|include|pass)\b",
            _I,
        ),
    ),
]
_CREDENTIALS = re.compile(
    r"~/\.ssh\b|\.ssh/|\bid_(rsa|ed25519|ecdsa|dsa)\b|(?<![\w.-])\.env(\.[\w-]+)?(?![\w-])|\.aws/(credentials|config)\b|"
    r"\.config/gcloud\b|application_default_credentials\.json|\.azure/|\.kube/config\b|\.docker/config\.json|"
    r"(?<![\w-])\.(netrc|npmrc|pypirc|pgpass|git-credentials)\b|/etc/shadow\b",
    _I,
)


def _texts(tool: ToolText) -> Iterator[tuple[str, str]]:
    """(place, text) of every string the model is given about the tool."""
    yield "name", tool.name
    yield "description", tool.description

    def walk(value: Any, place: str) -> Iterator[tuple[str, str]]:
        if isinstance(value, str):
            yield place, value
        elif isinstance(value, dict):
            for key, item in value.items():
                yield from walk(item, f"{place}.{key}")
        elif isinstance(value, list):
            for index, item in enumerate(value):
                yield from walk(item, f"{place}[{index}]")

    yield from walk(tool.parameters, "parameters")


def _hidden(text: str) -> tuple[str, str] | None:
    found = {kind: [ch for ch in text if ord(ch) in points] for kind, points in _HIDDEN.items()}
    kinds = [kind for kind, chars in found.items() if chars]
    if not kinds:
        return None
    shown = ", ".join(
        f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".strip()
        for ch in dict.fromkeys(ch for chars in found.values() for ch in chars)
    )
    decoded = "".join(chr(ord(ch) - 0xE0000) for ch in found["tag"] if 0x20 <= ord(ch) - 0xE0000 < 0x7F)
    matched = shown[:300] + (f"; tag characters spell {decoded!r}" if decoded else "")
    return ", ".join(kinds), matched


def _excerpt(text: str, match: re.Match[str]) -> str:
    start, end = max(0, match.start() - 40), min(len(text), match.end() + 40)
    return ("..." if start else "") + text[start:end].replace("\n", " ") + ("..." if end < len(text) else "")


def _other_tools(tool: ToolText, tools: Sequence[ToolText]) -> list[tuple[str, re.Pattern[str]]]:
    """Names of other servers' tools as a description might write them: ``server-tool``, or a bare name like ``send_email``."""
    names = []
    for other in tools:
        if other.server is None or other.server == tool.server:
            continue
        bare = other.name.removeprefix(f"{other.server}-")
        forms = [other.name] + ([bare] if re.search(r"[_-]", bare) else [])
        alternatives = "|".join(re.escape(form) for form in forms)
        names.append((other.name, re.compile(rf"(?<![\w-])({alternatives})(?![\w-])")))
    return names


def _findings(tool: ToolText, tools: Sequence[ToolText]) -> Iterator[ToolFinding]:
    def finding(severity: Severity, kind: str, where: str, matched: str, message: str) -> ToolFinding:
        return ToolFinding(severity, kind, tool.name, tool.server, where, matched, message)

    others = _other_tools(tool, tools)
    for where, text in _texts(tool):
        hidden = _hidden(text)
        if hidden is not None:
            yield finding("high", "hidden_characters", where, hidden[1], f"{hidden[0]} characters the user cannot see")
        for severity, message, pattern in _INSTRUCTIONS:
            match = pattern.search(text)
            if match:
                yield finding(severity, "model_instruction", where, _excerpt(text, match), message)
        match = _CREDENTIALS.search(text)
        if match:
            yield finding("high", "credential_path", where, _excerpt(text, match), "names a path of credentials")
        if where != "name":
            for other, pattern in others:
                match = pattern.search(text)
                if match:
                    message = f"names {other}, a tool of another server (shadowing)"
                    yield finding("high", "shadowing", where, _excerpt(text, match), message)
    if len(tool.description) > OUTSIZED_CHARS:
        size = f"{len(tool.description)} characters"
        yield finding(
            "medium", "outsized_description", "description", size, f"a description of {size} (over {OUTSIZED_CHARS})"
        )


_ORDER = {"high": 0, "medium": 1, "low": 2}


def check_tools(tools: Sequence[ToolText]) -> list[ToolFinding]:
    """Every finding of every tool, most severe first, then in the tools' order."""
    found = [finding for tool in tools for finding in _findings(tool, tools)]
    return sorted(found, key=lambda f: _ORDER[f.severity])
