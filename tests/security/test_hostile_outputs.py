"""Hostile text in every channel an agent has: every output copilot-eval writes keeps it readable and inert.

One scripted agent (its name, its answer, the result of its MCP server's tool) and one scripted
judge (its reasoning) carry the payloads
a hostile page or tool result would: ANSI colours, a window title (OSC), clear screen, NUL, Rich
markup that does not close (``[/x]`` first), a workflow command after a line break, an @mention,
raw HTML, an image, a code fence, ``</details>`` and the sticky comment's marker. ``run`` plays it
once through the real runtime (one module-wide run); then the files and views it and the reading
commands write are checked: the terminal output, JUnit (parsed), Markdown (rendered as CommonMark),
run.json, results.csv, evidence (and ``inspect`` of it), the gate and the sticky comment. A lone surrogate cannot travel
through the runtime (its JSON parser refuses the model's answer), so it is played through a
Copilot Studio agent's Direct Line fake instead, in the fast lane.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from copilot_eval.security.environment import ENV_SERVER
from tests.runs.runs_helpers import CLI

PAYLOAD = (
    "[/x] \x1b]0;pwned\x07\x1b[2J\x1b[31mred\x00 @octocat <img src=http://127.0.0.1:9/p.png> </details> "
    "```js\n::error::forged\n<!-- copilot-eval:gate --> ![i](http://127.0.0.1:9/i.png) ##[warning]w"
)
AGENT_NAME = "shop [/x] \x1b]0;t\x07 @octocat"
QUESTION = "Is a helmet [/y] @octocat <b>bold</b> included?"
_RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_WORKFLOW_COMMAND = re.compile(r"^[ \t]*::|##\[", re.MULTILINE)
_MD = MarkdownIt("commonmark").enable("table")


@dataclass(frozen=True)
class Played:
    """The folder of the one hostile run, and what each command printed (code, stdout, stderr)."""

    folder: Path
    outputs: dict[str, subprocess.CompletedProcess[str]]


def _cli(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *map(str, args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        errors="strict",  # a lone surrogate or a broken byte in what we print fails here
        timeout=240,
        cwd=cwd,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"},
    )


def _write_agent(folder: Path) -> None:
    agent = {"rules": [{"when": {"prompt_contains": "deposit"}, "turns": [{"text": "A 150 euro deposit."}]}]}
    lookup = {"tool_calls": [{"name": "hostile-lookup", "arguments": {"text": "helmet"}}]}
    agent["rules"].append({"turns": [lookup, {"text": PAYLOAD}]})
    server = {  # the suite's environment server: one tool, its description and its result hostile
        "server": "hostile",
        "tools": [
            {
                "name": "lookup",
                "description": "Look up a word. " + PAYLOAD,
                "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
                "responses": [{"content": [{"type": "text", "text": "Tool says: " + PAYLOAD}]}],
            }
        ],
    }
    (folder / "hostile.json").write_text(json.dumps(server), encoding="utf-8")
    judge = {
        "rules": [
            {
                "when": {"prompt_contains": "150 euro"},
                "turns": [{"text": json.dumps({"score": 95, "reason": "Same."})}],
            },
            {"turns": [{"text": json.dumps({"score": 5, "reason": "Judge says: " + PAYLOAD})}]},
        ]
    }
    (folder / "agent-script.json").write_text(json.dumps(agent), encoding="utf-8")
    (folder / "judge-script.json").write_text(json.dumps(judge), encoding="utf-8")
    # JSON is YAML: the name's control characters are JSON escapes in the agent file.
    mcp = {"hostile": {"command": sys.executable, "args": [str(ENV_SERVER), str(folder / "hostile.json")]}}
    agent_file = {"name": AGENT_NAME, "model": {"scripted": "agent-script.json"}, "timeout_s": 30, "mcp_servers": mcp}
    (folder / "agent.yaml").write_text(json.dumps(agent_file), encoding="utf-8")
    (folder / "judge.yaml").write_text("name: judge\nmodel: {scripted: judge-script.json}\ntimeout_s: 30\n")
    (folder / "set.csv").write_text(
        '"question","expectedResponse"\n"Do I need to leave a deposit?","Yes, a 150 euro deposit."\n'
        f'"{QUESTION}","Yes, a helmet is included."\n',
        encoding="utf-8",
    )


def _baseline_where_everything_passed(folder: Path, into: Path) -> Path:
    """A copy of the run folder in which every case passed: the gate then sees the hostile case regress."""
    shutil.copytree(folder, into)
    run = json.loads((into / "run.json").read_text(encoding="utf-8"))
    for result in run["results"]:
        result["status"], result["passed"] = "pass", True
        for grade in result.get("grades", []):
            grade["status"] = "pass"
    run["passed"], run["failed"], run["generalQualityPercent"] = len(run["results"]), 0, 100.0
    (into / "run.json").write_text(json.dumps(run), encoding="utf-8")
    return into


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``run`` once through the real runtime, then the commands that read its folder."""
    work = tmp_path_factory.mktemp("hostile")
    _write_agent(work)
    history = f"sqlite:///{work / 'history.db'}"
    outputs = {
        "run": _cli(
            "run", "set.csv", "--agent", "agent.yaml", "--grader", "compare_meaning", "--judge", "judge.yaml",
            "--out", "out", "--junit", "out/junit.xml", "--markdown", "out/summary.md", "--history", history,
            "--no-progress", cwd=work,
        ),
    }  # fmt: skip
    folder = work / "out"
    base = _baseline_where_everything_passed(folder, work / "base")
    outputs["report"] = _cli("report", folder, "--markdown", "-", cwd=work)
    outputs["compare"] = _cli("compare", base, folder, "--markdown", "-", cwd=work)
    outputs["history"] = _cli("history", "runs", "--history", history, cwd=work)
    outputs["inspect"] = _cli("inspect", folder / "evidence" / "case2-r0.json", cwd=work)
    outputs["gate"] = _cli(
        "gate", folder, "--baseline-dir", base, "--markdown", "gate.md", "--junit", "gate.xml", cwd=work
    )
    return Played(folder, outputs)


