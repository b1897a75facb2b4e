"""`copilot-eval run --record/--replay` end to end, and `copilot-eval regrade` on the replayed run."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import subprocess
from pathlib import Path

import pytest

from copilot_eval import ScriptedModel
from tests.runs.runs_helpers import CLI, cli_here

SCRIPT = {
    "rules": [
        {"when": {"prompt_contains": "deposit"}, "turns": [{"text": "Each bike needs a 150 euro deposit."}]},
        {"turns": [{"text": "We open at 8:00 every day."}]},
    ]
}
SET = """\
"question","expectedResponse"
"Do I need to leave a deposit?","Yes, a 150 euro deposit per bike."
"When do you open?","We open at 8:00 every day."
"""
ANSWERS = ["Each bike needs a 150 euro deposit.", "We open at 8:00 every day."]


def _agent(folder: Path, base_url: str) -> Path:
    path = folder / "agent.yaml"
    path.write_text(
        f"name: shop\nmodel: {{name: scripted-model, provider: {{base_url: '{base_url}'}}}}\ntimeout_s: 60\n"
    )
    return path


async def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    process = await asyncio.create_subprocess_exec(
        *CLI, *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={**os.environ, "COLUMNS": "200"}
    )
    out, err = await asyncio.wait_for(process.communicate(), 240)
    return subprocess.CompletedProcess(args, process.returncode or 0, out.decode(), err.decode())


def _answers(out: Path) -> list[str]:
    run = json.loads((out / "run.json").read_text())
    return [r["actualResponse"] for r in sorted(run["results"], key=lambda r: r["conversationNumber"])]


@pytest.mark.runtime
async def test_record_replay_then_regrade_a_run(tmp_path: Path) -> None:
    test_set = tmp_path / "set.csv"
    test_set.write_text(SET, encoding="utf-8")
    cassettes = tmp_path / "cassettes"
    async with ScriptedModel.from_dict(SCRIPT).serve() as server:
        agent = _agent(tmp_path, server.base_url)
        recorded = await _cli(
            "run",
            str(test_set),
            "--agent",
            str(agent),
            "--record",
            str(cassettes),
            "--out",
            str(tmp_path / "recorded"),
            "--no-progress",
        )
        assert recorded.returncode == 0, recorded.stdout + recorded.stderr
    assert sorted(p.name for p in cassettes.glob("*.jsonl")) == ["case1.jsonl", "case2.jsonl"]
    assert f"recorded 2 model calls into 2 cassettes in {cassettes}" in " ".join(recorded.stdout.split())
    assert _answers(tmp_path / "recorded") == ANSWERS

    # The endpoint is gone; the agent file still names it. Replay answers from the cassettes.
    replayed = await _cli(
        "run",
        str(test_set),
        "--agent",
        str(agent),
        "--replay",
        str(cassettes),
        "--grader",
        "similarity",
        "--out",
        str(tmp_path / "replayed"),
        "--no-progress",
    )
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert _answers(tmp_path / "replayed") == ANSWERS
    served = f"replayed 2 model calls from 2 cassettes in {cassettes}; no live model was called"
    assert served in " ".join(replayed.stdout.split())

    # The set changed after the recording: case 2's request is no longer recorded. It is an error, not graded,
    # and the gate over the rest is undecided (exit 3, naming it); the fixture is stale, not the platform.
    changed = tmp_path / "changed.csv"
    changed.write_text(SET.replace("When do you open?", "When do you close?"), encoding="utf-8")
    stale = await _cli("run", str(changed), "--agent", str(agent), "--replay", str(cassettes), "--grader",
                       "similarity", "--fail-under", "50", "--out", str(tmp_path / "stale"), "--no-progress")  # fmt: skip
    assert stale.returncode == 3, stale.stdout + stale.stderr
    assert stale.stderr.strip().splitlines()[-1] == (
        "exit 3 (the platform or the infrastructure): 1 case(s) could not be graded, more than --max-errors 0: "
        "case 2 (1 replayed a recording that no longer matches: re-record with --record-missing / --record); "
        "the gate over the rest is undecided"
    )
    run = json.loads((tmp_path / "stale" / "run.json").read_text())
    assert run.get("runtimeLimitation") is None and "runtime limitation" not in stale.stdout.lower()
    assert [r["status"] for r in sorted(run["results"], key=lambda r: r["conversationNumber"])] == ["pass", "error"]

    # Repeats over a replay are one recording served again: refused unless asked for, then marked.
    again = ["run", str(test_set), "--agent", str(agent), "--replay", str(cassettes), "--repeat", "2", "--no-progress"]
    # (Refused before anything plays: in this process, as the regrade below; the runs need their own.)
    refused = await asyncio.to_thread(cli_here, *again, "--out", str(tmp_path / "refused"))
    assert refused.returncode == 2 and "--allow-replayed-repeats" in refused.stderr
    marked = await _cli(*again, "--allow-replayed-repeats", "--out", str(tmp_path / "marked"))
    assert marked.returncode == 0, marked.stdout + marked.stderr
    run = json.loads((tmp_path / "marked" / "run.json").read_text())
    assert run["repeatsIndependent"] is False and "cassettes replayed from a recording" in run["repeatDependence"]
    assert "repeats are not independent" in marked.stdout

    regraded_dir = tmp_path / "regraded"
    regraded = await asyncio.to_thread(
        cli_here, "regrade", tmp_path / "replayed", "--grader", "keywords:all:deposit,euro", "--out", regraded_dir
    )
    assert regraded.returncode == 0, regraded.stdout + regraded.stderr
    assert _answers(regraded_dir) == ANSWERS
    run = json.loads((regraded_dir / "run.json").read_text())
    by_case = {r["conversationNumber"]: r for r in run["results"]}
    assert [g["method"] for g in by_case[1]["grades"]] == ["Keyword match"]
    assert [by_case[n]["status"] for n in (1, 2)] == ["pass", "fail"]
    assert "regraded from" in run["note"]
    # Evidence paths in run.json are relative to the run folder (the regraded folder's own copies).
    assert all((regraded_dir / r["evidencePath"]).parent == regraded_dir / "evidence" for r in run["results"])
    assert all((regraded_dir / r["evidencePath"]).is_file() for r in run["results"])
    rows = list(csv.DictReader((regraded_dir / "results.csv").open(encoding="utf-8")))
    assert [row["question"] for row in rows] == ["Do I need to leave a deposit?", "When do you open?"]


def test_regrade_names_a_folder_that_is_not_a_run(tmp_path: Path) -> None:
    done = cli_here("regrade", tmp_path, "--grader", "exact")
    assert done.returncode == 2
    assert f"{tmp_path / 'run.json'}: 1 problem" in done.stderr
    assert "no run.json here; pass the folder `copilot-eval run --out` wrote" in done.stderr
