"""`copilot-eval login`: refuses agent files it cannot sign in for, naming why (no network needed)."""

from __future__ import annotations

from typer.testing import CliRunner

from copilot_eval.cli.app import app


def test_login_refuses_a_direct_line_agent_and_a_bad_file(tmp_path):
    directline = tmp_path / "dl.yaml"
    directline.write_text("target: {type: directline, token_endpoint: 'https://x/token'}\n")
    result = CliRunner().invoke(app, ["login", "--agent", str(directline)])
    assert result.exit_code == 2 and "login is for targets of type copilot-studio" in result.output
    broken = tmp_path / "broken.yaml"
    broken.write_text("target: {type: copilot-studio, schema_name: s}\n")
    result = CliRunner().invoke(app, ["login", "--agent", str(broken)])
    assert result.exit_code == 2 and "give environment_id and schema_name" in result.output


def test_a_run_without_a_cached_sign_in_says_to_log_in(tmp_path, monkeypatch):
    import asyncio

    from copilot_eval.targets import CopilotStudioTarget, StudioAgent

    monkeypatch.setenv("COPILOT_EVAL_TOKEN_CACHE", str(tmp_path / "empty-cache.json"))
    target = CopilotStudioTarget(
        direct_connect_url="http://127.0.0.1:9/bots/x",
        client_id="00000000-0000-0000-0000-000000000001",
        tenant_id="contoso.onmicrosoft.com",
    )
    result = asyncio.run(StudioAgent(target=target, timeout_s=5).play(["hi"]))
    assert not result.success and "copilot-eval login --agent" in result.error
