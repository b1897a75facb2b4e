"""A provider that echoes the API key in its error bodies: the key must come back nowhere.

A loopback BYOK endpoint answers 401, 429 or 500 (chosen by the prompt) with a body quoting the
``Authorization`` header, raw, URL-encoded and base64-encoded, and, as gateways that dump their
configuration do, a secret of the environment that nothing of ours ever read (known only by its
variable's name) and a token that no variable holds (known only by its shape). Runs go through
the real runtime, from Python, from pytest (the ``copilot_eval`` fixture, evidence files, JUnit
XML, failing assertions, captured output and logs) and from ``copilot-eval run``; then every file
written and everything printed is searched for each of them in each of its forms.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import quote

import pytest

from copilot_eval import ByokProvider, CopilotEval, run_copilot
from tests.redaction.leak_search import leaking_files, leaks, sessions_dir

ENV = "CANARY_BYOK_KEY"
MARKER = f"[redacted:{ENV}]"
# Characters that URL-encoding changes, so the encoded form is a different string to find.
CANARY = f"sk-canary/{uuid.uuid4().hex[:12]}+{uuid.uuid4().hex[:12]}="
NAMED_ENV = "CANARY_GATEWAY_SECRET"  # registered by its name only: no code of ours reads it
NAMED = f"gateway-{uuid.uuid4().hex}"
SHAPED = "ghp_" + uuid.uuid4().hex[:20] + uuid.uuid4().hex[:16]  # a GitHub token's shape, in no variable
CANARY_FORMS = {
    form
    for value in (CANARY, NAMED)
    for form in (value, quote(value, safe=""), base64.b64encode(value.encode()).decode())
} | {SHAPED}
STATUSES = (401, 429, 500)
CLI = [sys.executable, "-m", "copilot_eval.cli.app"]
pytestmark = [pytest.mark.runtime, pytest.mark.slow]
# Runs end on their own once the runtime gives up retrying (3-7 s); timeout_s is only a cap, wide
# enough for a loaded machine that is slow to start a runtime (a timeout would hide the echo).


class _EchoingProvider(BaseHTTPRequestHandler):
    """Every request fails; the body quotes the credentials, as some gateways do."""

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0)).decode("utf-8", "replace")
        status = next((code for code in STATUSES if f"case-{code}" in body), 500)
        auth = self.headers.get("Authorization", "")
        key = auth.removeprefix("Bearer ")
        message = (
            f"credentials rejected: Authorization: {auth}; key={quote(key, safe='')}; "
            f"basic={base64.b64encode(key.encode()).decode()}; "
            f"gateway config: secret={os.environ.get(NAMED_ENV)} upstream={SHAPED}"
        )
        payload = json.dumps({"error": {"message": message, "type": "echo", "code": str(status)}}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Retry-After", "0")  # the runtime honours it: retries without backoff
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args: object) -> None:
        """Quiet: the test reads what the tool prints, not the server."""


@pytest.fixture(scope="module")
def echo_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoingProvider)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


@pytest.fixture
def canary_env(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    monkeypatch.setenv(ENV, CANARY)
    monkeypatch.setenv(NAMED_ENV, NAMED)
    return {**os.environ, "COLUMNS": "200"}


@pytest.fixture
async def fresh_pool(canary_env) -> Iterator[object]:
    """A pool whose runtime starts after the canaries are set: its environment is read then."""
    from copilot_eval.runtime.process.pool import RuntimePool

    pool = RuntimePool(max_runtimes=3)
    try:
        yield pool
    finally:
        await pool.close()


async def test_result_error_summary_events_and_evidence_file_hold_no_key(echo_url, fresh_pool, tmp_path):
    started = time.time()
    agent = CopilotEval(model="echo-model", provider=ByokProvider(base_url=echo_url, api_key_env=ENV), timeout_s=120)
    results = await asyncio.gather(*(run_copilot(agent, f"case-{code} hello", pool=fresh_pool) for code in STATUSES))
    for code, result in zip(STATUSES, results, strict=True):
        assert result.success is False, code
        saved = result.save(tmp_path / f"{code}.json").read_text()
        for text in (result.model_dump_json(), result.summary(), str(result.error), saved):
            assert leaks(CANARY_FORMS, text) == [], (code, text)
        assert MARKER in json.dumps(result.raw_events), f"HTTP {code}: the echo came back, as a marker"
    assert MARKER in results[1].error and MARKER in results[2].error, "429 and 500 errors quote the body"
    assert f"secret=[redacted:{NAMED_ENV}] upstream=[redacted:github-token]" in results[2].error
    await fresh_pool.drain_cleanups()  # sessions are closed after the results; scan what stays on disk
    assert leaking_files(CANARY_FORMS, tmp_path, sessions_dir(), since=started) == {}


INNER_TEST = """
import logging, os
from copilot_eval import ByokProvider, CopilotEval

