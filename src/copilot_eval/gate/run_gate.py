"""Bless a run folder as a baseline, and gate a run folder against one: the two calls the commands make.

``bless_folder`` reads the folder, stores its run in the history (once) and makes it the baseline
of a name, with the tool sequences and runtime version its evidence shows. ``gate_folder`` reads
the run to gate and its baseline (a blessed name, the series' own baseline, or a run folder given
directly), and decides. Input that cannot be used (no run folder, no baseline, an unreadable
golden file) is a ``GateInputError`` whose message says how to fix it.
"""

from __future__ import annotations

from pathlib import Path

from copilot_eval.evalsets import EvalRun, EvalSetReadError
from copilot_eval.exit_codes import PLATFORM
from copilot_eval.gate.decide import GateOptions, GateResult, decide
from copilot_eval.gate.sides import baseline_side, folder_side, folder_steps
from copilot_eval.history.baselines import (
    Blessing,
    bless,
    default_name,
    get_baseline,
    list_baselines,
    series_baseline,
    who_blesses,
)
from copilot_eval.history.from_folder import record_from_folder
from copilot_eval.history.provenance import detect_provenance
from copilot_eval.history.records import SOURCE_INGEST
from copilot_eval.history.store import HistoryStore
from copilot_eval.reports.run_folder import RunFolder, read_run_folder
from copilot_eval.runs.gates import run_verdict


class GateInputError(ValueError):
    """The gate or a blessing cannot start: the message names the file, option or baseline and the fix."""


# Alike to reports.run_comparison._read: each layer words a folder it cannot read in its own error
# (the gate names the option and the path; compare names the side).
def _folder(path: Path | str | RunFolder, what: str) -> RunFolder:
    try:
        return read_run_folder(path)
    except EvalSetReadError as exc:
        raise GateInputError(f"{what} {path}: {exc}") from None


def read_golden(path: Path | str) -> frozenset[str]:
    """The case keys of a golden file: one a line; blank lines and lines starting with '#' are skipped."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise GateInputError(f"--golden {path}: cannot be read ({exc.strerror or exc})") from None
    keys = [line.strip() for line in text.splitlines()]
    return frozenset(key for key in keys if key and not key.startswith("#"))


def bless_folder(
    store: HistoryStore, run_dir: Path | str, *, name: str | None = None, note: str | None = None
) -> Blessing:
    """Make the run in ``run_dir`` the baseline ``name`` (default ``TEST_SET@AGENT``), storing the run once."""
    folder = _folder(run_dir, "RUN_DIR")
    record = record_from_folder(folder, source=SOURCE_INGEST, provenance=detect_provenance(folder.folder))
    steps, version = folder_steps(folder)
    return bless(
        store,
        record,
        name=name,
        blessed_by=who_blesses(),
        provenance=record.provenance,
        runtime_version=version,
        case_steps=steps,
        note=note,
    )


def platform_reason(run: EvalRun) -> str | None:
    """Why the run is no verdict on the agent (nothing graded, a runtime limitation), or None: the runs' own rule."""
    verdict = run_verdict(run)
    return verdict.why if verdict.row is PLATFORM else None


def _no_baseline(store: HistoryStore | None, test_set: str, agent: str | None, name: str | None) -> GateInputError:
    wanted = f"Baseline {name!r} is not" if name else f"No baseline of {default_name(test_set, agent)} is"
    where = f" ({store.location.display})" if store is not None else ""
    known = [b.name for b in list_baselines(store)] if store is not None else []
    listed = f"; it has: {', '.join(known)}" if known else ""
    return GateInputError(f"{wanted} in the history{where}{listed}. {BLESS_HINT}")


BLESS_HINT = (
    "Bless one from a run on your main branch: `copilot-eval baseline bless RUN_DIR`, "
    "or gate against a run folder with --baseline-dir DIR"
)
"""How to get a baseline to gate against: said wherever the gate finds none."""


def no_history(display: str) -> GateInputError:
    """The error of a gate whose history database does not exist: nothing recorded, so no baseline either."""
    return GateInputError(f"no history database at {display}, so no baseline to gate against. {BLESS_HINT}")


def gate_folder(
    run_dir: Path | str | RunFolder,
    *,
    options: GateOptions,
    store: HistoryStore | None = None,
    baseline: str | None = None,
    baseline_dir: Path | str | None = None,
) -> GateResult:
    """Gate the run in ``run_dir`` against ``baseline_dir``, the baseline ``baseline``, or its series' baseline."""
    if baseline is not None and baseline_dir is not None:
        raise GateInputError("give --baseline NAME or --baseline-dir DIR, not both")
    folder = _folder(run_dir, "RUN_DIR")
    run = folder_side(folder)
    if baseline_dir is not None:
        then = folder_side(_folder(baseline_dir, "--baseline-dir"), label=f"run folder {baseline_dir}")
    else:
        found = None
        if store is not None:
            found = (
                get_baseline(store, baseline) if baseline else series_baseline(store, run.test_set_name, run.agent_name)
            )
        if found is None:
            raise _no_baseline(store, run.test_set_name, run.agent_name, baseline)
        assert store is not None
        then = baseline_side(store, found)
    return decide(then, run, options, platform=platform_reason(folder.run))


__all__ = [
    "BLESS_HINT",
    "GateInputError",
    "bless_folder",
    "gate_folder",
    "no_history",
    "platform_reason",
    "read_golden",
]
