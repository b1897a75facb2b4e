"""Names from other people's files become one safe, capped path component; stored paths stay inside their folder."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

import pytest

from copilot_eval.reports import evidence_file_name
from copilot_eval.runs.surfaces import surface_labels
from copilot_eval.safe_paths import MAX_COMPONENT, OutsideFolder, inside_folder, path_component
from copilot_eval.security.record import SECURITY_RUNS, default_run_folder


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("shop agent", "shop-agent"),
        ("../../outside", "outside"),
        ("/etc/passwd", "etc-passwd"),
        ("..", "fallback"),
        (".hidden", "hidden"),
        ("-rf", "rf"),
        ("", "fallback"),
        ("naïve café", "na-ve-caf"),
        ("a\x00b\nc", "a-b-c"),
    ],
)
def test_a_name_becomes_one_safe_component(name: str, expected: str) -> None:
    assert path_component(name, fallback="fallback") == expected


def test_a_long_name_is_capped_and_two_long_names_stay_apart() -> None:
    first, second = "a" * 300, "a" * 299 + "b"
    capped = path_component(first, fallback="x")
    assert len(capped) == MAX_COMPONENT and capped.startswith("a" * 80)
    assert capped != path_component(second, fallback="x")
    assert path_component(first, fallback="x") == capped  # the same name, the same folder


def test_every_name_that_becomes_a_path_goes_through_it(tmp_path: Path) -> None:
    # an injection suite's `name:` cannot place attack's folder outside security-runs/
    folder = default_run_folder("../../../tmp/elsewhere", datetime(2026, 1, 2, 3, 4, 5))
    assert folder.parent == SECURITY_RUNS and folder.name == "tmp-elsewhere-20260102-030405"
    # 300-character agent names (run --agent twice) make folders the file system takes, and stay apart
    labels = surface_labels(["a" * 300, "a" * 300, "b" * 300])
    assert len(set(labels)) == 3 and all(len(label) <= MAX_COMPONENT + 2 for label in labels)
    for label in labels:
        (tmp_path / label / "evidence").mkdir(parents=True)
    # a pytest node id of any length is a file name
    name = evidence_file_name("tests/test_x.py::test_y[" + "p" * 400 + "]")
    assert len(name) <= MAX_COMPONENT + len(".json")
    (tmp_path / name).write_text("{}")
    assert evidence_file_name("tests/test_x.py::test_y") == "tests_test_x.py_test_y.json"  # short names unchanged


def test_a_stored_path_resolves_inside_its_folder_or_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    (folder / "evidence").mkdir(parents=True)
    (folder / "evidence" / "case1.json").write_text("{}")
    (tmp_path / "secret.json").write_text("{}")
    assert inside_folder(folder, "evidence/case1.json") == (folder / "evidence" / "case1.json").resolve()
    assert inside_folder(folder, str(folder.resolve() / "evidence" / "case1.json")).is_file()  # an old absolute one
    for stored in ("../secret.json", str(tmp_path / "secret.json"), "evidence/../../secret.json", "/etc/passwd"):
        with pytest.raises(OutsideFolder, match="leads outside the folder"):
            inside_folder(folder, stored)
    os.symlink(tmp_path / "secret.json", folder / "evidence" / "link.json")
    with pytest.raises(OutsideFolder, match="a link out"):
        inside_folder(folder, "evidence/link.json")
    with pytest.raises(OutsideFolder, match="not a usable path"):
        inside_folder(folder, "evidence/\x00.json")