AGENT = CopilotEval(model="echo-model", timeout_s=120,
                    provider=ByokProvider(base_url=os.environ["ECHO_URL"], api_key_env="{env}"))

async def _run(copilot_eval, code):
    result = await copilot_eval(AGENT, f"case-{{code}} hello")
    print("raw events:", result.raw_events)
    logging.getLogger("inner").warning("run failed: %s", result.error)
    return result

async def test_401(copilot_eval):
    result = await _run(copilot_eval, 401)
    assert result.success, result.error

async def test_429(copilot_eval):
    result = await _run(copilot_eval, 429)
    assert result.error is None

async def test_500(copilot_eval):
    result = await _run(copilot_eval, 500)
    assert result.success, result.summary()

def test_the_key_itself_in_a_failing_assertion():
    assert os.environ["{env}"] == "something else"
"""


def test_pytest_output_evidence_and_reports_hold_no_key(echo_url, canary_env, pytester):
    started = time.time()
    pytester.makepyfile(test_inner=INNER_TEST.format(env=ENV))
    pytester.makeini(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = session\n"
        "asyncio_default_test_loop_scope = session\n"
    )
    os.environ["ECHO_URL"] = echo_url
    try:
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
    finally:
        del os.environ["ECHO_URL"]
    printed = "\n".join(outcome.outlines + outcome.errlines)
    outcome.assert_outcomes(failed=4)
    assert leaks(CANARY_FORMS, printed) == [], printed
    assert f"Last error: 429 credentials rejected: Authorization: Bearer {MARKER}" in printed, (
        "the echoed key was shown in the failure text, as a marker"
    )
    assert f"[redacted:{NAMED_ENV}]" in printed and "[redacted:github-token]" in printed
    assert len(list((pytester.path / "evidence").glob("*.json"))) == 3
    assert leaking_files(CANARY_FORMS, pytester.path, sessions_dir(), since=started) == {}


def test_copilot_eval_run_outputs_hold_no_key(echo_url, canary_env, tmp_path):
    started = time.time()
    (tmp_path / "set.csv").write_text(
        '"conversationNumber","question","response"\n'
        + "".join(f'"{n}","case-{code} hello","fine"\n' for n, code in enumerate(STATUSES, start=1)),
        encoding="utf-8",
    )
    (tmp_path / "agent.yaml").write_text(
        f"name: echo\nmodel: {{name: echo-model, provider: {{base_url: '{echo_url}', api_key_env: {ENV}}}}}\n"
        "timeout_s: 120\n",
        encoding="utf-8",
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [
            *CLI,
            "run",
            str(tmp_path / "set.csv"),
            "--agent",
            str(tmp_path / "agent.yaml"),
            "--out",
            str(out),
            "--grader",
            "exact",
            "--concurrency",
            "3",
        ],
        capture_output=True,
        text=True,
        env=canary_env,
        timeout=600,
    )
    # Every case meets an HTTP error on purpose: nothing could be graded, the platform's row of the table.
    assert done.returncode == 3, done.stderr
    assert leaks(CANARY_FORMS, done.stdout + done.stderr) == []
    assert {"run.json", "results.csv"} <= {p.name for p in out.iterdir()}
    assert MARKER in (out / "run.json").read_text() + "".join(p.read_text() for p in out.glob("evidence/*"))
    assert leaking_files(CANARY_FORMS, tmp_path, sessions_dir(), since=started) == {}
