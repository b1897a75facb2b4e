"""Secrets of the environment, printed back by an MCP server and the agent's shell, come back nowhere.

``@modelcontextprotocol/server-everything``'s ``get-env`` tool returns the server's whole
environment and the agent's ``bash`` tool runs ``env``; both inherit the runtime's environment. It
holds canaries no code of ours ever read: a GitHub token in ``GH_TOKEN`` (of a length the runtime's
own masking misses; the model is scripted, so no GitHub model ever asks for it), an API key in a
variable named like one, a database password inside ``DATABASE_URL``, and an AWS access key id and
an ``sk-`` key in variables whose names say nothing (found by their shape). Runs go through the
real runtime from Python, from pytest (a failing test that prints the secrets before any run,
evidence files, JUnit XML, captured output and logs) and from ``copilot-eval run``; then every
file written and everything printed is searched for every canary.
"""

from __future__ import annotations

import base64
import json
import os
import secrets
import string
import subprocess
import sys
import time
from collections.abc import Iterator
from urllib.parse import quote

import pytest

from copilot_eval import CopilotEval, ScriptedModel, run_copilot
from tests.mcp.third_party_servers import everything_server
from tests.redaction.leak_search import leaking_files, leaks, sessions_dir

pytestmark = [pytest.mark.runtime, pytest.mark.slow]

_ALNUM = string.ascii_letters + string.digits


def _random(length: int, alphabet: str = _ALNUM) -> str:
    return "".join(secrets.choice(alphabet) for _ in range(length))


GITHUB_TOKEN = "ghp_" + _random(40)  # the standard length is 36: the runtime's own masking misses this one
API_KEY = f"canary-{_random(12)}-{_random(12)}"  # no shape: found only by its variable's name
DB_PASSWORD = "pw-" + _random(14)
AWS_KEY_ID = "AKIA" + _random(16, string.ascii_uppercase + string.digits)
# The sk- shape needs a digit and a letter (so words such as "sk-learn-style" are left alone); a
# random tail of letters alone (1.5 % of draws) would not be that shape, so the digit is fixed.
SK_KEY = "sk-canary7" + _random(24)
CANARY_ENV = {
    "GH_TOKEN": GITHUB_TOKEN,
    "CANARY_SERVICE_API_KEY": API_KEY,
    "DATABASE_URL": f"postgres://app:{DB_PASSWORD}@db.internal:5432/app",
    "DEPLOY_NOTES": f"rotate {AWS_KEY_ID} next week",
    "SETTINGS_BLOB": f"model=x;key={SK_KEY}",
}
# Registered values are also scrubbed in their wire forms; shapes only as they are.
CANARY_FORMS = {
    form
    for value in (GITHUB_TOKEN, API_KEY, DB_PASSWORD)
    for form in (value, quote(value, safe=""), base64.b64encode(value.encode()).decode())
} | {AWS_KEY_ID, SK_KEY}
MARKERS = ("[redacted:GH_TOKEN]", "[redacted:CANARY_SERVICE_API_KEY]", "[redacted:aws-access-key-id]")
CALLS = [
    {"name": "everything-get-env", "arguments": {}},
    {"name": "bash", "arguments": {"command": "env", "description": "print the environment"}},
]
SCRIPT = {"rules": [{"turns": [{"tool_calls": CALLS}, {"text": "done"}]}]}
CLI = [sys.executable, "-m", "copilot_eval.cli.app"]


@pytest.fixture
def canary_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    for name, value in CANARY_ENV.items():
        monkeypatch.setenv(name, value)
    return {**os.environ, "COLUMNS": "200"}


@pytest.fixture
async def fresh_pool(canary_env) -> Iterator[object]:
    """A pool whose runtimes start after the canaries are set (the shared one may predate them)."""
    from copilot_eval.runtime.process.pool import RuntimePool

    pool = RuntimePool(max_runtimes=1)
    try:
        yield pool
    finally:
        await pool.close()


def _agent(**options: object) -> CopilotEval:
    return CopilotEval(
        model=ScriptedModel.from_dict(SCRIPT),
        mcp_servers={"everything": {"command": everything_server()[0], "args": everything_server()[1:]}},
        timeout_s=120,
        **options,
    )


def _print_environment() -> str:
    """A Python tool that returns its process's environment, as diagnostic tools do."""
    return json.dumps(dict(os.environ))


async def test_a_printed_environment_reaches_no_result_field_or_file(fresh_pool, tmp_path):
    started = time.time()
    agent = _agent(tools=(_print_environment,))
    scripted = {"rules": [{"turns": [{"tool_calls": [*CALLS, {"name": "_print_environment"}]}, {"text": "done"}]}]}
    agent = agent.with_options(model=ScriptedModel.from_dict(scripted))
    result = await run_copilot(agent, "show me the environment", pool=fresh_pool)
    assert result.success, result.error
    calls = {call.name: call for call in result.all_tool_calls}
    assert set(calls) == {"everything-get-env", "bash", "_print_environment"}
    for name, call in calls.items():
        assert call.success, (name, call.error)
        for marker in MARKERS:
            assert marker in call.result, (name, marker, "the echo came back, as a marker")
    assert "[redacted:api-key]" in calls["everything-get-env"].result
    # (The runtime masks a URL's credentials itself; the password is in the leak search below.)
    saved = result.save(tmp_path / "result.json").read_text(encoding="utf-8")
    for text in (result.model_dump_json(), result.summary(), json.dumps(result.raw_events), saved):
        assert leaks(CANARY_FORMS, text) == []
    await fresh_pool.drain_cleanups()  # sessions are closed after the results; scan what stays on disk
    assert leaking_files(CANARY_FORMS, tmp_path, sessions_dir(), since=started) == {}


