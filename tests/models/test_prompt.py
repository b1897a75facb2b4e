"""Reading real runtime requests (saved from runtime 1.0.102): prompt, position, tool result."""

from __future__ import annotations

import json
from pathlib import Path

from copilot_eval.models.wire.prompt import read_chat_request, read_responses_request

FIXTURES = Path(__file__).parent / "fixtures"


def _bodies(name: str) -> list[dict]:
    return [entry["body"] for entry in json.loads((FIXTURES / name).read_text())]


def test_datetime_prefix_is_stripped_and_first_call_is_position_zero():
    view = read_chat_request(_bodies("chat_skill.json")[0])
    assert (view.prompt, view.position, view.last_tool_result, view.prompt_number) == ("use skill please", 0, None, 0)


def test_skill_context_message_is_not_a_new_prompt():
    view = read_chat_request(_bodies("chat_skill.json")[1])
    assert view.prompt == "use skill please"
    assert view.position == 1
    assert view.last_tool_result == 'Skill "greet" loaded successfully. Follow the instructions in the skill context.'


def test_second_prompt_in_a_session_starts_again_at_position_zero():
    first, _, second = (read_chat_request(b) for b in _bodies("chat_skill.json"))
    assert (second.prompt, second.position, second.prompt_number) == ("and a second prompt", 0, 1)
    assert second.conversation != first.conversation


def test_subagent_request_has_its_own_prompt():
    prompts = [read_chat_request(b).prompt for b in _bodies("chat_task.json")]
    assert prompts == ["delegate this", "subtask: say hi", "delegate this"]


def test_responses_parallel_calls_count_as_one_answer():
    first, second = _bodies("responses_parallel.json")
    view = read_responses_request(second["input"], second.get("instructions"))
    assert (view.prompt, view.position) == ("two tools please", 1)
    assert view.last_tool_result.startswith("Parent directory /wd does not exist")
    assert read_responses_request(first["input"]).position == 0


def test_same_conversation_gives_same_digest_across_calls():
    a, b = _bodies("responses_parallel.json")
    assert (
        read_responses_request(a["input"], a["instructions"]).conversation
        == read_responses_request(b["input"], b["instructions"]).conversation
    )
