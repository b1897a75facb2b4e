"""The redactor on its own: registration, encoded forms, data, logs, streams and the registering models."""

from __future__ import annotations

import base64
import io
import json
import logging
from urllib.parse import quote, quote_plus

import pytest

from copilot_eval import redaction
from copilot_eval.redaction import (
    RedactingStream,
    contains_secret,
    redact,
    redact_bytes,
    redact_data,
    register_secret,
    registered_secret_names,
)

KEY = "sk-unit/abc+def=123456"


@pytest.fixture(autouse=True)
def clean_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    # Other tests of the session may have registered keys; these tests check the registry itself,
    # so each starts empty and the session's registry comes back untouched afterwards.
    monkeypatch.setattr(redaction, "_secrets", {})
    monkeypatch.setattr(redaction, "_known_forms", ())
    monkeypatch.setattr(redaction, "_pattern", None)
    monkeypatch.setattr(redaction, "_environment_read", True)  # this machine's variables stay out of it


def test_a_registered_value_is_replaced_by_a_marker_naming_its_variable() -> None:
    register_secret(KEY, "UNIT_KEY")
    assert redact(f"401: Authorization: Bearer {KEY}") == "401: Authorization: Bearer [redacted:UNIT_KEY]"
    assert registered_secret_names() == ["UNIT_KEY"]
    assert KEY not in repr(registered_secret_names())


@pytest.mark.parametrize(
    "encode",
    [
        lambda v: quote(v, safe=""),
        quote_plus,
        lambda v: json.dumps(v)[1:-1],
        lambda v: base64.b64encode(v.encode()).decode(),
        lambda v: base64.urlsafe_b64encode(v.encode()).decode(),
    ],
)
def test_encoded_forms_are_replaced_too(encode) -> None:
    register_secret(KEY, "UNIT_KEY")
    assert redact(f"echo={encode(KEY)}") == "echo=[redacted:UNIT_KEY]"


def test_short_empty_and_missing_values_are_not_registered() -> None:
    for value in (None, "", "no-key", "1234567"):
        register_secret(value, "SHORT")
    assert registered_secret_names() == []
    assert redact("no-key 1234567") == "no-key 1234567"


def test_a_name_that_is_not_a_variable_name_is_made_safe_for_the_marker() -> None:
    register_secret(KEY, 'two "words"')
    assert redact(KEY) == "[redacted:two__words_]"


def test_a_longer_secret_containing_a_shorter_one_is_replaced_whole() -> None:
    register_secret("abcdefgh", "SHORT_ONE")
    register_secret("abcdefgh-and-more", "LONG_ONE")
    assert redact("x abcdefgh-and-more y abcdefgh") == "x [redacted:LONG_ONE] y [redacted:SHORT_ONE]"


def test_data_is_redacted_deeply_and_left_untouched_when_clean() -> None:
    clean = {"a": ["b", {"c": ("d", 1, None)}]}
    register_secret(KEY, "UNIT_KEY")
    assert redact_data(clean) is clean
    dirty = {"headers": {KEY: [f"Bearer {KEY}", 3]}, "n": 1.5}
    assert redact_data(dirty) == {"headers": {"[redacted:UNIT_KEY]": ["Bearer [redacted:UNIT_KEY]", 3]}, "n": 1.5}
    assert redact_bytes(f"é {KEY}".encode()) == "é [redacted:UNIT_KEY]".encode()
    assert redact_bytes(b"\xff\xfe" + KEY.encode()) == b"\xff\xfe[redacted:UNIT_KEY]"


def test_log_records_are_redacted_for_every_handler(caplog: pytest.LogCaptureFixture) -> None:
    register_secret(KEY, "UNIT_KEY")
    logger = logging.getLogger("copilot_eval.tests.redaction")
    with caplog.at_level(logging.INFO):
        logger.info("provider said %s", f"Bearer {KEY}")
        try:
            raise RuntimeError(f"bad key {KEY}")
        except RuntimeError:
            logger.exception("request failed")
    assert not contains_secret(caplog.text) and "[redacted:UNIT_KEY]" in caplog.text
    assert "RuntimeError: bad key [redacted:UNIT_KEY]" in caplog.text


def test_a_redacting_stream_passes_redacted_text_on() -> None:
    register_secret(KEY, "UNIT_KEY")
    inner = io.StringIO()
    stream = RedactingStream(inner)
    assert stream.write(f"key {KEY}\n") == len(f"key {KEY}\n")
    stream.writelines(["ok\n"])
    assert inner.getvalue() == "key [redacted:UNIT_KEY]\nok\n"


def test_byok_and_github_models_register_the_values_they_read(monkeypatch: pytest.MonkeyPatch) -> None:
    from copilot_eval import ByokProvider
    from copilot_eval.models.github import github_token_from_env

    monkeypatch.setenv("UNIT_BYOK_KEY", "sk-byok-registered-42")
    monkeypatch.delenv("COPILOT_GITHUB_TOKEN", raising=False)
    monkeypatch.setenv("GH_TOKEN", "ghp_registered_token_42")
    ByokProvider(base_url="http://127.0.0.1:1/v1", api_key_env="UNIT_BYOK_KEY").session_provider()
    assert github_token_from_env() == "ghp_registered_token_42"
    assert redact("sk-byok-registered-42 ghp_registered_token_42") == "[redacted:UNIT_BYOK_KEY] [redacted:GH_TOKEN]"


def test_capture_and_saved_evidence_carry_no_registered_secret(tmp_path) -> None:
    from copilot_eval.capture import RunFacts, result_from_events

    register_secret(KEY, "UNIT_KEY")
    events = [
        {"type": "user.message", "data": {"content": f"my key is {KEY}"}},
        {"type": "session.error", "data": {"message": f"401 Bearer {quote(KEY, safe='')}"}},
    ]
    result = result_from_events(
        events,
        facts=RunFacts(
            stop_reason="execution_error", error=f"HTTP 401 {KEY}", tool_exceptions={"c1": f"ValueError: {KEY}"}
        ),
    )
    assert not contains_secret(result.model_dump_json()) and not contains_secret(result.summary())
    assert "[redacted:UNIT_KEY]" in result.error
    # A result built by hand (not through capture) is still redacted when saved.
    result.error = f"late {KEY}"
    assert not contains_secret(result.save(tmp_path / "r.json").read_text())
    assert not contains_secret(result.summary())


def test_the_redactor_is_a_leaf_package() -> None:
    # Every layer imports it, so it imports nothing of the project but its own modules.
    import ast
    from pathlib import Path

    folder = Path(redaction.__file__).parent
    for module in folder.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        imported = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        imported += [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        outside = [
            name
            for name in imported
            if name.startswith("copilot_eval") and not name.startswith("copilot_eval.redaction")
        ]
        assert outside == [], (module.name, outside)
