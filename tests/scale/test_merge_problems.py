"""merge names every problem of the shards it is given, each in words (no runtime: written shard folders)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from copilot_eval.runs import MergeError, merge_run_folders
from tests.history.history_fixtures import write_run, write_shards

SIX = ["pass", "fail", "pass", "pass", "fail", "pass"]


def _other_agent(folder: Path, copy: Path) -> Path:
    """A copy of a shard run as another agent played it (its agent fingerprint differs)."""
    shutil.copytree(folder, copy)
    data = json.loads((copy / "run.json").read_text())
    data["fingerprints"]["agent"] = "sha256:0ther4gent"
    (copy / "run.json").write_text(json.dumps(data))
    return copy


def _problems(folders: list[Path], out: Path) -> list[str]:
    with pytest.raises(MergeError) as caught:
        merge_run_folders(folders, out)
    return caught.value.problems


def test_a_shard_given_twice_and_another_agents_shard_are_both_named(tmp_path):
    first, second = write_shards(tmp_path, SIX, count=2)
    stranger = _other_agent(second, tmp_path / "stranger")
    problems = _problems([first, first, stranger], tmp_path / "m")
    assert any(p.startswith("different agents:") for p in problems), problems
    assert f"shard 1/2 given twice: {first} and {first}" in problems


def test_a_folder_without_a_shard_or_fingerprints_is_said_in_words_never_none(tmp_path):
    first, _ = write_shards(tmp_path, SIX, count=2)
    write_run(tmp_path / "whole", SIX)
    problems = _problems([first, tmp_path / "whole"], tmp_path / "m")
    text = "\n".join(problems)
    assert f"{tmp_path / 'whole'}: not a shard run" in text
    assert "None" not in text, text
    assert "has no agent fingerprint" in text or "different agents" not in text


def test_an_evidence_path_leading_out_of_a_shard_is_not_copied_into_the_merged_folder(tmp_path):
    first, second = write_shards(tmp_path, SIX, count=2)
    secret = tmp_path / "home" / "private.json"
    secret.parent.mkdir()
    secret.write_text('{"success": true, "prompt": "PRIVATE"}')
    data = json.loads((first / "run.json").read_text())
    hostile = [str(secret), "../home/private.json"]
    for result, stored in zip(data["results"], hostile, strict=False):
        result["evidencePath"] = stored
    (first / "run.json").write_text(json.dumps(data))
    merge_run_folders([first, second], tmp_path / "merged")
    copied = [path.name for path in (tmp_path / "merged").rglob("*.json")]
    assert "private.json" not in copied
    assert all("PRIVATE" not in path.read_text() for path in (tmp_path / "merged").rglob("*.json"))
