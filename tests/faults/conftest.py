"""Fault tests run the real runtime on a private pool, so they never disturb other tests' runtimes."""

from __future__ import annotations

import pytest

from tests.faults.fault_helpers import RUNTIME


@pytest.fixture(scope="module")
async def fault_pool():
    """A warmed private RuntimePool for one module, closed (every runtime stopped) at its end."""
    from copilot_eval.runtime.process.pool import RuntimePool

    pool = RuntimePool(runtime_path=RUNTIME)
    await pool.lease()  # start-up is not what these tests time
    try:
        yield pool
    finally:
        processes = pool.processes()
        await pool.close()
        assert all(p.poll() is not None for p in processes), "a runtime outlived its pool"
