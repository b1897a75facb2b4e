"""Putting an agent's live model behind a cassette, as the pytest options and `copilot-eval run` do.

Only live models (a model name, GitHub-hosted or BYOK) are recorded or replayed; an agent whose
model is already offline (scripted, function, a Replay) is left as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from copilot_eval.models.scripted.prompt import read_chat_request, read_responses_request

from .sources import CassetteChooser, CassetteDir, Recorder, Replay

__all__ = ["cassette_store", "first_prompt", "prompt_chooser", "with_cassette"]


def cassette_store(*, record: str | Path | None, replay: str | Path | None, record_missing: bool = False,
                   cassette: str | CassetteChooser | None) -> CassetteDir | None:
    """The shared cassettes of one test or run, or None when neither recording nor replaying."""
    if record and replay:
        raise ValueError("record and replay exclude each other: give one directory")
    if record:
        return CassetteDir(record, cassette, "record_missing" if record_missing else "record")
    if replay:
        return CassetteDir(replay, cassette, "replay")
    return None


def with_cassette(agent: Any, store: CassetteDir | None, *, default_model: Any = None,
                  default_provider: Any = None) -> Any:
    """``agent`` with its live model recorded to / replayed from ``store`` (unchanged without a store)."""
    model = agent.model if agent.model is not None else default_model
    if store is None or not isinstance(model, str):
        return agent
    provider = agent.provider if agent.provider is not None else default_provider
    if store.mode == "replay":
        wire_api = getattr(provider, "wire_api", None)
        transport = getattr(provider, "transport", None)
        source: Any = Replay(store, model=model, wire_api=wire_api, transport=transport)
    else:
        source = Recorder(model, store, provider=provider)
    return agent.with_options(model=source, provider=None)


def first_prompt(body: dict[str, Any], wire_api: str) -> str:
    """The user prompt of a run's first model request (the runtime's date prefix removed)."""
    try:
        if wire_api == "completions":
            return read_chat_request(body).prompt
        raw = body.get("input") or []
        items = [{"type": "message", "role": "user", "content": raw}] if isinstance(raw, str) else list(raw)
        return read_responses_request(items, body.get("instructions")).prompt
    except (TypeError, AttributeError, KeyError):
        return ""


def prompt_chooser(names: dict[str, str], fallback: str = "unmatched") -> CassetteChooser:
    """Name a run's cassette by its first prompt (e.g. a test set's question -> its case id)."""

    def choose(body: dict[str, Any], wire_api: str) -> str:
        return names.get(first_prompt(body, wire_api).strip(), fallback)

    return choose
