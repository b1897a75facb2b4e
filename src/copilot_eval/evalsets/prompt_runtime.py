"""How a prompt file's settings reach the Copilot runtime: its ``model`` under the runtime's name, its parameters.

GitHub Models names a model ``publisher/name``; the Copilot runtime asks for ``name`` alone, and
serves only some of GitHub Models' catalogue. This table is the one place the two are joined: a
model GitHub Models and Copilot both serve, under Copilot's name. Anything else (``meta/...``,
``mistral-ai/...``, ``microsoft/phi-4``) has no runtime equivalent and is refused before a run
starts, with a message naming ``--model`` and the agent file's ``model`` as the way to choose one.
Which of these models an account may use is decided by GitHub when the session starts: a model
the account lacks then fails that session with the runtime's own error, recorded as evidence.

The runtime's sessions take no sampling parameters (``temperature``, ``topP``, ``maxTokens``), so
a file's ``modelParameters`` are kept with the set and named once as not applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: GitHub Models id -> the model name the Copilot runtime asks for (as of runtime 1.0.102).
RUNTIME_MODEL_NAMES: dict[str, str] = {
    "openai/gpt-4.1": "gpt-4.1",
    "openai/gpt-4o": "gpt-4o",
    "openai/gpt-4o-mini": "gpt-4o-mini",
    "openai/gpt-5": "gpt-5",
    "openai/gpt-5-mini": "gpt-5-mini",
    "openai/o3": "o3",
    "openai/o3-mini": "o3-mini",
    "openai/o4-mini": "o4-mini",
}


def runtime_model_name(model: str) -> str | None:
    """The runtime's name for a prompt file's ``model`` (a mapped id, or a runtime name written bare); ``None`` if none."""
    name = model.strip()
    if name in RUNTIME_MODEL_NAMES:
        return RUNTIME_MODEL_NAMES[name]
    if name in RUNTIME_MODEL_NAMES.values():
        return name
    lowered = name.lower()
    return RUNTIME_MODEL_NAMES.get(lowered)


def unmapped_model_message(model: str, *, field: str = "model") -> str:
    """Why ``model`` cannot be the session's model, and how to choose one instead."""
    known = ", ".join(sorted(RUNTIME_MODEL_NAMES))
    return (
        f"{field} {model!r} has no Copilot runtime equivalent (mapped: {known}); choose the model with "
        "--model NAME, or an agent file that names a model"
    )


#: modelParameters the runtime's sessions can take (none today); every other one is named as not applied.
APPLIED_PARAMETERS: frozenset[str] = frozenset()


def unapplied_parameters(model_parameters: Mapping[str, Any]) -> str | None:
    """The one line naming the file's modelParameters the runtime does not apply, or ``None`` when there are none."""
    names = [name for name in model_parameters if name not in APPLIED_PARAMETERS]
    if not names:
        return None
    return (
        f"modelParameters {', '.join(names)} not applied: the Copilot runtime's sessions take no sampling "
        "parameters (the answers use the model's own defaults)"
    )


__all__ = [
    "APPLIED_PARAMETERS",
    "RUNTIME_MODEL_NAMES",
    "runtime_model_name",
    "unapplied_parameters",
    "unmapped_model_message",
]
