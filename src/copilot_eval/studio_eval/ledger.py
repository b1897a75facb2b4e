"""The runs this tool started, per agent, so that it can say where it stands against the daily limit.

The platform refuses new runs of an agent after about 20 in 24 hours (HTTP 429; a figure from
client messages, not from the reference) and does not say how many are left. Every run the tool
starts is written here (time, environment, bot, test set, run id, draft or published); before a
run and on a 429 the tool says how many it started in the last 24 hours. It counts only this
machine's runs: people and other tools spend the same allowance, which the message says.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.cache_root import cache_root
from copilot_eval.studio_eval.errors import REPORTED_DAILY_RUNS

LEDGER_NAME = "studio-eval-runs.json"
LEDGER_ENV = "COPILOT_EVAL_STUDIO_LEDGER"
WINDOW = timedelta(hours=24)
KEEP = timedelta(days=7)


@dataclass(frozen=True)
class LedgerEntry:
    """One run started by this tool."""

    started_at: str
    environment_id: str
    bot_id: str
    test_set_id: str
    run_id: str
    published: bool


class RunLedger:
    """The ledger file: env ``COPILOT_EVAL_STUDIO_LEDGER``, else ``studio-eval-runs.json`` in the tool's cache folder."""

    def __init__(self, path: Path | None = None) -> None:
        if path is None:
            configured = os.environ.get(LEDGER_ENV)
            path = Path(configured).expanduser() if configured else cache_root() / LEDGER_NAME
        self.path = path

    def entries(self) -> list[LedgerEntry]:
        """Every entry kept (the last seven days); an unreadable file counts as empty."""
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return [LedgerEntry(**item) for item in data if isinstance(item, dict)]
        except (OSError, ValueError, TypeError):
            return []

    def started_recently(self, environment_id: str, bot_id: str, *, now: datetime | None = None) -> list[LedgerEntry]:
        """The runs of this agent the tool started in the last 24 hours, oldest first."""
        since = (now or datetime.now(UTC)) - WINDOW
        return [
            e for e in self.entries() if e.environment_id == environment_id and e.bot_id == bot_id and _when(e) >= since
        ]

    def record(self, entry: LedgerEntry) -> None:
        """Add a started run (entries older than seven days are dropped)."""
        since = datetime.now(UTC) - KEEP
        kept = [e for e in self.entries() if _when(e) >= since] + [entry]
        write_bytes_atomically(self.path, (json.dumps([asdict(e) for e in kept], indent=1) + "\n").encode("utf-8"))


def _when(entry: LedgerEntry) -> datetime:
    try:
        when = datetime.fromisoformat(entry.started_at)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def standing_line(count: int, *, limit: int = REPORTED_DAILY_RUNS) -> str:
    """What the tool knows about the daily allowance, in one sentence."""
    return (
        f"copilot-eval started {count} run(s) of this agent on this machine in the last 24 h "
        f"(clients report a limit of about {limit} per agent per 24 h; runs started elsewhere count too)"
    )


__all__ = ["LEDGER_ENV", "LEDGER_NAME", "LedgerEntry", "RunLedger", "standing_line"]
