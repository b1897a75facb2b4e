"""Each customization file's status equals what the real runtime's requests carried, file by file.

A repository with every kind of file (tests/customizations/repo_fixture.py), each holding a marker
of its own, runs through the real runtime with a FunctionModel that keeps every request's messages.
The markers in those messages are the oracle: a file is ``delivered`` exactly when its marker was
in a message the model was given, and ``listed`` exactly when its path was in the runtime's table
of path-specific files. The home folder is a temporary one: the real one is never read.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from copilot_eval import CallTool, CopilotEval, FunctionModel, run_copilot
from tests.customizations.repo_fixture import MARKERS, make_repository, make_user_folder, write_files

pytestmark = pytest.mark.runtime


def _recording_model(requests: list[list[dict[str, Any]]], repo: Path) -> FunctionModel:
    def answer(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
        requests.append(messages)
        if len(requests) == 1:  # the agent works on a Python file of the service folder
            return CallTool("view", {"path": str(repo / "service" / "app.py")}, id="call_view")
        return "done"

    return FunctionModel(answer)


async def _run(tmp: Path, **options: Any) -> tuple[Any, list[list[dict[str, Any]]]]:
    repo = make_repository(tmp / "repo")
    requests: list[list[dict[str, Any]]] = []
    agent = CopilotEval(
        model=_recording_model(requests, repo),
        working_directory=repo,
        audit_requests=True,
        user_instructions_dir=make_user_folder(tmp / "user"),
        timeout_s=60,
        **options,
    )
    return await run_copilot(agent, "Tidy service/app.py"), requests


@pytest.fixture(scope="module")
async def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    home = tmp_path_factory.mktemp("home")
    write_files(home, {".copilot/copilot-instructions.md": "From the real home. MARK-REAL-HOME\n"})
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(home))
        return {
            "default": await _run(tmp_path_factory.mktemp("default")),
            "empty": await _run(tmp_path_factory.mktemp("empty"), client_mode="empty", allowed_tools=("view",)),
            "home": home,
        }


def _given(requests: list[list[dict[str, Any]]]) -> str:
    return "\n".join(str(m.get("content")) for messages in requests for m in messages if m.get("role") != "assistant")


def _marker(path: str) -> str:
    return "MARK-" + MARKERS[path.split("/user/", 1)[-1] if "/user/" in path else path]


def test_every_status_equals_what_the_requests_carried(runs):
    result, requests = runs["default"]
    assert result.success, result.error
    given = _given(requests)
    fixture_files = [item for item in result.customizations if not item.path.startswith(str(runs["home"]))]
    assert {item.path.split("/user/", 1)[-1] for item in fixture_files} == set(MARKERS)
    for item in fixture_files:
        carried = _marker(item.path) in given
        assert (item.status == "delivered") == carried, (item, carried)
        listed_as = item.path if item.scope != "user" else None
        if listed_as is not None:
            named = re.search(r"\|\s*'?" + re.escape(listed_as) + r"'?\s*\|", given) is not None
            assert (item.status in ("listed", "not_applicable", "malformed") and named) or not named or carried, item


def test_each_file_says_why_it_was_not_delivered(runs):
    result, _ = runs["default"]
    by_path = {item.path.split("/user/", 1)[-1]: item for item in result.customizations}
    expected = {
        ".github/copilot-instructions.md": "delivered",
        ".github/instructions/everywhere.instructions.md": "delivered",
        ".github/instructions/plain.instructions.md": "delivered",
        ".github/instructions/python.instructions.md": "listed",
        ".github/instructions/rust.instructions.md": "not_applicable",
        ".github/instructions/misnamed.instruction.md": "not_delivered",
        ".github/instructions/broken.instructions.md": "malformed",
        ".github/prompts/review.prompt.md": "not_applicable",
        "AGENTS.md": "delivered",
        "service/AGENTS.md": "not_delivered",
        "copilot-instructions.md": "delivered",
        "instructions/docs.instructions.md": "listed",
    }
    assert {path: by_path[path].status for path in expected} == expected
    assert "wrong suffix" in by_path[".github/instructions/misnamed.instruction.md"].reason
    assert "does not parse as YAML" in by_path[".github/instructions/broken.instructions.md"].reason
    assert "matches no file" in by_path[".github/instructions/rust.instructions.md"].reason
    assert "only in the working directory" in by_path["service/AGENTS.md"].reason
    assert by_path[".github/instructions/python.instructions.md"].apply_to == "**/*.py"
    assert by_path["service/AGENTS.md"].scope == "folder"
    assert result.instructions_delivered("AGENTS.md") is True
    assert result.instructions_delivered(".github/instructions/*") is False
    assert result.instructions_delivered("no/such/file.md") is False


def test_the_real_home_folder_is_reported_as_not_read(runs):
    result, requests = runs["default"]
    (real,) = [item for item in result.customizations if item.path.startswith(str(runs["home"]))]
    assert real.scope == "user" and real.status == "not_delivered"
    assert "COPILOT_HOME" in real.reason and "MARK-REAL-HOME" not in _given(requests)


def test_client_mode_empty_sends_no_custom_instructions(runs):
    result, requests = runs["empty"]
    assert result.success, result.error
    given = _given(requests)
    assert not any(f"MARK-{marker}" in given for marker in MARKERS.values())
    by_path = {item.path: item for item in result.customizations}
    assert by_path["AGENTS.md"].status == "not_delivered"
    assert "client_mode 'empty'" in by_path["AGENTS.md"].reason


async def test_without_the_audit_the_statuses_are_unknown(tmp_path):
    repo = make_repository(tmp_path / "repo", git=False)
    agent = CopilotEval(model=FunctionModel(lambda messages, tools: "ok"), working_directory=repo, timeout_s=60)
    result = await run_copilot(agent, "hi")
    assert result.customizations is None and result.instructions_delivered("AGENTS.md") is None


def test_apply_to_is_decided_at_session_start_not_when_the_agent_touches_a_file(runs):
    # The agent viewed service/app.py (matching python.instructions.md's '**/*.py') between the two
    # requests: the second one carries the same system prompt and no instruction text of its own.
    _, requests = runs["default"]
    assert len(requests) == 2
    system = [[m["content"] for m in messages if m["role"] == "system"] for messages in requests]
    assert system[0] == system[1]
    later = "\n".join(str(m.get("content")) for m in requests[1] if m["role"] != "system")
    assert "MARK-PYTHON" not in later and "MARK-AGENTS-SERVICE" not in later
