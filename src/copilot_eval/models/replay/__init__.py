"""Record a real model's answers once and replay them offline: cassettes at the request seam."""

from __future__ import annotations

from .cassette import CASSETTE_VERSION, CassetteError
from .sources import CassetteChooser, Recorder, Replay
from .store import STALE_RECORDING, is_stale_recording

__all__ = [
    "CASSETTE_VERSION",
    "STALE_RECORDING",
    "CassetteChooser",
    "CassetteError",
    "Recorder",
    "Replay",
    "is_stale_recording",
]
