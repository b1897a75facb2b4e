"""What --executor ray needs, said before anything runs: the agent's files, and options that cannot work there."""

from __future__ import annotations

import re
import socket

import pytest

from copilot_eval.agent.agent_files import agent_files
from copilot_eval.runs.executor import ExecutorError
from copilot_eval.runs.ray_executor import RayExecutor, build_bundle
from tests.runs.runs_helpers import cli_here
from tests.scale.shard_helpers import write_project


def _agent_with_files(folder, outside):
    (folder / "agent").mkdir(parents=True)
    (folder / "shared" / "skills" / "refunds").mkdir(parents=True)
    (folder / "shared" / "skills" / "refunds" / "SKILL.md").write_text("---\nname: refunds\ndescription: d\n---\nb\n")
    (folder / "agent" / "script.yaml").write_text("rules:\n  - turns: [{text: hi}]\n")
    (folder / "agent" / "server.py").write_text("print('x')\n")
    (folder / "agent" / "server.py").chmod(0o755)
    agent = folder / "agent" / "agent.yaml"
    agent.write_text(
        "name: a\nmodel: {scripted: script.yaml}\nskill_directories: [../shared/skills]\n"
        "mcp_servers:\n"
        '  mine: {command: "{python}", args: ["{agent_dir}/server.py"]}\n'
        f'  theirs: {{command: "{outside}", args: []}}\n'
    )
    return agent


def test_the_bundle_holds_every_relative_file_and_names_what_is_left_behind(tmp_path):
    outside = tmp_path / "elsewhere" / "tool.sh"
    outside.parent.mkdir()
    outside.write_text("#!/bin/sh\n")
    agent = _agent_with_files(tmp_path / "project", outside)
    files = agent_files(agent)
    assert files.relative == (
        "agent/agent.yaml",
        "agent/script.yaml",
        "agent/server.py",
        "shared/skills/refunds/SKILL.md",
    )
    relative, bundle, left_behind = build_bundle(agent)
    assert relative == "agent/agent.yaml" and sorted(bundle) == list(files.relative)
    assert bundle["agent/server.py"][1] == 0o755  # an executable stays executable on the worker
    assert left_behind == [outside]


def test_options_that_cannot_work_with_ray_are_refused_before_anything_runs(tmp_path):
    project = write_project(tmp_path)
    base = [project["set"], "--agent", project["agent"], "--out", tmp_path / "out"]
    cases = [
        (["--executor", "spark"], "--executor 'spark': expected one of local, ray"),
        (["--ray-address", "127.0.0.1:1"], "--ray-address and --ray-workers need --executor ray"),
        (["--executor", "ray", "--replay", tmp_path], "--record/--replay run with --executor local only"),
        (["--executor", "ray", "--discard-passing-workdirs"], "working directories are on the worker nodes"),
        (["--shard", "4/3"], "--shard '4/3'"),
    ]
    for extra, message in cases:
        done = cli_here("run", *base, *extra, "--no-progress")
        assert done.returncode == 2 and message in done.stderr, (extra, done.stderr)
    assert not (tmp_path / "out").exists()


def test_a_ray_address_where_nothing_listens_is_refused_at_once_naming_it():
    # ray.init alone keeps retrying such an address for as long as it is left (10 minutes, measured)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # free once closed: nothing listens there
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}"):
        with pytest.raises(ExecutorError, match=rf"cannot connect to the Ray cluster at {re.escape(address)}: nothing"):
            RayExecutor(address=address)._connect()
