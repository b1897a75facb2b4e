"""The run checkpoint: an append-only JSONL file of finished units, fsync'd line by line.

Line one is a header describing the run (set, cases, repeats, graders) so ``--resume`` refuses
to continue a different run. Each later line holds every result of one unit (a single-turn case,
or a whole conversation) so a unit is either fully recorded or not at all. A hard kill can leave
a torn last line; reading drops it and rewrites the file without it before appending again.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from copilot_eval.atomic_write import write_bytes_atomically
from copilot_eval.evalsets import EvalCaseResult
from copilot_eval.redaction import redact
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.untrusted.utf8 import json_text

CHECKPOINT_NAME = LAYOUT.checkpoint


class CheckpointError(ValueError):
    """A checkpoint that does not belong to this run, or that cannot be read."""


def _line(record: dict[str, Any]) -> bytes:
    return (redact(json_text(record, separators=(",", ":"))) + "\n").encode("utf-8")


def _read_lines(path: Path) -> tuple[list[dict[str, Any]], bool]:
    """Parsed complete lines, and whether a torn or unreadable tail was dropped."""
    records: list[dict[str, Any]] = []
    data = path.read_bytes()
    lines = data.split(b"\n")
    torn = lines[-1] != b""  # the last write did not finish its newline
    for number, raw in enumerate(lines[:-1], start=1):
        try:
            records.append(json.loads(raw))
        except ValueError:
            if number == len(lines) - 1:
                torn = True  # a final line cut short, then somehow newline-terminated
                break
            raise CheckpointError(f"{path}: line {number} is not valid JSON; the file was edited or damaged") from None
    return records, torn


class Checkpoint:
    """Appends finished units to ``checkpoint.jsonl`` and reads them back for ``--resume``."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header

    @classmethod
    def start(
        cls, directory: Path, header: dict[str, Any], *, resume: bool
    ) -> tuple[Checkpoint, dict[str, list[EvalCaseResult]]]:
        """Open the checkpoint of ``directory``: fresh, or resumed with the units already finished."""
        path = directory / CHECKPOINT_NAME
        checkpoint = cls(path, header)
        if not path.exists():
            write_bytes_atomically(path, _line({"kind": "header", **header}))
            return checkpoint, {}
        if not resume:
            raise CheckpointError(
                f"{path}: an earlier run is recorded here; pass --resume to continue it, "
                "or choose another output directory"
            )
        records, torn = _read_lines(path)
        if not records or records[0].get("kind") != "header":
            raise CheckpointError(f"{path}: no header line; not a copilot-eval checkpoint")
        stored = {k: v for k, v in records[0].items() if k != "kind"}
        if stored != header:
            differing = sorted(k for k in set(stored) | set(header) if stored.get(k) != header.get(k))
            raise CheckpointError(f"{path}: belongs to a different run (differs in {', '.join(differing)})")
        done: dict[str, list[EvalCaseResult]] = {}
        for record in records[1:]:
            done[record["unit"]] = [EvalCaseResult.model_validate(item) for item in record["results"]]
        if torn:
            # Rewrite without the torn tail so the next append starts on a clean line.
            write_bytes_atomically(path, b"".join(_line(r) for r in records))
        return checkpoint, done

    def append(self, unit: str, results: list[EvalCaseResult]) -> None:
        """Record one finished unit durably (written and fsync'd before returning)."""
        record = {
            "kind": "unit",
            "unit": unit,
            "results": [r.model_dump(mode="json", by_alias=True, exclude_none=True) for r in results],
        }
        with open(self.path, "ab") as handle:
            handle.write(_line(record))
            handle.flush()
            os.fsync(handle.fileno())


__all__ = ["CHECKPOINT_NAME", "Checkpoint", "CheckpointError"]
