"""One layout names a run folder's files: a finished folder holds nothing the layout does not name."""

from __future__ import annotations

from dataclasses import fields

from copilot_eval.reports.folder_layout import LAYOUT, FolderLayout
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs.finish import FinishOptions, FolderRun, finish_run_folders
from tests.history.history_fixtures import shop_set, write_run


def test_every_file_a_finished_folder_holds_is_named_by_the_layout(tmp_path):
    baseline, folder = tmp_path / "baseline", tmp_path / "run"
    write_run(baseline, ["pass", "pass"])
    run = write_run(folder, ["pass", "fail"])
    finished = finish_run_folders(
        [FolderRun(folder, run, shop_set(2))], FinishOptions(baseline=baseline, no_history=True)
    )
    assert finished.folders[0].comparison is not None  # --baseline: the comparison files were written too
    names = {getattr(LAYOUT, f.name) for f in fields(FolderLayout)}
    held = {path.name for path in folder.iterdir()}
    assert held <= names, held - names
    for name in (LAYOUT.run_json, LAYOUT.results_csv, LAYOUT.test_set_json, LAYOUT.report_html):
        assert (folder / name).is_file()
    assert {LAYOUT.comparison_html, LAYOUT.comparison_md} <= held
    assert read_run_folder(folder).run.passed == 1  # every reader finds the run by the same name