def _assert_inert_terminal(text: str) -> None:
    assert not _RAW_CONTROL.search(text), "a raw control character reached the terminal"
    assert not _WORKFLOW_COMMAND.search(text), "a line would be a GitHub Actions workflow command"
    assert "Traceback" not in text


def _assert_inert_markdown(text: str) -> None:
    tokens = _MD.parse(text)
    inline = [child for token in tokens for child in token.children or []]
    kinds = {t.type for t in tokens} | {t.type for t in inline}
    assert not kinds & {"html_block", "html_inline", "image"}, "raw HTML or an image came through"
    assert not any(t.type == "link_open" and "127.0.0.1:9" in str(t.attrs.get("href")) for t in inline)
    assert text.count("<!-- copilot-eval") == 0 and "</details>" not in text.replace("\n</details>\n", "")
    assert not re.search(r"@octocat", text), "the mention would notify someone"
    assert not _RAW_CONTROL.search(text)


@pytest.mark.runtime
def test_run_keeps_its_exit_code_and_prints_the_hostile_text_as_text(played: Played) -> None:
    run = played.outputs["run"]
    assert run.returncode == 0, run.stdout + run.stderr  # one pass, one fail, no --fail-under: exit 0 as without it
    for name, done in played.outputs.items():
        _assert_inert_terminal(done.stdout + done.stderr)
        assert done.returncode in (0, 1), f"{name}: {done.stderr}"
    assert "[/x] \\x1b]0;pwned\\x07" in run.stdout  # readable: what the agent said, shown as escapes
    assert "shop [/x] \\x1b]0;t\\x07 @octocat" in run.stdout  # the agent's name in the table's title
    assert played.outputs["gate"].returncode == 1  # the hostile case regressed against the baseline
    assert "Tool says: [/x] \\x1b]0;pwned\\x07" in played.outputs["inspect"].stdout  # the MCP tool's result


@pytest.mark.runtime
def test_every_junit_file_parses_and_shows_the_forbidden_characters(played: Played) -> None:
    for path in (played.folder / "junit.xml", played.folder.parent / "gate.xml"):
        root = ET.parse(path).getroot()  # expat: strict XML 1.0
        text = ET.tostring(root, encoding="unicode")
        assert "\\x1b]0;pwned\\x07" in text or "\\x1b" in text, path
    failure = ET.parse(played.folder / "junit.xml").getroot().find(".//failure")
    assert failure is not None and "::error::forged" in (failure.text or "")  # kept, as text


