"""`copilot-eval run` as a user runs it: exit codes, outputs, and resume after a hard kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from copilot_eval.reports.run_folder import RUN_SCHEMA_VERSION
from tests.runs.runs_helpers import CLI, EXAMPLES, KNOWLEDGE, checkpoint_units, cli_here, write_interruptible_set

GOOD = EXAMPLES / "evaluation" / "agent-good.yaml"
FALLBACK = EXAMPLES / "evaluation" / "agent-fallback.yaml"


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run(
        [*CLI, "run", *map(str, args), "--no-progress"], capture_output=True, text=True, env=env, timeout=120
    )


@pytest.fixture(scope="module")
def fallback_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    """One run of the agent giving one answer to every case, gated at 50 %: the two tests below read it."""
    out = tmp_path_factory.mktemp("fallback")
    done = cli(
        KNOWLEDGE,
        "--agent",
        FALLBACK,
        "--grader",
        "similarity:0.7",
        "--grader",
        "keywords:any:euro,open",
        "--out",
        out,
        "--fail-under",
        "50",
    )
    return done, out


@pytest.mark.runtime
def test_a_local_agent_giving_one_answer_to_every_case_fails_its_gate_and_writes_outputs(fallback_run):
    done, tmp_path = fallback_run
    # Every answer is the same fallback text, from an agent on the local runtime: no platform answered
    # in its place, so it is the agent's failure and the gate fails it (exit 1, not 3 "undecided").
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("exit 1 (below a gate)")
    assert "6 failed" in done.stdout and "runtime limitation" not in done.stdout.lower()
    run = json.loads((tmp_path / "run.json").read_text())
    assert run.get("runtimeLimitation") is None
    # Evidence paths are relative to the run folder, so the folder can move and still open.
    assert run["failed"] == 6 and all((tmp_path / r["evidencePath"]).is_file() for r in run["results"])
    assert run["schemaVersion"] == RUN_SCHEMA_VERSION and not any(
        Path(r["evidencePath"]).is_absolute() for r in run["results"]
    )
    assert "testMethodType_2" in (tmp_path / "results.csv").read_text().splitlines()[0]


@pytest.mark.runtime
def test_fail_under_exits_1(fallback_run):
    # The same run as above (every answer the fallback: 0 % graded as passing) is below 50: exit 1
    # and the last line says which gate and by how much. (It used to play a run of its own for this.)
    below, _ = fallback_run
    assert below.returncode == 1, below.stderr
    assert below.stderr.strip().splitlines()[-1] == "exit 1 (below a gate): score 0% is below --fail-under 50"


def test_bad_input_exits_2_naming_every_problem(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text('"conversationNumber","question","response"\n"1","","x"\n"1","q",""\n', encoding="utf-8")
    result = cli_here("run", bad, "--agent", GOOD, "--profile", "seed")
    assert result.returncode == 2 and result.stderr.count("  - ") >= 3, result.stderr
    assert "seed requires unique numbers" in result.stderr
    today = cli_here("run", bad, "--agent", GOOD)  # copilot-studio: one conversation, the reference optional
    assert today.returncode == 2 and today.stderr.count("  - ") == 1, today.stderr
    assert "question is blank; copilot-studio requires one" in today.stderr
    for absent in (tmp_path / "none.csv", tmp_path):
        gone = cli_here("run", absent, "--agent", GOOD)
        assert gone.returncode == 2 and "Traceback" not in gone.stderr, gone.stderr
        assert len(gone.stderr.strip().splitlines()) == 1 and str(absent) in gone.stderr
    missing = cli_here("run", KNOWLEDGE, "--agent", tmp_path / "none.yaml")
    assert missing.returncode == 2 and "agent file not found" in missing.stderr
    spec = cli_here("run", KNOWLEDGE, "--agent", GOOD, "--grader", "similarity:high")
    assert spec.returncode == 2 and "similarity:high" in spec.stderr
    judge = cli_here("run", KNOWLEDGE, "--agent", GOOD, "--grader", "compare_meaning")
    assert judge.returncode == 2 and "--judge" in judge.stderr


@pytest.mark.runtime
def test_resume_after_sigkill_loses_and_duplicates_nothing(tmp_path):
    write_interruptible_set(tmp_path, "killable")  # kill once some cases have finished, then resume
    out = tmp_path / "out"
    command = [
        *CLI,
        "run",
        tmp_path / "set.csv",
        "--agent",
        tmp_path / "agent.yaml",
        "--out",
        out,
        "--concurrency",
        "2",
        "--grader",
        "exact",
        "--no-progress",
    ]
    process = subprocess.Popen(
        [str(c) for c in command], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    checkpoint = out / "checkpoint.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (checkpoint.exists() and len(checkpoint_units(checkpoint)) >= 4):
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGKILL)  # the run and its runtime, as a crash would
    process.wait()
    before = checkpoint_units(checkpoint)
    assert 4 <= len(before) < 8, before
    assert not (out / "run.json").exists()

    resumed = cli(
        tmp_path / "set.csv",
        "--agent",
        tmp_path / "agent.yaml",
        "--out",
        out,
        "--concurrency",
        "4",
        "--grader",
        "exact",
        "--resume",
    )
    assert resumed.returncode == 0, resumed.stderr
    after = checkpoint_units(checkpoint)
    assert after[: len(before)] == before  # finished units were kept, not re-run
    assert sorted(after) == sorted(f"case{n}#0" for n in range(1, 9))  # none lost, none twice
    run = json.loads((out / "run.json").read_text())
    assert sorted(r["conversationNumber"] for r in run["results"]) == list(range(1, 9))
    assert run["passed"] == 8


@pytest.mark.runtime
def test_a_run_budget_stops_new_conversations_and_exits_3_with_the_rest_not_run(tmp_path):
    # The judge is a scripted agent too: its sessions report the runtime's own token counts, counted
    # apart from the agent's. The first case's judging spends more than 1 token, so no other
    # conversation starts; the agent's far larger cap is never reached.
    (tmp_path / "judge-script.yaml").write_text('rules:\n  - turns: [{text: \'{"score": 90, "reason": "same"}\'}]\n')
    (tmp_path / "judge.yaml").write_text("name: judge\nmodel: {scripted: judge-script.yaml}\ntimeout_s: 30\n")
    out = tmp_path / "out"
    done = cli(
        KNOWLEDGE,
        "--agent",
        GOOD,
        "--grader",
        "compare_meaning",
        "--judge",
        tmp_path / "judge.yaml",
        "--concurrency",
        "1",
        "--max-run-tokens",
        "100000000",
        "--max-judge-tokens",
        "1",
        "--out",
        out,
    )
    assert done.returncode == 3, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "exit 3 (the platform or the infrastructure): 5 of 6 cases were not run (run budget reached: "
        "--max-judge-tokens 1, the judges spent "
    ), last
    run = json.loads((out / "run.json").read_text())
    statuses = [r["status"] for r in run["results"]]
    assert statuses == ["pass"] + ["not_run"] * 5 and run["notRun"] == 5 and run["gradedCases"] == 1
    played, usage = run["results"][0], run["usage"]
    judged = played["grades"][0]["judge"]
    assert usage["judges"]["tokens"] == judged["inputTokens"] + judged["outputTokens"] > 1
    assert usage["agent"]["tokens"] == played["tokens"] > 1  # the agent's own, the judge's not in it
    assert usage["agent"]["aiCreditsUnknown"] == 1  # a scripted session reports no AI credits: unknown, not 0
    assert all(
        "evidencePath" not in r and not r["grades"] for r in run["results"][1:]
    )  # listed, never played or graded
    assert "5 not run" in done.stdout and "spent by the judges:" in done.stdout
    assert "Not run" in (out / "results.csv").read_text()
    assert "What the run spent" in (out / "report.html").read_text()
