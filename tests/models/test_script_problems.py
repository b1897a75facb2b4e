"""A scripted-model file names every problem at once, not only its first."""

from __future__ import annotations

import pytest

from copilot_eval.models.scripted import InvalidScriptError
from copilot_eval.models.scripted.script import load_script


def test_every_rule_and_turn_problem_is_named(tmp_path):
    script = tmp_path / "script.yaml"
    script.write_text(
        "rules:\n"
        "  - when: {prompt_matches: '('}\n"
        "    turns: [{text: hi}]\n"
        "  - turns: [{txt: hi}, {text: ok}, 3]\n"
        "  - turns: []\n",
        encoding="utf-8",
    )
    with pytest.raises(InvalidScriptError) as raised:
        load_script(script)
    message = str(raised.value)
    for where in ("rules[0].when.prompt_matches", "rules[1].turns[0]", "rules[1].turns[2]", "rules[2].turns"):
        assert f"{script}: {where}" in message, message
