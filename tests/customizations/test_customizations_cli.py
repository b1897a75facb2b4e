"""`copilot-eval customizations`: one line per file, its JSON pinned, exit 1 for an --expect file not delivered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from copilot_eval.cli.app import app
from tests.customizations.repo_fixture import make_repository, make_user_folder

pytestmark = pytest.mark.runtime

EXAMPLE = Path(__file__).parents[2] / "examples" / "customizations" / "agent.yaml"


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    tmp = tmp_path_factory.mktemp("cli")
    repo = make_repository(tmp / "repo")
    home = tmp / "home"
    home.mkdir()  # an empty home: the real one is never looked at
    agent = tmp / "agent.yaml"
    agent.write_text(yaml.safe_dump({"model": "gpt-4.1", "user_instructions_dir": str(make_user_folder(tmp / "user"))}))
    runner = CliRunner()
    args = ["customizations", str(agent), "--workdir", str(repo), "--json"]
    expect = ["--expect", "AGENTS.md", "--expect", ".github/instructions/python.instructions.md"]
    touched = ["--touch", "src/lib.rs", "--expect", "AGENTS.md"]
    env = {"HOME": str(home)}
    return {
        "tmp": tmp,
        "expect": runner.invoke(app, args + expect, env=env),
        "touched": runner.invoke(app, args + touched, env=env),
        # a CI log's width (make_console's default), whatever COLUMNS the worker was started with
        "example": runner.invoke(
            app, ["customizations", str(EXAMPLE), "--expect", "AGENTS.md"], env={**env, "COLUMNS": "200"}
        ),
    }


def test_the_json_is_pinned_and_a_missing_expectation_exits_1(checked):
    outcome = checked["expect"]
    assert outcome.exit_code == 1, outcome.output
    document = json.loads(outcome.stdout)
    user = str(checked["tmp"] / "user")
    assert document["working_directory"] == str(checked["tmp"] / "repo")
    assert document["requests_read"] == 1 and document["error"] is None
    assert document["expect"] == [
        {"pattern": "AGENTS.md", "delivered": True},
        {"pattern": ".github/instructions/python.instructions.md", "delivered": False},
    ]
    rows = [
        (f["path"].replace(user, "USER"), f["kind"], f["scope"], f["apply_to"], f["status"]) for f in document["files"]
    ]
    assert rows == [
        (".github/copilot-instructions.md", "copilot-instructions", "repository", None, "delivered"),
        (".github/instructions/broken.instructions.md", "instructions", "repository", "'**", "malformed"),
        (".github/instructions/everywhere.instructions.md", "instructions", "repository", "**", "delivered"),
        (".github/instructions/misnamed.instruction.md", "instructions", "repository", "**", "not_delivered"),
        (".github/instructions/plain.instructions.md", "instructions", "repository", None, "delivered"),
        (".github/instructions/python.instructions.md", "instructions", "repository", "**/*.py", "listed"),
        (".github/instructions/rust.instructions.md", "instructions", "repository", "**/*.rs", "not_applicable"),
        ("AGENTS.md", "agents-md", "repository", None, "delivered"),
        (".github/prompts/review.prompt.md", "prompt", "repository", None, "not_applicable"),
        ("service/AGENTS.md", "agents-md", "folder", None, "not_delivered"),
        ("USER/copilot-instructions.md", "copilot-instructions", "user", None, "delivered"),
        ("USER/instructions/docs.instructions.md", "instructions", "user", "**/*.md", "listed"),
    ]
    assert set(document["files"][0]) == {"kind", "path", "scope", "apply_to", "status", "reason"}
    assert "exit 1 (below a gate): not delivered to the model: .github/instructions/python.instructions.md" in (
        outcome.stderr
    )


def test_a_touched_path_makes_a_glob_apply(checked):
    outcome = checked["touched"]
    assert outcome.exit_code == 0, outcome.output
    files = {f["path"]: f for f in json.loads(outcome.stdout)["files"]}
    assert files[".github/instructions/rust.instructions.md"]["status"] == "listed"


def test_the_example_runs_offline_and_says_why_a_file_was_not_sent(checked):
    outcome = checked["example"]
    assert outcome.exit_code == 0, outcome.output
    assert "wrong suffix" in outcome.stdout and "style.instruction.md" in outcome.stdout.replace("\n", "")
