"""The cassette file: versioned JSONL, one header line, then one line per recorded model call.

```
{"cassette": "copilot-eval", "version": 1}
{"index": 0, "key": "sha256:...", "wire_api": "completions", "transport": "http", "path": "/v1/chat/completions",
 "request": {...normalised body...}, "response": {"status": 200, "headers": {...}, "body": "..."}}
{"index": 1, ..., "transport": "websocket", "response": {"frames": ["{...}", ...]}}
```

Keys are sorted and every exchange is one line, so a re-recording shows in a diff as the calls
that changed. Request headers are never stored (they carry the API key or the token); of the
response headers only a few harmless ones are kept.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from copilot_eval.redaction import redact
from copilot_eval.safe_paths import path_component

__all__ = [
    "CASSETTE_VERSION",
    "CassetteError",
    "Exchange",
    "append_exchange",
    "cassette_name",
    "read_cassette",
    "write_header",
]

CASSETTE_VERSION = 1
FORMAT_NAME = "copilot-eval"
KEPT_RESPONSE_HEADERS = ("content-type", "retry-after")


class CassetteError(ValueError):
    """A cassette file that cannot be read; the message names the file and line."""


@dataclass
class Exchange:
    """One recorded model call: the normalised request and the answer as it came back."""

    index: int
    key: str
    wire_api: str
    transport: str
    request: Any
    response: dict[str, Any]
    path: str = ""
    used: bool = field(default=False, compare=False)

    def to_json(self) -> str:
        """The exchange as one JSONL line (sorted keys)."""
        data = {
            "index": self.index,
            "key": self.key,
            "wire_api": self.wire_api,
            "transport": self.transport,
            "path": self.path,
            "request": self.request,
            "response": self.response,
        }
        return json.dumps(data, sort_keys=True, ensure_ascii=False)


def cassette_name(name: str) -> str:
    """A file name for a test or case id: unsafe characters become ``_``; ends in ``.jsonl``."""
    safe = path_component(name, fallback="cassette", separator="_")
    return safe if safe.endswith(".jsonl") else f"{safe}.jsonl"


def read_cassette(path: Path) -> list[Exchange]:
    """Every exchange of a cassette, in recorded order; CassetteError naming the line for a bad file."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CassetteError(
            f"{path}: no such cassette (record it first with --copilot-record / --record / Recorder)"
        ) from None
    if not lines:
        raise CassetteError(f"{path}: empty file, expected a cassette header line")
    header = _line(path, 1, lines[0])
    if header.get("cassette") != FORMAT_NAME:
        raise CassetteError(f'{path}:1: not a copilot-eval cassette (the header has no "cassette": "{FORMAT_NAME}")')
    if header.get("version") != CASSETTE_VERSION:
        raise CassetteError(
            f"{path}:1: cassette version {header.get('version')!r} is not supported "
            f"(this copilot-eval reads version {CASSETTE_VERSION}); record it again"
        )
    exchanges = []
    for number, text in enumerate(lines[1:], start=2):
        if not text.strip():
            continue
        data = _line(path, number, text)
        try:
            exchanges.append(
                Exchange(
                    index=data["index"],
                    key=data["key"],
                    wire_api=data["wire_api"],
                    transport=data["transport"],
                    request=data["request"],
                    response=data["response"],
                    path=data.get("path", ""),
                )
            )
        except KeyError as missing:
            raise CassetteError(f"{path}:{number}: exchange has no {missing} field") from None
    return exchanges


def _line(path: Path, number: int, text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise CassetteError(f"{path}:{number}: not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise CassetteError(f"{path}:{number}: expected a JSON object")
    return data


def write_header(path: Path) -> None:
    """Start a new cassette (replacing any old one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps({"cassette": FORMAT_NAME, "version": CASSETTE_VERSION}, sort_keys=True) + "\n", encoding="utf-8"
    )


def append_exchange(path: Path, exchange: Exchange) -> None:
    """Add one exchange at the end (written at once: an interrupted recording keeps what it has)."""
    with path.open("a", encoding="utf-8") as handle:
        handle.write(redact(exchange.to_json()) + "\n")  # a provider may echo the key in its body
