"""``triggers --resume`` on recorded plays: what the checkpoint keeps, what it refuses, and the figures over all."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.evalsets import EvalCaseResult
from copilot_eval.evidence import CopilotResult
from copilot_eval.runs.checkpoint import Checkpoint, CheckpointError
from copilot_eval.triggers import NONE, Catalogue, CatalogueEntry, PlayRecord, summarise_triggers, trigger_set_from_data
from copilot_eval.triggers.figures import play_key
from copilot_eval.triggers.resume import open_trigger_checkpoint, record_play, trigger_checkpoint_header
from tests.triggers.test_plays import CATALOGUE, CHOICES

SET = trigger_set_from_data(
    {"prompts": [{"prompt": f"prompt {n}", "expected": ("pdf", "csv", NONE)[n % 3]} for n in range(1, 7)]},
    name="routing",
    source="test",
)


def header(catalogue: Catalogue = CATALOGUE, runs: int = 2) -> dict[str, object]:
    return trigger_checkpoint_header(SET, catalogue, runs=runs, stop_at_choice=True, threshold=0.5, shard=None)


def play(number: int, repeat: int) -> PlayRecord:
    expected = SET.prompts[number - 1].expected
    return PlayRecord(number, repeat, expected, "chose", CHOICES[number], "chose", path=("pdf",), read_skill_files=())


def test_plays_recorded_before_a_stop_come_back_whole_and_the_figures_over_all_equal_one_run(tmp_path: Path) -> None:
    every = [play(p.number, r) for r in range(2) for p in SET.prompts]
    checkpoint, kept = open_trigger_checkpoint(tmp_path, header(), resume=False)
    assert kept == {}
    for record in every[:5]:  # the run is cut short after five plays
        record_play(checkpoint, record, CopilotResult(duration_ms=12.0))
    _, kept = open_trigger_checkpoint(tmp_path, header(), resume=True)
    assert [record for record, _ in kept.values()] == every[:5], "each kept play is the play as decided"
    assert all(case.duration_ms == 12.0 for _, case in kept.values())
    rest = [record for record in every if play_key(record.number, record.repeat) not in kept]
    assert len(rest) == 7, "only the plays not recorded are played again"
    joined = sorted([*rest, *(record for record, _ in kept.values())], key=lambda r: (r.number, r.repeat))
    whole = summarise_triggers(SET.prompts, every, names=SET.names)
    assert summarise_triggers(SET.prompts, joined, names=SET.names).to_dict() == whole.to_dict()


def test_a_folder_with_an_earlier_trigger_run_is_refused_without_resume(tmp_path: Path) -> None:
    open_trigger_checkpoint(tmp_path, header(), resume=False)
    with pytest.raises(CheckpointError, match="pass --resume to continue it"):
        open_trigger_checkpoint(tmp_path, header(), resume=False)


@pytest.mark.parametrize(
    ("changed", "differs"),
    [
        (
            header(Catalogue((CatalogueEntry("pdf", "skill", "Edited.", "custom", "/s/pdf/SKILL.md", True),))),
            "catalogue",
        ),
        (header(runs=3), "runs"),
    ],
)
def test_resume_refuses_a_folder_of_another_catalogue_or_setting(
    tmp_path: Path, changed: dict[str, object], differs: str
) -> None:
    open_trigger_checkpoint(tmp_path, header(), resume=False)
    with pytest.raises(CheckpointError, match=f"belongs to a different run \\(differs in {differs}\\)"):
        open_trigger_checkpoint(tmp_path, changed, resume=True)


def test_resume_refuses_a_folder_holding_a_test_set_run(tmp_path: Path) -> None:
    checkpoint, _ = Checkpoint.start(tmp_path, header(), resume=False)  # same header, a test-set unit inside
    checkpoint.append("1", [EvalCaseResult(conversation_number=1, passed=True)])
    with pytest.raises(CheckpointError, match="unit 1 is not a trigger play"):
        open_trigger_checkpoint(tmp_path, header(), resume=True)


PLAYED = """
from copilot_eval.pytest_triggers import TriggerSetFile

def pytest_collection_finish(session):
    files = {item.parent for item in session.items if isinstance(item.parent, TriggerSetFile)}
    with open("played.txt", "w") as handle:
        for file in files:
            handle.write(",".join(str(p.number) for p in file.selected().prompts))
            handle.write("|" + ",".join(file.selected().names))
            handle.write("|" + str(file.settings.agent.max_tokens))  # the agent every play's session runs
"""
AGENT = "name: router\nmodel: {scripted: router.yaml}\n"
ROUTER = "rules:\n  - turns:\n      - text: ok\n"


def test_the_pytest_plugin_plays_only_the_prompts_of_its_shard_under_its_budget_options(
    pytester: pytest.Pytester,
) -> None:
    rows = ["prompt,expected"] + [f"prompt {n},{('pdf', 'csv', 'none')[n % 3]}" for n in range(1, 9)]
    pytester.path.joinpath("skills.triggers.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    pytester.path.joinpath("agent.yaml").write_text(AGENT, encoding="utf-8")
    pytester.path.joinpath("router.yaml").write_text(ROUTER, encoding="utf-8")
    pytester.makeconftest(PLAYED)
    played = []
    for index in (1, 2):
        outcome = pytester.runpytest_inprocess(
            "--copilot-agent=agent.yaml",
            f"--copilot-shard={index}/2",
            "--copilot-max-tokens=500",
            "--collect-only",
            "-q",
            "skills.triggers.csv",
        )
        kept = [line for line in outcome.outlines if "prompt " in line]
        numbers, names, budget = pytester.path.joinpath("played.txt").read_text(encoding="utf-8").split("|")
        played.append([int(n) for n in numbers.split(",")])
        assert len(kept) == len(played[-1]), "the plays are the items this shard kept"
        assert names == "csv,pdf", "a shard still watches every skill the whole set expects"
        assert budget == "500", "the plugin's budget options apply to the trigger set's plays"
    assert sorted(played[0] + played[1]) == list(range(1, 9)) and not set(played[0]) & set(played[1])
