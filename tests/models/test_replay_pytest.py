"""The pytest options end to end: --copilot-record once against a BYOK endpoint, --copilot-replay offline."""

from __future__ import annotations

import json

import pytest

USER_TEST = """
import os
from copilot_eval import ByokProvider, CopilotEval, ScriptedModel

SCRIPT = {"rules": [{"turns": [{"text": "recorded answer to: {prompt}"}]}]}

async def test_answer(copilot_eval):
    prompt = os.environ.get("PROMPT", "hello there")
    if os.environ.get("SERVE"):
        async with ScriptedModel.from_dict(SCRIPT).serve() as server:
            agent = CopilotEval(model="scripted-model", provider=ByokProvider(base_url=server.base_url))
            result = await copilot_eval(agent, prompt)
    else:  # nothing listens here: only a replay can answer
        agent = CopilotEval(model="scripted-model", provider=ByokProvider(base_url="http://127.0.0.1:9/v1"))
        result = await copilot_eval(agent, prompt)
    assert result.success, result.error
    assert result.final_response == "recorded answer to: hello there"
"""


@pytest.mark.runtime
def test_record_then_replay_with_the_pytest_options(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    pytester.makeini("[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n")
    pytester.makepyfile(test_user=USER_TEST)
    cassettes = pytester.path / "cassettes"
    monkeypatch.setenv("SERVE", "1")
    recorded = pytester.runpytest_subprocess(f"--copilot-record={cassettes}", "-p", "no:cacheprovider")
    recorded.assert_outcomes(passed=1)
    recorded.stdout.fnmatch_lines([f"copilot-eval: recorded 1 model call into 1 cassette in {cassettes}"])
    (cassette,) = cassettes.glob("*.jsonl")
    assert cassette.name == "test_user.py_test_answer.jsonl"
    assert json.loads(cassette.read_text().splitlines()[0])["version"] == 1

    monkeypatch.delenv("SERVE")
    replayed = pytester.runpytest_subprocess(
        f"--copilot-replay={cassettes}", "--copilot-no-live-models", "-p", "no:cacheprovider"
    )
    replayed.assert_outcomes(passed=1)
    replayed.stdout.fnmatch_lines(
        [f"copilot-eval: replayed 1 model call from 1 cassette in {cassettes}; no live model was called"]
    )

    monkeypatch.setenv("PROMPT", "hello here")
    changed = pytester.runpytest_subprocess(f"--copilot-replay={cassettes}", "-p", "no:cacheprovider")
    changed.assert_outcomes(failed=1)
    changed.stdout.fnmatch_lines(
        ["*no recorded model call matches this completions request*closest: call 0*body.messages[[]1[]].content*"]
    )


def test_record_and_replay_exclude_each_other(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_nothing="def test_x():\n    pass\n")
    # Refused before anything runs: in this process (a pytest subprocess costs about 2 s of start-up).
    outcome = pytester.runpytest_inprocess("--copilot-record=a", "--copilot-replay=b")
    outcome.stderr.fnmatch_lines(["*--copilot-record and --copilot-replay exclude each other*"])
