"""`copilot-eval audit` through the real runtime: poisoned tools flagged, real servers clean, pins that catch a change."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from copilot_eval import CopilotEval
from copilot_eval.cli.app import app
from copilot_eval.security.environment import ENV_SERVER
from copilot_eval.security.tool_audit import audit_tools
from tests.mcp.third_party_servers import console_script, everything_mcp_config, filesystem_server, warm_server

from .poisoned_tools import CLEAN, EXPECTED, HELPER, MAIL

pytestmark = pytest.mark.runtime


def agent_file(folder: Path, **specs: dict) -> Path:
    servers = {}
    for name, spec in specs.items():
        path = folder / f"{name}.json"
        path.write_text(json.dumps(spec), encoding="utf-8")
        servers[name] = {"command": sys.executable, "args": [str(ENV_SERVER), str(path)]}
    path = folder / "agent.yaml"
    path.write_text(yaml.safe_dump({"name": "audited", "model": "gpt-4.1", "mcp_servers": servers}), encoding="utf-8")
    return path


def audit(*args: str) -> tuple[int, dict]:
    outcome = CliRunner().invoke(app, ["audit", *args, "--json"])
    return outcome.exit_code, json.loads(outcome.stdout)


def test_every_kind_of_poisoned_tool_is_flagged_as_the_model_would_see_it(tmp_path: Path) -> None:
    code, document = audit(str(agent_file(tmp_path, mail=MAIL, helper=HELPER)))
    assert code == 1  # high-severity findings
    findings = document["findings"]
    for tool, (kind, severity, where, piece) in EXPECTED.items():
        mine = [f for f in findings if f["tool"] == tool and f["kind"] == kind]
        assert mine and mine[0]["severity"] == severity and mine[0]["where"] == where, (tool, findings)
        assert piece in mine[0]["matched"], mine[0]  # the runtime passed the hidden characters on unchanged
    assert not [f for f in findings if f["tool"] in CLEAN]
    assert {t["name"] for t in document["tools"]} == {
        f"{s['server']}-{t['name']}" for s in (MAIL, HELPER) for t in s["tools"]
    }
    assert all(t["kind"] == "mcp" for t in document["tools"])  # built-in tools are the runtime's, not audited


def test_a_pin_is_written_once_and_a_changed_or_new_tool_fails_the_next_audit(tmp_path: Path) -> None:
    pin = tmp_path / "tools.pin.json"
    agent = agent_file(tmp_path, mail=MAIL)
    code, document = audit(str(agent), "--pin", str(pin))
    assert code == 0 and document["findings"] == [] and document["pin"]["written"] is True
    pinned = json.loads(pin.read_text(encoding="utf-8"))["tools"]
    assert set(pinned) == {"mail-send_email", "mail-list_inbox"}
    assert code == 0 and audit(str(agent), "--pin", str(pin))[0] == 0  # unchanged: passes
    changed = json.loads(json.dumps(MAIL))
    changed["tools"][0]["description"] += " Copies go to the archive."
    changed["tools"].append(json.loads(json.dumps(MAIL["tools"][1])) | {"name": "delete_all"})
    code, document = audit(str(agent_file(tmp_path, mail=changed)), "--pin", str(pin))
    assert code == 1 and document["pin"]["written"] is False
    kinds = [(c["kind"], c["tool"]) for c in document["pin"]["changes"]]
    assert kinds == [("added", "mail-delete_all"), ("changed", "mail-send_email")]
    assert document["pin"]["changes"][1]["pinned"] == pinned["mail-send_email"]["sha256"]


async def test_the_reference_servers_give_no_high_severity_finding(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (tmp_path / "t").mkdir()
    (tmp_path / "g").mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    with (
        warm_server([console_script("mcp-server-time"), "--local-timezone", "UTC"], tmp_path / "t") as time_cmd,
        warm_server([console_script("mcp-server-git"), "--repository", str(repo)], tmp_path / "g") as git_cmd,
    ):
        files = filesystem_server()
        servers = {
            "time": {"command": time_cmd[0], "args": time_cmd[1:]},
            "git": {"command": git_cmd[0], "args": git_cmd[1:]},
            "fs": {"command": files[0], "args": [*files[1:], str(tmp_path)]},
            **everything_mcp_config("ev"),
        }
        found = await audit_tools(CopilotEval(model="gpt-4.1", mcp_servers=servers))
    assert found.read, found.listing.result.error if found.listing.result else None
    assert {tool.server for tool in found.tools} == {"time", "git", "fs", "ev"}
    assert len(found.tools) >= 40
    assert found.high == [], [f.to_dict() for f in found.high]
    print("findings on the reference servers:", [f.to_dict() for f in found.findings])
