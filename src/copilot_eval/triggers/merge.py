"""The ``triggers.json`` of a merged trigger run: the shards' plays joined, the figures computed again over all of them.

``copilot-eval merge`` joins the shards' run folders (run.json, evidence) as for any sharded run;
when the shards are trigger runs (``triggers --shard I/N``), this computes the merged folder's
``triggers.json`` (``merge_trigger_documents``), which the merge hands to the finisher as one of the
folder's data files, so its report has the confusion matrix and the per-skill table. The figures
are ``summarise_triggers`` over the union of the plays and of the prompts the shards played, so a
complete merge has the figures of one unsharded run of the same plays, and ``merge
--min-precision/--min-recall`` judges them as ``triggers`` judges its own (``trigger_verdict`` over
``MergedTriggers.figures``). The shards must have played one trigger set on one catalogue with the
same runs, threshold and stop-at-choice; every disagreement is a problem, listed together, and
nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from copilot_eval.bounded_json import load_json_file
from copilot_eval.reports.html_triggers import MAX_TRIGGERS_BYTES, TRIGGERS_JSON
from copilot_eval.triggers.figures import NOT_RUN, PlayRecord, TriggerFigures, summarise_triggers
from copilot_eval.triggers.gates import TriggerGates, parse_gate
from copilot_eval.triggers.record import TRIGGERS_SCHEMA_VERSION
from copilot_eval.triggers.trigger_set import TriggerPrompt

__all__ = [
    "MergedTriggers",
    "check_trigger_documents",
    "has_trigger_documents",
    "merge_trigger_documents",
    "merged_trigger_gates",
]

# What every shard must agree on: a shard of another set, catalogue or setting is no part of this run.
_AGREE = {
    "trigger set": lambda d: json.dumps(d["triggerSet"], sort_keys=True),
    "catalogue (names and description digests)": lambda d: json.dumps(
        sorted((e["kind"], e["name"], e["descriptionSha256"]) for e in d["catalogue"])
    ),
    "runs per prompt": lambda d: d["runs"],
    "stop at choice": lambda d: d["stopAtChoice"],
    "threshold": lambda d: d["figures"]["threshold"],
}


def has_trigger_documents(folders: Sequence[Path]) -> bool:
    """Whether any of ``folders`` (shard run folders) holds a ``triggers.json``."""
    return any((Path(folder) / TRIGGERS_JSON).is_file() for folder in folders)


def _read(folder: Path) -> dict[str, Any]:
    path = folder / TRIGGERS_JSON
    if not path.is_file():
        raise ValueError(f"{folder}: no {TRIGGERS_JSON}: a trigger run cannot be merged with a test-set run")
    document = load_json_file(path, max_bytes=MAX_TRIGGERS_BYTES)
    if not isinstance(document, dict) or document.get("schemaVersion") != TRIGGERS_SCHEMA_VERSION:
        raise ValueError(f"{path}: not a triggers.json of schema {TRIGGERS_SCHEMA_VERSION}")
    return document


def _prompt(entry: dict[str, Any]) -> TriggerPrompt:
    return TriggerPrompt(
        number=int(entry["number"]),
        prompt=str(entry["prompt"]),
        expected=str(entry["expected"]),
        tags=tuple(str(tag) for tag in entry.get("tags") or ()),
    )


def check_trigger_documents(folders: Sequence[Path]) -> list[dict[str, Any]]:
    """Every shard folder's ``triggers.json``, read and checked to be parts of one run; ValueError lists every problem."""
    documents, problems = [], []
    for folder in folders:
        try:
            documents.append(_read(Path(folder)))
        except (OSError, ValueError) as error:
            problems.append(str(error))
    if not problems:
        for what, key in _AGREE.items():
            try:
                seen = {str(key(d)) for d in documents}
            except (KeyError, TypeError) as error:
                problems.append(f"a {TRIGGERS_JSON} lacks {error}: written by another version")
                break
            if len(seen) > 1:
                problems.append(f"the shards' {TRIGGERS_JSON} differ in their {what}: they are not parts of one run")
    if problems:
        raise ValueError("\n".join(problems))
    return documents


def _joined(documents: Sequence[dict[str, Any]]) -> tuple[list[PlayRecord], TriggerFigures]:
    """Every play of ``documents`` (in prompt and try order) and the figures over all of them."""
    first = documents[0]
    prompts: dict[int, TriggerPrompt] = {}
    plays: list[PlayRecord] = []
    try:
        for document in documents:
            prompts.update((p.number, p) for p in map(_prompt, document["figures"]["prompts"]))
            plays += [PlayRecord.from_dict(play) for play in document["plays"]]
        sample = first["figures"]["sampleSize"]["difference"]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"a shard's {TRIGGERS_JSON} is malformed ({error!r}): written by another version") from None
    plays.sort(key=lambda play: (play.number, play.repeat))
    figures = summarise_triggers(
        [prompts[n] for n in sorted(prompts)],
        plays,
        names=tuple(first["triggerSet"]["names"]),
        threshold=float(first["figures"]["threshold"]),
        detect_difference=float(sample),
    )
    return plays, figures


@dataclass(frozen=True)
class MergedTriggers:
    """The merged folder's ``triggers.json`` (as a document) and the figures over every shard's plays."""

    document: dict[str, Any]
    figures: TriggerFigures

    def text(self) -> str:
        """The document as ``triggers.json`` holds it (the layout ``triggers.record`` writes)."""
        return json.dumps(self.document, indent=2, ensure_ascii=False) + "\n"


def merge_trigger_documents(folders: Sequence[Path]) -> MergedTriggers:
    """The merged ``triggers.json`` of the shard folders' own, written by no one here; ValueError lists every problem."""
    documents = check_trigger_documents(folders)
    first = documents[0]
    plays, figures = _joined(documents)
    shards = sorted((d["shard"]["index"], d["shard"]["count"]) for d in documents if d.get("shard"))
    reached = [r for d in documents if (r := (d.get("budget") or {}).get("reached"))]
    executors = sorted({d["executor"] for d in documents if d.get("executor")})
    merged = {
        **{key: first[key] for key in ("schemaVersion", "triggerSet", "runs", "stopAtChoice", "catalogue")},
        "shard": None,
        "merge": {"shards": [index for index, _ in shards], "shardCount": shards[0][1] if shards else None},
        "executor": "+".join(executors) or None,
        "budget": {"reached": "; ".join(reached) or None, "notRun": sum(1 for p in plays if p.kind == NOT_RUN)},
        "figures": figures.to_dict(),
        "plays": [play.to_dict() for play in plays],  # evidence paths stay evidence/NAME: merge copies them there
    }
    return MergedTriggers(merged, figures)


def merged_trigger_gates(
    min_precision: Sequence[str] | None, min_recall: Sequence[str] | None, *, triggers: bool
) -> TriggerGates:
    """``merge``'s ``--min-precision``/``--min-recall`` as gates; a ValueError when the shards are no trigger run."""
    if (min_precision or min_recall) and not triggers:
        raise ValueError(
            "--min-precision/--min-recall gate a merged trigger run (shards of `copilot-eval triggers --shard`); "
            "these shards are test-set runs: gate them with --fail-under or --max-errors"
        )
    return TriggerGates(
        min_precision=parse_gate(list(min_precision or []), "--min-precision"),
        min_recall=parse_gate(list(min_recall or []), "--min-recall"),
    )
