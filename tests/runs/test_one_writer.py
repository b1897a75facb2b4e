"""Every writing command reaches its run folder through the finisher alone, and writes each file once.

Each command below is run with the files it can write (JUnit, Markdown, the history, a baseline, a
gate) while ``tests.folder_writes`` records every write; then each file of the folder (and the
JUnit and Markdown beside it) must have been written exactly once, by the finisher, the data files
before the report that reads them and run.json last. The engine's own files (evidence, the
checkpoint) are the only exceptions. No runtime starts: Copilot Studio agents on a local Direct
Line fake, an Evaluate-tab export and the evaluation API's fake play, trigger runs and shards
written from recorded plays; `attack`, which needs the runtime, is checked in
tests/security/test_suite_runtime.py.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

import copilot_eval
from copilot_eval import CopilotEval
from copilot_eval.atomic_write import write_text_atomically
from copilot_eval.evalsets import ShardInfo
from copilot_eval.models import ScriptedModel
from copilot_eval.reports.folder_layout import LAYOUT
from copilot_eval.runs.finish import FinishOptions
from copilot_eval.testing import FakeAgent, FakeDirectLine, FakeStudioEval, LoopbackServer, answer
from copilot_eval.triggers.record import write_trigger_folder
from tests.folder_writes import recorded_writes
from tests.runs.test_writers import (
    RUN_OPTIONS,
    STORIES,
    _agent_file,
    _cli,
    _export_rows,
    _reply,
    _set_file,
)
from tests.studio_eval.studio_helpers import TOKEN_ENV, bike_shop_set, export_text, studio_cli
from tests.triggers.test_plays import recorded_run

STORY = STORIES["half"]


@pytest.fixture(scope="module")
def directline():
    """One Direct Line fake answering the story's questions as the story says."""
    fake = FakeDirectLine(FakeAgent(rules=[(question, _reply(text)) for question, _, text in STORY], name="story"))
    with LoopbackServer(fake):
        yield fake


@pytest.fixture(autouse=True)
def _studio_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")


def _beside(tmp: Path) -> list[str]:
    return ["--junit", str(tmp / "junit.xml"), "--markdown", str(tmp / "summary.md")]


def _history(tmp: Path) -> list[str]:
    return ["--history", f"sqlite:///{tmp / 'history.db'}"]


def _check(writes, out: Path, tmp: Path, done) -> None:
    assert out.is_dir() and any(out.iterdir()), done.output
    beside = (*sorted(tmp.glob("junit*.xml")), tmp / "summary.md")
    assert writes.problems(out, also=beside) == []
    for folder in {p.parent for p in out.rglob(LAYOUT.run_json)}:  # its presence means the folder is complete
        assert writes.last_in(folder) == (folder / LAYOUT.run_json).resolve()
        assert writes.late(folder, DATA, then=LAYOUT.report_html) == []


# A run folder's data files: the report (and the history before it) reads them from the folder.
DATA = (LAYOUT.test_set_json, LAYOUT.results_csv, LAYOUT.triggers_json, LAYOUT.security_json)


def _run_args(tmp: Path, fake: FakeDirectLine) -> list[object]:
    return ["run", _set_file(tmp, STORY), "--agent", _agent_file(tmp, fake, "agent"), "--grader", "exact",
            "--no-progress"]  # fmt: skip


