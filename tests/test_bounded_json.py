"""JSON files of a run folder from elsewhere are bounded in size (before reading) and depth, refused naming the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval import bounded_json
from copilot_eval.bounded_json import JsonRefused, load_json_file
from copilot_eval.evalsets import EvalSetReadError
from copilot_eval.evidence import CopilotResult
from copilot_eval.reports.run_folder import read_run_folder
from tests.reports.report_fixtures import build_run_folder


def test_a_run_json_over_the_size_limit_is_refused_before_it_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_run_folder(tmp_path / "run")
    size = (tmp_path / "run" / "run.json").stat().st_size
    monkeypatch.setattr(bounded_json, "MAX_JSON_BYTES", size - 1)
    monkeypatch.setattr(Path, "read_bytes", lambda *a: pytest.fail("the file was read"))
    with pytest.raises(EvalSetReadError, match=rf"run\.json: 1 problem\n  - {size:,} bytes is more than the"):
        read_run_folder(tmp_path / "run")


def test_deeply_nested_evidence_is_refused_naming_the_file(tmp_path: Path) -> None:
    bomb = tmp_path / "case1-r0.json"
    bomb.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(JsonRefused, match=r"case1-r0\.json: nested too deeply"):
        load_json_file(bomb)
    with pytest.raises(ValueError, match="nested too deeply"):
        CopilotResult.load(bomb)
    folder = tmp_path / "run"
    build_run_folder(folder)
    (folder / "evidence" / "case1-r0.json").write_text("[" * 200_000 + "]" * 200_000)
    run_folder = read_run_folder(folder)
    assert run_folder.load_evidence("evidence/case1-r0.json") is None  # shown as unreadable, the report goes on


def test_a_json_object_is_read_and_anything_else_is_none(tmp_path: Path) -> None:
    from copilot_eval.bounded_json import load_json_object

    document = tmp_path / "figures.json"
    document.write_text('{"figures": {}}', encoding="utf-8")
    assert load_json_object(document) == {"figures": {}}
    assert load_json_object(document, max_bytes=document.stat().st_size - 1) is None  # over the bound: not read
    for name, text in (("list.json", "[1]"), ("broken.json", "{"), ("deep.json", "[" * 200_000 + "]" * 200_000)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        assert load_json_object(tmp_path / name) is None, name
    assert load_json_object(tmp_path / "missing.json") is None
