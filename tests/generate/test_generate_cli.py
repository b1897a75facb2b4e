"""`generate` and `run`'s draft check refuse bad input before any runtime starts, naming the option or file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.evalsets.drafts import count_drafts, write_provenance


def _files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "s.yaml").write_text('rules:\n  - turns: [{text: "hi"}]\n')
    agent = tmp_path / "agent.yaml"
    agent.write_text("name: a\nmodel: {scripted: s.yaml}\ninstructions: Help.\n")
    generator = tmp_path / "gen.yaml"
    generator.write_text("name: g\nmodel: {scripted: s.yaml}\n")
    return agent, generator


def _generate(tmp_path: Path, *extra: str) -> object:
    agent, generator = _files(tmp_path)
    args = ["generate", "testset", str(tmp_path / "out.csv"), "--agent", str(agent), "--generator", str(generator)]
    return CliRunner().invoke(app, [*args, *extra])


def test_limits_mix_format_and_overwrite_are_refused_up_front(tmp_path: Path) -> None:
    over = _generate(tmp_path, "--count", "101")
    assert over.exit_code == 2 and "imports at most 100" in over.output
    conversations = _generate(tmp_path, "--count", "51", "--format", "conversation")
    assert conversations.exit_code == 2 and "at most 50" in conversations.output
    mix = _generate(tmp_path, "--mix", "happy=1,sad=2")
    assert mix.exit_code == 2 and "--mix" in mix.output and "'sad=2'" in mix.output
    fmt = _generate(tmp_path, "--format", "xlsx")
    assert fmt.exit_code == 2 and "--format xlsx" in fmt.output
    (tmp_path / "out.csv").write_text("kept")
    kept = _generate(tmp_path)
    assert kept.exit_code == 2 and "--force" in kept.output and (tmp_path / "out.csv").read_text() == "kept"


def test_a_case_stops_being_a_draft_when_a_person_accepts_or_rewrites_it(tmp_path: Path) -> None:
    path = tmp_path / "set.csv"
    cases = [{"question": "a?", "draft": True}, {"question": "b?", "draft": True}]
    write_provenance(path, {"cases": cases})
    assert count_drafts(["a?", "b?"], path).all_drafts
    cases[0]["draft"] = False
    write_provenance(path, {"cases": cases})
    found = count_drafts(["a?", "b?", "c?"], path)
    assert (found.drafts, found.cases, found.all_drafts) == (1, 3, False)
    assert count_drafts(["a?"], tmp_path / "other.csv").sidecar is None
    (tmp_path / "bad.csv.provenance.json").write_text(json.dumps({"cases": "no"}))
    with pytest.raises(ValueError, match=r"bad\.csv\.provenance\.json.*delete it"):
        count_drafts(["a?"], tmp_path / "bad.csv")
