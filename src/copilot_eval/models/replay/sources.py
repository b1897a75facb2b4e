"""Recorder and Replay: model sources that record a real model's answers to cassettes, and serve them back.

``Recorder(model, DIR)`` forwards every model call to ``model`` (a model name with an optional BYOK
provider, or any model source) and stores each request and answer. ``Replay(DIR)`` answers from
those files through the same request-handler seam, so the real runtime, tools, MCP servers and
capture all run as they did, offline. A directory holds one cassette per test or case
(``cassette=`` names it; a callable chooses it from the first request of each run).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from copilot_eval.models.base import ModelSource, describe
from copilot_eval.models.choice import as_model_source
from copilot_eval.models.wire.provider import in_process_provider

from .cassette import CassetteError, cassette_name, read_cassette
from .store import Cassette, Mode, open_cassette

if TYPE_CHECKING:
    from .endpoint import CassetteEndpoint

# The endpoints import the Copilot SDK (about 0.6 s): each is imported inside the method that builds one (marked "on
# use"), so that building a Recorder or a Replay does not load the SDK.

__all__ = ["CassetteChooser", "CassetteDir", "Recorder", "Replay"]

DEFAULT_CASSETTE = "cassette"
# The replayed session never dials its provider; this key says plainly that it is not a secret.
PLACEHOLDER_API_KEY = "replay-no-key"

CassetteChooser = Callable[[dict[str, Any], str], str]
"""Names the cassette of a run from its first request (body, wire_api), e.g. by the case's question."""


class CassetteDir:
    """The cassettes of one directory in one mode, opened once each and shared by every run (and every
    Recorder or Replay given this same object: the agents of one test share its cassette)."""

    def __init__(self, path: str | Path, cassette: str | CassetteChooser | None, mode: Mode) -> None:
        self.path = Path(path)
        self.cassette = cassette
        self.mode = mode
        self._open: dict[Path, Cassette] = {}

    def file(self, name: str | None = None) -> Path:
        """The cassette file for ``name`` (a ``.jsonl`` path given directly is used as it is)."""
        if self.path.suffix == ".jsonl":
            return self.path
        return self.path / cassette_name(name or DEFAULT_CASSETTE)

    def get(self, name: str | None) -> Cassette:
        """The open cassette for ``name``."""
        file = self.file(name)
        if file not in self._open:
            self._open[file] = open_cassette(file, self.mode)
        return self._open[file]

    def counts(self) -> tuple[int, int, int]:
        """(cassettes opened, model calls recorded into them, calls served from earlier recordings)."""
        opened = list(self._open.values())
        recorded = sum(cassette.added for cassette in opened)
        served = sum(sum(1 for e in cassette.exchanges if e.used) for cassette in opened) - recorded
        return len(opened), recorded, served

    def for_run(self) -> Cassette | Callable[[dict[str, Any], str], Cassette]:
        """A fixed cassette, or a chooser that opens the one the first request names."""
        if callable(self.cassette):
            chooser = self.cassette
            return lambda body, wire_api: self.get(chooser(body, wire_api))
        return self.get(self.cassette)


class Recorder:
    """Forwards model calls to ``model`` and stores each request and answer in a cassette (JSONL)."""

    def __init__(
        self,
        model: Any,
        path: str | Path | CassetteDir,
        *,
        provider: Any = None,
        cassette: str | CassetteChooser | None = None,
        record_missing: bool = False,
    ) -> None:
        self.model: ModelSource = as_model_source(model, provider)
        self.record_missing = record_missing
        mode: Mode = "record_missing" if record_missing else "record"
        self._cassettes = path if isinstance(path, CassetteDir) else CassetteDir(path, cassette, mode)

    @property
    def cassettes(self) -> CassetteDir:
        """Where the calls are recorded (and what was served from there), for the closing line of a run."""
        return self._cassettes

    @property
    def live(self) -> bool:
        """As live as the model it records (a Recorder in front of a real model is live)."""
        return self.model.live

    @property
    def session_model(self) -> str:
        """The recorded model's name."""
        return self.model.session_model

    @property
    def description(self) -> str:
        """Where the answers come from."""
        return f"recording {describe(self.model)} to {self._cassettes.path}"

    def provider_config(self) -> dict[str, Any] | None:
        """The recorded model's provider settings."""
        return self.model.provider_config()

    def endpoint(self, *, working_directory: str | None = None) -> CassetteEndpoint:
        """A per-run handler that forwards to the model (its in-process endpoint or the real one) and records."""
        # on use (see the top): the Copilot SDK
        from .endpoint import CassetteEndpoint

        return CassetteEndpoint(
            self._cassettes.for_run(),
            mode=self._cassettes.mode,
            inner=self.model.endpoint(working_directory=working_directory),
            working_directory=working_directory,
        )

    def __repr__(self) -> str:
        return f"Recorder({self.model!r}, {str(self._cassettes.path)!r})"


class Replay:
    """Answers model calls from recorded cassettes, offline; a request with no recording ends the run."""

    live = False

    def __init__(
        self,
        path: str | Path | CassetteDir,
        *,
        model: str | None = None,
        cassette: str | CassetteChooser | None = None,
        wire_api: str | None = None,
        transport: str | None = None,
    ) -> None:
        self._cassettes = path if isinstance(path, CassetteDir) else CassetteDir(path, cassette, "replay")
        self._model = model
        self._wire_api = wire_api
        self._transport = transport

    @property
    def cassettes(self) -> CassetteDir:
        """Where the answers are served from, for the closing line of a run."""
        return self._cassettes

    @property
    def session_model(self) -> str:
        """The model name the recording used (given, or read from the recorded requests)."""
        if self._model is not None:
            return self._model
        try:
            return str(self._first_recorded().request.get("model") or "replayed-model")
        except CassetteError:
            return "replayed-model"  # provider_config() reports the missing cassette when the run starts

    @property
    def description(self) -> str:
        """Where the answers come from."""
        return f"replay of {self._cassettes.path}"

    def provider_config(self) -> dict[str, Any]:
        """A never-dialled BYOK provider speaking the recorded wire API, so the runtime sends the same requests."""
        wire_api, transport = self._wire_api, self._transport
        if wire_api is None or transport is None:
            first = self._first_recorded()
            wire_api = wire_api or first.wire_api
            transport = transport or ("websockets" if first.transport == "websocket" else "http")
        return in_process_provider(wire_api=wire_api, transport=transport, api_key=PLACEHOLDER_API_KEY)

    def endpoint(self, *, working_directory: str | None = None) -> CassetteEndpoint:
        """A per-run handler answering from the cassette."""
        # on use (see the top): the Copilot SDK
        from .endpoint import CassetteEndpoint

        return CassetteEndpoint(self._cassettes.for_run(), mode="replay", working_directory=working_directory)

    def _first_recorded(self) -> Any:
        files = [self._cassettes.file(None if callable(self._cassettes.cassette) else self._cassettes.cassette)]
        if callable(self._cassettes.cassette) or not files[0].exists():
            files = sorted(self._cassettes.path.glob("*.jsonl")) if self._cassettes.path.is_dir() else files
        for file in files:
            exchanges = read_cassette(file)
            if exchanges:
                return exchanges[0]
        raise CassetteError(
            f"{self._cassettes.path}: no recorded model call to replay "
            "(record first with --copilot-record / --record / Recorder)"
        )

    def __repr__(self) -> str:
        return f"Replay({str(self._cassettes.path)!r})"
