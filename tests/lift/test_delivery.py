"""Which texts tell arms apart (by hash and marker), and the one decision of a play's delivery."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from copilot_eval import CopilotEval
from copilot_eval.evidence.customizations import CustomizationFile
from copilot_eval.lift import ArmError, decide_delivery, lift_eval, vary_arms
from copilot_eval.runs.prepare import read_test_set
from copilot_eval.runs.settings import RunSettings

DESCRIPTION = "Write commit messages in the imperative mood, under fifty characters."


class _Audited:
    """A result whose request audit gave the model exactly ``sent`` (None: the audit cannot say)."""

    def __init__(self, sent: set[str] | None) -> None:
        self.sent = sent

    def model_was_sent(self, marker: str) -> bool | None:
        return None if self.sent is None else any(marker in text for text in self.sent)


def _skills(tmp_path: Path) -> Path:
    folder = tmp_path / "skills" / "tidy-commit"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: tidy-commit\ndescription: {DESCRIPTION}\n---\nStart the summary with a verb such as Add or Fix.\n",
        encoding="utf-8",
    )
    return tmp_path / "skills"


def test_vary_skill_makes_without_and_with_arms_differing_by_the_skill(tmp_path: Path) -> None:
    agent = CopilotEval(skill_directories=(_skills(tmp_path),))
    without, with_skill = vary_arms(agent, "skill:tidy-commit")
    assert (without.name, with_skill.name) == ("without", "with")
    assert not list(Path(without.agent.skill_directories[0]).glob("*/SKILL.md"))  # the copy lacks the skill
    described = [e for e in with_skill.expectations if e.text.kind == "skill-description"]
    assert [e.present for e in described] == [True]
    assert [e.present for e in without.expectations if e.text.kind == "skill-description"] == [False]
    assert described[0].text.marker is not None and described[0].text.marker in DESCRIPTION
    assert len(described[0].text.sha256) == 64
    assert with_skill.player().audit_requests and described[0].text.marker in with_skill.player().audit_markers


def test_delivery_is_decided_from_what_the_requests_carried(tmp_path: Path) -> None:
    agent = CopilotEval(skill_directories=(_skills(tmp_path),))
    without, with_skill = vary_arms(agent, "skill:tidy-commit")
    description = f"<skill>{DESCRIPTION}</skill>"
    assert decide_delivery(_Audited({description}), with_skill.expectations).status == "delivered"
    missing = decide_delivery(_Audited({"something else"}), with_skill.expectations)
    assert missing.status == "not_delivered" and "never reached the model" in (missing.reason or "")
    leaked = decide_delivery(_Audited({description}), without.expectations)
    assert leaked.status == "not_delivered" and "must not have it" in (leaked.reason or "")
    assert decide_delivery(_Audited(set()), without.expectations).status == "delivered"
    assert decide_delivery(_Audited(None), with_skill.expectations).status == "unknown"


def test_the_body_is_recorded_but_never_decides(tmp_path: Path) -> None:
    agent = CopilotEval(skill_directories=(_skills(tmp_path),))
    _, with_skill = vary_arms(agent, "skill:tidy-commit")
    body = next(e for e in with_skill.expectations if e.text.kind == "skill-body")
    decided = decide_delivery(_Audited({DESCRIPTION}), with_skill.expectations)
    assert decided.status == "delivered" and decided.seen[body.text.sha256] is False


def test_vary_instructions_places_the_file_where_a_user_would(tmp_path: Path) -> None:
    rules = tmp_path / "rules.instructions.md"
    rules.write_text("---\napplyTo: '**'\n---\nAnswer in exactly three bullet points, never more.\n", encoding="utf-8")
    repo = tmp_path / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "src" / "app.py").write_text("print('hi')\n", encoding="utf-8")
    without, with_rules = vary_arms(CopilotEval(working_directory=repo), f"instructions:{rules}")
    placed = ".github/instructions/rules.instructions.md"
    for arm in (without, with_rules):  # each arm a copy of the repository; the user's own is left as it was
        assert arm.agent.working_directory is not None and arm.agent.working_directory != repo
        assert (arm.agent.working_directory / "src" / "app.py").is_file()
    assert (with_rules.agent.working_directory / placed).read_bytes() == rules.read_bytes()
    assert not (without.agent.working_directory / placed).exists() and not (repo / ".github").exists()
    (expected,) = with_rules.expectations
    assert (expected.text.kind, expected.text.name, expected.present) == ("instructions", placed, True)
    assert expected.text.marker == "Answer in exactly three bullet points, never more."
    assert [(e.text.name, e.present) for e in without.expectations] == [(placed, False)]
    # any other file is the repository-wide instruction file; an agent without a folder gets an empty one
    notes = tmp_path / "notes.md"
    notes.write_text("Always cite the changelog entry you relied on.", encoding="utf-8")
    _, with_notes = vary_arms(CopilotEval(), f"instructions:{notes}")
    assert with_notes.agent.working_directory is not None
    assert (with_notes.agent.working_directory / ".github" / "copilot-instructions.md").is_file()
    (repo / ".github").mkdir()
    (repo / ".github" / "copilot-instructions.md").write_text("Be brief.", encoding="utf-8")
    with pytest.raises(ArmError, match=r"already has \.github/copilot-instructions\.md"):
        vary_arms(CopilotEval(working_directory=repo), f"instructions:{notes}")


def test_an_instruction_file_is_judged_by_the_customizations_audit_on_its_path(tmp_path: Path) -> None:
    rules = tmp_path / "rules.instructions.md"
    rules.write_text("---\napplyTo: '**/*.py'\n---\nName every test after the behaviour it checks.\n", "utf-8")
    without, with_rules = vary_arms(CopilotEval(), f"instructions:{rules}")
    path = ".github/instructions/rules.instructions.md"

    def played(status: str | None, reason: str | None, sent: set[str]) -> _Audited:
        result = _Audited(sent)
        result.customizations = [  # type: ignore[attr-defined]
            CustomizationFile(kind="instructions", path=path, scope="repository", status=status, reason=reason)
        ]
        return result

    # listed only (an applyTo other than **): the text never reached the model, and the reason says so
    listed = decide_delivery(played("listed", "named in the system prompt", set()), with_rules.expectations)
    assert listed.status == "not_delivered" and "listed: named in the system prompt" in (listed.reason or "")
    assert decide_delivery(played("delivered", None, set()), with_rules.expectations).status == "delivered"
    leaked = decide_delivery(_Audited({"Name every test after the behaviour it checks."}), without.expectations)
    assert leaked.status == "not_delivered" and "must not have it" in (leaked.reason or "")


def test_vary_description(tmp_path: Path) -> None:
    new = tmp_path / "description.txt"
    new.write_text("Use for every question about commits, branches and history rewriting.", encoding="utf-8")
    current, changed = vary_arms(CopilotEval(skill_directories=(_skills(tmp_path),)), f"description:tidy-commit={new}")
    assert {e.present for e in changed.expectations if e.text.kind == "skill-description"} == {True, False}
    assert current.agent.skill_directories != changed.agent.skill_directories


@pytest.mark.parametrize(
    ("spec", "words"),
    [("skill:nope", "no skill of that name"), ("colour:red", "unknown kind"), ("skill", "expected skill:NAME")],
)
def test_a_bad_vary_spec_names_the_option(tmp_path: Path, spec: str, words: str) -> None:
    with pytest.raises(ArmError, match=words):
        vary_arms(CopilotEval(skill_directories=(_skills(tmp_path),)), spec)


def test_lift_refuses_what_it_cannot_play_fairly_before_any_play(tmp_path: Path) -> None:
    cases = tmp_path / "cases.csv"
    cases.write_text("question,expectedResponse\nhi,hello\n", encoding="utf-8")
    arms = vary_arms(CopilotEval(skill_directories=(_skills(tmp_path),)), "skill:tidy-commit")
    # a workspace that cannot be staged, or --protect with nothing to protect, is refused before a play
    with pytest.raises(ValueError, match="workspace") as refused:
        asyncio.run(lift_eval(read_test_set(cases), arms, RunSettings.of(workspace=tmp_path / "gone")))
    assert "gone" in str(refused.value)
    with pytest.raises(ValueError, match="--protect: no case plays on a workspace"):
        asyncio.run(lift_eval(read_test_set(cases), arms, RunSettings.of(protect=("tests/**",))))
    with pytest.raises(ValueError, match="two arms"):
        asyncio.run(lift_eval(read_test_set(cases), arms[:1], RunSettings()))
    rules = tmp_path / "rules.md"
    rules.write_text("Answer in exactly three bullet points.", encoding="utf-8")
    placed = vary_arms(CopilotEval(), f"instructions:{rules}")
    with pytest.raises(ValueError, match="put the file in the fixture"):  # a workspace play would never see it
        asyncio.run(lift_eval(read_test_set(cases), placed, RunSettings.of(workspace=tmp_path)))
