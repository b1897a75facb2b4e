"""The agent a surface plays: its file apart from where it is reached (target) and its name."""

from __future__ import annotations

from copilot_eval.runs.fingerprints import agent_fingerprint, played_agent_fingerprint

DRAFT = "name: draft\ntarget:\n  type: directline\n  token_endpoint: http://127.0.0.1:1/draft\ntimeout_s: 10\n"


def _file(folder, name, text):
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_two_targets_of_one_agent_play_the_same_agent(tmp_path):
    draft = _file(tmp_path, "draft.yaml", DRAFT)
    published = _file(tmp_path, "published.yaml", DRAFT.replace("draft", "published"))
    assert agent_fingerprint(draft) != agent_fingerprint(published)  # the files differ ...
    assert played_agent_fingerprint(draft) == played_agent_fingerprint(published)  # ... the agent does not


def test_other_settings_or_another_script_are_another_agent(tmp_path):
    draft = _file(tmp_path, "draft.yaml", DRAFT)
    slower = _file(tmp_path, "slower.yaml", DRAFT.replace("timeout_s: 10", "timeout_s: 20"))
    assert played_agent_fingerprint(draft) != played_agent_fingerprint(slower)
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    agent = "name: shop\nmodel: {scripted: script.yaml}\n"
    first, second = _file(tmp_path / "a", "agent.yaml", agent), _file(tmp_path / "b", "agent.yaml", agent)
    _file(tmp_path / "a", "script.yaml", "rules:\n  - turns: [{text: 'We open at 8.'}]\n")
    _file(tmp_path / "b", "script.yaml", "rules:\n  - turns: [{text: 'Sorry, something went wrong'}]\n")
    assert played_agent_fingerprint(first) != played_agent_fingerprint(second)
