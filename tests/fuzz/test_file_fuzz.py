"""The CSV test-set reader and the agent-file loader over real files, damaged.

Whatever the damage, each raises only its documented error (``EvalSetReadError`` /
``AgentFileError``, naming the file) or returns a valid object, and the CSV check agrees with the
reader: a file the check passes imports, and a file the reader refuses has problems listed.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from copilot_eval.agent import AgentFileError, load_agent_file
from copilot_eval.agent.config import CopilotEval
from copilot_eval.evalsets import EvalSetReadError, check_csv, read_csv, validate_eval_test_set

from .mutations import Op, apply_byte_recipe, apply_tree_recipe, byte_recipes, tree_recipes

ROOT = Path(__file__).parent.parent.parent
CSV_FILES = {path.name: path.read_bytes() for path in sorted((ROOT / "tests" / "evalsets" / "data").glob("*.csv"))}
CSV_FILES["knowledge.csv"] = (ROOT / "examples" / "evalsets" / "knowledge.csv").read_bytes()
AGENT_FILES = {f"{path.parent.name}/{path.name}": path for path in sorted(ROOT.glob("examples/*/agent*.yaml"))}
FUZZ = settings(
    max_examples=int(os.environ.get("COPILOT_EVAL_FUZZ_EXAMPLES", "100")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
# Loading an agent file builds a whole CopilotEval (scripts, custom agents): half the examples.
AGENT_FUZZ = settings(FUZZ, max_examples=max(FUZZ.max_examples // 2, 1))
# One scratch copy of the examples for the whole module (Hypothesis runs many examples per test).
SCRATCH = Path(tempfile.mkdtemp(prefix="copilot-eval-fuzz-"))
shutil.copytree(ROOT / "examples", SCRATCH / "examples")


def check_csv_bytes(data: bytes) -> None:
    """Read and check damaged CSV bytes the way ``copilot-eval run`` does, asserting agreement."""
    path = SCRATCH / "fuzzed.csv"
    path.write_bytes(data)
    problems = check_csv(path)
    assert isinstance(problems, list) and all(isinstance(p, str) and p for p in problems)
    try:
        test_set = read_csv(path)
    except EvalSetReadError as error:
        assert problems, "a file the reader refuses has its problems listed by the check"
        assert str(path) in str(error)
        return
    if not problems:
        assert validate_eval_test_set(test_set) == [], "a file the check passes is a valid set"


@st.composite
def csv_damage(draw: st.DrawFn) -> tuple[str, list[Op]]:
    """A real CSV file's name and a recipe that damages its bytes."""
    name = draw(st.sampled_from(sorted(CSV_FILES)))
    return name, draw(byte_recipes(CSV_FILES[name]))


@FUZZ
@given(damage=csv_damage())
def test_damaged_csv_files_raise_only_the_documented_error_and_check_agrees(damage: tuple[str, list[Op]]) -> None:
    name, recipe = damage
    check_csv_bytes(apply_byte_recipe(CSV_FILES[name], recipe))


def load_agent_text(name: str, text: str | bytes) -> CopilotEval | None:
    """Load damaged agent-file text next to the real example's own files; assert the error contract."""
    path = SCRATCH / "examples" / name.split("/")[0] / "fuzzed.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    try:
        return load_agent_file(path)
    except AgentFileError as error:
        assert str(path) in str(error), "the error names the file"
        return None


@st.composite
def agent_field_damage(draw: st.DrawFn) -> tuple[str, list[Op]]:
    """A real agent file's name and field-level damage to its parsed YAML."""
    name = draw(st.sampled_from(sorted(AGENT_FILES)))
    return name, draw(tree_recipes(yaml.safe_load(AGENT_FILES[name].read_text())))


def agent_with_fields_damaged(name: str, recipe: list[Op]) -> str:
    """The YAML text of a real agent file after field-level damage."""
    data: Any = apply_tree_recipe(yaml.safe_load(AGENT_FILES[name].read_text()), recipe)
    return yaml.safe_dump(data, allow_unicode=True)


@AGENT_FUZZ
@given(damage=agent_field_damage())
def test_agent_files_with_damaged_fields_raise_only_agent_file_errors(damage: tuple[str, list[Op]]) -> None:
    load_agent_text(damage[0], agent_with_fields_damaged(*damage))


@st.composite
def agent_byte_damage(draw: st.DrawFn) -> tuple[str, list[Op]]:
    """A real agent file's name and a recipe that damages its bytes."""
    name = draw(st.sampled_from(sorted(AGENT_FILES)))
    return name, draw(byte_recipes(AGENT_FILES[name].read_bytes()))


@AGENT_FUZZ
@given(damage=agent_byte_damage())
def test_agent_files_with_damaged_bytes_raise_only_agent_file_errors(damage: tuple[str, list[Op]]) -> None:
    name, recipe = damage
    load_agent_text(name, apply_byte_recipe(AGENT_FILES[name].read_bytes(), recipe))
