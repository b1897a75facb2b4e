"""Secrets found without being handed to the redactor: by the variable's name, and by the token's shape.

No runtime here: the rules themselves, the redactor's first use, what is left alone (ordinary
words, UUIDs, hashes, images, the project's own ids, every recorded event log), and the minimal
environment a runtime is given.
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import uuid
from pathlib import Path

import pytest

from copilot_eval import redaction
from copilot_eval.redaction import (
    SHAPE_KINDS,
    contains_secret,
    is_secret_name,
    redact,
    redact_bytes,
    redact_data,
    redact_log_record,
    register_environment_secrets,
    register_server_secrets,
    registered_secret_names,
)
from copilot_eval.redaction.environment import secret_values

DATA = Path(__file__).parent.parent / "capture" / "data"
GITHUB = "ghp_" + "Zq3" * 12  # 36 characters after the prefix, as GitHub makes them
PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAz7x\nq9Yt+/w==\n-----END RSA PRIVATE KEY-----"


@pytest.fixture(autouse=True)
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each test starts with nothing registered and the environment already read, unless it says so.
    monkeypatch.setattr(redaction, "_secrets", {})
    monkeypatch.setattr(redaction, "_known_forms", ())
    monkeypatch.setattr(redaction, "_pattern", None)
    monkeypatch.setattr(redaction, "_environment_read", True)


@pytest.mark.parametrize(
    "name",
    [
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "COPILOT_GITHUB_TOKEN",
        "NPM_TOKEN",
        "gitlabtoken",
        "OPENAI_API_KEY",
        "APIKEY",
        "aws_secret_access_key",
        "CLIENT_SECRET",
        "DBPASSWORD",
        "SMTP_PASSWD",
        "GOOGLE_APPLICATION_CREDENTIALS",
        "AZURE_DEVOPS_PAT",
        "AZURE_STORAGE_CONNECTION_STRING",
        "SENTRY_DSN",
        "DATABASE_URL",
    ],
)
def test_names_that_mark_a_secret(name: str) -> None:
    assert is_secret_name(name)


@pytest.mark.parametrize(
    "name",
    ["PATH", "HOME", "MONKEY", "TURNKEY", "PYTHONPATH", "GIT_CONFIG_KEY_0", "TOKEN_FILE", "KEYBOARD", "SPAT", "LANG"],
)
def test_names_that_do_not(name: str) -> None:
    assert not is_secret_name(name)


def test_which_values_of_an_environment_are_secrets() -> None:
    environ = {
        "GH_TOKEN": GITHUB,
        "MY_API_KEY": "short",  # under 8 characters: scrubbing it would mangle ordinary text
        "OTHER_TOKEN": "********",  # a mask, not a secret
        "PIP_INDEX_URL": "https://builder:s3cr3t-pass@pypi.example.com/simple",
        "STORAGE": "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=Zm9vYmFyYmF6cXV4;EndpointSuffix=x",
        "EDITOR": "vim-with-a-long-name",
    }
    assert sorted(secret_values(environ)) == [
        ("GH_TOKEN", GITHUB),
        ("PIP_INDEX_URL", "s3cr3t-pass"),
        ("STORAGE", "Zm9vYmFyYmF6cXV4"),
    ]


def test_an_environment_registers_under_its_variable_names() -> None:
    names = register_environment_secrets({"GITHUB_TOKEN": "gho_notreallyatoken42", "SERVICE_API_KEY": "svc-123456"})
    assert names == registered_secret_names() == ["GITHUB_TOKEN", "SERVICE_API_KEY"]
    assert redact("gho_notreallyatoken42 svc-123456") == "[redacted:GITHUB_TOKEN] [redacted:SERVICE_API_KEY]"


def test_the_first_use_of_the_redactor_reads_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("UNIT_CANARY_SECRET", "unit-canary-0123456789")
    monkeypatch.setattr(redaction, "_environment_read", False)
    assert redact("echo unit-canary-0123456789") == "echo [redacted:UNIT_CANARY_SECRET]"
    monkeypatch.setenv("UNIT_LATER_SECRET", "set-after-the-first-use")
    assert redact("set-after-the-first-use") == "set-after-the-first-use", "read once, not on every call"


def test_mcp_server_entries_register_their_env_secrets_and_credential_headers() -> None:
    servers = {
        "crm": {"command": "crm-mcp", "env": {"CRM_API_KEY": "crm-key-0123456789", "CRM_REGION": "eu-west-long"}},
        "docs": {
            "url": "https://docs.example/mcp",
            "headers": {"Authorization": "Bearer docs-tok-0123456", "Accept": "text/plain"},
        },
    }
    assert register_server_secrets(servers) == ["crm.CRM_API_KEY", "docs.Authorization"]
    assert redact("crm-key-0123456789 eu-west-long docs-tok-0123456 text/plain") == (
        "[redacted:crm.CRM_API_KEY] eu-west-long [redacted:docs.Authorization] text/plain"
    )


SHAPED = {
    "github-token": [GITHUB, "github_pat_11AAAAAAA0123456789_abcdefghijklmnopqrstuvwxyzABCDEF", "ghs_" + "x1" * 18],
    "api-key": ["sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12", "sk-ant-api03-abcdefghij0123456789"],
    "aws-access-key-id": ["AKIAIOSFODNN7EXAMPLE", "ASIAY34FZKBOKMUTVV7A"],
    "slack-token": ["xoxb-123456789012-1234567890123-AbCdEfGhIjKl"],
    "jwt": ["eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"],
    "private-key": [PEM],
}


@pytest.mark.parametrize("kind", SHAPE_KINDS)
def test_a_token_shape_is_scrubbed_with_a_marker_naming_its_kind(kind: str) -> None:
    for token in SHAPED[kind]:
        assert contains_secret(f"x {token} y")
        assert redact(f"said: {token}.") == f"said: [redacted:{kind}]."
        assert registered_secret_names() == [], "a shape is found, never registered"


def test_shapes_are_found_in_data_bytes_json_escapes_and_cut_off_key_blocks() -> None:
    event = {"type": "tool.execution_complete", "data": {"result": {"content": json.dumps({"key": PEM})}}}
    scrubbed = redact_data([event])
    assert "PRIVATE KEY" not in json.dumps(scrubbed) and "[redacted:private-key]" in json.dumps(scrubbed)
    assert redact_bytes(f"id={SHAPED['aws-access-key-id'][0]}".encode()) == b"id=[redacted:aws-access-key-id]"
    cut = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU="
    assert redact(f"{cut}\n(output truncated)").replace("\n", "") == "[redacted:private-key](output truncated)"


def test_log_records_lose_shapes_with_nothing_registered() -> None:
    record = logging.LogRecord("unit", logging.WARNING, __file__, 1, "token %s leaked", (GITHUB,), None)
    assert redact_log_record(record).getMessage() == "token [redacted:github-token] leaked"


def test_registered_values_are_named_before_shapes_are_looked_for() -> None:
    register_environment_secrets({"GH_TOKEN": GITHUB})
    assert redact(f"{GITHUB} and {SHAPED['github-token'][2]}") == "[redacted:GH_TOKEN] and [redacted:github-token]"


ORDINARY = [
    "a task-based, risk-free ask-user flow; desk-sk-0123456789abcdefghij",
    "sk-learn-compatible-estimator-wrapper and skeleton-key",
    "AKIA is a prefix, so is ASIAN; xoxo-hugs-and-kisses",
    "ghp_short gho_ ghs_token",
    "The MONKEY said PRIVATE KEY in a sentence.",
    "eyJhbGciOi.notajwt and eyJhIjoxfQ==",
    # fixed ids: a random one per collection changes the test ids, which pytest-xdist and shards refuse
    str(uuid.uuid5(uuid.NAMESPACE_URL, "https://example.invalid/run")),
    hashlib.sha256(b"x").hexdigest(),
    hashlib.sha256(b"x").hexdigest().upper(),
    base64.b64encode(hashlib.sha512(b"y").digest()).decode(),
    "copilot-eval-" + str(uuid.uuid5(uuid.NAMESPACE_DNS, "session.example.invalid")),
    "call_fn_1_0 call_0_0_0 resp_fn_1 toolu_01ABCDEFGHIJKLMNOPQRSTUV chatcmpl-AbCdEf0123456789",
    "home-4242-v5rzsm18 copilot-eval-run-abc123 request_audit_error",
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "https://github.com/modelcontextprotocol/servers/tree/main/src/everything",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_ids_and_hashes_are_left_alone(text: str) -> None:
    assert redact(text) == text and not contains_secret(text)


@pytest.mark.parametrize("log", sorted(DATA.glob("*.jsonl")), ids=lambda path: path.stem)
def test_every_recorded_event_log_passes_unchanged(log: Path) -> None:
    # Real runtime logs: system prompts, tool lists, results, ids. Not one string is a false positive.
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert redact_data(events) is events


def test_a_minimal_environment_keeps_what_the_runtime_needs_and_the_named_variables() -> None:
    from copilot_eval.runtime.process.environment import RUNTIME_NEEDS, EnvironmentPolicy

    environ = {"PATH": "/bin", "HOME": "/home/u", "LC_ALL": "C", "GH_TOKEN": GITHUB, "AWS_PROFILE": "dev", "X": "1"}
    assert EnvironmentPolicy().select(environ) == environ
    minimal = EnvironmentPolicy(minimal=True, pass_env=("AWS_*",))
    assert minimal.select(environ) == {"PATH": "/bin", "HOME": "/home/u", "LC_ALL": "C", "AWS_PROFILE": "dev"}
    assert (minimal.description, EnvironmentPolicy().description) == ("minimal + AWS_*", "inherited")
    assert "PATH" in RUNTIME_NEEDS and "GH_TOKEN" not in RUNTIME_NEEDS
    assert EnvironmentPolicy(minimal=True) != EnvironmentPolicy(), "the pool keys runtimes by it"


def test_an_agent_file_asks_for_a_minimal_environment(tmp_path: Path) -> None:
    from copilot_eval import CopilotEval
    from copilot_eval.agent import AgentFileError

    good = tmp_path / "agent.yaml"
    good.write_text("name: x\nminimal_env: true\npass_env: [AWS_PROFILE, 'MYAPP_*']\n", encoding="utf-8")
    agent = CopilotEval.from_file(good)
    assert (agent.minimal_env, agent.pass_env) == (True, ("AWS_PROFILE", "MYAPP_*"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\npass_env: [AWS_PROFILE, 'A=1']\n", encoding="utf-8")
    with pytest.raises(AgentFileError) as caught:
        CopilotEval.from_file(bad)
    assert f"{bad}: pass_env.1: expected a variable name or pattern" in str(caught.value)
    useless = tmp_path / "useless.yaml"
    useless.write_text("name: x\npass_env: [AWS_PROFILE]\n", encoding="utf-8")
    with pytest.raises(AgentFileError, match="pass_env only applies with minimal_env"):
        CopilotEval.from_file(useless)
