"""Shared paths and helpers for run tests: the example stories and small scripted agents."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.models.scripted import ScriptedModel
from copilot_eval.runs.plan import PlannedRun, plan_run
from copilot_eval.runs.settings import RunSettings

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
KNOWLEDGE = EXAMPLES / "evalsets" / "knowledge.csv"
CLI = [sys.executable, "-m", "copilot_eval.cli.app"]


def cli_here(*args: object) -> subprocess.CompletedProcess[str]:
    """A `copilot-eval` command in this process, for input it refuses before anything runs.

    A subprocess costs about 0.9 s of start-up each; tests of what only a real process shows (exit
    codes through the shell, signals, the console of a pipe) start one.
    """
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app

    words = [str(arg) for arg in args]
    done = CliRunner().invoke(app, words, env={"COLUMNS": "200"})
    return subprocess.CompletedProcess(words, done.exit_code, done.stdout, done.stderr)


def planned(set_path: Path, agent_path: Path | None, out: Path, **settings: object) -> PlannedRun:
    """What `copilot-eval run SET [--agent AGENT] --out OUT ...` plans before it plays: the path users take."""
    return plan_run(set_path, [agent_path] if agent_path is not None else [], RunSettings.of(out=out, **settings))


def echo_agent(**turn) -> CopilotEval:
    """An agent whose model answers 'answer to: <prompt>' (plus any extra turn fields such as delay_s)."""
    return CopilotEval(
        name="echo",
        timeout_s=30,
        model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "answer to: {prompt}", **turn}]}]}),
    )


def numbered_set(count: int, data_type: EvalDataType = EvalDataType.SINGLE_TURN) -> EvalTestSet:
    """Questions 'q1'..'qN' whose references are exactly what echo_agent answers."""
    return EvalTestSet(
        name="numbered",
        data_type=data_type,
        cases=[
            EvalTestCase(conversation_number=n, question=f"q{n}", response=f"answer to: q{n}")
            for n in range(1, count + 1)
        ],
    )


def conversation_set(*conversations: list[str]) -> EvalTestSet:
    """A Conversation set: conversation i+1 asks the given questions in order; references are echo_agent's answers."""
    return EvalTestSet(
        name="chats",
        data_type=EvalDataType.CONVERSATION,
        cases=[
            EvalTestCase(conversation_number=number, question=q, response=f"answer to: {q}")
            for number, questions in enumerate(conversations, start=1)
            for q in questions
        ],
    )


@pytest.fixture
def knowledge_csv() -> Path:
    """The example knowledge test set."""
    return KNOWLEDGE


def write_interruptible_set(folder: Path, agent_name: str) -> None:
    """A single-turn set of 8 cases plus its scripted agent: cases 1-3 answer at once, 4-8 take
    1 s each, so an interrupt or a kill lands with some cases finished and some running."""
    (folder / "script.yaml").write_text(
        "rules:\n"
        "  - when: {prompt_matches: 'slow'}\n    turns: [{text: 'answer to: {prompt}', delay_s: 1}]\n"
        "  - turns: [{text: 'answer to: {prompt}'}]\n",
        encoding="utf-8",
    )
    (folder / "agent.yaml").write_text(f"name: {agent_name}\nmodel: {{scripted: script.yaml}}\ntimeout_s: 30\n")
    rows = ['"question","expectedResponse"'] + [
        f'"q{n}{" slow" if n > 3 else ""}","answer to: q{n}{" slow" if n > 3 else ""}"' for n in range(1, 9)
    ]
    (folder / "set.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def checkpoint_units(checkpoint: Path) -> list[str]:
    """Unit keys recorded in a run's checkpoint (a half-written last line is not counted)."""
    lines = checkpoint.read_bytes().split(b"\n")
    return [json.loads(line)["unit"] for line in lines[1:] if line.strip() and line.endswith(b"}")]
