"""Answering policies for questions to the user and for sampling: rules, functions, agent files."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval import CopilotEval, FunctionModel, ScriptedModel
from copilot_eval.agent.agent_file import AgentFileError
from copilot_eval.agent.user_answers import UserAnswer, UserRequest, as_reply, scripted_reply
from copilot_eval.models import ByokModel

QUESTION = UserRequest(kind="question", message="Which account should I use?", asked_by="agent", choices=("A-7",))
FORM = UserRequest(kind="form", message="Please provide your name", asked_by="ev")
URL = UserRequest(kind="url", message="Open the link", asked_by="ev", url="https://example.com")


def test_the_first_matching_rule_answers_and_says_which_it_was():
    rules = CopilotEval(
        model="m",
        user_answers=[
            {"when": {"question_contains": "WHICH ACCOUNT"}, "answer": "A-7"},
            {"when": {"kind": "form", "asked_by": "ev"}, "answer": {"name": "Ada"}},
            {"when": {"kind": "url", "question_matches": r"^Open\b"}, "action": "accept"},
        ],
    ).user_answers
    assert scripted_reply(rules, QUESTION).answered_by == "user_answers[0]"
    assert scripted_reply(rules, QUESTION).answer == "A-7"
    assert scripted_reply(rules, FORM).answer == {"name": "Ada"}
    assert (scripted_reply(rules, URL).action, scripted_reply(rules, URL).answered_by) == ("accept", "user_answers[2]")


def test_a_request_no_rule_matches_is_declined():
    reply = scripted_reply((UserAnswer(question_contains="colour", answer="blue"),), QUESTION)
    assert (reply.action, reply.answered_by) == ("decline", "no matching answer: declined")


@pytest.mark.parametrize(
    ("value", "request_", "action", "problem"),
    [
        ("A-7", QUESTION, "accept", None),
        (None, QUESTION, "decline", None),
        ({"name": "Ada"}, FORM, "accept", None),
        (True, URL, "accept", None),
        ({"name": "Ada"}, QUESTION, "decline", "expected text"),
        ("Ada", FORM, "decline", "expected a mapping of form values"),
        (UserAnswer(action="cancel"), FORM, "cancel", None),
    ],
)
def test_what_a_function_returns_means_for_the_request(value, request_, action, problem):
    reply = as_reply(value, request_, answered_by="function f")
    assert reply.action == action
    assert (problem is None and reply.problem is None) or (problem in reply.problem and "function f" in reply.problem)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"when": {"question_contain": "x"}, "answer": "A"}, "when.question_contain: unknown key"),
        ({"when": {"kind": "form"}, "answer": "A"}, "the answer to a form is a mapping"),
        ({"when": {"question_matches": "(open"}}, "not a valid regular expression"),
        ({"answer": "A", "action": "decline"}, "gives no answer"),
        ({"when": {}}, "give an answer"),
        ({"answr": "A"}, "unknown key 'answr'"),
    ],
)
def test_a_bad_rule_is_refused_naming_the_entry(entry, message):
    with pytest.raises(ValueError, match=r"user_answers") as raised:
        CopilotEval(model="m", user_answers=[{"answer": "fine"}, entry])
    assert "[1]" in str(raised.value) and message in str(raised.value)


def test_sampling_takes_decline_a_function_or_a_model_source():
    assert CopilotEval(model="m").sampling == "decline"
    scripted = ScriptedModel.from_dict({"rules": [{"turns": [{"text": "x"}]}]})
    assert CopilotEval(model="m", sampling=scripted).sampling is scripted
    assert callable(CopilotEval(model="m", sampling=lambda request: "x").sampling)
    assert isinstance(CopilotEval(model="m", sampling=FunctionModel(lambda m, t: "x")).sampling, FunctionModel)
    with pytest.raises(ValueError, match="sampling"):
        CopilotEval(model="m", sampling=42)


def test_an_agent_file_gives_user_answers_and_a_sampling_model(tmp_path: Path):
    (tmp_path / "sampler.yaml").write_text("rules:\n  - turns:\n      - text: sampled\n")
    (tmp_path / "agent.yaml").write_text(
        "model: gpt-4.1\n"
        "user_answers:\n"
        "  - when: {question_contains: which account}\n"
        "    answer: A-7\n"
        "  - when: {kind: url}\n"
        "    action: decline\n"
        "sampling: {scripted: sampler.yaml}\n"
    )
    agent = CopilotEval.from_file(tmp_path / "agent.yaml")
    assert [rule.answer for rule in agent.user_answers] == ["A-7", None]
    assert isinstance(agent.sampling, ScriptedModel)
    (tmp_path / "byok.yaml").write_text(
        "model: gpt-4.1\nsampling: {name: llama3.1, provider: {base_url: 'http://127.0.0.1:9/v1'}}\n"
    )
    assert isinstance(CopilotEval.from_file(tmp_path / "byok.yaml").sampling, ByokModel)


def test_a_bad_agent_file_entry_names_the_file_and_field(tmp_path: Path):
    (tmp_path / "agent.yaml").write_text(
        "model: gpt-4.1\nuser_answers:\n  - when: {kind: sometimes}\n    answer: x\nsampling: {scripted: missing.yaml}\n"
    )
    with pytest.raises(AgentFileError) as raised:
        CopilotEval.from_file(tmp_path / "agent.yaml")
    text = str(raised.value)
    assert f"{tmp_path / 'agent.yaml'}: sampling.scripted: file not found" in text
    assert "user_answers: [0]: kind:" in text
