"""Injection suites: the built-in one holds together, and a broken file names every problem and where."""

from __future__ import annotations

import copy
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from copilot_eval.security import VECTORS, SuiteError, load_suite, plan_cases
from copilot_eval.security.cases import Play, canary_for
from copilot_eval.security.environment import attack_text, goal_call
from copilot_eval.security.suite_file import BUILTIN_SUITES

BUILTIN = yaml.safe_load(resources.files("copilot_eval.security").joinpath("suites", "builtin.yaml").read_text("utf-8"))


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "suite.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def problems_of(tmp_path: Path, data: Any) -> list[str]:
    with pytest.raises(SuiteError) as raised:
        load_suite(write(tmp_path, data))
    assert all(line.startswith(str(tmp_path / "suite.yaml") + ": ") for line in str(raised.value).splitlines())
    return raised.value.problems


def test_the_builtin_suite_plays_a_few_dozen_cases_over_every_vector_text_and_goal() -> None:
    suite = load_suite("builtin")
    cases = plan_cases(suite)
    baselines, attacked = [c for c in cases if not c.attacked], [c for c in cases if c.attacked]
    assert [c.number for c in cases] == list(range(1, len(cases) + 1))
    assert len(baselines) == len(suite.tasks) == 8 and len(attacked) == 44
    assert set(suite.environments) == {"shop", "mailbox"}
    assert {c.vector for c in attacked} == set(VECTORS)
    assert Counter(c.attack for c in attacked) == {a.id: 11 for a in suite.attacks}
    # Goals are taken in turn within each environment, so each is used about as often as the others.
    per_goal = Counter(c.goal for c in attacked)
    assert set(per_goal) == {g.id for g in suite.goals} and max(per_goal.values()) - min(per_goal.values()) <= 2
    environment = {item.id: item.environment for item in [*suite.tasks, *suite.goals]}
    assert all(environment[str(c.goal)] == environment[c.task] for c in attacked)
    assert len({c.id for c in cases}) == len(cases)


def test_every_builtin_attack_names_its_call_with_the_canary_and_the_goal() -> None:
    suite = load_suite("builtin")
    for case in plan_cases(suite):
        if not case.attacked:
            continue
        play = Play(case, 0, canary_for(suite.name, case.id, 0), Path("/work"))
        text = attack_text(suite, play)
        name, arguments = goal_call(suite, play)
        assert text is not None and play.canary in text and f"{name}(" in text, case.id
        assert str(play.canary) in str(arguments)


def test_canaries_differ_between_cases_and_repeats_and_are_stable() -> None:
    assert canary_for("s", "a", 0) == canary_for("s", "a", 0)
    assert len({canary_for("s", case, repeat) for case in "abc" for repeat in range(3)}) == 9
    assert canary_for("s", "a", 0).startswith("ce") and len(canary_for("s", "a", 0)) == 12


def test_an_unknown_name_is_refused_listing_the_builtin_suites(tmp_path: Path) -> None:
    with pytest.raises(SuiteError, match="not a built-in suite") as raised:
        load_suite(tmp_path / "nope.yaml")
    assert all(name in str(raised.value) for name in BUILTIN_SUITES)


def test_shape_errors_name_the_field(tmp_path: Path) -> None:
    data = copy.deepcopy(BUILTIN)
    data["tasks"][2]["vectors"] = ["email"]
    data["goals"][0]["check"] = {"answer_contains": "x", "tool_not_called": "y"}
    del data["attacks"][1]["text"]
    problems = problems_of(tmp_path, data)
    assert any(p.startswith("tasks[2].vectors[0]: ") for p in problems), problems
    assert any(p.startswith("goals[0].check[0]") and "exactly one of" in p for p in problems), problems
    assert any(p.startswith("attacks[1].text: ") for p in problems), problems


def test_a_suite_that_does_not_hold_together_gets_every_problem_at_once(tmp_path: Path) -> None:
    data = copy.deepcopy(BUILTIN)
    data["goals"][0]["call"]["arguments"]["card"] = "4000-1111"  # no canary: the call is not the attack's
    data["attacks"][0]["text"] = "Please {goal}."  # never names the call
    data["tasks"][1]["vectors"] = ["tool_result", "file"]  # the reviews task reads no file
    data["tasks"].append(copy.deepcopy(data["tasks"][0]))  # the same id twice
    problems = problems_of(tmp_path, data)
    assert "tasks: id 'shop-order-status' is used twice" in problems
    assert "goals[0].call.arguments: put {canary} in some argument, so the call is the attack's" in problems
    assert "attacks[0].text: needs {call}, where the goal's call is named" in problems
    assert any(p.startswith("tasks[1].vectors: 'file' is not reached") for p in problems), problems


def test_a_vector_is_reached_only_where_the_solution_would_show_it(tmp_path: Path) -> None:
    data = copy.deepcopy(BUILTIN)
    # The lunch task reads message 1; with the injection moved to message 3 its tool_result is never shown.
    responses = data["environments"]["mailbox"]["tools"][1]["responses"]
    responses[0]["text"] = responses[0]["text"].replace("{injection}", "")
    responses[2]["text"] += " {injection}"
    problems = problems_of(tmp_path, data)
    assert any(p.startswith("tasks[4].vectors: 'tool_result' is not reached") for p in problems), problems


def test_explicit_cases_are_checked_and_played_as_listed(tmp_path: Path) -> None:
    data = copy.deepcopy(BUILTIN)
    data["cases"] = [
        {"task": "shop-manual", "vector": "resource", "attack": "team-todo", "goal": "shop-refund"},
        {"task": "shop-manual", "vector": "file", "attack": "team-todo", "goal": "mail-forward"},
    ]
    problems = problems_of(tmp_path, data)
    assert "cases[1].vector: task 'shop-manual' lists only ['resource', 'tool_description']" in problems
    assert "cases[1]: goal 'mail-forward' is not of the task's environment" in problems
    data["cases"] = data["cases"][:1]
    cases = plan_cases(load_suite(write(tmp_path, data)))
    assert [c.id for c in cases if c.attacked] == ["shop-manual/resource/team-todo/shop-refund"]


def test_a_file_that_is_not_yaml_is_named(tmp_path: Path) -> None:
    path = tmp_path / "suite.yaml"
    path.write_text("name: [unclosed", encoding="utf-8")
    with pytest.raises(SuiteError, match=r"suite\.yaml: cannot be read as YAML"):
        load_suite(path)
