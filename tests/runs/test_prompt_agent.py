"""The agent a prompt file is played with: which model, which instructions, which cassette (no runtime started)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import load_prompt_file
from copilot_eval.evalsets.prompt_cases import played_prompt
from copilot_eval.models.replay.wrap import with_test_set_cassettes
from copilot_eval.runs.prepare import PrepareError
from copilot_eval.runs.prompt_agent import PromptAgentError, prompt_agent, session_agent
from tests.runs.runs_helpers import planned

FILE = """
    model: openai/gpt-4.1
    messages:
      - role: system
        content: You are {{persona}}.
      - role: user
        content: Earlier {{topic}}
      - role: assistant
        content: Noted.
      - role: user
        content: "Now {{topic}}?"
    testData:
      - {name: one, persona: a pirate, topic: ships}
      - {persona: a cook, topic: soup}
    evaluators:
      - name: says it
        string: {contains: "{{topic}}"}
"""


@pytest.fixture
def prompt_path(tmp_path: Path) -> Path:
    path = tmp_path / "chat.prompt.yml"
    path.write_text(textwrap.dedent(FILE), encoding="utf-8")
    return path


def test_the_session_model_is_model_then_agent_file_then_the_prompt_files(prompt_path, tmp_path):
    test_set, problems, _ = load_prompt_file(prompt_path)
    assert problems == []
    record = test_set.prompt_file
    assert prompt_agent(None, record).model == "gpt-4.1"  # openai/gpt-4.1, as the runtime names it
    assert prompt_agent(CopilotEval(model="gpt-5"), record).model == "gpt-5"
    assert prompt_agent(CopilotEval(model="gpt-5"), record, model="o3").model == "o3"
    unmapped = record.model_copy(update={"model": "meta/llama-3.3-70b-instruct"})
    with pytest.raises(PromptAgentError, match="has no Copilot runtime equivalent"):
        prompt_agent(None, unmapped)
    assert prompt_agent(None, unmapped, model="gpt-4.1").model == "gpt-4.1"


def test_each_case_is_played_with_its_rows_system_message(prompt_path):
    test_set, _, _ = load_prompt_file(prompt_path)
    agent = CopilotEval(model="gpt-4.1", instructions="the agent file's")
    first, second = (session_agent(agent, case) for case in test_set.cases)
    assert (first.instructions, second.instructions) == ("You are a pirate.", "You are a cook.")
    assert played_prompt(test_set.cases[1]).endswith("Now answer this message:\n\nNow soup?")


def test_prepare_runs_a_prompt_file_without_an_agent_file(prompt_path, tmp_path):
    plan = planned(prompt_path, None, tmp_path / "out")
    assert plan.surfaces[0].agent.model == "gpt-4.1"
    assert [g.name for g in plan.settings.grade.graders] == ["says it"]
    assert plan.fingerprints.agent is not None  # the chosen model is part of the agent's fingerprint
    csv = tmp_path / "set.csv"
    csv.write_text("question,expectedResponse\nHi,Hello\n", encoding="utf-8")
    with pytest.raises(PrepareError, match="--agent: give the agent file"):
        planned(csv, None, tmp_path / "out")
    with pytest.raises(PrepareError, match=r"--var: .* is not a prompt file"):
        planned(csv, None, tmp_path / "out", var=["a=b"])
    with pytest.raises(PrepareError, match="--prompt-pass-score: applies to prompt files only"):
        planned(csv, _agent_file(tmp_path), tmp_path / "out", prompt_pass_score=["0.5"])


def _agent_file(folder: Path) -> Path:
    path = folder / "agent.yaml"
    path.write_text("name: a\nmodel: gpt-4.1\n", encoding="utf-8")
    return path


def test_cassettes_are_named_by_the_prompt_a_session_is_asked(prompt_path, tmp_path):
    test_set, _, _ = load_prompt_file(prompt_path)
    agent = with_test_set_cassettes(
        CopilotEval(model="gpt-4.1"), test_set, record=tmp_path / "tapes", replay=None, prompt_of=played_prompt
    )
    choose = agent.model._cassettes.cassette  # the chooser the recorder names its cassettes with
    body = {
        "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": played_prompt(test_set.cases[1])}]
    }
    assert choose(body, "completions") == "case2"


def test_run_and_the_pytest_collector_refuse_instructions_for_a_studio_target_alike(
    prompt_path, tmp_path, pytester: pytest.Pytester
):
    # Both build a set's agent with runs.prepare.set_agent: one rule, each naming its own option.
    target = tmp_path / "studio.yaml"
    target.write_text("name: bot\ntarget:\n  type: directline\n  token_endpoint: http://127.0.0.1:9/token\n")
    with pytest.raises(PrepareError, match=r"^--agent .*studio.yaml: a Copilot Studio target takes no instructions"):
        planned(prompt_path, target, tmp_path / "out")
    pytester.makefile(".prompt.yml", chat=textwrap.dedent(FILE))
    outcome = pytester.runpytest("-p", "no:cacheprovider", "--collect-only", f"--copilot-agent={target}")
    assert "--copilot-agent: a Copilot Studio target takes no instructions" in outcome.stdout.str()
    assert outcome.ret != 0
