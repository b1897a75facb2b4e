"""Unknown keys in the files people write are answered with the nearest known key, the same way everywhere."""

from __future__ import annotations

import pytest

from copilot_eval.agent.user_answers import UserAnswer
from copilot_eval.suggest import closest, unknown_key, unknown_keys
from copilot_eval.targets.agent import agent_from_data
from copilot_eval.targets.config import TargetConfigError


def test_other_spellings_and_typos_find_their_key_and_strangers_find_none():
    assert closest("mcpServers", ["mcp_servers", "model"]) == "mcp_servers"
    assert closest("timout_s", ["timeout_s", "name"]) == "timeout_s"
    assert closest("colour", ["conversation", "turn", "steps"]) is None
    assert unknown_key("modle", ["model", "name"]) == "unknown key 'modle' (did you mean 'model'?)"
    assert unknown_keys(["tol", "args"], ["tool", "args"], what="step key") == (
        "unknown step key(s) 'tol' (did you mean 'tool'?) (expected tool, args)"
    )
    assert unknown_keys(["tool"], ["tool"]) is None


def test_a_copilot_studio_target_file_suggests_its_keys():
    with pytest.raises(TargetConfigError, match=r"unknown field\(s\) \['timout_s'\] \(did you mean 'timeout_s'\?\)"):
        agent_from_data({"target": {"type": "directline", "token_endpoint": "https://x"}, "timout_s": 5}, "a.yaml")
    with pytest.raises(TargetConfigError, match=r"\['tokenEndpoint'\] \(did you mean 'token_endpoint'\?\)"):
        agent_from_data({"target": {"type": "directline", "tokenEndpoint": "https://x"}}, "a.yaml")


def test_a_user_answer_rule_suggests_its_keys():
    with pytest.raises(ValueError, match=r"unknown key 'answr' \(did you mean 'answer'\?\)"):
        UserAnswer.from_entry({"answr": "A"})
    with pytest.raises(ValueError, match=r"when.question_contain: unknown key 'question_contain' \(did you mean"):
        UserAnswer.from_entry({"when": {"question_contain": "x"}, "answer": "A"})
