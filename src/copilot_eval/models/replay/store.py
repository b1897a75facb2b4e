"""A cassette in use: what was recorded, which recordings were served, and what gets added.

One ``Cassette`` is shared by every run of one test or case, so that several runs (or the
repeats of a case) are served in the order they were recorded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from .cassette import CassetteError, Exchange, append_exchange, read_cassette, write_header
from .normalise import diff_fields

__all__ = ["STALE_RECORDING", "Cassette", "Mode", "is_stale_recording"]

Mode = Literal["record", "replay", "record_missing"]

STALE_RECORDING = "no recorded model call matches"
"""The words every replay-mismatch error starts with: the runtime passes them on as the session's error."""


def is_stale_recording(error: str | None) -> bool:
    """Whether a session's error says its recording no longer matches what was asked (the test's own fixture)."""
    return error is not None and STALE_RECORDING in error


class Cassette:
    """One cassette file: ``record`` starts it afresh, ``replay`` only serves it, ``record_missing`` does both."""

    def __init__(self, path: str | Path, mode: Mode = "replay") -> None:
        if mode not in ("record", "replay", "record_missing"):
            raise ValueError(f"mode must be 'record', 'replay' or 'record_missing', got {mode!r}")
        self.path = Path(path)
        self.mode = mode
        self.added = 0
        if mode == "record":
            self.exchanges: list[Exchange] = []
            write_header(self.path)
        elif mode == "record_missing" and not self.path.exists():
            self.exchanges = []
            write_header(self.path)
        else:
            self.exchanges = read_cassette(self.path)

    def take(self, key: str) -> Exchange | None:
        """The first recording of this request not served yet (recorded order), marked as served."""
        if self.mode == "record":
            return None
        for exchange in self.exchanges:
            if not exchange.used and exchange.key == key:
                exchange.used = True
                return exchange
        return None

    def add(self, exchange: Exchange) -> Exchange:
        """Store a new recording (numbered after the last one) and write it out at once."""
        exchange.index = len(self.exchanges)
        exchange.used = True
        self.exchanges.append(exchange)
        self.added += 1
        append_exchange(self.path, exchange)
        return exchange

    def mismatch(self, request: Any, *, wire_api: str, transport: str) -> str:
        """Why a request has no recording: the closest recorded request and the fields that differ."""
        candidates = [e for e in self.exchanges if e.wire_api == wire_api] or self.exchanges
        if not candidates:
            return f"{STALE_RECORDING} this request: {self.path} holds no calls"
        unused = [e for e in candidates if not e.used]
        scored = [(len(diff_fields(e.request, request, limit=50)), e.used, e.index, e) for e in candidates]
        _, _, _, closest = min(scored, key=lambda item: item[:3])
        fields = diff_fields(closest.request, request)
        state = "already served" if closest.used else "not served yet"
        return (
            f"{STALE_RECORDING} this {wire_api} request ({transport}) in {self.path} "
            f"({len(self.exchanges)} recorded, {len(unused)} not served yet); closest: call {closest.index} "
            f"({state}), differing in: "
            + "; ".join(fields)
            + ". Record again (--copilot-record / --record), or fill gaps with --copilot-record-missing / "
            "--record-missing"
        )


def open_cassette(path: str | Path, mode: Mode) -> Cassette:
    """A Cassette, with a clear CassetteError for a missing or unreadable file."""
    try:
        return Cassette(path, mode)
    except OSError as exc:
        raise CassetteError(f"{path}: cannot open cassette: {exc.strerror or exc}") from exc