@pytest.mark.runtime
def test_every_markdown_is_inert_and_readable(played: Played) -> None:
    documents = {
        "run --markdown": (played.folder / "summary.md").read_text(encoding="utf-8"),
        "report --markdown": played.outputs["report"].stdout,
        "compare --markdown": played.outputs["compare"].stdout,
        "gate --markdown": (played.folder.parent / "gate.md").read_text(encoding="utf-8"),
    }
    for name, text in documents.items():
        assert "Judge says" in text or name == "compare --markdown", name
        _assert_inert_markdown(text)
    rendered = _MD.render(documents["gate --markdown"])
    assert "@\u200boctocat" in rendered and "&lt;img src=http://127.0.0.1:9/p.png" in rendered


@pytest.mark.runtime
def test_the_sticky_comment_posts_the_gate_with_one_marker_on_top(played: Played) -> None:
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app
    from copilot_eval.github import marker
    from copilot_eval.testing import FakeGitHubComments, LoopbackServer

    fake = FakeGitHubComments(pulls=(7,))
    gate_md = played.folder.parent / "gate.md"
    with LoopbackServer(fake):
        done = CliRunner().invoke(
            app, ["comment", str(gate_md), "--repo", fake.repo, "--pr", "7", "--api-url", fake.url],
            env={"GITHUB_TOKEN": fake.token},
        )  # fmt: skip
    assert done.exit_code == 0, done.output
    (comment,) = fake.comments_on(7)
    assert comment.body.startswith(marker("gate", fake.repo) + "\n")
    assert comment.body.count("<!--") == 1


@pytest.mark.runtime
def test_the_files_on_disk_are_valid_utf8_json_and_keep_the_text(played: Played) -> None:
    run = json.loads((played.folder / "run.json").read_bytes().decode("utf-8"))
    answers = [r.get("actualResponse") or "" for r in run["results"]]
    assert any(answer.startswith("[/x] \x1b]0;pwned\x07") for answer in answers)  # data keeps the exact text
    for path in played.folder.rglob("*.json"):
        json.loads(path.read_bytes().decode("utf-8"))
    with (played.folder / "results.csv").open(encoding="utf-8", newline="") as handle:
        assert any("Judge says" in (row.get("explanation_1") or "") for row in csv.DictReader(handle))


async def test_a_lone_surrogate_in_a_studio_answer_costs_one_character_not_the_run(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from copilot_eval.cli.app import app
    from copilot_eval.testing import FakeDirectLine, LoopbackServer, answer
    from tests.targets.targets_helpers import ray_agent

    fake = FakeDirectLine(ray_agent(hello=answer("Hi \ud800 there [/x] \x1b[2J\n::error::forged")))
    async with LoopbackServer(fake):
        (tmp_path / "agent.yaml").write_text(
            json.dumps(
                {
                    "name": "dl-agent",
                    "timeout_s": 10,
                    "target": {
                        "type": "directline",
                        "token_endpoint": fake.token_endpoint,
                        "quiet_s": 0.25,
                        "poll_interval_s": 0.05,
                    },
                }
            )
        )
        (tmp_path / "set.csv").write_text('"question","expectedResponse"\n"hello","Hi there"\n', encoding="utf-8")
        done = await _in_thread(
            lambda: CliRunner().invoke(
                app,
                ["run", str(tmp_path / "set.csv"), "--agent", str(tmp_path / "agent.yaml"), "--out",
                 str(tmp_path / "out"), "--junit", str(tmp_path / "j.xml"), "--no-progress", "--no-history"],
            )
        )  # fmt: skip
    assert done.exit_code == 0, done.output
    _assert_inert_terminal(done.output)
    run = json.loads((tmp_path / "out" / "run.json").read_bytes().decode("utf-8"))
    assert run["results"][0]["actualResponse"].startswith("Hi \ufffd there [/x] \x1b[2J")  # the rest kept
    junit = ET.tostring(ET.parse(tmp_path / "j.xml").getroot(), encoding="unicode")  # parses: valid XML 1.0
    assert "Hi \ufffd there [/x] \\x1b[2J" in junit  # ESC, forbidden in XML 1.0, shown as its escape


async def _in_thread(call):  # the CLI runs its own event loop: keep it off the test's
    import asyncio

    return await asyncio.to_thread(call)