def test_run_with_one_agent(tmp_path, directline):
    out = tmp_path / "out"
    with recorded_writes() as writes:
        done = _cli(*_run_args(tmp_path, directline), "--out", out, *_history(tmp_path), *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    _check(writes, out, tmp_path, done)


def test_run_against_a_baseline_and_gated(tmp_path, directline):
    args = [*_run_args(tmp_path, directline), *_history(tmp_path)]
    first = _cli(*args, "--out", tmp_path / "first")
    assert first.exit_code == 0, first.output
    blessed = _cli("baseline", "bless", tmp_path / "first", *_history(tmp_path))
    assert blessed.exit_code == 0, blessed.output
    out = tmp_path / "out"
    with recorded_writes() as writes:
        done = _cli(*args, "--out", out, "--baseline", tmp_path / "first", "--gate", "auto", *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    assert (out / "gate.md").is_file() and (out / "comparison.html").is_file()
    _check(writes, out, tmp_path, done)


def test_run_with_several_agents(tmp_path, directline):
    right = FakeDirectLine(FakeAgent(rules=[(q, answer(r)) for q, r, _ in STORY], name="right"))
    out = tmp_path / "out"
    with LoopbackServer(right), recorded_writes() as writes:
        agents = [
            "--agent",
            _agent_file(tmp_path, right, "good"),
            "--agent",
            _agent_file(tmp_path, directline, "story"),
        ]
        done = _cli("run", _set_file(tmp_path, STORY), *agents, "--out", out, *RUN_OPTIONS, *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    assert (out / "comparison.json").is_file()
    _check(writes, out, tmp_path, done)


def test_merge(tmp_path, directline):
    args = [*_run_args(tmp_path, directline), "--no-history"]
    shards = [tmp_path / f"shard{index}" for index in (1, 2)]
    for index, shard in enumerate(shards, start=1):  # the shards' own verdicts are not what is tested here
        _cli(*args, "--out", shard, "--shard", f"{index}/2")
        assert (shard / LAYOUT.run_json).is_file()
    out = tmp_path / "out"
    with recorded_writes() as writes:
        done = _cli("merge", *shards, "--out", out, *_history(tmp_path), *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    _check(writes, out, tmp_path, done)


def test_merge_of_trigger_shards(tmp_path):
    for index in (1, 2):
        recorded_run(tmp_path / f"shard{index}", ShardInfo(index=index, count=2))
    out = tmp_path / "out"
    gated = ["--min-precision", "pdf=0.25", "--min-recall", "pdf=0.5"]  # judged on the merged figures
    with recorded_writes() as writes:
        done = _cli("merge", tmp_path / "shard1", tmp_path / "shard2", "--out", out, *gated, *_history(tmp_path),
                    *_beside(tmp_path))  # fmt: skip
    assert done.exit_code == 0, done.output
    assert (out / LAYOUT.triggers_json).is_file()
    assert 'class="triggers-confusion"' in (out / LAYOUT.report_html).read_text(encoding="utf-8")
    _check(writes, out, tmp_path, done)


def test_triggers(tmp_path):
    """``triggers`` finishes its folder through ``write_trigger_folder`` (the plays here recorded, not played)."""
    played = recorded_run(tmp_path / "played", None)
    agent = CopilotEval(name="router", model=ScriptedModel.from_dict({"rules": [{"turns": [{"text": "x"}]}]}))
    options = FinishOptions(junit=tmp_path / "junit.xml", markdown=str(tmp_path / "summary.md"),
                            history=f"sqlite:///{tmp_path / 'history.db'}")  # fmt: skip
    out = tmp_path / "out"
    with recorded_writes() as writes:
        finished = write_trigger_folder(replace(played, folder=out), agent=agent, started=datetime.now(UTC),
                                        options=options)  # fmt: skip
    assert finished.verdict.code == 0, finished.verdict
    assert (tmp_path / "junit.xml").read_text(encoding="utf-8").count("<testcase ") == 8, "one case per prompt"
    _check(writes, out, tmp_path, SimpleNamespace(output=finished.folders[0].lines))


def test_a_trigger_merge_refused_for_a_malformed_triggers_json_writes_nothing(tmp_path):
    for index in (1, 2):
        recorded_run(tmp_path / f"shard{index}", ShardInfo(index=index, count=2))
    document = tmp_path / "shard2" / LAYOUT.triggers_json
    document.write_text(document.read_text(encoding="utf-8").replace('"plays"', '"played"'), encoding="utf-8")
    out = tmp_path / "out"
    done = _cli("merge", tmp_path / "shard1", tmp_path / "shard2", "--out", out, "--no-history")
    assert done.exit_code == 2 and "triggers.json is malformed" in done.output, done.output
    assert not out.exists(), "nothing was written, not even the shards' evidence"


def test_regrade(tmp_path, directline):
    played = tmp_path / "played"
    assert _cli(*_run_args(tmp_path, directline), "--out", played, "--no-history").exit_code == 0
    out = tmp_path / "out"
    with recorded_writes() as writes:
        done = _cli("regrade", played, "--grader", "exact", "--out", out, *_history(tmp_path), *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    _check(writes, out, tmp_path, done)


def test_analyze(tmp_path):
    export = tmp_path / "export.csv"
    export.write_text(export_text(_export_rows(STORY)))
    out = tmp_path / "out"
    with recorded_writes() as writes:
        done = _cli("analyze", export, "--out", out, *_history(tmp_path), *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    _check(writes, out, tmp_path, done)


@pytest.mark.parametrize("command", ["run", "get"])
def test_studio_eval(command, tmp_path):
    test_set = bike_shop_set()
    fake = FakeStudioEval([test_set])
    chosen = ["--test-set", "Bike shop nightly"]
    if command == "get":
        chosen = [fake.start_elsewhere(test_set, name="from the Evaluate tab").id, "--timeout-s", "5"]
    out = tmp_path / "out"
    with LoopbackServer(fake), recorded_writes() as writes:
        done = studio_cli(fake, command, *chosen, "--out", str(out), *_history(tmp_path), *_beside(tmp_path))
    assert done.exit_code == 0, done.output
    _check(writes, out, tmp_path, done)


def test_the_recorder_names_each_wrong_write(tmp_path):
    folder = tmp_path / "run"
    with recorded_writes() as writes:
        for name in (LAYOUT.report_html, LAYOUT.results_csv, LAYOUT.results_csv, LAYOUT.run_json):
            write_text_atomically(folder / name, "{}")
    (folder / LAYOUT.test_set_json).write_text("{}", encoding="utf-8")
    assert writes.problems(folder) == [
        "report.html: written outside the finisher",
        "results.csv: written 2 times",
        "run.json: written outside the finisher",
        "test-set.json: written by something else than the atomic writer",
    ]
    assert writes.late(folder, DATA, then=LAYOUT.report_html) == ["results.csv: written after report.html"]
    assert writes.last_in(folder) == (folder / LAYOUT.run_json).resolve()


SRC = Path(copilot_eval.__file__).parent
FILE_NAMES = re.compile(
    r"[\"'](run\.json|results\.csv|test-set\.json|report\.html|checkpoint\.jsonl|comparison\.(json|html|md)"
    r"|gate\.md|security\.json|triggers\.json)[\"']"
)
# Not a run folder's file though spelled the same: the review page's link to the report beside it (HTML),
# the pytest plugin's example file name, and a lift folder's own report (its arms' folders use LAYOUT).
NOT_A_RUN_FOLDER = {"history/review_page.py", "pytest_plugin.py", "lift/record.py"}


def test_a_run_folder_s_file_names_are_spelled_only_in_its_layout():
    found = [
        f"{path.relative_to(SRC)}:{number}: {line.strip()}"
        for path in sorted(SRC.rglob("*.py"))
        if path.relative_to(SRC).as_posix() not in {"reports/folder_layout.py", *NOT_A_RUN_FOLDER}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if FILE_NAMES.search(line)
    ]
    assert found == [], "name the file through reports.folder_layout.LAYOUT"


def _calls(tree: ast.AST) -> list[ast.Call]:
    return [node for node in ast.walk(tree) if isinstance(node, ast.Call)]


def _name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


# The entry modules of the commands that write a run folder, and the one that prints what was finished.
WRITING_COMMANDS = [
    "analyze_cmd.py",
    "attack_cmd.py",
    "finished.py",
    "merge_cmd.py",
    "regrade_cmd.py",
    "run_cmd.py",
    "run_several.py",
    "studio_eval_cmd.py",
]


def test_no_cli_module_changes_the_verdict_it_was_given():
    """The entry floor prints the finisher's verdict: it combines none (``worst``), replaces none, decides no gate."""
    found = []
    for path in sorted((SRC / "cli" / name) for name in WRITING_COMMANDS):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for call in _calls(tree):
            name = _name(call)
            gate = name == "Verdict" and any(isinstance(a, ast.Name) and a.id == "BELOW_GATE" for a in call.args)
            if gate or name == "worst" or (name == "print_finished" and any(k.arg == "verdict" for k in call.keywords)):
                found.append(f"{path.name}:{call.lineno}: {name}")
            if name in {"finish_run_folders", "finish_played"}:
                found.extend(f"{path.name}:{call.lineno}: {name} verdict amended" for _ in _amended(tree))
    assert sorted(set(found)) == []


def _amended(tree: ast.AST) -> list[ast.AST]:
    """Assignments to a finished verdict (``finished.verdict = ...``) in a module that finishes folders."""
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Attribute) and t.attr == "verdict" for t in node.targets)
    ]
