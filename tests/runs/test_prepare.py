"""runs.prepare: the one preparation path of `copilot-eval run` and the pytest collector."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import copilot_eval
from copilot_eval.evalsets import CaseStatus
from copilot_eval.grading.combine import STATUS_PRECEDENCE, combined_status
from copilot_eval.runs.prepare import (
    PYTEST_OPTIONS,
    PrepareError,
    build_graders,
    load_agent,
    read_test_set,
)
from tests.runs.runs_helpers import EXAMPLES, planned

GOOD = EXAMPLES / "evaluation" / "agent-good.yaml"
CONVERSATIONS = EXAMPLES / "evalsets" / "conversations.csv"


def test_prepare_reads_the_set_once_loads_the_agent_and_builds_the_graders(tmp_path):
    plan = planned(CONVERSATIONS, GOOD, tmp_path, graders=["similarity:0.6", "keywords:any:euro"])
    assert plan.surfaces[0].agent.name == "spoke-and-pedal-good"
    assert [g.name for g in plan.settings.grade.graders] == ["Text similarity", "Keyword match"]
    assert plan.settings.grade.graders[0].pass_score == 60
    assert len(plan.test_set.cases) == 6 and plan.test_set.preamble


def test_errors_name_the_options_of_the_entry_point_in_use(tmp_path):
    with pytest.raises(PrepareError, match=r"^--agent .*none.yaml: agent file not found$"):
        load_agent(tmp_path / "none.yaml")
    with pytest.raises(PrepareError, match=r"^--copilot-agent .*none.yaml: agent file not found$"):
        load_agent(tmp_path / "none.yaml", option=PYTEST_OPTIONS.agent)
    with pytest.raises(PrepareError, match=r"^--copilot-grader 'compare_meaning': .* with --copilot-judge"):
        build_graders(["compare_meaning"], options=PYTEST_OPTIONS)
    with pytest.raises(PrepareError, match=r"^--grader 'nonsense': unknown grader"):
        build_graders(["nonsense"])


def test_a_missing_unreadable_or_invalid_set_is_one_clear_error(tmp_path):
    with pytest.raises(PrepareError, match=r"none.csv: test set file not found$"):
        read_test_set(tmp_path / "none.csv")
    with pytest.raises(PrepareError, match=r"a folder with no \*\.prompt\.md file in it; give a Copilot Studio CSV"):
        read_test_set(tmp_path)
    bad = tmp_path / "bad.csv"
    bad.write_text('"conversationNumber","question","response"\n"1","","r"\n', encoding="utf-8")
    with pytest.raises(PrepareError, match="question is blank; copilot-studio requires one"):
        read_test_set(bad)
    empty_refs = tmp_path / "refs.csv"
    empty_refs.write_text('"question","expectedResponse"\n"q1",\n"q2",\n', encoding="utf-8")
    assert len(read_test_set(empty_refs).cases) == 2
    with pytest.raises(
        PrepareError,
        match="grader 'Text similarity' needs a reference answer and no case has one "
        r"\(conversationNumber 1, 2\)",
    ):
        planned(empty_refs, GOOD, tmp_path / "out")
    assert planned(empty_refs, GOOD, tmp_path / "out", graders=["keywords:any:bike"]).test_set.cases[0].response == ""


def test_status_precedence_is_exported_once():
    assert STATUS_PRECEDENCE == (CaseStatus.FAIL, CaseStatus.ERROR, CaseStatus.UNKNOWN)
    assert combined_status([CaseStatus.PASS, CaseStatus.ERROR, CaseStatus.FAIL]) is CaseStatus.FAIL
    assert combined_status([CaseStatus.PASS, CaseStatus.UNKNOWN]) is CaseStatus.UNKNOWN
    assert combined_status([CaseStatus.PASS]) is CaseStatus.PASS


def test_the_test_set_collector_does_not_import_the_plugin_module():
    # The loop pytest_plugin -> pytest_evalset -> pytest_plugin is gone: shared pieces live elsewhere.
    source = Path(copilot_eval.__file__).with_name("pytest_evalset.py").read_text(encoding="utf-8")
    imported = {node.module for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)}
    assert "copilot_eval.pytest_plugin" not in imported
