"""The repository's GitHub Action, step by step as a runner would run it, against the fakes of Direct Line and GitHub.

Each `run:` step of action.yml is run with bash, its `env:` filled in from the inputs, the earlier
steps' outputs and a pull_request event file, in a job environment pointed at the fake GitHub
API; `uses:` steps (the upload) are GitHub's own and left out. A Copilot Studio agent on the fake
Direct Line plays the test set, so no runtime is started: the main branch's run is blessed, then a
pull request's worse agent is gated, commented on twice (one comment, updated) and summarised.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.github.sticky import marker
from copilot_eval.testing import FakeAgent, FakeDirectLine, FakeGitHubComments, LoopbackServer, answer, fallback

# Every step is a bash process and the CLI a new interpreter: about 20 s of CPU, so out of the fast lane.
pytestmark = [pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ACTION = ROOT / "action.yml"
QUESTIONS = {
    "What are your opening hours?": "We are open every day from 8:00 to 19:00.",
    "Do I need a deposit?": "Yes, 150 euros per bike, 300 for an e-bike.",
    "Do you rent tandems?": "Yes, tandems cost 40 euros a day.",
}


def _test_set(folder: Path) -> Path:
    path = folder / "shop.csv"
    rows = ['"conversationNumber","question","response"']
    rows += [f'"{n}","{q}","{a}"' for n, (q, a) in enumerate(QUESTIONS.items(), start=1)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _agent(folder: Path, fake: FakeDirectLine, name: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        f"name: shop-agent\ntarget:\n  type: directline\n  token_endpoint: {fake.token_endpoint}\n"
        "  quiet_s: 0.25\n  poll_interval_s: 0.05\ntimeout_s: 20\n",
        encoding="utf-8",
    )
    return path


def _shop(*, deposit_broken: bool) -> FakeDirectLine:
    rules = [(q, fallback() if deposit_broken and "deposit" in q else answer(a)) for q, a in QUESTIONS.items()]
    return FakeDirectLine(FakeAgent(rules=rules, name="Shop"))


def _expand(value: str, inputs: dict[str, str], outputs: dict[str, dict[str, str]]) -> str:
    def one(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        if expression.startswith("inputs."):
            return inputs[expression.removeprefix("inputs.")]
        if expression == "github.action_path":
            return str(ROOT)
        if found := re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expression):
            return outputs.get(found.group(1), {}).get(found.group(2), "")
        raise AssertionError(f"the test does not know the expression {expression!r}")

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_action(job: Path, inputs: dict[str, str], env: dict[str, str]) -> tuple[dict[str, dict[str, str]], list[str]]:
    """Run the action's `run:` steps in order; the outputs of each step and the names of those left out."""
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    given = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()} | inputs
    missing = [name for name, spec in action["inputs"].items() if spec.get("required") and name not in inputs]
    assert not missing, f"required inputs not given: {missing}"
    outputs: dict[str, dict[str, str]] = {}
    skipped = []
    for step in action["runs"]["steps"]:
        if "uses" in step:
            skipped.append(step["uses"])
            continue
        assert step["shell"] == "bash" and "${{" not in step["run"], (
            f"step {step['id']} pastes an expression into its script"
        )
        output_file = job / f"{step['id']}.out"
        output_file.write_text("")
        step_env = {**env, **{k: _expand(str(v), given, outputs) for k, v in step.get("env", {}).items()}}
        step_env["GITHUB_OUTPUT"] = str(output_file)
        done = subprocess.run(
            ["bash", "-e", "-c", step["run"]], env=step_env, cwd=job, capture_output=True, text=True, timeout=300
        )
        lines = [line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line]
        outputs[step["id"]] = dict(lines) | {"_rc": str(done.returncode)}
        outputs[step["id"]]["_log"] = done.stdout + done.stderr
    return outputs, skipped


