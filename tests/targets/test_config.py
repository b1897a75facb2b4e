"""Target blocks in agent files: accepted shapes, and errors that name the file and the field."""

from __future__ import annotations

import pytest

from copilot_eval.targets import (
    CopilotStudioTarget,
    DirectLineTarget,
    StudioAgent,
    TargetConfigError,
    load_target_agent_file,
    parse_target,
)


def test_a_direct_line_agent_file_is_read(tmp_path):
    path = tmp_path / "published.yaml"
    path.write_text(
        "name: raybot-published\ntarget:\n  type: directline\n  secret_env: RAYBOT_DL_SECRET\n"
        "  directline_url: https://europe.directline.botframework.com/v3/directline\ntimeout_s: 30\n"
    )
    agent = load_target_agent_file(path)
    assert agent == StudioAgent(
        target=DirectLineTarget(
            secret_env="RAYBOT_DL_SECRET", directline_url="https://europe.directline.botframework.com/v3/directline"
        ),
        name="raybot-published",
        timeout_s=30.0,
    )


def test_a_copilot_studio_block_is_read():
    target = parse_target(
        {
            "type": "copilot-studio",
            "environment_id": "aaaabbbb-1111-2222-3333-ccccddddeeee",
            "schema_name": "cr123_raybot",
            "client_id": "11111111-2222-3333-4444-555555555555",
        }
    )
    assert isinstance(target, CopilotStudioTarget) and target.cloud == "prod"


@pytest.mark.parametrize(
    ("block", "named"),
    [
        ({"type": "webchat"}, "target.type"),
        ({"type": "directline"}, "exactly one of token_endpoint"),
        ({"type": "directline", "token_endpoint": "https://x", "secret_env": "S"}, "exactly one of token_endpoint"),
        ({"type": "directline", "secret_env": "my secret value!"}, "target.secret_env"),
        ({"type": "directline", "token_endpoint": "not a url"}, "target.token_endpoint"),
        ({"type": "directline", "token_endpoint": "https://x", "user_id": "alice"}, "target.user_id"),
        ({"type": "directline", "token_endpoint": "https://x", "quiet_s": "2"}, "target.quiet_s"),
        ({"type": "directline", "token_endpoint": "https://x", "tokn": 1}, "unknown field(s) ['tokn']"),
        ({"type": "copilot-studio", "token_env": "T"}, "environment_id and schema_name"),
        ({"type": "copilot-studio", "direct_connect_url": "https://x/bots/y"}, "token_env"),
        (
            {"type": "copilot-studio", "direct_connect_url": "https://x/bots/y", "token_env": "T", "cloud": "mars"},
            "target.cloud",
        ),
        ("directline", "expected a mapping"),
    ],
)
def test_bad_blocks_name_the_file_and_the_field(block, named):
    with pytest.raises(TargetConfigError) as caught:
        parse_target(block, file="agents/raybot.yaml")
    assert "agents/raybot.yaml: target" in str(caught.value) and named in str(caught.value)


def test_a_target_agent_file_with_runtime_fields_or_a_bad_timeout_is_refused(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("target: {type: directline, token_endpoint: 'https://x'}\nmodel: gpt-4.1\n")
    with pytest.raises(TargetConfigError, match=r"a.yaml: unknown field\(s\) \['model'\]"):
        load_target_agent_file(path)
    path.write_text("target: {type: directline, token_endpoint: 'https://x'}\ntimeout_s: 0\n")
    with pytest.raises(TargetConfigError, match=r"a.yaml: timeout_s"):
        load_target_agent_file(path)
