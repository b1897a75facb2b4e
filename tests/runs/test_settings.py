"""RunSettings: every choice of a run in five small groups, each checked when it is made, and `run` a thin parse into it."""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.cli.run_cmd import _NOT_SETTINGS, run
from copilot_eval.evalsets import ShardInfo
from copilot_eval.runs import RunSettings, SettingsError
from copilot_eval.runs import prepare as prepare_module
from copilot_eval.runs.settings import GROUPS, HowToFinish, HowToGrade, HowToPlay, WhatToPlay
from copilot_eval.testing import FakeAgent, FakeDirectLine, LoopbackServer, answer


def test_every_option_of_run_is_a_field_of_the_same_name_in_exactly_one_group():
    options = set(inspect.signature(run).parameters) - set(_NOT_SETTINGS)
    by_group = [{f.name for f in dataclasses.fields(kind)} for kind in GROUPS.values()]
    fields = set().union(*by_group)
    assert sum(len(names) for names in by_group) == len(fields), "an option belongs to one group only"
    assert [f.name for f in dataclasses.fields(RunSettings)] == list(GROUPS)
    assert options - fields == set(), "give a group of RunSettings a field for each new option of `run`"
    assert fields - options == {"rate_limit_retries", "progress"}  # the library's own knobs (progress is --no-progress)


def test_each_group_checks_its_own_options_when_it_is_made(tmp_path):
    with pytest.raises(SettingsError, match="--repeat 0: must be at least 1"):
        HowToPlay(repeat=0)
    with pytest.raises(SettingsError, match="--judge-repeat 0"):
        HowToGrade(judge_repeat=0)
    with pytest.raises(SettingsError, match="--data-type 'Chat'"):
        WhatToPlay(data_type="Chat")
    with pytest.raises(SettingsError, match="--resume needs --out"):
        HowToFinish(resume=True)
    with pytest.raises(TypeError, match="no option 'repeats'"):
        RunSettings.of(repeats=2)
    grouped = RunSettings(play=HowToPlay(repeat=3), finish=HowToFinish(out=str(tmp_path)))  # type: ignore[arg-type]
    assert grouped == RunSettings.of(repeat=3, out=tmp_path) and grouped.in_folder(None).finish.out is None


def test_every_problem_is_found_at_once_each_naming_its_option(tmp_path):
    with pytest.raises(SettingsError) as refused:
        RunSettings.of(
            repeat=0,
            executor="ray",
            record=tmp_path,
            replay=tmp_path,
            shard="4/3",
            resume=True,
            fail_on_regression=True,
            data_type="Chat",
            var=("novalue",),
        )
    assert refused.value.problems == [  # group by group: what, how to play, how to grade, budgets, finish
        "--data-type 'Chat': expected SingleTurn or Conversation",
        "--shard '4/3': the index must be between 1 and the shard count (4 of 3)",
        "--var 'novalue': expected NAME=VALUE",
        "--repeat 0: must be at least 1",
        "--record/--replay run with --executor local only (cassettes are files of this machine)",
        "--record and --replay exclude each other: give one of them",
        "--resume needs --out naming the run directory to continue",
        "--fail-on-regression needs --baseline RUN_DIR (the run a regression is against)",
    ]
    assert sum(len(kind.RULES) for kind in GROUPS.values()) >= 10  # type: ignore[attr-defined]


def test_values_are_read_the_way_the_command_line_gives_them(tmp_path):
    settings = RunSettings.of(min_pass_rate=80, shard="2/3", graders=["exact"], out=str(tmp_path), var=["a=b"])
    assert settings.grade.pass_rate == 0.8 and HowToGrade(min_pass_rate=0.8).pass_rate == 0.8
    assert settings.what.shard_info == ShardInfo(index=2, count=3) and settings.finish.out == tmp_path
    assert settings.grade.graders == ("exact",) and settings.grade.specs() == ["exact"]
    assert settings.what.variables == {"a": "b"}


def test_a_bad_combination_exits_2_before_anything_runs(tmp_path):
    set_file = tmp_path / "set.csv"
    set_file.write_text('"conversationNumber","question","response"\n"1","q","r"\n')
    done = CliRunner().invoke(app, ["run", str(set_file), "--agent", str(tmp_path / "a.yaml"), "--fail-on-regression"])
    assert done.exit_code == 2
    assert done.stderr.strip() == (
        "exit 2 (unusable input): --fail-on-regression needs --baseline RUN_DIR (the run a regression is against)"
    )
    assert not (tmp_path / "eval-runs").exists()


def test_several_agents_are_each_loaded_once(tmp_path, monkeypatch):
    loads: list[Path] = []
    original = prepare_module.load_agent

    def counting(path, **kwargs):
        loads.append(Path(path))
        return original(path, **kwargs)

    monkeypatch.setattr(prepare_module, "load_agent", counting)
    fake = FakeDirectLine(FakeAgent(default=answer("r")))
    set_file = tmp_path / "set.csv"
    set_file.write_text('"conversationNumber","question","response"\n"1","q","r"\n')
    with LoopbackServer(fake):
        agents = []
        for name in ("a", "b", "c"):
            agents += ["--agent", str(tmp_path / f"{name}.yaml")]
            (tmp_path / f"{name}.yaml").write_text(
                f"name: {name}\ntarget:\n  type: directline\n  token_endpoint: {fake.token_endpoint}\n"
                "  quiet_s: 0.1\n  poll_interval_s: 0.02\n"
            )
        done = CliRunner().invoke(
            app, ["run", str(set_file), *agents, "--out", str(tmp_path / "out"), "--no-progress", "--no-history"]
        )
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in loads) == ["a.yaml", "b.yaml", "c.yaml"]


def test_a_run_says_what_reading_the_set_noticed_before_it_starts(tmp_path):
    # A pass mark on a method that takes none is a warning of the file, shown by `validate`: `run` says it too.
    fake = FakeDirectLine(FakeAgent(default=answer("42")))
    set_file = tmp_path / "rows.csv"
    set_file.write_text("Prompt,Expected response,Test Method Type,Passing Score\nNumber?,42,ExactMatch,80\n")
    with LoopbackServer(fake):
        (tmp_path / "a.yaml").write_text(
            f"name: a\ntarget:\n  type: directline\n  token_endpoint: {fake.token_endpoint}\n"
            "  quiet_s: 0.1\n  poll_interval_s: 0.02\n"
        )
        done = CliRunner().invoke(
            app,
            [
                "run",
                str(set_file),
                "--agent",
                str(tmp_path / "a.yaml"),
                "--out",
                str(tmp_path / "out"),
                "--no-progress",
                "--no-history",
            ],
        )
    assert done.exit_code == 0, done.output
    assert "note: rows.csv: warning: line 2, Passing Score: '80' is ignored: ExactMatch takes no pass mark" in (
        done.stderr
    )
    # With no --grader, the row is graded by the method it names, as Copilot Studio grades it.
    [result] = json.loads((tmp_path / "out" / "run.json").read_text())["results"]
    assert [grade["method"] for grade in result["grades"]] == ["Exact match"]
