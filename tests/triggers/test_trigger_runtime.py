"""Trigger evaluations through the real runtime: a scripted router whose choices are known gives exact figures,
and injected faults (a model error, a broken or disabled skill) give errors and setup problems, never misses.

Two evaluations per module, shared by its tests: a clean catalogue (three skills and a custom agent)
with one prompt whose model call fails, and a catalogue holding a broken and a disabled skill. The
scripted router proves the harness, not any real model's routing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from copilot_eval import CopilotEval, CopilotResult
from copilot_eval.agent.custom_agent import CustomAgent
from copilot_eval.cli.app import app
from copilot_eval.models import ScriptedModel
from copilot_eval.models.byok import ByokProvider
from copilot_eval.triggers import ANOTHER, NONE, TriggerRun, read_trigger_set, trigger_eval, trigger_set_from_data

pytestmark = pytest.mark.runtime

SKILLS = {
    "pdf-forms": "Fill, sign and flatten PDF forms when the user hands over a PDF with fields.",
    "csv-clean": "Tidy CSV files, fix quoting, drop empty rows and normalise dates in tabular exports.",
    "release-notes": "Draft release notes from merged pull requests and the changelog of a repository.",
}
PROMPTS = [
    ("fill the pdf form for me", "pdf-forms", []),
    ("sign the pdf contract", "pdf-forms", []),
    ("tidy csv export", "csv-clean", []),
    ("csv summary please", "csv-clean", []),  # the router takes pdf-forms: a miss and a false trigger
    ("what is pdf anyway", NONE, ["near-miss"]),  # the router takes pdf-forms
    ("what is the weather", NONE, ["negative-control"]),
    ("review my diff", "reviewer", []),
    ("delegate notes", "release-notes", []),  # chosen by a subagent, counted for the parent
    ("model breaks on csv", "csv-clean", []),  # the model answers HTTP 400: an error, never a miss
]


def skill(name: str) -> dict:
    return {"tool_calls": [{"name": "skill", "arguments": {"skill": name}}]}


ROUTER = [
    {"when": {"prompt_contains": "model breaks"}, "turns": [{"error": {"status": 400, "message": "bad request"}}]},
    {"when": {"prompt_contains": "subtask"}, "turns": [skill("release-notes"), {"text": "notes drafted"}]},
    {"when": {"prompt_contains": "delegate"}, "turns": [
        {"tool_calls": [{"name": "task", "arguments": {
            "description": "notes", "prompt": "subtask: write the notes", "agent_type": "general-purpose", "name": "helper"}}]},
        {"text": "delegated"},
    ]},
    {"when": {"prompt_contains": "review"}, "turns": [
        {"tool_calls": [{"name": "task", "arguments": {
            "description": "review", "prompt": "look at the diff", "agent_type": "reviewer", "name": "rev"}}]},
        {"text": "reviewed"},
    ]},
    {"when": {"prompt_contains": "tidy csv"}, "turns": [skill("csv-clean"), {"text": "tidied"}]},
    {"when": {"prompt_matches": "pdf|csv summary"}, "turns": [skill("pdf-forms"), {"text": "done"}]},
    {"turns": [{"text": "no skill needed"}]},
]  # fmt: skip


def write_skill(root: Path, name: str, front: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(f"{front}\n# {name}\n\nSteps of {name}.\n", encoding="utf-8")


def catalogue(root: Path, *extra: tuple[str, str]) -> Path:
    for name, description in SKILLS.items():
        write_skill(root, name, f"---\nname: {name}\ndescription: {description}\n---")
    for name, front in extra:
        write_skill(root, name, front)
    return root


def router_agent(skills: Path, **options: object) -> CopilotEval:
    reviewer = CustomAgent(name="reviewer", description="Reviews diffs for bugs and risky changes.", prompt="Review.")
    return CopilotEval(
        name="router",
        model=ScriptedModel.from_dict({"rules": ROUTER}),
        skill_directories=(skills,),
        custom_agents=(reviewer,),
        timeout_s=60,
        **options,
    )


@pytest.fixture(scope="module")
async def clean_run(tmp_path_factory: pytest.TempPathFactory) -> TriggerRun:
    root = tmp_path_factory.mktemp("clean")
    prompts = [{"prompt": p, "expected": e, "tags": t} for p, e, t in PROMPTS]
    trigger_set = trigger_set_from_data({"name": "router", "prompts": prompts}, name="router", source="test")
    return await trigger_eval(router_agent(catalogue(root / "skills")), trigger_set, runs=2, out=root / "run")


def test_a_known_router_gives_exact_precision_recall_and_confusion(clean_run: TriggerRun) -> None:
    figures = clean_run.figures
    assert [p.label for p in clean_run.plays if p.repeat == 0] == [
        "chose:pdf-forms", "chose:pdf-forms", "chose:csv-clean", "chose:pdf-forms", "chose:pdf-forms",
        "chose:none", "chose:reviewer", "chose:release-notes", "error",
    ], [p.reason for p in clean_run.plays]  # fmt: skip
    exact = {
        s.name: (s.true_positives, s.false_positives, s.false_negatives, s.precision, s.recall) for s in figures.skills
    }
    assert exact == {
        "csv-clean": (1, 0, 1, 1.0, 0.5),
        "pdf-forms": (2, 2, 0, 0.5, 1.0),
        "release-notes": (1, 0, 0, 1.0, 1.0),
        "reviewer": (1, 0, 0, 1.0, 1.0),
    }
    assert figures.confusion == {
        "csv-clean": {"csv-clean": 2, "pdf-forms": 2, "release-notes": 0, "reviewer": 0, NONE: 0, ANOTHER: 0},
        "pdf-forms": {"csv-clean": 0, "pdf-forms": 4, "release-notes": 0, "reviewer": 0, NONE: 0, ANOTHER: 0},
        "release-notes": {"csv-clean": 0, "pdf-forms": 0, "release-notes": 2, "reviewer": 0, NONE: 0, ANOTHER: 0},
        "reviewer": {"csv-clean": 0, "pdf-forms": 0, "release-notes": 0, "reviewer": 2, NONE: 0, ANOTHER: 0},
        NONE: {"csv-clean": 0, "pdf-forms": 2, "release-notes": 0, "reviewer": 0, NONE: 2, ANOTHER: 0},
    }
    assert (figures.near_miss_false_triggers, figures.near_miss_counted) == (2, 2)
    assert figures.apart == {"error": 2} and (figures.counted, figures.correct) == (16, 12)
    broken = figures.prompts[-1]
    assert (broken.counted, broken.verdict, broken.apart) == (0, "no verdict", {"error": 2})


def test_the_subagents_choice_has_its_path_and_each_play_stopped_at_the_choice(clean_run: TriggerRun) -> None:
    delegated = next(p for p in clean_run.plays if p.number == 8)
    assert delegated.path == ("general-purpose",) and "inside general-purpose" in delegated.reason
    evidence = CopilotResult.load(Path(clean_run.plays[0].evidence_path or ""))
    assert evidence.configuration is not None
    assert evidence.configuration["stop_at_tools"] == ["skill", "task:reviewer"]
    assert evidence.stop_reason == "completed" and evidence.request_audit is not None
    assert len(evidence.request_audit) == 1, "the play ended at the skill call: no request after the choice"
    assert evidence.request_audit[0].markers == dict.fromkeys(evidence.configuration["audit_markers"], True), (
        "every description reached the model"
    )
    assert evidence.prompt == "fill the pdf form for me", "nothing was added to the prompt"


def test_the_run_folder_has_the_figures_the_report_and_a_case_per_prompt(clean_run: TriggerRun) -> None:
    folder = clean_run.folder
    assert folder is not None
    run = json.loads((folder / "run.json").read_text(encoding="utf-8"))
    assert run["testSetName"] == "trigger-set:router" and len(run["results"]) == 18
    document = json.loads((folder / "triggers.json").read_text(encoding="utf-8"))
    assert document["figures"]["confusion"]["rows"]["csv-clean"]["pdf-forms"] == 2
    assert document["stopAtChoice"] is True and len(document["plays"]) == 18
    report = (folder / "report.html").read_text(encoding="utf-8")
    assert 'class="triggers-confusion"' in report and 'class="triggers-skills"' in report


@pytest.fixture(scope="module")
async def faulty_run(tmp_path_factory: pytest.TempPathFactory) -> TriggerRun:
    root = tmp_path_factory.mktemp("faulty")
    skills = catalogue(
        root / "skills",
        ("broken", "no front matter at all"),
        ("legacy", "---\nname: legacy\ndescription: Old PDF tooling kept for reference.\n---"),
    )
    prompts = [{"prompt": "fill the pdf form", "expected": "pdf-forms"}, {"prompt": "use broken", "expected": "broken"}]
    trigger_set = trigger_set_from_data({"prompts": prompts, "siblings": ["legacy"]}, name="faulty", source="test")
    agent = router_agent(skills, disabled_skills=("legacy",))
    return await trigger_eval(agent, trigger_set, runs=1)


def test_a_broken_or_disabled_skill_is_a_setup_problem_never_a_miss(faulty_run: TriggerRun) -> None:
    assert [p.label for p in faulty_run.plays] == ["setup", "setup"]
    reasons = faulty_run.plays[0].reason
    assert "'broken' was not loaded" in reasons and "frontmatter" in reasons
    assert "'legacy' is loaded but disabled" in reasons
    assert faulty_run.figures.counted == 0 and faulty_run.figures.apart == {"setup": 2}
    problems = {e.name: e.problems for e in faulty_run.catalogue.entries}
    assert problems["pdf-forms"] == () and problems["broken"] and problems["legacy"]


def test_skills_lists_the_catalogue_as_loaded(tmp_path: Path) -> None:
    skills = catalogue(tmp_path / "skills", ("broken", "no front matter at all"))
    agent = tmp_path / "agent.yaml"
    agent.write_text(f"name: a\nmodel: gpt-4.1\nskill_directories: [{skills}]\n", encoding="utf-8")
    outcome = CliRunner().invoke(app, ["skills", str(agent), "--json"])
    document = json.loads(outcome.stdout)
    assert outcome.exit_code == 2, outcome.output
    entries = {e["name"]: e for e in document["entries"]}
    assert entries["csv-clean"]["descriptionLength"] == len(SKILLS["csv-clean"])
    assert entries["csv-clean"]["source"] == "custom" and entries["csv-clean"]["problems"] == []
    assert "frontmatter" in entries["broken"]["problems"][0]


EXAMPLE = Path(__file__).parents[2] / "examples" / "skills"


async def test_the_worked_example_gives_the_figures_its_readme_states() -> None:
    agent = CopilotEval.from_file(EXAMPLE / "agent.yaml")
    run = await trigger_eval(agent, read_trigger_set(EXAMPLE / "triggers.yaml"), runs=1)
    exact = {s.name: (s.precision, s.recall) for s in run.figures.skills}
    assert exact == {
        "changelog-writer": (pytest.approx(2 / 3), 1.0),
        "dependency-audit": (0.5, 0.5),
        "flaky-test-triage": (None, 0.0),
        "reviewer": (1.0, 1.0),
    }
    assert (run.figures.near_miss_false_triggers, run.figures.near_miss_counted) == (2, 2)


def test_the_pytest_fixture_plays_a_set_in_a_users_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_skills=f"""
from copilot_eval import CopilotEval

