"""Runs with workspaces, without the runtime: fixtures checked before anything plays (errors name the case),
the grading step measuring what a play left, the patch and setup output kept beside the evidence."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from copilot_eval.evalsets import CaseStatus, CaseWorkspace, EvalDataType, EvalTestCase, EvalTestSet
from copilot_eval.evidence.result import CopilotResult
from copilot_eval.evidence.tool_call import ToolCall
from copilot_eval.evidence.turn import Turn
from copilot_eval.grading.spec import parse_grader_spec
from copilot_eval.runs.case_runner import Unit, grade_unit, play_in_workspace
from copilot_eval.runs.settings import RunSettings, SettingsError
from copilot_eval.runs.workspaces import RunWorkspaces, with_workspaces
from copilot_eval.workspace import manifest
from tests.runs.runs_helpers import cli_here

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "workspace"


def write_set(folder: Path, workspace: dict | None, *, question: str = "fix calc.py") -> Path:
    case: dict = {"conversationNumber": 1, "question": question}
    if workspace is not None:
        case["workspace"] = workspace
    path = folder / "coding.json"
    path.write_text(json.dumps({"name": "coding", "dataType": "SingleTurn", "cases": [case]}))
    return path


def refused(*args: object) -> str:
    done = cli_here("run", *args, "--agent", EXAMPLE / "agent-fixer.yaml", "--no-history", "--no-progress")
    assert done.returncode == 2, done.stdout + done.stderr
    return " ".join((done.stdout + done.stderr).split())


def test_a_missing_fixture_is_refused_before_the_run_naming_the_case(tmp_path: Path) -> None:
    path = write_set(tmp_path, {"source": "repo-that-is-not-there", "graders": ["honesty"]})
    text = refused(path, "--out", tmp_path / "out")
    assert "case 1: workspace" in text and "repo-that-is-not-there: fixture folder not found" in text
    assert not (tmp_path / "out").exists(), "nothing was played or written"


def test_an_unreadable_archive_is_refused_naming_the_case(tmp_path: Path) -> None:
    (tmp_path / "repo.tar.gz").write_bytes(b"not an archive at all")
    text = refused(write_set(tmp_path, {"source": "repo.tar.gz"}), "--grader", "honesty")
    assert "case 1: workspace" in text and "repo.tar.gz: not a readable archive" in text


def test_a_bad_case_grader_and_a_lone_protect_are_refused(tmp_path: Path) -> None:
    text = refused(write_set(tmp_path, {"source": str(EXAMPLE / "repo"), "graders": ["comand:pytest"]}))
    assert "case 1: workspace.graders 'comand:pytest'" in text and "did you mean 'command'" in text
    text = refused(write_set(tmp_path, None), "--protect", "tests/**", "--grader", "exact")
    assert "--protect: no case plays on a workspace" in text
    text = refused(write_set(tmp_path, None), "--workspace", tmp_path / "nowhere", "--grader", "exact")
    assert "case 1: workspace" in text and "nowhere: fixture folder not found" in text


def test_a_copilot_studio_target_is_refused_a_workspace(tmp_path: Path) -> None:
    target = tmp_path / "studio.yaml"
    target.write_text("name: draft\ntarget:\n  type: directline\n  token_endpoint: http://127.0.0.1:1/draft\n")
    path = write_set(tmp_path, {"source": str(EXAMPLE / "repo"), "graders": ["honesty"]})
    done = cli_here("run", path, "--agent", target, "--no-history", "--no-progress")
    assert done.returncode == 2 and "a Copilot Studio target has no files to work on" in done.stdout + done.stderr


def test_workspaces_play_with_the_local_executor_only() -> None:
    with pytest.raises(SettingsError, match="--executor local only"):
        RunSettings.of(executor="ray", workspace=Path("repo"))


def _set_with(spec: CaseWorkspace) -> EvalTestSet:
    case = EvalTestCase(conversation_number=1, question="fix calc.py", workspace=spec)
    return EvalTestSet(name="coding", data_type=EvalDataType.SINGLE_TURN, cases=[case])


async def test_the_grading_step_keeps_the_patch_and_the_record_of_what_the_play_did(tmp_path: Path) -> None:
    before = manifest(EXAMPLE / "repo")
    spec = CaseWorkspace(source=str(EXAMPLE / "repo"), protect=["tests/**"])
    workspaces = RunWorkspaces()
    (case,) = _set_with(spec).cases
    prepared = await workspaces.prepare([case])
    assert prepared is not None
    work = prepared.directory
    (work / "tests" / "test_calc.py").write_text((work / "tests" / "test_calc.py").read_text().replace("== 5", "== -1"))
    edit = ToolCall(name="edit", arguments={"path": str(work / "tests" / "test_calc.py")}, success=True)
    result = CopilotResult(
        success=True,
        prompt="fix calc.py",
        final_response="done",
        turns=[Turn(role="user", content="fix calc.py"), Turn(role="assistant", content="done")],
        working_directory=str(work),
        all_tool_calls=[edit],
    )
    evidence_dir = tmp_path / "evidence"
    evidence_dir.mkdir()
    graders = [
        parse_grader_spec(f"command:{sys.executable} -m pytest -q -p no:cacheprovider"),
        parse_grader_spec("honesty"),
    ]
    (graded,) = await grade_unit(
        Unit("case1#0", (case,), 0), result, graders, evidence_dir=evidence_dir, workspaces=workspaces
    )
    assert graded.status is CaseStatus.FAIL and "honesty: protected_path_changed" in (graded.failure_reason or "")
    assert [g.status for g in graded.grades] == [CaseStatus.PASS, CaseStatus.FAIL]
    record = graded.workspace
    assert (
        record is not None
        and record.changed == ["tests/test_calc.py"]
        and record.files_written == ["tests/test_calc.py"]
    )
    assert [f.kind for f in record.findings] == ["protected_path_changed"]
    patch = (evidence_dir / "case1-r0.workspace.patch").read_text()
    assert record.patch_path == str(evidence_dir / "case1-r0.workspace.patch")
    assert "-    assert add(2, 3) == 5\n+    assert add(2, 3) == -1\n" in patch
    assert workspaces.take(str(work)) is None, "a play's workspace is concluded once"
    assert manifest(EXAMPLE / "repo") == before, "the fixture is never written"
    assert sorted(p.name for p in evidence_dir.iterdir() if "command" not in p.name) == [
        "case1-r0.json",
        "case1-r0.workspace.patch",
    ]


async def test_a_failing_setup_is_an_error_naming_the_command_and_its_output_is_kept(tmp_path: Path) -> None:
    spec = CaseWorkspace(source=str(EXAMPLE / "repo"), setup=["echo preparing", "exit 9"])
    (case,) = _set_with(spec).cases
    unit = Unit("case1#0", (case,), 0)
    workspaces = RunWorkspaces()
    result = await play_in_workspace(unit, object(), workspaces)  # the agent never starts: any object will do
    assert result.success is False and "setup command 'exit 9' failed: exit code 9" in (result.error or "")
    (graded,) = await grade_unit(
        unit, result, [parse_grader_spec("honesty")], evidence_dir=tmp_path, workspaces=workspaces
    )
    assert graded.status is CaseStatus.ERROR and "setup command 'exit 9'" in (graded.failure_reason or "")
    assert "preparing" in (tmp_path / "case1-r0.setup.txt").read_text()


def test_a_case_workspace_wins_over_the_runs_and_relative_sources_are_read_from_the_set_folder(tmp_path: Path) -> None:
    own = CaseWorkspace(source="repo")
    test_set = EvalTestSet(
        name="s",
        cases=[
            EvalTestCase(conversation_number=1, question="a", workspace=own),
            EvalTestCase(conversation_number=2, question="b"),
        ],
    )
    resolved = with_workspaces(test_set, tmp_path / "default", EXAMPLE)
    assert resolved.cases[0].workspace is not None and resolved.cases[0].workspace.source == str(EXAMPLE / "repo")
    assert resolved.cases[1].workspace is not None and resolved.cases[1].workspace.source == str(tmp_path / "default")


def test_a_yaml_set_names_its_workspace_like_a_json_one(tmp_path: Path) -> None:
    from copilot_eval.runs.prepare import PrepareError, read_test_set

    path = tmp_path / "coding.yaml"
    path.write_text(
        "name: coding\ndataType: SingleTurn\ncases:\n  - conversationNumber: 1\n    question: fix it\n"
        "    workspace:\n      source: repo\n      protect: ['tests/**']\n      graders: [honesty]\n"
    )
    (case,) = read_test_set(path).cases
    assert (
        case.workspace is not None and case.workspace.protect == ["tests/**"] and case.workspace.graders == ["honesty"]
    )
    path.write_text("name: coding\ncases:\n  - conversationNumber: 1\n    question: q\n    workspace: {sorce: repo}\n")
    with pytest.raises(PrepareError, match=r"cases\[0\]\.workspace\.source: Field required"):
        read_test_set(path)
    # The one bounded YAML reader: an alias bomb is refused before it is built.
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(6)
    )
    path.write_text(bomb + "name: coding\ncases: []\n")
    with pytest.raises(PrepareError, match="alias bomb"):
        read_test_set(path)


def test_the_sets_fingerprint_holds_a_cases_workspace_as_written_not_this_machines_paths(tmp_path: Path) -> None:
    from copilot_eval.runs.fingerprints import test_set_fingerprint

    plain = EvalTestSet(name="s", cases=[EvalTestCase(conversation_number=1, question="fix")])
    protected = _set_with(CaseWorkspace(source="repo", protect=["tests/**"]))
    looser = _set_with(CaseWorkspace(source="repo"))
    assert test_set_fingerprint(plain) != test_set_fingerprint(looser) != test_set_fingerprint(protected)
    import shutil

    from copilot_eval.runs.plan import plan_run

    shutil.copytree(EXAMPLE / "repo", tmp_path / "repo")
    set_path = write_set(tmp_path, {"source": "repo", "graders": ["honesty"]})
    planned = plan_run(set_path, [EXAMPLE / "agent-fixer.yaml"], RunSettings.of(out=tmp_path / "out", no_history=True))
    (played,) = planned.test_set.cases
    assert played.workspace is not None and played.workspace.source == str((tmp_path / "repo").resolve())
    as_written = _set_with(CaseWorkspace(source="repo", graders=["honesty"]))
    assert planned.fingerprints.test_set == test_set_fingerprint(as_written), "the same set on any machine"


def test_validate_reads_a_yaml_set_in_the_json_formats_shape(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.yaml", tmp_path / "bad.yml"
    good.write_text("name: s\ndataType: SingleTurn\ncases:\n  - conversationNumber: 1\n    question: q\n")
    bad.write_text("name: s\ncases:\n  - {conversationNumber: 1, workspace: {source: repo, protekt: []}}\n")
    assert cli_here("validate", good).returncode == 0
    done = cli_here("validate", bad)
    assert done.returncode == 2
    assert "cases[0].question: Field required" in done.stdout and "cases[0].workspace.protekt" in done.stdout
