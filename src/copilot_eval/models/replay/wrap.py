"""Putting an agent's live model behind a cassette, as the pytest options and `copilot-eval run` do.

Only live models (a model name, GitHub-hosted or BYOK) are recorded or replayed; an agent whose
model is already offline (scripted, function, a Replay) is left as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from copilot_eval.models.wire.prompt import read_chat_request, read_responses_request

from .sources import CassetteChooser, CassetteDir, Recorder, Replay

__all__ = [
    "cassette_store",
    "cassette_summary",
    "first_prompt",
    "prompt_chooser",
    "with_cassette",
    "with_test_set_cassettes",
]


def cassette_store(
    *,
    record: str | Path | None,
    replay: str | Path | None,
    record_missing: bool = False,
    cassette: str | CassetteChooser | None,
) -> CassetteDir | None:
    """The shared cassettes of one test or run, or None when neither recording nor replaying."""
    if record and replay:
        raise ValueError("record and replay exclude each other: give one directory")
    if record:
        return CassetteDir(record, cassette, "record_missing" if record_missing else "record")
    if replay:
        return CassetteDir(replay, cassette, "replay")
    return None


def cassette_summary(stores: Iterable[CassetteDir]) -> list[str]:
    """One line per cassette directory saying what was recorded there or served from it."""
    totals: dict[tuple[Path, str], list[int]] = {}
    for store in stores:
        folder = store.path.parent if store.path.suffix == ".jsonl" else store.path
        counts = totals.setdefault((folder, store.mode), [0, 0, 0])
        for index, value in enumerate(store.counts()):
            counts[index] += value
    lines = []
    for (folder, mode), (opened, recorded, served) in totals.items():
        files = f"{opened} cassette{'' if opened == 1 else 's'} in {folder}"
        if mode == "replay":
            lines.append(f"replayed {_calls(served)} from {files}; no live model was called")
        elif mode == "record_missing":
            lines.append(f"recorded {_calls(recorded)} missing from {files}; {_calls(served)} served from them")
        else:
            lines.append(f"recorded {_calls(recorded)} into {files}")
    return lines


def _calls(count: int) -> str:
    return f"{count} model call{'' if count == 1 else 's'}"


def with_cassette(
    agent: Any, store: CassetteDir | None, *, default_model: Any = None, default_provider: Any = None
) -> Any:
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


def with_test_set_cassettes(
    agent: Any,
    test_set: Any,
    *,
    record: str | Path | None,
    replay: str | Path | None,
    record_missing: bool = False,
    prompt_of: Callable[[Any], str] | None = None,
) -> Any:
    """``agent`` recording to / replaying from one cassette per session: ``case<N>``, N the number of the
    case whose question the session starts with (a whole conversation is named by its first case).
    ``prompt_of`` is what a case's session is asked first, when that is not its question (a prompt
    file's row with earlier messages).

    ValueError naming the option for a combination that cannot work (for `copilot-eval run`).
    """
    if record_missing and not record:
        raise ValueError("--record-missing needs --record DIR")
    if record and replay:
        raise ValueError("--record and --replay exclude each other: give one of them")
    names: dict[str, str] = {}
    for case in sorted(test_set.cases, key=lambda case: case.conversation_number):
        asked = prompt_of(case) if prompt_of is not None else case.question
        names.setdefault(asked.strip(), f"case{case.conversation_number}")
    store = cassette_store(record=record, replay=replay, record_missing=record_missing, cassette=prompt_chooser(names))
    wrapped = with_cassette(agent, store)
    if wrapped is agent:
        raise ValueError(
            "--record/--replay: the agent's model is not a live model (a model name, GitHub-hosted or "
            "BYOK); scripted and function models need no cassette"
        )
    return wrapped
