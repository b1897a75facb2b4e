"""copilot-eval merge: shard runs checked, then merged into one run folder equal to a whole run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from copilot_eval.evidence.result import CopilotResult
from copilot_eval.reports.repeat_words import case_label, failing_cases
from copilot_eval.reports.run_folder import read_run_folder
from copilot_eval.runs import MergeError, flaky_cases, merge_run_folders, pass_rates
from tests.runs.runs_helpers import cli_here
from tests.scale.shard_helpers import outcomes, play, shard, write_project

pytestmark = pytest.mark.runtime


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> dict[str, Path]:
    return write_project(tmp_path_factory.mktemp("project"))


@pytest.fixture(scope="module")
async def runs(project, tmp_path_factory) -> dict[str, Path]:
    """A whole run and its three shards (repeat 2), all from the same files."""
    base = tmp_path_factory.mktemp("runs")
    await play(project["set"], project["agent"], base / "whole", repeat=2)
    for index in (1, 2, 3):
        await play(project["set"], project["agent"], base / f"shard{index}", shard=shard(index, 3), repeat=2)
    return {name: base / name for name in ("whole", "shard1", "shard2", "shard3")}


def _shards(runs) -> list[Path]:
    return [runs["shard1"], runs["shard2"], runs["shard3"]]


def _evidence(folder: Path) -> dict[str, list[tuple[str, str]]]:
    return {
        path.name: [(t.role, t.content) for t in CopilotResult.load(path).turns]
        for path in sorted((folder / "evidence").glob("*.json"))
    }


def test_three_shards_merged_equal_one_whole_run(runs, tmp_path):
    merged = merge_run_folders(_shards(runs), tmp_path / "merged")[0]
    whole = read_run_folder(runs["whole"]).run
    assert outcomes(merged.run) == outcomes(whole)
    assert (merged.run.passed, merged.run.failed, merged.run.errored) == (whole.passed, whole.failed, whole.errored)
    assert pass_rates(merged.run) == pass_rates(whole) and flaky_cases(merged.run) == flaky_cases(whole)
    assert merged.run.case_repeats == whole.case_repeats  # each case over its tries, from the union
    # A scripted model answers every repeat alike: the merged run says so, as the whole run does.
    assert (merged.run.repeats_independent, merged.run.repeat_dependence) == (False, whole.repeat_dependence)
    assert (merged.run.runtime_limitation is None) == (whole.runtime_limitation is None)
    assert _evidence(tmp_path / "merged") == _evidence(runs["whole"])  # same files, same conversations
    data = json.loads((tmp_path / "merged" / "run.json").read_text())
    assert data["merge"] == {
        "shardCount": 3,
        "shards": [1, 2, 3],
        "missingShards": [],
        "missingConversations": [],
        "complete": True,
    }
    assert data["fingerprints"] == json.loads((runs["shard1"] / "run.json").read_text())["fingerprints"]
    assert "shard" not in data and data["repeat"] == 2
    assert "draftCases" not in data  # no shard's set had a provenance sidecar: nothing said about drafts


def test_the_merged_run_counts_the_drafts_each_shard_played(runs, tmp_path):
    copies = []
    for count, folder in zip((1, 0, 2), _shards(runs), strict=True):
        copy = shutil.copytree(folder, tmp_path / folder.name)
        data = json.loads((copy / "run.json").read_text())
        (copy / "run.json").write_text(json.dumps({**data, "draftCases": count}))
        copies.append(copy)
    merged = merge_run_folders(copies, tmp_path / "merged")[0]
    assert merged.run.draft_cases == 3
    assert json.loads((tmp_path / "merged" / "run.json").read_text())["draftCases"] == 3


def test_each_shard_records_its_part_and_the_fingerprints(runs):
    datas = [json.loads((folder / "run.json").read_text()) for folder in _shards(runs)]
    assert [d["shard"] for d in datas] == [{"index": i, "count": 3} for i in (1, 2, 3)]
    assert all(set(d["fingerprints"]) == {"testSet", "agent", "graders", "playedAgent"} for d in datas)
    assert sorted(len({r["conversationNumber"] for r in d["results"]}) for d in datas) == [2, 2, 3]


def test_merging_again_writes_the_same_files(runs, tmp_path):
    out = tmp_path / "merged"
    merge_run_folders(_shards(runs), out)
    first = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    merge_run_folders(list(reversed(_shards(runs))), out)
    second = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    assert first == second


def test_a_missing_shard_refuses_unless_partial_and_then_the_run_names_what_was_not_played(runs, tmp_path):
    with pytest.raises(MergeError) as refused:
        merge_run_folders(_shards(runs)[:2], tmp_path / "no")
    assert any(p.startswith("shard 3/3 is missing (conversations ") for p in refused.value.problems)
    assert not (tmp_path / "no").exists()  # nothing was written
    partial = merge_run_folders(_shards(runs)[:2], tmp_path / "partial", allow_partial=True)[0].run
    third = sorted({r.conversation_number for r in read_run_folder(runs["shard3"]).run.results})
    assert partial.merge.complete is False and partial.merge.missing_shards == [3]
    assert partial.merge.missing_conversations == third
    assert partial.note.startswith("incomplete merge: shards missing: 3/3; conversations not played: ")


async def test_every_refusal_is_listed_at_once(project, runs, tmp_path):
    changed = write_project(tmp_path / "changed", changed_question=True)
    await play(changed["set"], project["agent"], tmp_path / "other-set", shard=shard(2, 3), repeat=2)
    await play(project["set"], project["other"], tmp_path / "other-agent", shard=shard(2, 3), repeat=2)
    await play(
        project["set"],
        project["agent"],
        tmp_path / "other-graders",
        shard=shard(2, 3),
        graders=["similarity"],
        repeat=2,
    )
    await play(project["set"], project["agent"], tmp_path / "other-repeat", shard=shard(2, 3), repeat=1)
    await play(project["set"], project["agent"], tmp_path / "other-count", shard=shard(2, 4), repeat=2)
    for name, problem in [
        ("other-set", "different test sets"),
        ("other-agent", "different agents"),
        ("other-graders", "different graders"),
        ("other-repeat", "different repeat counts"),
        ("other-count", "different shard counts"),
    ]:
        with pytest.raises(MergeError) as refused:
            merge_run_folders([runs["shard1"], tmp_path / name, runs["shard3"]], tmp_path / "out")
        assert any(p.startswith(problem) and name in p for p in refused.value.problems), refused.value.problems
    shutil.copytree(runs["shard1"], tmp_path / "again")
    overlap = tmp_path / "overlap"
    shutil.copytree(runs["shard2"], overlap)
    data = json.loads((overlap / "run.json").read_text())
    stolen = json.loads((runs["shard1"] / "run.json").read_text())["results"][0]
    data["results"].append(stolen)
    data["passed"] += stolen["status"] == "pass"
    data["failed"] += stolen["status"] == "fail"
    data["gradedCases"] = data["passed"] + data["failed"]
    (overlap / "run.json").write_text(json.dumps(data))
    with pytest.raises(MergeError) as refused:
        merge_run_folders([runs["shard1"], tmp_path / "again", overlap, runs["whole"]], tmp_path / "out")
    problems = refused.value.problems
    assert any("not a shard run" in p and "whole" in p for p in problems)
    with pytest.raises(MergeError) as refused:
        merge_run_folders([runs["shard1"], tmp_path / "again", overlap], tmp_path / "out")
    problems = refused.value.problems
    assert any(p.startswith("shard 1/3 given twice: ") for p in problems)
    assert any(p.startswith(f"case {stolen['conversationNumber']} turn ") and "is in two shards" in p for p in problems)
    assert any("which belongs to shard 1/3" in p for p in problems)
    assert any(p.startswith("shard 3/3 is missing") for p in problems)
    assert not (tmp_path / "out").exists()


async def test_the_shards_minimum_pass_rate_judges_each_case_of_the_merged_run(project, runs, tmp_path):
    # --min-pass-rate belongs to the run, not to a grader: the shards must agree on it, and the
    # merged run judges each case over its tries in every shard, as a whole run would.
    rated = [tmp_path / f"rated{index}" for index in (1, 2, 3)]
    for index, folder in enumerate(rated, start=1):
        await play(project["set"], project["agent"], folder, shard=shard(index, 3), repeat=2, min_pass_rate=0.5)
    await play(project["set"], project["agent"], tmp_path / "whole", repeat=2, min_pass_rate=0.5)
    merged = merge_run_folders(rated, tmp_path / "merged")[0].run
    whole = read_run_folder(tmp_path / "whole").run
    assert merged.min_pass_rate == 0.5 and merged.case_repeats == whole.case_repeats
    assert [case_label(record) for record in failing_cases(merged)] == ["case 3 turn 2"]
    with pytest.raises(MergeError) as refused:
        merge_run_folders([rated[0], runs["shard2"], rated[2]], tmp_path / "out")
    assert any(p.startswith("different minimum pass rates") and "shard2" in p for p in refused.value.problems)
    gate = cli_here("merge", *rated, "--out", tmp_path / "cli")
    assert gate.returncode == 1, gate.stderr
    assert "exit 1 (below a gate): 1 case(s) below --min-pass-rate 50%: case 3 turn 2" in gate.stderr


# The merge command runs in this process (cli_here): what is tested is what it writes and its exit
# codes, not a process of its own (the run command's process is tested in tests/runs/test_cli_run.py).
def test_the_command_merges_writes_the_report_and_junit_and_refuses_with_exit_2(runs, tmp_path):
    out = tmp_path / "merged"
    done = cli_here("merge", *_shards(runs), "--out", out, "--junit", tmp_path / "j.xml")
    assert done.returncode == 0, done.stderr
    assert "merged shards 1, 2, 3 of 3" in done.stdout and "pass@2" in done.stdout
    assert (out / "report.html").is_file() and "<testsuite" in (tmp_path / "j.xml").read_text()
    gate = cli_here("merge", *_shards(runs), "--out", out, "--fail-under", "100")
    assert gate.returncode == 1 and "exit 1 (below a gate): score " in gate.stderr
    assert "is below --fail-under 100" in gate.stderr
    refused = cli_here("merge", runs["shard1"], "--out", tmp_path / "none")
    assert refused.returncode == 2 and "nothing was written" in refused.stderr
    assert "shard 2/3 is missing" in refused.stderr and "shard 3/3 is missing" in refused.stderr


async def test_surfaces_merge_surface_by_surface_and_two_agents_do_not_confirm_each_other(tmp_path):
    from copilot_eval.runs import run_surfaces
    from copilot_eval.runs.plan import plan_run
    from copilot_eval.runs.settings import RunSettings

    project = write_project(tmp_path / "p")
    # An outage of the model (HTTP 400, not retried): on the local runtime the same answer to every case would be
    # the agent's own failure, execution errors are the platform's.
    (tmp_path / "p" / "fallback-script.yaml").write_text(
        'rules:\n  - turns: [{error: {status: 400, message: "Bad Request"}, times: 50}, {text: "never"}]\n'
    )
    (tmp_path / "p" / "fallback.yaml").write_text(
        "name: fallback\nmodel: {scripted: fallback-script.yaml}\ntimeout_s: 30\n", encoding="utf-8"
    )
    for index in (1, 2):  # planned as `copilot-eval run SET --agent A --agent B --shard I/2` plans it
        agents = [project["agent"], tmp_path / "p" / "fallback.yaml"]
        plan = plan_run(
            project["set"], agents, RunSettings.of(out=tmp_path / f"s{index}", graders=["exact"], shard=shard(index, 2))
        )
        assert [s.label for s in plan.surfaces] == ["echo", "fallback"]
        await run_surfaces(plan.test_set, plan.surfaces, plan.settings, fingerprints=plan.fingerprints, validate=False)
    merged = merge_run_folders([tmp_path / "s1", tmp_path / "s2"], tmp_path / "m")
    assert [m.label for m in merged] == ["echo", "fallback"]
    assert all((tmp_path / "m" / label / "run.json").is_file() for label in ("echo", "fallback"))
    fallback = merged[1].run
    # echo and fallback are two agents (other scripts): an A/B comparison, so echo's passes prove nothing
    # about the platform, and fallback's limitation stays suspected.
    assert fallback.passed == 0 and fallback.limitation_standing.value == "suspected"
    assert fallback.limitation_confirmed_by == []
    surfaces = json.loads((tmp_path / "m" / "comparison.json").read_text())
    assert surfaces["surfaces"][0]["label"] == "echo" and surfaces["abComparison"] is True
