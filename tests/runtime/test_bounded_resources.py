"""Long sessions stay bounded: each run's session is disconnected, dropped from the client's map and its
folder removed; a worn runtime is recycled without failing a run, and a runtime's own folder goes when it stops."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from copilot_eval.cache_root import CACHE_ROOT_ENV
from copilot_eval.runtime.process.home import asset_cache_dir, sessions_dir, sweep_stale_homes
from copilot_eval.runtime.process.locate import CLI_PATH_ENV, locate_runtime
from copilot_eval.runtime.process.pool import RuntimePool
from copilot_eval.runtime.process.recycle import RecyclePolicy
from copilot_eval.runtime.sdk_internals import session_map_size

pytestmark = pytest.mark.runtime


def _agent() -> CopilotEval:
    return CopilotEval(model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "done"}]}]}), timeout_s=30)


def _own_homes() -> set[Path]:
    return set(sessions_dir().glob(f"home-{os.getpid()}-*"))


async def test_each_runs_session_is_closed_dropped_and_its_home_removed():
    pool = RuntimePool(max_runtimes=1, recycle=RecyclePolicy(max_sessions=None, max_rss_mb=None))
    try:
        await run_copilot(_agent(), "warm up", pool=pool)
        await pool.drain_cleanups()
        before = _own_homes()
        for n in range(4):
            result = await run_copilot(_agent(), f"run {n}", pool=pool)
            assert result.success, result.error
        await pool.drain_cleanups()
        [client] = [h.client for group in pool._handles.values() for h in group]
        assert session_map_size(client) == 0
        assert pool.stats()["session_map"] == 0 and pool.stats()["pending_cleanups"] == 0
        assert _own_homes() <= before, "a run's COPILOT_HOME was left behind"
        assert list(pool.cleanup_problems) == []
    finally:
        await pool.close()


async def test_a_worn_runtime_is_recycled_between_runs_and_its_home_removed():
    pool = RuntimePool(max_runtimes=1, recycle=RecyclePolicy(max_sessions=2, max_rss_mb=None))
    seen: dict[int, Path | None] = {}
    try:
        for n in range(5):
            result = await run_copilot(_agent(), f"run {n}", pool=pool)
            assert result.success, result.error
            for handle in [h for group in pool._handles.values() for h in group]:
                seen[handle.process.pid] = handle.home
        await pool.drain_cleanups()
        assert pool.recycled == 2 and len(seen) == 3
        live = {p.pid for p in pool.processes()}
        retired = [pid for pid in seen if pid not in live]
        assert len(retired) == 2
        for pid in retired:
            assert not seen[pid].exists(), "a stopped runtime's home folder was left behind"
    finally:
        await pool.close()
    assert all(not home.exists() for home in seen.values())


async def test_a_cleanup_overrun_after_the_evidence_never_fails_the_run(monkeypatch):
    from copilot_eval.runtime.session import closing

    monkeypatch.setattr(closing, "DISCONNECT_DEADLINE_S", 0.000001)  # the real disconnect cannot make it
    pool = RuntimePool(max_runtimes=1)
    try:
        result = await run_copilot(_agent(), "hello", pool=pool)
        assert (result.success, result.stop_reason, result.error) == (True, "completed", None)
        await pool.drain_cleanups()
        assert any("disconnecting the session did not finish" in p for p in pool.cleanup_problems)
        assert pool.stats()["session_map"] == 0, "the session was still dropped from the map after the overrun"
    finally:
        await pool.close()


SCRIPT_THAT_ENDS = textwrap.dedent("""
    import json, os
    from copilot_eval import CopilotEval, ScriptedModel, run_copilot_sync
    from copilot_eval.runtime.process.home import sessions_dir

    agent = CopilotEval(timeout_s=30, model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "done"}]}]}))
    result = run_copilot_sync(agent, "hello")
    homes = sorted(str(p) for p in sessions_dir().glob(f"home-{os.getpid()}-*"))
    print(json.dumps({"success": result.success, "pid": os.getpid(), "homes": homes}))
""")


def test_a_script_that_used_run_copilot_sync_leaves_no_home_folder_at_exit(tmp_path):
    # The script never closes the pool: the exit hooks must end its runtime and remove the folders.
    # A cache of its own (sharing the runtime and its unpacked assets) so no other process sweeps them.
    (tmp_path / "xdg-cache").symlink_to(asset_cache_dir(), target_is_directory=True)
    env = {**os.environ, CACHE_ROOT_ENV: str(tmp_path), CLI_PATH_ENV: str(locate_runtime().path)}
    done = subprocess.run([sys.executable, "-c", SCRIPT_THAT_ENDS], capture_output=True, text=True, timeout=60, env=env)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["success"] and seen["homes"], "the script's runtime should have had a home folder while it ran"
    left = sorted(p.name for p in (tmp_path / "sessions").glob(f"home-{seen['pid']}-*"))
    assert left == [], f"home folders left after the script exited: {left}"


def test_homes_of_dead_processes_are_swept_and_live_ones_kept(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (tmp_path / f"home-{dead.pid}-abc").mkdir()
    (tmp_path / f"home-{os.getpid()}-mine").mkdir()
    (tmp_path / f"home-{os.getppid()}-parent").mkdir()
    old = tmp_path / "home-oldstyle"
    old.mkdir()
    os.utime(old, (time.time() - 3 * 86400,) * 2)
    (tmp_path / "home-young").mkdir()
    (tmp_path / "not-a-home").mkdir()
    assert sweep_stale_homes(tmp_path) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [f"home-{os.getpid()}-mine", f"home-{os.getppid()}-parent", "home-young", "not-a-home"]
    )


def test_recycle_limits_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("COPILOT_EVAL_RECYCLE_SESSIONS", "0")
    monkeypatch.setenv("COPILOT_EVAL_RECYCLE_RSS_MB", "300")
    assert RecyclePolicy.from_env() == RecyclePolicy(max_sessions=None, max_rss_mb=300)
    monkeypatch.setenv("COPILOT_EVAL_RECYCLE_SESSIONS", "many")
    with pytest.raises(ValueError, match="COPILOT_EVAL_RECYCLE_SESSIONS must be a whole number"):
        RecyclePolicy.from_env()
