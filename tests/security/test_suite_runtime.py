"""The built-in suite through the real runtime, offline: the harness measures 100 %, 0 % and not delivered.

One full pass of the agent that follows every injected call (every case must come out attacked,
which also proves each attack reaches the model through its vector and names a call that works),
and slices for the agent that ignores them and for an environment that drops the attack on its
way. The scripted agents prove the harness, not a model's safety.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from copilot_eval import CopilotEval, CopilotResult
from copilot_eval.cli.app import app
from copilot_eval.reports.findings import read_findings
from copilot_eval.scans import BUILTIN_SCANNERS, scan_run_folder
from copilot_eval.security import VECTORS, Outcome, ScriptedSuiteAgent, SecurityRun, load_suite, run_suite
from copilot_eval.security.environment import ENV_SERVER
from tests.folder_writes import recorded_writes

pytestmark = pytest.mark.runtime

SUITE = load_suite("builtin")
DROPPER = Path(__file__).with_name("dropping_env_server.py")


def agent(follows: bool) -> CopilotEval:
    model = ScriptedSuiteAgent(SUITE, follows_injections=follows)
    return CopilotEval(name="follower" if follows else "ignorer", model=model, timeout_s=90)


@pytest.fixture(scope="module")
async def follower_run(tmp_path_factory: pytest.TempPathFactory) -> SecurityRun:
    # Scanned online, as `copilot-eval attack` does by default.
    return await run_suite(agent(True), SUITE, out=tmp_path_factory.mktemp("follower"), scanners=BUILTIN_SCANNERS)


@pytest.fixture(scope="module")
async def ignorer_run() -> SecurityRun:
    return await run_suite(agent(False), SUITE, cases=["*/*/team-todo/*"])


@pytest.fixture(scope="module")
async def dropped_run() -> SecurityRun:
    command = [sys.executable, str(DROPPER), str(ENV_SERVER)]
    return await run_suite(agent(True), SUITE, cases=["*/*/user-aside/*"], server_command=command)


def test_an_agent_that_follows_injections_is_attacked_on_every_case(follower_run: SecurityRun) -> None:
    summary = follower_run.summary
    assert summary.counts == {"resisted": 0, "attacked": 44, "not_delivered": 0, "error": 0}, [
        (p.case_id, p.reason) for p in follower_run.plays if p.outcome is not Outcome.ATTACKED
    ]
    assert (summary.attack_success.hits, summary.attack_success.trials) == (44, 44)
    assert summary.attack_success.interval is not None and summary.attack_success.interval[0] == pytest.approx(
        0.92, abs=0.005
    )
    assert set(summary.by_vector) == set(VECTORS) and all(
        g.attack_success.value == 1 for g in summary.by_vector.values()
    )
    # It still does the user's task, with and without the attack.
    assert (summary.utility_without_attack.hits, summary.utility_without_attack.trials) == (8, 8)
    assert (summary.utility_under_attack.hits, summary.utility_under_attack.trials) == (44, 44)


def test_the_follower_run_is_a_normal_run_folder_with_its_figures_beside_it(follower_run: SecurityRun) -> None:
    folder = follower_run.folder
    assert folder is not None
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    assert run["testSetName"] == "injection-suite:builtin"
    assert (run["passed"], run["failed"], run["errored"], run["notGraded"]) == (8, 44, 0, 0)
    assert "attack success over delivered plays 44/44" in run["note"]
    document = json.loads((folder / "security.json").read_text(encoding="utf-8"))
    assert document["summary"]["attackSuccess"]["hits"] == 44 and len(document["plays"]) == 52
    assert (folder / "report.html").is_file() and (folder / "results.csv").is_file()
    attacked = next(p for p in document["plays"] if p["vector"] == "resource")
    evidence = CopilotResult.load(folder / attacked["evidence"])
    assert evidence.model_was_sent(attacked["canary"]) is True
    first = evidence.request_audit[0].markers  # type: ignore[index]
    assert first == {attacked["canary"]: False}  # the attack arrives with the resource, not before
    # The tools the model was offered, each with the hash `copilot-eval audit --pin` would store.
    assert evidence.tool_definitions is not None and "shop-get_manual" in evidence.tool_definitions
    assert "create" in evidence.tool_definitions


def test_an_agent_that_ignores_injections_resists_every_delivered_case(ignorer_run: SecurityRun) -> None:
    summary = ignorer_run.summary
    assert summary.counts == {"resisted": 11, "attacked": 0, "not_delivered": 0, "error": 0}
    assert summary.attack_success.value == 0 and summary.attack_success.interval == (
        0.0,
        pytest.approx(0.2588, abs=0.001),
    )
    assert {p.vector for p in ignorer_run.plays} == set(VECTORS)
    assert (summary.utility_under_attack.hits, summary.utility_under_attack.trials) == (11, 11)


def test_an_attack_dropped_on_its_way_is_not_delivered_and_in_no_rate(dropped_run: SecurityRun) -> None:
    summary = dropped_run.summary
    assert summary.counts == {"resisted": 0, "attacked": 0, "not_delivered": 11, "error": 0}
    assert summary.attack_success.trials == 0 and summary.attack_success.value is None
    assert {p.vector for p in dropped_run.plays} == set(VECTORS)
    for play in dropped_run.plays:
        assert play.reason == f"no request sent to the model carried the attack (canary {play.canary})"
        assert dropped_run.results[f"case{play.number}-r0"].model_was_sent(str(play.canary)) is False


def test_the_attack_command_plays_a_slice_and_records_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # a relative --out, as a user types it
    script = tmp_path / "script.yaml"
    script.write_text(yaml.safe_dump({"rules": [{"turns": [{"text": "I cannot look that up."}]}]}), encoding="utf-8")
    agent_file = tmp_path / "agent.yaml"
    agent_file.write_text(yaml.safe_dump({"name": "shy", "model": {"scripted": "script.yaml"}}), encoding="utf-8")
    out, history = tmp_path / "out", tmp_path / "history.db"
    args = ["attack", str(agent_file), "--case", "shop-order-status*", "--out", "out", "--history", str(history)]
    with recorded_writes() as writes:
        outcome = CliRunner().invoke(app, [*args, "--max-attack-rate", "50"], env={"COLUMNS": "200"})
    # The folder is the finisher's alone, each file written once, run.json last (tests/runs/test_one_writer.py).
    assert writes.problems(out) == [] and writes.last_in(out) == (out / "run.json").resolve()
    # The scripted agent never calls a tool, so only the tool descriptions deliver an attack; it resists those.
    # But it does none of the user's tasks either: resisting by doing nothing is no security, and meets no gate.
    assert outcome.exit_code == 1, outcome.output
    flat = " ".join(outcome.output.split())
    assert "warning: the agent did none of the user's tasks without attack (0 of 1)" in flat
    assert "exit 1 (below a gate): --max-attack-rate 50 is not met" in flat
    assert "attack success (delivered)" in outcome.output and "0/4 = 0.0 %" in outcome.output
    report = (out / "report.html").read_text(encoding="utf-8")
    assert report.index("utility without attack") < report.index("attack success (delivered)")
    assert 'id="utility-caveat"' in report and "score over" not in report
    assert "4 not delivered" in outcome.output
    document = json.loads((out / "security.json").read_text(encoding="utf-8"))
    assert document["summary"]["outcomes"] == {"resisted": 4, "attacked": 0, "not_delivered": 4, "error": 0}
    assert document["summary"]["utilityWithoutAttack"]["hits"] == 0
    assert history.is_file() and "history" in outcome.output
    baseline_only = [
        "attack",
        str(agent_file),
        "--case",
        "shop-order-status",
        "--out",
        str(tmp_path / "o2"),
        "--no-history",
    ]
    gate = CliRunner().invoke(app, baseline_only)
    assert gate.exit_code == 3 and "no attack could be measured" in gate.output


def test_the_injection_scanner_finds_every_attack_the_transcript_shows(follower_run: SecurityRun) -> None:
    # The attack's folder was scanned online; `copilot-eval scan` over it offline finds the same.
    # Every attacked play whose injection arrived in something the agent read (a tool result, a
    # file, a resource) is flagged on the call that obeyed it; a poisoned tool description is not
    # in the transcript, and the baselines are not flagged.
    folder = follower_run.folder
    assert folder is not None
    online = read_findings(folder)
    scan_run_folder(folder, BUILTIN_SCANNERS)
    assert read_findings(folder) == online and len(online.scanners) == len(BUILTIN_SCANNERS)
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    key_of = {r["evidencePath"]: r["caseKey"] for r in run["results"]}
    findings = read_findings(folder).findings
    flagged = {f.case for f in findings if f.scanner == "obeyed_injection"}
    plays = json.loads((folder / "security.json").read_text(encoding="utf-8"))["plays"]
    visible = {key_of[p["evidence"]] for p in plays if p["vector"] not in (None, "tool_description")}
    assert flagged == visible and len(visible) == 32
    assert all(f.event is not None and f.event.startswith("call ") for f in findings)
