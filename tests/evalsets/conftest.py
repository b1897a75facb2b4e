"""Shared helpers for the evalsets tests."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).with_name("data")


@pytest.fixture
def data_dir() -> Path:
    """Folder of small CSV fixtures, one per rule or problem."""
    return DATA
