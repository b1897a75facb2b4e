"""`triggers --executor ray` on a real local cluster: the worked example's plays on the Ray workers, same figures."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from copilot_eval.evidence.result import CopilotResult
from tests.runs.runs_helpers import CLI, EXAMPLES
from tests.scale.ray_cluster import ADDRESS, RayCluster

pytestmark = pytest.mark.runtime

EXAMPLE = EXAMPLES / "skills"


def test_a_trigger_set_played_on_ray_gives_the_example_figures_and_names_each_node(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    ray_cluster.ensure_workers()
    out = tmp_path / "ray"
    command = [*CLI, "triggers", str(EXAMPLE / "triggers.csv")]
    command += ["--agent", str(EXAMPLE / "agent.yaml"), "--runs", "2", "--concurrency", "1", "--out", str(out)]
    command += ["--no-history", "--executor", "ray", "--ray-address", ADDRESS]
    played = subprocess.run(
        ray_cluster.netns_command(*command), capture_output=True, text=True, env=ray_cluster.env, timeout=400
    )
    assert played.returncode == 0, played.stdout + played.stderr
    document = json.loads((out / "triggers.json").read_text(encoding="utf-8"))
    # the scripted router of examples/skills (its README): prompt 2 is a miss, the others right
    assert [p["outcome"] for p in document["plays"]] == [
        "chose:changelog-writer", "chose:changelog-writer", "chose:none", "chose:none", "chose:none", "chose:none",
    ]  # fmt: skip
    assert document["executor"] == "ray" and document["figures"]["counted"] == 6
    nodes = {n["id"] for n in ray_cluster.nodes() if n["cpus"]}
    where = {CopilotResult.load(p).played_on.node_id for p in (out / "evidence").glob("*.json")}  # type: ignore[union-attr]
    assert where == nodes, "each play names its node, and both workers played"
    run = json.loads((out / "run.json").read_text(encoding="utf-8"))
    assert run["execution"]["executor"] == "ray" and {w["nodeId"] for w in run["execution"]["workers"]} == nodes
