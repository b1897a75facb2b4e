"""run.json is versioned and portable: a moved or zipped run folder opens; old absolute paths still work."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from copilot_eval.evalsets import EvalSetReadError
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.reports.html_run import run_report_html
from copilot_eval.reports.run_folder import RUN_SCHEMA_VERSION, read_run_folder
from copilot_eval.version import __version__
from tests.reports.report_fixtures import build_run_folder


def test_run_json_is_versioned_with_relative_evidence_paths(tmp_path):
    build_run_folder(tmp_path / "run")
    data = json.loads((tmp_path / "run" / "run.json").read_text(encoding="utf-8"))
    assert data["schemaVersion"] == RUN_SCHEMA_VERSION
    paths = [r["evidencePath"] for r in data["results"] if "evidencePath" in r]
    paths += [g["evidencePath"] for r in data["results"] for g in r["grades"] if "evidencePath" in g]
    assert "evidence/case2-r0.compare-meaning.judge.json" in paths
    assert paths and all(not Path(p).is_absolute() and p.startswith("evidence/") for p in paths)
    assert all(item.startswith("evidence/") for item in data["evidence"])


def test_a_zipped_and_unpacked_run_folder_opens_elsewhere(tmp_path):
    build_run_folder(tmp_path / "run")
    archive = shutil.make_archive(str(tmp_path / "artifact"), "zip", tmp_path / "run")
    shutil.rmtree(tmp_path / "run")
    with zipfile.ZipFile(archive) as handle:
        handle.extractall(tmp_path / "downloaded")
    folder = read_run_folder(tmp_path / "downloaded")
    result = folder.run.results[0]
    assert CopilotResult.load(folder.evidence_file(result.evidence_path)).final_response == "It ships today."
    assert "Evidence file not found" not in run_report_html(folder)


def test_an_old_run_with_absolute_paths_is_read_even_after_moving(tmp_path):
    build_run_folder(tmp_path / "run")
    run_json = tmp_path / "run" / "run.json"
    data = json.loads(run_json.read_text(encoding="utf-8"))
    del data["schemaVersion"]  # as written before versioning: absolute paths
    for result in data["results"]:
        if "evidencePath" in result:
            result["evidencePath"] = str((tmp_path / "run" / result["evidencePath"]).resolve())
    run_json.write_text(json.dumps(data), encoding="utf-8")
    folder = read_run_folder(tmp_path / "run")
    assert folder.run.schema_version is None
    assert folder.load_evidence(folder.run.results[0].evidence_path)["success"] is True
    shutil.move(tmp_path / "run", tmp_path / "moved")  # the absolute paths now point nowhere
    moved = read_run_folder(tmp_path / "moved")
    found = moved.evidence_file(moved.run.results[0].evidence_path)
    assert found == tmp_path / "moved" / "evidence" / "case1-r0.json"


def test_a_newer_schema_version_is_refused_by_name(tmp_path):
    build_run_folder(tmp_path / "run")
    run_json = tmp_path / "run" / "run.json"
    data = json.loads(run_json.read_text(encoding="utf-8"))
    data["schemaVersion"] = RUN_SCHEMA_VERSION + 1
    run_json.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EvalSetReadError) as raised:
        read_run_folder(tmp_path / "run")
    assert str(raised.value) == (
        f"{run_json} has schemaVersion {RUN_SCHEMA_VERSION + 1}; this copilot-eval reads up to {RUN_SCHEMA_VERSION}: "
        f"upgrade copilot-eval (this is {__version__}; `copilot-eval --version` after the upgrade says which)"
    )


def test_a_newer_run_json_with_fields_this_version_does_not_know_says_to_upgrade_not_what_failed(tmp_path):
    build_run_folder(tmp_path / "run")
    run_json = tmp_path / "run" / "run.json"
    data = json.loads(run_json.read_text(encoding="utf-8"))
    data["schemaVersion"] = RUN_SCHEMA_VERSION + 1
    data["somethingNew"] = {"added": "later"}
    data["results"][0]["newCaseField"] = 1
    run_json.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EvalSetReadError) as raised:
        read_run_folder(tmp_path / "run")
    message = str(raised.value)
    assert message.startswith(f"{run_json} has schemaVersion {RUN_SCHEMA_VERSION + 1}; this copilot-eval reads up to")
    assert "upgrade copilot-eval (this is" in message
    assert "somethingNew" not in message and "Extra inputs" not in message


def test_an_unknown_field_in_a_run_json_of_this_version_is_still_named(tmp_path):
    build_run_folder(tmp_path / "run")
    run_json = tmp_path / "run" / "run.json"
    data = json.loads(run_json.read_text(encoding="utf-8"))
    data["somethingNew"] = 1
    run_json.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(EvalSetReadError, match=r"somethingNew"):
        read_run_folder(tmp_path / "run")


def test_a_folder_without_run_json_is_named(tmp_path):
    with pytest.raises(EvalSetReadError, match=r"no run.json here"):
        read_run_folder(tmp_path)


def test_a_folder_that_does_not_exist_is_not_found_and_compare_says_so(tmp_path):
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app
    from tests.history.history_fixtures import write_run

    gone = tmp_path / "last-night"
    with pytest.raises(EvalSetReadError) as caught:
        read_run_folder(gone)
    assert caught.value.problems == [
        f"not found: {gone} does not exist; pass the folder `copilot-eval run --out` wrote"
    ]
    write_run(tmp_path / "tonight", ["pass"])
    done = CliRunner().invoke(app, ["compare", str(gone), str(tmp_path / "tonight")])
    assert done.exit_code == 2
    assert "not found" in done.output and "no run.json here" not in done.output
