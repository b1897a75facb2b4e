"""Whether the repeats of a run can differ in the model's answers, and the refusal of replayed repeats.

Repeats measure variance only when each try asks a real model again. A ScriptedModel or a
FunctionModel answers from its script or function, and a Replay from its cassettes: every try
gets the same answers, so pass@k, pass^k and a case's pass rate over its tries are one sample
counted k times. Such a run says so (``repeatsIndependent: false`` and why) instead of passing
off k copies as k samples. A Copilot Studio target is a live platform and its repeats are real.
"""

from __future__ import annotations

from typing import Any

from copilot_eval.runs.target import runtime_agent

_SOURCES = {
    "ScriptedModel": "a ScriptedModel, whose script gives the same answers on every try",
    "FunctionModel": "a FunctionModel, whose function answers in place of a model",
    "Replay": "cassettes replayed from a recording, the same for every try",
}


def repeat_dependence_of(agent: Any) -> str | None:
    """Why repeats of ``agent`` cannot differ in the model's answers; ``None`` when a live model answers each try."""
    runtime = runtime_agent(agent)
    if runtime is None:
        return None  # a target that plays itself (Copilot Studio) is a live platform
    model = runtime.model
    if model is None or isinstance(model, str) or getattr(model, "live", True):
        return None  # a model name (GitHub-hosted or BYOK), a recorder in front of one, or a default model
    kind = type(model).__name__
    source = _SOURCES.get(kind, f"a {kind}, not a live model")
    return f"repeats are not independent: the agent's answers come from {source}"


def refuse_replayed_repeats(repeat: int, *, replaying: bool, allowed: bool, option: str) -> str | None:
    """The refusal of ``--repeat`` above 1 over replayed answers unless ``option`` asks for it; ``None`` when fine."""
    if repeat <= 1 or not replaying or allowed:
        return None
    return (
        f"--repeat {repeat} with replayed answers: every repeat would replay the same recording, so the "
        f"repeats could not differ and pass@k, pass^k and pass rates would count one sample {repeat} times; "
        f"drop --repeat, record again, or give {option} to run them anyway (the run is then marked as not independent)"
    )


__all__ = ["refuse_replayed_repeats", "repeat_dependence_of"]
