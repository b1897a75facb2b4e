"""Every writer of a run folder finishes it one way: the same layout and the same exit code for the same facts.

The six writers (``run`` with one agent, ``run`` with several, ``merge``, ``studio-eval run``, ``analyze``,
``regrade``) are each given the same facts in their own form: a Copilot Studio agent on a local Direct
Line fake for ``run``, ``merge`` and ``regrade``, an Evaluate-tab export for ``analyze``, the evaluation
API's fake (with the export's text joined) for ``studio-eval``. A story is the questions, their
references and what the agent answers (``None``: the platform fails to answer). No runtime starts.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from copilot_eval.reports.findings import read_findings
from copilot_eval.reports.run_folder import RUN_SCHEMA_VERSION
from copilot_eval.testing import (
    FALLBACK_TEXT,
    FakeAgent,
    FakeDirectLine,
    FakeStudioEval,
    FakeTestSet,
    LoopbackServer,
    answer,
    case_result,
    http_error,
    metric_result,
    no_answer_case,
)
from tests.studio_eval.studio_helpers import TOKEN_ENV, export_text, studio_cli

Story = list[tuple[str, str, str | None]]


def _story(name: str, answers: list[str | None]) -> Story:
    return [(f"{name} question {n}?", f"{name} reference {n}.", a) for n, a in enumerate(answers, start=1)]


def _right(name: str, n: int) -> str:
    return f"{name} reference {n}."


STORIES: dict[str, Story] = {
    "healthy": _story("healthy", [_right("healthy", n) for n in (1, 2, 3, 4)]),
    "half": _story("half", [_right("half", 1), _right("half", 2), "half: wrong three.", "half: wrong four."]),
    "one-short": _story("one-short", [_right("one-short", n) for n in (1, 2, 3)] + ["one-short: wrong four."]),
    "no-answers": _story("no-answers", [None, None, None, None]),
    "fallback": _story("fallback", [FALLBACK_TEXT] * 4),
    "one-error": _story("one-error", [_right("one-error", n) for n in (1, 2, 3)] + [None]),
}


def _reply(text: str | None):
    return http_error(500, "InternalServerError") if text is None else answer(text)


@pytest.fixture(scope="module")
def directline():
    """One Direct Line fake answering every story's questions as the story says."""
    rules = [(question, _reply(text)) for story in STORIES.values() for question, _, text in story]
    fake = FakeDirectLine(FakeAgent(rules=rules, name="story agent"))
    with LoopbackServer(fake):
        yield fake


