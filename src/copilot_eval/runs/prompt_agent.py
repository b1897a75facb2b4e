"""The agent that plays a prompt file: its model, and each case's session with the row's system message.

The session model is, in this order: ``--model``, the agent file's ``model``, the prompt file's
``model`` mapped to the runtime's name (``evalsets.prompt_runtime``); a prompt file's model
with no runtime equivalent is refused before anything runs. Without an agent file the agent is
the Copilot runtime with its defaults. Each case's session gets the row's system message (and
the answer format the file asks for) as its instructions, in place of the agent file's. The
runtime takes no sampling parameters: ``modelParameters`` are named once as not applied
(``evalsets.prompt_runtime.unapplied_parameters``).
"""

from __future__ import annotations

from typing import Any

from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalTestCase
from copilot_eval.evalsets.prompt_cases import session_instructions
from copilot_eval.evalsets.prompt_model import PromptFileRecord
from copilot_eval.evalsets.prompt_runtime import runtime_model_name, unmapped_model_message
from copilot_eval.runs.target import runtime_agent


class PromptAgentError(ValueError):
    """The prompt file's model or settings cannot be played with this agent (the message says what to change)."""


def prompt_agent(agent: Any, record: PromptFileRecord, *, model: str | None = None, name: str | None = None) -> Any:
    """The agent a prompt file is played with: ``agent`` (or a default one) with the session model chosen."""
    if agent is not None and runtime_agent(agent) is None:  # a Copilot Studio target
        if model is not None:
            raise PromptAgentError("--model: a Copilot Studio target chooses its own model")
        return agent
    base = agent if agent is not None else CopilotEval(name=name or "prompt-file")
    if model is not None:
        return base.with_options(model=model)
    if base.model is not None:
        return base
    if not record.model:
        raise PromptAgentError(
            "the prompt file names no model and the agent has none: give --model NAME, or an agent file with model:"
        )
    mapped = runtime_model_name(record.model)
    if mapped is None:
        raise PromptAgentError(unmapped_model_message(record.model))
    return base.with_options(model=mapped)


def session_agent(agent: Any, case: EvalTestCase) -> Any:
    """``agent`` as it plays ``case``: with the row's system message as instructions when the case has one."""
    runtime = runtime_agent(agent)
    if case.prompt is None or runtime is None:
        return agent
    instructions = session_instructions(case)
    if instructions is None:
        return agent
    return runtime.with_options(instructions=instructions)


__all__ = ["PromptAgentError", "prompt_agent", "session_agent"]
