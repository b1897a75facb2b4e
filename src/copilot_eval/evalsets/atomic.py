"""Moved: the atomic writer lives in ``copilot_eval.reports.atomic``; this name stays importable."""

from __future__ import annotations

from copilot_eval.reports.atomic import write_bytes_atomically

__all__ = ["write_bytes_atomically"]