async def test_routing(trigger_eval):
    agent = CopilotEval.from_file({str(EXAMPLE / "agent.yaml")!r})
    run = await trigger_eval(agent, {str(EXAMPLE / "triggers.csv")!r}, runs=1)
    assert run.figures.skill("changelog-writer").recall == 1.0
    assert run.figures.skill("dependency-audit").recall == 0.0, "the router misses that prompt"
"""
    )
    evidence = pytester.path / "evidence"
    outcome = pytester.runpytest_subprocess(f"--copilot-evidence-dir={evidence}", "-p", "no:cacheprovider")
    outcome.assert_outcomes(passed=1)
    assert len(list(evidence.glob("*.json"))) == 3, "one evidence file per play"


def test_the_command_writes_junit_one_case_per_prompt_and_exits_by_the_gate(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    arguments = ["triggers", str(EXAMPLE / "triggers.csv"), "--agent", str(EXAMPLE / "agent.yaml")]
    arguments += ["--runs", "1", "--out", str(tmp_path / "run"), "--junit", str(junit), "--no-history"]
    arguments += ["--scan", "empty_answer,refusal", "--fail-on-finding", "empty_answer"]
    outcome = CliRunner().invoke(app, [*arguments, "--min-recall", "dependency-audit=0.5"])
    assert outcome.exit_code == 1, outcome.output
    assert "dependency-audit: recall 0% is below --min-recall 0.5" in outcome.output
    assert junit.read_text(encoding="utf-8").count("<testcase") == 3
    assert (tmp_path / "run" / "triggers.json").is_file()
    # --scan reaches the finisher: one file per scanner beside run.json; a play stopped at its choice
    # ends there by design, so empty_answer finds nothing and --fail-on-finding adds no reason
    scans = tmp_path / "run" / "scans"
    assert sorted(p.name for p in scans.iterdir()) == ["empty_answer.jsonl", "refusal.jsonl"]
    assert (scans / "empty_answer.jsonl").read_text(encoding="utf-8").strip() == ""
    assert "--fail-on-finding" not in outcome.output


def test_a_trigger_set_file_is_collected_as_one_item_per_prompt(pytester: pytest.Pytester) -> None:
    text = (EXAMPLE / "triggers.csv").read_text(encoding="utf-8")
    pytester.path.joinpath("skills.triggers.csv").write_text(text, encoding="utf-8")
    outcome = pytester.runpytest_subprocess(
        f"--copilot-agent={EXAMPLE / 'agent.yaml'}", "-p", "no:cacheprovider", "-v", "skills.triggers.csv"
    )
    outcome.assert_outcomes(passed=2, failed=1)
    outcome.stdout.fnmatch_lines(
        ["*prompt 2: Is it safe to ship*FAILED*", "*expected dependency-audit; chosen: none 3*"]
    )


def test_the_history_keeps_per_skill_figures_of_stored_trigger_runs(clean_run: TriggerRun, tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'history.db'}"
    runner = CliRunner()
    assert runner.invoke(app, ["history", "ingest", str(clean_run.folder), "--history", database]).exit_code == 0
    outcome = runner.invoke(app, ["history", "skills", "router", "--history", database, "--json"])
    assert outcome.exit_code == 0, outcome.output
    (point,) = json.loads(outcome.stdout)["points"]
    assert point["skills"]["pdf-forms"]["precision"] == 0.5 and point["skills"]["csv-clean"]["recall"] == 0.5


async def test_a_live_models_plays_are_recorded_then_replayed_offline(tmp_path: Path) -> None:
    skills = catalogue(tmp_path / "skills")
    prompts = [{"prompt": p, "expected": e} for p, e, _ in PROMPTS[:3]]
    trigger_set = trigger_set_from_data({"prompts": prompts}, name="live", source="test")
    served = ScriptedModel.from_dict({"rules": ROUTER})
    async with served.serve() as server:
        live = CopilotEval(
            model=served.session_model,
            provider=ByokProvider(base_url=server.base_url),
            skill_directories=(skills,),
            timeout_s=60,
        )
        recorded = await trigger_eval(live, trigger_set, runs=1, record=tmp_path / "cassettes")
    assert sorted(p.name for p in (tmp_path / "cassettes").iterdir()) == [
        "case1.jsonl",
        "case2.jsonl",
        "case3.jsonl",
    ]
    replayed = await trigger_eval(live, trigger_set, runs=1, replay=tmp_path / "cassettes")  # the server is gone
    assert [p.label for p in replayed.plays] == [p.label for p in recorded.plays]
    assert [p.label for p in replayed.plays] == ["chose:pdf-forms", "chose:pdf-forms", "chose:csv-clean"]


def test_a_run_budget_stops_new_plays_through_the_real_runtime_and_exits_3(tmp_path: Path) -> None:
    arguments = ["triggers", str(EXAMPLE / "triggers.csv"), "--agent", str(EXAMPLE / "agent.yaml"), "--runs", "2"]
    arguments += ["--concurrency", "1", "--max-run-tokens", "1", "--out", str(tmp_path / "run"), "--no-history"]
    outcome = CliRunner().invoke(app, arguments)
    assert outcome.exit_code == 3, outcome.output
    document = json.loads((tmp_path / "run" / "triggers.json").read_text(encoding="utf-8"))
    assert [p["outcome"] for p in document["plays"]] == ["chose:changelog-writer", *["not_run"] * 5]
    assert document["budget"]["notRun"] == 5 and "--max-run-tokens 1" in document["budget"]["reached"]
    assert "5 plays not played (prompts 1, 2, 3), counted apart from every rate" in outcome.output
    # --resume keeps the recorded play (its evidence is not written again) and plays the five never started
    first = tmp_path / "run" / "evidence" / "prompt1-r0.json"
    kept = first.stat().st_mtime_ns
    resumed = CliRunner().invoke(app, [*arguments[:6], "--out", str(tmp_path / "run"), "--no-history", "--resume"])
    assert resumed.exit_code == 0, resumed.output
    document = json.loads((tmp_path / "run" / "triggers.json").read_text(encoding="utf-8"))
    outcomes = [p["outcome"] for p in document["plays"]]  # the scripted router chooses the same on every try
    assert outcomes[0] == "chose:changelog-writer" and outcomes[0::2] == outcomes[1::2], outcomes
    assert document["figures"]["counted"] == 6 and document["budget"]["notRun"] == 0
    assert first.stat().st_mtime_ns == kept, "a play already recorded is never played again"
    other = CliRunner().invoke(app, [*arguments[:4], "--runs", "3", "--out", str(tmp_path / "run"), "--resume"])
    assert other.exit_code == 2 and "belongs to a different run (differs in runs)" in other.output, other.output