def test_the_action_gates_a_pull_request_and_keeps_one_comment(tmp_path):
    job = tmp_path / "job"
    job.mkdir()
    test_set = _test_set(job)
    history = job / ".copilot-eval" / "history.db"
    github = FakeGitHubComments(repo="octo-org/shop", pulls=(42,))
    github.seed(42, "Please look at the deposit answer.")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "opened", "number": 42, "pull_request": {"number": 42}}))
    with LoopbackServer(_shop(deposit_broken=False)) as good, LoopbackServer(_shop(deposit_broken=True)) as worse:
        main_agent = _agent(job, good.app, "main-agent")
        on_main = CliRunner().invoke(
            app, ["run", str(test_set), "--agent", str(main_agent), "--out", str(job / "main-run"), "--no-progress",
                  "--history", str(history)],
        )  # fmt: skip
        assert on_main.exit_code == 0, on_main.output
        blessed = CliRunner().invoke(app, ["baseline", "bless", str(job / "main-run"), "--history", str(history)])
        assert blessed.exit_code == 0, blessed.output
        pr_agent = _agent(job, worse.app, "pr-agent")
        summary = tmp_path / "summary.md"
        with LoopbackServer(github):
            env = {
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
                "HOME": os.environ.get("HOME", str(tmp_path)),
                "COPILOT_EVAL_HOME": os.environ.get("COPILOT_EVAL_HOME", str(tmp_path / "home")),
                "GITHUB_ACTIONS": "true",
                "GITHUB_REPOSITORY": github.repo,
                "GITHUB_EVENT_NAME": "pull_request",
                "GITHUB_EVENT_PATH": str(event),
                "GITHUB_API_URL": github.url,
                "GITHUB_SERVER_URL": "https://github.example",
                "GITHUB_RUN_ID": "777",
                "GITHUB_SHA": "f" * 40,
                "GITHUB_HEAD_REF": "deposit-change",
                "GITHUB_STEP_SUMMARY": str(summary),
            }
            inputs = {
                "test-set": str(test_set),
                "agent": str(pr_agent),
                "install": "false",
                "github-token": github.token,
                "history": str(history),
            }
            first, skipped = run_action(job, inputs, env)
            second, _ = run_action(job, inputs, env)
    assert skipped == ["actions/upload-artifact@v4"]
    assert first["install"]["_rc"] == "0", first["install"]["_log"]
    assert first["run"]["exit-code"] == "0", first["run"]["_log"]  # the run itself has no gate of its own
    assert first["gate"]["exit-code"] == "1", first["gate"]["_log"]
    assert first["verdict"]["_rc"] == "1" and first["verdict"]["exit-code"] == "1"
    assert "exit 1 (below a gate): 1 regression(s), more than --max-regressions 0" in first["gate"]["_log"]
    ours = [c for c in github.comments_on(42) if c.body.startswith(marker("gate", github.repo))]
    assert len(ours) == 1 and len(github.comments_on(42)) == 2  # the reviewer's comment and ours, after two pushes
    body = ours[0].body
    assert "## copilot-eval gate: below the gate" in body and "1 regressed, 0 improved, 0 in error" in body
    assert "| case 2 | Do I need a deposit? | pass | fail |" in body  # no details-url: no link into a report
    assert "created the comment" in first["comment"]["_log"] and "updated the comment" in second["comment"]["_log"]
    assert summary.read_text().count("## copilot-eval gate: below the gate") == 2  # one per run of the job
    assert (job / "eval-run" / "gate.xml").is_file() and (job / "eval-run" / "report.html").is_file()
    assert github.token not in "".join(step["_log"] for step in first.values())


def test_without_a_baseline_the_action_says_how_to_bless_one_and_exits_2(tmp_path):
    job = tmp_path / "job"
    job.mkdir()
    test_set = _test_set(job)
    github = FakeGitHubComments(repo="octo-org/shop", pulls=(42,))
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"number": 42, "pull_request": {"number": 42}}))
    with LoopbackServer(_shop(deposit_broken=False)) as shop, LoopbackServer(github):
        env = {
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "HOME": os.environ.get("HOME", str(tmp_path)),
            "GITHUB_REPOSITORY": github.repo,
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_API_URL": github.url,
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
        }
        inputs = {
            "test-set": str(test_set),
            "agent": str(_agent(job, shop.app, "agent")),
            "install": "false",
            "github-token": github.token,
            "history": str(job / "empty.db"),
        }
        outputs, _ = run_action(job, inputs, env)
    assert outputs["verdict"]["exit-code"] == "2"
    (comment,) = github.comments_on(42)
    assert "no verdict" in comment.body and "copilot-eval baseline bless RUN_DIR" in comment.body


def test_the_example_workflow_blesses_on_main_and_gates_pull_requests_with_the_action():
    workflow = yaml.safe_load((ROOT / "examples" / "ci" / "copilot-eval-gate.yml").read_text(encoding="utf-8"))
    baseline, gate = workflow["jobs"]["baseline"], workflow["jobs"]["gate"]
    script = "\n".join(step.get("run", "") for step in baseline["steps"])
    assert "copilot-eval run" in script and "copilot-eval baseline bless eval-run" in script
    saved = [step for step in baseline["steps"] if step.get("uses", "").startswith("actions/cache/save")]
    restored = [step for step in gate["steps"] if step.get("uses", "").startswith("actions/cache/restore")]
    assert saved[0]["with"]["path"] == restored[0]["with"]["path"] == workflow["env"]["COPILOT_EVAL_HISTORY"]
    assert gate["permissions"] == {"contents": "read", "pull-requests": "write"}
    (action,) = [step for step in gate["steps"] if "copilot-eval@" in step.get("uses", "")]
    inputs = yaml.safe_load(ACTION.read_text(encoding="utf-8"))["inputs"]
    assert set(action["with"]) <= set(inputs) and {"test-set", "agent"} <= set(action["with"])
    for name, options in [("run", ["--agent", "--out", "--no-progress"]), ("baseline", ["--note"])]:
        shown = CliRunner().invoke(
            app, [name, *(["bless"] if name == "baseline" else []), "--help"], env={"COLUMNS": "200"}
        )
        assert all(option in shown.output for option in options), shown.output