def _set_file(folder: Path, story: Story) -> Path:
    path = folder / "set.csv"
    rows = ['"conversationNumber","question","response"'] + [
        f'"{n}","{question}","{reference}"' for n, (question, reference, _) in enumerate(story, start=1)
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _agent_file(folder: Path, fake: FakeDirectLine, name: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(
        f"name: {name}\ntarget:\n  type: directline\n  token_endpoint: {fake.token_endpoint}\n"
        "  quiet_s: 0.1\n  poll_interval_s: 0.02\ntimeout_s: 10\n",
        encoding="utf-8",
    )
    return path


def _cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


@dataclass(frozen=True)
class Outcome:
    """What a writer left: its exit code, its output, and the run folders it wrote."""

    code: int
    output: str
    folders: list[Path]


RUN_OPTIONS = ("--grader", "exact", "--no-progress", "--no-history")
REPORTS = ("--junit", "junit.xml", "--markdown", "summary.md")


def _split(gates: list[str]) -> tuple[list[str], list[str]]:
    """(the options that change how a run is played: --min-pass-rate, the others: gates on the finished run)."""
    if "--min-pass-rate" not in gates:
        return [], gates
    at = gates.index("--min-pass-rate")
    return gates[at : at + 2], gates[:at] + gates[at + 2 :]


def _reports(tmp: Path) -> list[Path | str]:
    return ["--junit", tmp / "junit.xml", "--markdown", tmp / "summary.md"]


def write_run(story: Story, tmp: Path, fake: FakeDirectLine, gates: list[str], repeat: int) -> Outcome:
    out = tmp / "out"
    done = _cli("run", _set_file(tmp, story), "--agent", _agent_file(tmp, fake, "agent"), "--out", out,
                *RUN_OPTIONS, "--repeat", repeat, *_reports(tmp), *gates)  # fmt: skip
    return Outcome(done.exit_code, done.output, [out])


def write_several(story: Story, tmp: Path, fake: FakeDirectLine, gates: list[str], repeat: int) -> Outcome:
    # Beside the story's surface, one that answers every question with its reference.
    right = FakeDirectLine(FakeAgent(rules=[(q, answer(r)) for q, r, _ in story], name="right"))
    out = tmp / "out"
    with LoopbackServer(right):
        agents = ["--agent", _agent_file(tmp, right, "good"), "--agent", _agent_file(tmp, fake, "story")]
        done = _cli("run", _set_file(tmp, story), *agents, "--out", out, *RUN_OPTIONS, "--repeat", repeat,
                    *_reports(tmp), *gates)  # fmt: skip
    return Outcome(done.exit_code, done.output, [out / "good", out / "story"])


def write_merge(story: Story, tmp: Path, fake: FakeDirectLine, gates: list[str], repeat: int) -> Outcome:
    played, gates = _split(gates)  # the shards are played with --min-pass-rate; the merge reads it from them
    agent, set_file = _agent_file(tmp, fake, "agent"), _set_file(tmp, story)
    shards = [tmp / f"shard{index}" for index in (1, 2)]
    for index, shard in enumerate(shards, start=1):
        _cli("run", set_file, "--agent", agent, "--out", shard, *RUN_OPTIONS, "--repeat", repeat, *played,
             "--shard", f"{index}/2")  # fmt: skip
    out = tmp / "out"
    done = _cli("merge", *shards, "--out", out, "--no-history", *_reports(tmp), *gates)
    return Outcome(done.exit_code, done.output, [out])


def write_regrade(story: Story, tmp: Path, fake: FakeDirectLine, gates: list[str], repeat: int) -> Outcome:
    played, gates = _split(gates)  # the run regraded was played with --min-pass-rate; regrade keeps it
    source = tmp / "played"
    _cli("run", _set_file(tmp, story), "--agent", _agent_file(tmp, fake, "agent"), "--out", source,
         "--grader", "similarity", "--no-progress", "--no-history", "--repeat", repeat, *played)  # fmt: skip
    out = tmp / "out"
    done = _cli("regrade", source, "--grader", "exact", "--out", out, "--no-history", *_reports(tmp), *gates)
    return Outcome(done.exit_code, done.output, [out])


def _export_rows(story: Story) -> list[tuple[str, str, str, list[tuple[str, str, str]]]]:
    rows = []
    for question, reference, text in story:
        if text is None:
            rows.append((question, reference, "Sorry, something went wrong. Error code: SystemError.", []))
            continue
        verdict = "Pass" if text == reference else "Fail"
        rows.append(
            (question, reference, text, [("CompareMeaning", verdict, f"{verdict}: compared with the reference")])
        )
    return rows


def write_analyze(story: Story, tmp: Path, fake: FakeDirectLine, gates: list[str], repeat: int) -> Outcome:
    export = tmp / "export.csv"
    rows = _export_rows(story)
    export.write_text(export_text([r if r[3] else (*r[:3], [("CompareMeaning", "Fail", "")]) for r in rows]))
    out = tmp / "out"
    done = _cli("analyze", export, "--out", out, "--no-history", *_reports(tmp), *gates)
    return Outcome(done.exit_code, done.output, [out])


def write_studio(story: Story, tmp: Path, fake: FakeDirectLine, gates: list[str], repeat: int) -> Outcome:
    def verdict(question: str, reference: str, text: str) -> tuple[str, str, str]:
        status = "Pass" if text == reference else "Fail"
        return ("CompareMeaning", status, f"{status} on {question}")

    cases = [
        no_answer_case("CompareMeaning") if text is None else case_result(metric_result(*verdict(q, r, text)))
        for q, r, text in story
    ]
    studio = FakeStudioEval([FakeTestSet("story set", cases)])
    join: list[str] = []
    if all(text is not None for _, _, text in story):  # the export's text is joined where there is some
        export = tmp / "export.csv"
        export.write_text(export_text([(q, r, t, [verdict(q, r, t)]) for q, r, t in story if t is not None]))
        join = ["--export", str(export)]
    out = tmp / "out"
    with LoopbackServer(studio):
        done = studio_cli(studio, "run", "--test-set", "story set", "--out", str(out), "--no-history", *join,
                          *map(str, _reports(tmp)), *gates)  # fmt: skip
    return Outcome(done.exit_code, done.output, [out])


Writer = Callable[..., Outcome]
WRITERS: dict[str, Writer] = {
    "run": write_run,
    "run-several": write_several,
    "merge": write_merge,
    "studio-eval": write_studio,
    "analyze": write_analyze,
    "regrade": write_regrade,
}

# (fact, story, gates, repeat, exit code, the writers the fact applies to)
FACTS = [
    ("every gate met", "healthy", ["--fail-under", "50"], 1, 0, set(WRITERS)),
    ("nothing graded", "no-answers", ["--fail-under", "50"], 1, 3, set(WRITERS)),
    ("limitation suspected", "fallback", [], 1, 3, set(WRITERS)),
    ("below --fail-under", "half", ["--fail-under", "75"], 1, 1, set(WRITERS)),
    # a gate decides only over what it could check: one case not graded leaves it undecided, unless allowed
    ("errors beyond --max-errors", "one-error", ["--fail-under", "50"], 1, 3, set(WRITERS)),
    ("errors within --max-errors", "one-error", ["--fail-under", "50", "--max-errors", "1"], 1, 0, set(WRITERS)),
    # a stale recording (a replay that no longer matches) is a fact of our own runs only: run in
    # tests/cli/test_replay_cli.py, regrade and merge in tests/runs/test_unchecked_cases.py
    # repeats are played by our own runs only; the platform's runs and exports have none
    ("below --min-pass-rate", "one-short", ["--min-pass-rate", "80"], 2, 1, {"run", "run-several", "merge", "regrade"}),
]
CASES = [
    pytest.param(writer, story, gates, repeat, code, id=f"{writer}: {fact}")
    for fact, story, gates, repeat, code, writers in FACTS
    for writer in WRITERS
    if writer in writers
]


@pytest.fixture(autouse=True)
def _studio_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COPILOT_EVAL_HOME", str(tmp_path / "home"))
    monkeypatch.setenv(TOKEN_ENV, "fake-power-platform-token")


@pytest.mark.parametrize(("writer", "story", "gates", "repeat", "code"), CASES)
def test_the_same_facts_give_the_same_exit_code_and_folder(writer, story, gates, repeat, code, tmp_path, directline):
    outcome = WRITERS[writer](STORIES[story], tmp_path, directline, gates, repeat)
    assert outcome.code == code, outcome.output
    lines = [text for text in outcome.output.splitlines() if text.startswith("exit ")]
    assert (len(lines) == 1 and lines[0].startswith(f"exit {code} (")) if code else not lines, outcome.output
    if writer == "run-several" and code:  # several surfaces, one failing: the line names the one that did
        assert "story: " in lines[0] and "good: " not in lines[0], lines[0]
    for folder in outcome.folders:
        run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
        assert run["schemaVersion"] == RUN_SCHEMA_VERSION
        for name in ("results.csv", "test-set.json", "report.html"):
            assert (folder / name).is_file(), f"{writer}: {folder / name} is missing"
    junit = sorted(p.name for p in tmp_path.glob("junit*.xml"))
    assert junit == (["junit-good.xml", "junit-story.xml"] if writer == "run-several" else ["junit.xml"])
    summary = (tmp_path / "summary.md").read_text(encoding="utf-8")
    assert summary.count("### ") == len(outcome.folders)


UNUSABLE = {
    "run": lambda tmp, fake: ["run", tmp / "no-such-set.csv", "--agent", _agent_file(tmp, fake, "agent")],
    "run-several": lambda tmp, fake: [
        "run", _set_file(tmp, STORIES["healthy"]), "--agent", _agent_file(tmp, fake, "agent"),
        "--agent", tmp / "no-such-agent.yaml",
    ],
    "merge": lambda tmp, fake: ["merge", tmp, tmp / "elsewhere"],
    "studio-eval": lambda tmp, fake: ["studio-eval", "run", "--environment-id", "e", "--bot-id", "b",
                                      "--test-set", "x", "--token-env", TOKEN_ENV, "--export", tmp / "none.csv"],
    "analyze": lambda tmp, fake: ["analyze", tmp / "no-such-export.csv"],
    "regrade": lambda tmp, fake: ["regrade", tmp, "--grader", "exact"],
}  # fmt: skip


@pytest.mark.parametrize("writer", sorted(UNUSABLE))
def test_unusable_input_exits_2_with_its_line_and_writes_no_run(writer, tmp_path, directline):
    out = tmp_path / "out"
    done = _cli(*UNUSABLE[writer](tmp_path, directline), "--out", out)
    assert done.exit_code == 2, done.output
    lines = [text for text in done.output.splitlines() if text.startswith("exit ")]
    assert len(lines) == 1 and lines[0].startswith("exit 2 (unusable input): "), done.output
    assert not (out / "run.json").exists()


def test_several_agents_compare_each_surface_with_its_own_baseline_and_gate_on_a_regression(tmp_path, directline):
    story = STORIES["half"]
    right = FakeDirectLine(FakeAgent(rules=[(q, answer(r)) for q, r, _ in story], name="right"))
    set_file = _set_file(tmp_path, story)
    before, after = tmp_path / "before", tmp_path / "after"
    with LoopbackServer(right):
        good = _agent_file(tmp_path, right, "good")
        (tmp_path / "then").mkdir()
        then = _agent_file(tmp_path / "then", right, "story")  # the story surface answered well before
        first = _cli("run", set_file, "--agent", good, "--agent", then, "--out", before, *RUN_OPTIONS)
        assert first.exit_code == 0, first.output
        now = _agent_file(tmp_path, directline, "story")
        second = _cli("run", set_file, "--agent", good, "--agent", now, "--out", after, *RUN_OPTIONS,
                      "--baseline", before, "--fail-on-regression", "--junit", tmp_path / "ci.xml")  # fmt: skip
    assert second.exit_code == 1, second.output
    assert second.stderr.strip().splitlines()[-1] == (
        f"exit 1 (below a gate): story: 2 case(s) regressed against {before / 'story'} (--fail-on-regression)"
    )
    for label in ("good", "story"):  # each surface against its own earlier folder
        assert (after / label / "comparison.html").is_file() and (tmp_path / f"ci-{label}.xml").is_file()
    assert "unchanged" in (after / "good" / "comparison.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("writer", ["run", "regrade"])
def test_a_baseline_of_another_test_set_is_refused_before_anything_runs(writer, tmp_path, directline):
    agent = _agent_file(tmp_path, directline, "agent")
    (tmp_path / "then").mkdir()
    before = tmp_path / "before"
    first = _cli(
        "run", _set_file(tmp_path / "then", STORIES["healthy"]), "--agent", agent, "--out", before, *RUN_OPTIONS
    )
    assert first.exit_code == 0, first.output
    now = _set_file(tmp_path, STORIES["half"])
    if writer == "run":
        args = ["run", now, "--agent", agent, *RUN_OPTIONS]
    else:
        played = tmp_path / "played"
        assert _cli("run", now, "--agent", agent, "--out", played, *RUN_OPTIONS).exit_code == 0
        args = ["regrade", played, "--grader", "exact", "--no-history"]
    out = tmp_path / "out"
    done = _cli(*args, "--out", out, "--baseline", before)
    assert done.exit_code == 2, done.output
    line = [text for text in done.output.splitlines() if text.startswith("exit ")][-1]
    assert line.startswith(f"exit 2 (unusable input): --baseline {before} and this run played different test sets")
    assert "question changed in case 1, case 2, case 3, case 4" in line
    assert not (out / "run.json").exists()
    allowed = _cli(*args, "--out", tmp_path / "allowed", "--baseline", before, "--allow-other-set")
    assert allowed.exit_code == 0, allowed.output
    assert (tmp_path / "allowed" / "comparison.md").is_file()  # compared anyway, as asked


@pytest.mark.parametrize("same", [True, False], ids=["one agent on two targets", "two agents"])
def test_another_surface_confirms_a_limitation_only_when_it_plays_the_same_agent(same, tmp_path, directline):
    story = STORIES["fallback"]
    right = FakeDirectLine(FakeAgent(rules=[(q, answer(r)) for q, r, _ in story], name="right"))
    out = tmp_path / "out"
    with LoopbackServer(right):
        good = _agent_file(tmp_path, right, "good")
        if not same:  # other settings: another agent, whatever its target
            good.write_text(
                good.read_text(encoding="utf-8").replace("timeout_s: 10", "timeout_s: 20"), encoding="utf-8"
            )
        broken = _agent_file(tmp_path, directline, "story")
        done = _cli("run", _set_file(tmp_path, story), "--agent", good, "--agent", broken, "--out", out, *RUN_OPTIONS)
    assert done.exit_code == 3, done.output  # a limitation, suspected or confirmed: no verdict on the agent
    run = json.loads((out / "story" / "run.json").read_text(encoding="utf-8"))
    ab = "an A/B comparison: the surfaces (good, story) play different agents"
    flat = " ".join(done.output.split())
    if same:
        assert run["limitationStanding"] == "confirmed"
        assert run["limitationConfirmedBy"][0].startswith("surface good answered the same 4 questions well")
        assert ab not in flat
    else:
        assert run["limitationStanding"] == "suspected" and not run.get("limitationConfirmedBy")
        assert ab in flat
    assert json.loads((out / "comparison.json").read_text(encoding="utf-8"))["abComparison"] is (not same)


def test_resume_of_a_finished_run_leaves_its_folder_and_the_history_as_they_are(tmp_path, directline):
    out, history = tmp_path / "out", f"sqlite:///{tmp_path / 'history.db'}"
    args = ["run", _set_file(tmp_path, STORIES["half"]), "--agent", _agent_file(tmp_path, directline, "agent"),
            "--out", out, "--grader", "exact", "--no-progress", "--history", history, "--fail-under", "75"]  # fmt: skip
    first = _cli(*args)
    assert first.exit_code == 1, first.output
    before = {name: (out / name).read_bytes() for name in ("run.json", "results.csv", "report.html")}
    again = _cli(*args, "--resume")
    assert again.exit_code == 1, again.output  # the recorded run's verdict, as when it finished
    assert "this run finished already" in again.output and "--resume left its folder and the history as they are" in (
        " ".join(again.output.split())
    )
    assert {name: (out / name).read_bytes() for name in before} == before  # runAt and duration kept
    stored = json.loads(_cli("history", "runs", "--history", history, "--json").output)
    assert len(stored["runs"] if isinstance(stored, dict) else stored) == 1  # no second row for the same plays


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_every_writers_folder_can_be_scanned_offline(writer, tmp_path, directline):
    outcome = WRITERS[writer](STORIES["one-error"], tmp_path, directline, [], 1)
    for folder in outcome.folders:
        before = (folder / "run.json").read_bytes()
        done = _cli("scan", folder)
        assert done.exit_code == 0, done.output
        assert "scanned 4 case(s)" in done.output
        found = read_findings(folder)
        assert len(found.scanners) == 7 and found.unreadable == 0
        # The case the platform failed to answer is flagged (no answer, or its error text read as one);
        # the cases the story answers with their reference are not.
        flagged = {f.case for f in found.findings}
        if writer in ("studio-eval", "analyze"):
            # A platform's run keeps no answer where the platform failed (its error code made the case an
            # error already, in one place) and the API's run no text without an export: nothing to flag.
            assert flagged == set(), found.findings
        elif writer != "run-several" or folder.name == "story":
            assert flagged == {"4.1"}, (writer, found.findings)
        assert (folder / "run.json").read_bytes() == before