async def test_a_minimal_environment_passes_on_only_what_the_runtime_needs_and_what_is_named(fresh_pool, monkeypatch):
    monkeypatch.setenv("MYAPP_REGION", "eu-north-9")
    result = await run_copilot(_agent(minimal_env=True, pass_env=("MYAPP_*",)), "environment", pool=fresh_pool)
    assert result.success, result.error
    server_env = json.loads(result.all_tool_calls[0].result)
    shell_env = result.all_tool_calls[1].result
    for name in CANARY_ENV:
        assert name not in server_env and f"{name}=" not in shell_env, name
    assert server_env["MYAPP_REGION"] == "eu-north-9" and "MYAPP_REGION=eu-north-9" in shell_env
    assert server_env["PATH"] == os.environ["PATH"] and server_env["HOME"] == os.environ["HOME"]
    assert result.configuration["environment"] == "minimal + MYAPP_*"
    # The inheriting runtime and the minimal one are two processes: a pool never shares them.
    inherited = await run_copilot(_agent(), "environment", pool=fresh_pool)
    assert "[redacted:GH_TOKEN]" in inherited.all_tool_calls[0].result
    assert inherited.configuration["environment"] == "inherited"
    assert len(fresh_pool.processes()) == 2


INNER_TEST = """
import json, logging, os
from copilot_eval import CopilotEval, ScriptedModel

SERVER = json.loads(os.environ["EVERYTHING_SERVER"])
AGENT = CopilotEval(model=ScriptedModel.from_dict(json.loads(os.environ["CANARY_SCRIPT"])), timeout_s=120,
                    mcp_servers={"everything": {"command": SERVER[0], "args": SERVER[1:]}})


def test_the_secrets_in_a_failing_assertion_before_any_run():
    assert os.environ["GH_TOKEN"] + " " + os.environ["DEPLOY_NOTES"] == "something else"


async def test_a_run_whose_tools_print_the_environment(copilot_eval):
    result = await copilot_eval(AGENT, "print the environment")
    print("raw events:", result.raw_events)
    logging.getLogger("inner").warning("tool said: %s", result.all_tool_calls[0].result)
    assert result.all_tool_calls[1].result == os.environ["CANARY_SERVICE_API_KEY"]
"""


def test_pytest_output_evidence_and_reports_hold_no_secret_of_the_environment(canary_env, pytester, monkeypatch):
    started = time.time()
    monkeypatch.setenv("EVERYTHING_SERVER", json.dumps(everything_server()))
    monkeypatch.setenv("CANARY_SCRIPT", json.dumps(SCRIPT))
    pytester.makepyfile(test_inner=INNER_TEST)
    pytester.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = session\n"
        "asyncio_default_test_loop_scope = session\n"
    )
    outcome = pytester.runpytest_subprocess(
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        "--copilot-evidence-dir",
        "evidence",
        "--junitxml",
        "junit.xml",
        "-rA",
        "--log-level",
        "DEBUG",
        timeout=600,
    )
    printed = "\n".join(outcome.outlines + outcome.errlines)
    outcome.assert_outcomes(failed=2)
    assert leaks(CANARY_FORMS, printed) == [], printed
    assert "[redacted:GH_TOKEN] rotate [redacted:aws-access-key-id] next week" in printed, (
        "a secret printed before any run is scrubbed too (the redactor reads the environment on first use)"
    )
    assert "[redacted:CANARY_SERVICE_API_KEY]" in printed
    assert len(list((pytester.path / "evidence").glob("*.json"))) == 1
    assert leaking_files(CANARY_FORMS, pytester.path, sessions_dir(), since=started) == {}


def test_copilot_eval_run_outputs_hold_no_secret_of_the_environment(canary_env, tmp_path):
    started = time.time()
    (tmp_path / "set.csv").write_text(
        '"conversationNumber","question","response"\n"1","print the environment","done"\n', encoding="utf-8"
    )
    (tmp_path / "script.json").write_text(json.dumps(SCRIPT), encoding="utf-8")
    server = everything_server()
    agent_file = {
        "name": "printer",
        "model": {"scripted": "script.json"},
        "mcp_servers": {"everything": {"command": server[0], "args": server[1:]}},
        "timeout_s": 120,
    }
    (tmp_path / "agent.yaml").write_text(json.dumps(agent_file), encoding="utf-8")  # JSON is YAML
    out = tmp_path / "out"
    done = subprocess.run(
        [*CLI, "run", str(tmp_path / "set.csv"), "--agent", str(tmp_path / "agent.yaml"), "--out", str(out)],
        capture_output=True,
        text=True,
        env=canary_env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert leaks(CANARY_FORMS, done.stdout + done.stderr) == []
    written = (out / "run.json").read_text(encoding="utf-8") + "".join(
        path.read_text(encoding="utf-8") for path in out.glob("evidence/*")
    )
    assert all(marker in written for marker in MARKERS), "the echoes came back, as markers"
    assert leaking_files(CANARY_FORMS, tmp_path, sessions_dir(), since=started) == {}
