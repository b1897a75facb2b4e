"""Record a real model's answers once and replay them offline: cassettes at the request seam."""

from __future__ import annotations

from .cassette import CASSETTE_VERSION, CassetteError
from .sources import CassetteChooser, Recorder, Replay

__all__ = ["CASSETTE_VERSION", "CassetteChooser", "CassetteError", "Recorder", "Replay"]
