"""The files of a run folder: ``run.json``, the Copilot Studio style ``results.csv`` and a copy of the set."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets.json_io import to_json
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.run_model import EvalRun
from copilot_eval.reports.results_csv import write_results_csv
from copilot_eval.reports.run_folder import RESULTS_CSV, RUN_JSON, TEST_SET_JSON, portable_run


def write_run_outputs(run: EvalRun, test_set: EvalTestSet, output_dir: Path) -> None:
    """Write ``run.json`` (versioned, evidence paths relative), ``results.csv`` and ``test-set.json``, each atomically."""
    folder = Path(output_dir)
    write_text_atomically(folder / TEST_SET_JSON, to_json(test_set) + "\n")
    write_results_csv(run, test_set, folder / RESULTS_CSV)
    # run.json last: its presence means the folder is complete.
    write_text_atomically(folder / RUN_JSON, to_json(portable_run(run, folder)) + "\n")


__all__ = ["write_run_outputs"]
