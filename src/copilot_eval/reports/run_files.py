"""The files of a run folder: ``run.json``, the Copilot Studio style ``results.csv`` and a copy of the set.

The finisher (``runs.finish``) writes them in two steps: the data files first
(:func:`write_data_files`), ``run.json`` last (:func:`write_run_json`), with everything else it
writes between the two, so that ``run.json``'s presence means the folder is complete. Between them
the folder is read from memory (:func:`folder_in_memory`), as a reader will read it from disk.
"""

from __future__ import annotations

from pathlib import Path

from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets.json_io import run_from_json, to_json
from copilot_eval.evalsets.model import EvalTestSet
from copilot_eval.evalsets.run_model import EvalRun
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.reports.results_csv import write_results_csv
from copilot_eval.reports.run_folder import RunFolder, portable_run


def run_json_text(run: EvalRun, folder: Path) -> str:
    """``run.json``'s text: the run versioned, its evidence paths relative to ``folder``."""
    return to_json(portable_run(run, folder)) + "\n"


def folder_in_memory(run: EvalRun, test_set: EvalTestSet, folder: Path) -> RunFolder:
    """The folder as a reader will read it once ``run.json`` is written: its text parsed back, nothing written."""
    folder = Path(folder)
    return RunFolder(folder, run_from_json(run_json_text(run, folder), source=folder / LAYOUT.run_json), test_set)


def write_data_files(run: EvalRun, test_set: EvalTestSet, folder: Path) -> None:
    """Write ``test-set.json`` and ``results.csv``, each atomically (``run.json`` is the finisher's last file)."""
    folder = Path(folder)
    write_text_atomically(folder / LAYOUT.test_set_json, to_json(test_set) + "\n")
    write_results_csv(run, test_set, folder / LAYOUT.results_csv)


def write_run_json(folder: RunFolder) -> Path:
    """Write ``run.json`` of a folder held in memory (``folder_in_memory``): the folder's last file."""
    return write_text_atomically(folder.folder / LAYOUT.run_json, to_json(folder.run) + "\n")


def write_run_outputs(run: EvalRun, test_set: EvalTestSet, output_dir: Path) -> None:
    """Write ``run.json`` (versioned, evidence paths relative), ``results.csv`` and ``test-set.json``, each atomically.

    For a library user's own folder; a command's folder is written by the finisher (``runs.finish``).
    """
    folder = Path(output_dir)
    write_data_files(run, test_set, folder)
    # run.json last: its presence means the folder is complete.
    write_text_atomically(folder / LAYOUT.run_json, run_json_text(run, folder))


__all__ = ["folder_in_memory", "run_json_text", "write_data_files", "write_run_json", "write_run_outputs"]
