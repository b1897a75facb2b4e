"""The files of a run folder: ``run.json`` and the Copilot Studio style ``results.csv``."""

from __future__ import annotations

from pathlib import Path

from copilot_eval.evalsets.json_io import to_json
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.run_model import EvalRun
from copilot_eval.reports.atomic import write_bytes_atomically
from copilot_eval.reports.results_csv import write_results_csv

RUN_JSON = "run.json"
RESULTS_CSV = "results.csv"


def write_run_outputs(run: EvalRun, test_set: EvalTestSet, output_dir: Path) -> None:
    """Write ``run.json`` and ``results.csv`` into ``output_dir``, each atomically."""
    write_bytes_atomically(Path(output_dir) / RUN_JSON, to_json(run).encode("utf-8"))
    write_results_csv(run, test_set, Path(output_dir) / RESULTS_CSV)


__all__ = ["RESULTS_CSV", "RUN_JSON", "write_run_outputs"]
