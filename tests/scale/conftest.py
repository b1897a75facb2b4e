"""The one Ray cluster of a test session, started on first use and stopped at the end, by PID."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.scale.ray_cluster import RayCluster, unavailable_reason


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[RayCluster]:
    """A head and two worker nodes in a loopback-only network namespace (skips, saying why, where impossible)."""
    reason = unavailable_reason()
    if reason is not None:
        pytest.skip(f"no local Ray cluster: {reason}")
    cluster = RayCluster(workers=2)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
