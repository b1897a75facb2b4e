"""The tool audit's checks and pins, fed tool definitions directly (the runtime path is in test_audit_runtime)."""

from __future__ import annotations

from pathlib import Path

import pytest

from copilot_eval.security.tool_checks import ToolText, check_tools
from copilot_eval.security.tool_pins import PinFileError, pin_changes, read_pins, write_pins

from .poisoned_tools import CLEAN, EXPECTED, HELPER, MAIL


def texts(*specs: dict) -> list[ToolText]:
    return [
        ToolText(f"{spec['server']}-{t['name']}", spec["server"], t["description"], t["inputSchema"])
        for spec in specs
        for t in spec["tools"]
    ]


def test_each_kind_of_poisoned_tool_is_flagged_with_its_severity_place_and_text() -> None:
    findings = check_tools(texts(MAIL, HELPER))
    for tool, (kind, severity, where, piece) in EXPECTED.items():
        mine = [f for f in findings if f.tool == tool and f.kind == kind]
        assert mine, f"{tool}: no {kind} finding in {[(f.tool, f.kind) for f in findings]}"
        assert (mine[0].severity, mine[0].where) == (severity, where), mine[0]
        assert piece in mine[0].matched, mine[0]
    assert not [f for f in findings if f.tool in CLEAN]
    assert [f.severity for f in findings] == sorted((f.severity for f in findings), key=["high", "medium"].index)


def test_shadowing_needs_another_servers_tool() -> None:
    own = ToolText("mail-reply", "mail", "Reply to a message; use mail-send_email for new ones.")
    other = ToolText("notes-add", "notes", "Add a note. Never used with send_email.")
    names = [ToolText("mail-send_email", "mail", "Send."), own, other]
    found = [(f.tool, f.kind) for f in check_tools(names)]
    assert ("mail-reply", "shadowing") not in found  # its own server's tool
    assert ("notes-add", "shadowing") in found  # a bare name with an underscore is still that tool
    assert check_tools([ToolText("a-echo", "a", "Say it."), ToolText("b-x", "b", "Echo the input.")]) == []


@pytest.mark.parametrize(
    "text",
    [
        "Read a file from the environment.",
        "List .envrc-free folders; see environment variables.",
        "Only works within allowed directories. Use this tool when you need to examine a file.",
        "Returns all environment variables, helpful for debugging MCP server configuration",
        "Use get-roots-list to see client workspace roots before file operations",
        "The system clock in a timezone.",
    ],
)
def test_ordinary_descriptions_are_not_flagged(text: str) -> None:
    assert check_tools([ToolText("s-t", "s", text)]) == []


@pytest.mark.parametrize(
    "path", ["~/.ssh/id_rsa", "the .env file", ".env.local", "~/.config/gcloud/x", "~/.netrc", "id_ed25519"]
)
def test_credential_paths_are_flagged(path: str) -> None:
    (finding,) = check_tools([ToolText("s-t", "s", f"Reads {path} for you.")])
    assert finding.kind == "credential_path" and finding.severity == "high"


def test_pins_are_written_once_and_name_every_change(tmp_path: Path) -> None:
    pin = tmp_path / "tools.pin.json"
    write_pins(
        pin, {"a-x": {"server": "a", "sha256": "1" * 64}, "a-y": {"server": "a", "sha256": "2" * 64}}, agent="bot"
    )
    pinned = read_pins(pin)
    now = {"a-x": {"server": "a", "sha256": "3" * 64}, "a-z": {"server": "a", "sha256": "4" * 64}}
    assert [(c.kind, c.tool) for c in pin_changes(pinned, now)] == [
        ("changed", "a-x"),
        ("removed", "a-y"),
        ("added", "a-z"),
    ]
    assert pin_changes(pinned, pinned) == []
    assert pin_changes(pinned, now)[0].describe() == "a-x: definition changed (111111111111 -> 333333333333)"


def test_a_pin_file_that_is_not_one_is_refused_by_name(tmp_path: Path) -> None:
    pin = tmp_path / "pin.json"
    pin.write_text('{"tools": []}', encoding="utf-8")
    with pytest.raises(PinFileError, match=r"pin\.json: not a pin file of this version.*delete it to pin again"):
        read_pins(pin)
    pin.write_text("{", encoding="utf-8")
    with pytest.raises(PinFileError, match="cannot be read as a pin file"):
        read_pins(pin)
