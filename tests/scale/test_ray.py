"""--executor ray on a real local cluster: the same run folder as a local run, lost nodes, a killed driver."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from copilot_eval.evidence.result import CopilotResult
from copilot_eval.reports.evidence_names import unit_evidence_name
from copilot_eval.reports.run_folder import read_run_folder
from tests.scale.ray_cluster import ADDRESS, RayCluster
from tests.scale.shard_helpers import outcomes, write_project

pytestmark = pytest.mark.runtime

CLI = [sys.executable, "-m", "copilot_eval.cli.app"]


def _run_args(set_path: Path, agent: Path, out: Path, *extra: str) -> list[str]:
    return [
        *CLI,
        "run",
        str(set_path),
        "--agent",
        str(agent),
        "--grader",
        "exact",
        "--out",
        str(out),
        "--no-progress",
        *extra,
    ]


def _on_ray(cluster: RayCluster, set_path: Path, agent: Path, out: Path, *extra: str) -> list[str]:
    return cluster.netns_command(
        *_run_args(set_path, agent, out, "--executor", "ray", "--ray-address", ADDRESS, *extra)
    )


def _checkpoint(folder: Path) -> Counter[str]:
    path = folder / "checkpoint.jsonl"
    if not path.exists():
        return Counter()
    lines = [line for line in path.read_text(encoding="utf-8").splitlines()[1:] if line.endswith("}")]
    return Counter(json.loads(line)["unit"] for line in lines)


def _wait_for_units(folder: Path, count: int, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while sum(_checkpoint(folder).values()) < count:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the run recorded too few units in time"
        time.sleep(0.1)


def _slow_project(folder: Path, cases: int = 10) -> dict[str, Path]:
    folder.mkdir(parents=True)
    (folder / "script.yaml").write_text("rules:\n  - turns: [{text: 'answer to: {prompt}', delay_s: 1}]\n")
    (folder / "agent.yaml").write_text("name: slow\nmodel: {scripted: script.yaml}\ntimeout_s: 60\n")
    rows = ['"question","expectedResponse"'] + [f'"q{n}","answer to: q{n}"' for n in range(1, cases + 1)]
    (folder / "set.csv").write_text("\n".join(rows) + "\n")
    return {"set": folder / "set.csv", "agent": folder / "agent.yaml"}


def _played_on(folder: Path) -> dict[str, str]:
    return {p.stem: CopilotResult.load(p).played_on.node_id for p in sorted((folder / "evidence").glob("*.json"))}


def test_every_node_of_the_cluster_is_at_loopback(ray_cluster):
    nodes = ray_cluster.nodes()
    assert len(nodes) == 3 and {n["address"] for n in nodes} == {"127.0.0.1"}
    assert sorted(n["cpus"] for n in nodes) == [0, 1, 1]  # the head hosts no worker


def test_a_set_played_on_ray_equals_the_same_set_played_locally(ray_cluster, tmp_path):
    ray_cluster.ensure_workers()
    project = write_project(tmp_path / "project")
    local = subprocess.run(
        _run_args(project["set"], project["agent"], tmp_path / "local"), capture_output=True, text=True, timeout=300
    )
    assert local.returncode == 0, local.stderr
    remote = subprocess.run(
        _on_ray(ray_cluster, project["set"], project["agent"], tmp_path / "ray"),
        capture_output=True,
        text=True,
        env=ray_cluster.env,
        timeout=300,
    )
    assert remote.returncode == 0, remote.stderr
    here, there = read_run_folder(tmp_path / "local"), read_run_folder(tmp_path / "ray")
    assert outcomes(there.run) == outcomes(here.run)
    assert (there.run.passed, there.run.failed) == (13, 1)
    names = sorted(p.name for p in (tmp_path / "local" / "evidence").glob("*.json"))
    assert sorted(p.name for p in (tmp_path / "ray" / "evidence").glob("*.json")) == names
    for name in names:  # the evidence travelled back whole: the same conversation, recorded on the worker
        mine, theirs = (CopilotResult.load(tmp_path / run / "evidence" / name) for run in ("local", "ray"))
        assert [(t.role, t.content) for t in theirs.turns] == [(t.role, t.content) for t in mine.turns]
        assert (theirs.success, theirs.stop_reason, mine.played_on) == (mine.success, mine.stop_reason, None)
    nodes = {n["id"] for n in ray_cluster.nodes() if n["cpus"]}
    assert set(_played_on(tmp_path / "ray").values()) == nodes  # each case names its node; both nodes played
    execution = there.run.execution
    assert execution.executor == "ray" and {w.node_id for w in execution.workers} == nodes
    assert {w.node_address for w in execution.workers} == {"127.0.0.1"}


def test_the_driver_killed_mid_run_resumes_without_playing_a_graded_case_again(ray_cluster, tmp_path):
    project = _slow_project(tmp_path / "project")
    out = tmp_path / "run"
    driver = subprocess.Popen(
        _on_ray(ray_cluster, project["set"], project["agent"], out, "--concurrency", "2"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=ray_cluster.env,
    )
    _wait_for_units(out, 3, driver)
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait(timeout=30)
    before = _checkpoint(out)
    assert 3 <= sum(before.values()) < 10
    stamps = {unit: (out / "evidence" / unit_evidence_name(unit)).stat().st_mtime_ns for unit in before}
    resumed = subprocess.run(
        _on_ray(ray_cluster, project["set"], project["agent"], out, "--concurrency", "2", "--resume"),
        capture_output=True,
        text=True,
        env=ray_cluster.env,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    after = _checkpoint(out)
    assert sorted(after.values()) == [1] * 10  # every case once: what was graded was not played again
    assert all(
        (out / "evidence" / unit_evidence_name(unit)).stat().st_mtime_ns == stamp for unit, stamp in stamps.items()
    )
    assert read_run_folder(out).run.passed == 10


def test_a_node_that_leaves_mid_run_hands_its_conversations_to_the_other(ray_cluster, tmp_path):
    ray_cluster.ensure_workers()  # (a node is killed here: the next test to need both starts one again)
    project = _slow_project(tmp_path / "project")
    out = tmp_path / "run"
    driver = subprocess.Popen(
        _on_ray(ray_cluster, project["set"], project["agent"], out, "--concurrency", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ray_cluster.env,
    )
    try:
        _wait_for_units(out, 2, driver)
        ray_cluster.kill_worker(0)
        _, stderr = driver.communicate(timeout=300)
    finally:
        if driver.poll() is None:
            driver.kill()
    assert driver.returncode == 0, stderr
    assert sorted(_checkpoint(out).values()) == [1] * 10  # none counted twice
    run = read_run_folder(out).run
    assert run.passed == 10
    lost = [r for r in run.execution.retries if r.cause == "infrastructure"]
    assert lost and len({r.worker for r in lost}) == 1 and not any(r.given_up for r in lost)
    gone = next(w for w in run.execution.workers if w.name == lost[0].worker)
    survivor = next(w for w in run.execution.workers if w.name != gone.name)
    played = _played_on(out)
    assert all(
        played[unit_evidence_name(r.unit).removesuffix(".json")] == survivor.node_id for r in lost
    )  # finished elsewhere
    assert [c.limit for c in run.execution.concurrency_history if c.worker == gone.name][-1] == 0
