"""`lift --executor ray` on the real local cluster (tests/scale/conftest.py's): the figures of the same lift played here.

The arms come from `--vary skill:NAME`, so one of them exists only in memory on the driver: it reaches
the workers written as an agent file of its own. Each play's delivery is decided from the request
audit the worker recorded, so a play delivered on Ray proves the audit was on there.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from copilot_eval.evidence.result import CopilotResult
from tests.runs.runs_helpers import CLI
from tests.scale.ray_cluster import ADDRESS, RayCluster

pytestmark = pytest.mark.runtime

SCRIPT = """\
rules:
  - when: {prompt_contains: "release"}
    turns: [{text: "SHIPPED"}]
  - turns: [{text: "unsure"}]
"""


def _project(folder: Path) -> dict[str, Path]:
    skill = folder / "skills" / "release-check"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: release-check\ndescription: Tells whether a release is out of the door yet.\n---\n"
        "Compare the tags with the changelog.\n",
        encoding="utf-8",
    )
    (folder / "script.yaml").write_text(SCRIPT, encoding="utf-8")
    (folder / "agent.yaml").write_text(
        "name: releases\nmodel: {scripted: script.yaml}\nskill_directories: [skills]\ntimeout_s: 60\n",
        encoding="utf-8",
    )
    rows = ["question,expectedResponse", "Has release 1.0 shipped?,SHIPPED", "Has release 1.1 shipped?,SHIPPED"]
    rows += ["Who maintains the project?,the release team"]
    (folder / "set.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return {"set": folder / "set.csv", "agent": folder / "agent.yaml"}


def _lift_args(project: dict[str, Path], out: Path, *extra: str) -> list[str]:
    return [
        *CLI,
        "lift",
        str(project["set"]),
        "--agent",
        str(project["agent"]),
        "--vary",
        "skill:release-check",
        "--repeat",
        "2",
        "--grader",
        "exact",
        "--no-history",
        "--out",
        str(out),
        *extra,
    ]


def _what_counts(folder: Path) -> dict[str, Any]:
    """lift.json without what time decides (durations, the order plays finished in)."""
    document = json.loads((folder / "lift.json").read_text(encoding="utf-8"))
    figures = {k: v for k, v in document["figures"].items() if k != "deltas"}
    plays = sorted((p["case"], p["arm"], p["repeat"], p["status"], p["delivery"]) for p in document["plays"])
    return {"figures": figures, "cases": document["cases"], "plays": plays, "arms": document["arms"]}


def test_a_lift_played_on_ray_gives_the_figures_of_the_same_lift_played_here(
    ray_cluster: RayCluster, tmp_path: Path
) -> None:
    ray_cluster.ensure_workers()
    project = _project(tmp_path / "project")
    local = subprocess.run(_lift_args(project, tmp_path / "local"), capture_output=True, text=True, timeout=300)
    assert local.returncode == 0, local.stderr
    remote = subprocess.run(
        ray_cluster.netns_command(
            *_lift_args(project, tmp_path / "ray", "--executor", "ray", "--ray-address", ADDRESS, "--concurrency", "1")
        ),
        capture_output=True,
        text=True,
        env=ray_cluster.env,
        timeout=300,
    )
    assert remote.returncode == 0, remote.stderr
    here, there = _what_counts(tmp_path / "local"), _what_counts(tmp_path / "ray")
    assert there == here
    # the skill's description reached every "with" play and no "without" play, proven on the workers
    assert {p[4] for p in there["plays"]} == {"delivered"} and len(there["plays"]) == 12
    # the arm --vary made in memory went to the workers as an agent file of its own, in its folder
    assert (tmp_path / "ray" / "without" / "agent" / "agent.yaml").is_file()
    nodes = {n["id"] for n in ray_cluster.nodes() if n["cpus"]}
    played_on = {
        CopilotResult.load(path).played_on.node_id
        for arm in ("with", "without")
        for path in (tmp_path / "ray" / arm / "evidence").glob("*.json")
    }
    assert played_on == nodes  # both arms' plays went to the cluster, both nodes played
