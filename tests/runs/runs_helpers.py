"""Shared paths and helpers for run tests: the example stories and small scripted agents."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.models.scripted import ScriptedModel

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
KNOWLEDGE = EXAMPLES / "evalsets" / "knowledge.csv"
CLI = [sys.executable, "-m", "copilot_eval.cli.app"]


def echo_agent(**turn) -> CopilotEval:
    """An agent whose model answers 'answer to: <prompt>' (plus any extra turn fields such as delay_s)."""
    return CopilotEval(name="echo", timeout_s=30,
                       model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "answer to: {prompt}", **turn}]}]}))


def numbered_set(count: int, data_type: EvalDataType = EvalDataType.SINGLE_TURN) -> EvalTestSet:
    """Questions 'q1'..'qN' whose references are exactly what echo_agent answers."""
    return EvalTestSet(name="numbered", data_type=data_type, cases=[
        EvalTestCase(conversation_number=n, question=f"q{n}", response=f"answer to: q{n}") for n in range(1, count + 1)])


@pytest.fixture
def knowledge_csv() -> Path:
    """The example knowledge test set."""
    return KNOWLEDGE
