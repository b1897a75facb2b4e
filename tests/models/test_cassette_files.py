"""Cassette files and request matching without a runtime: format, normalisation, readable differences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from copilot_eval.models.replay import CassetteError
from copilot_eval.models.replay.cassette import Exchange, cassette_name, read_cassette
from copilot_eval.models.replay.normalise import diff_fields, normalise_body, request_key
from copilot_eval.models.replay.store import Cassette
from copilot_eval.redaction import is_secret_name, redact


def _body(prompt: str, when: str = "2026-11-30T23:51:23.938+00:00", wd: str = "/tmp/copilot-eval-run-abc") -> dict:
    return {
        "model": "m",
        "prompt_cache_key": "49627ee6d1ee",
        "messages": [
            {
                "role": "system",
                "content": f"* Current working directory: {wd}\nSession folder: "
                "/root/.cache/copilot-eval/sessions/home-9c9w3zsn/session-state/"
                "copilot-eval-4a03d63a-aade-4ff8-8a1c-db47c515f717",
            },
            {"role": "user", "content": f"<current_datetime>{when}</current_datetime>\n\n{prompt}"},
        ],
    }


def test_volatile_parts_do_not_change_the_key() -> None:
    first = normalise_body(_body("hello"), "/tmp/copilot-eval-run-abc")
    second = normalise_body(
        _body("hello", when="2027-01-02T03:04:05.000+00:00", wd="/tmp/copilot-eval-run-xyz"),
        "/tmp/copilot-eval-run-xyz",
    )
    assert request_key(first) == request_key(second)
    assert "<working_directory>" in first["messages"][0]["content"] and "home-<id>" in first["messages"][0]["content"]
    assert request_key(normalise_body(_body("hello!"), None)) != request_key(normalise_body(_body("hello"), None))


def test_differences_name_the_field_and_quote_both_sides() -> None:
    (line,) = diff_fields(
        normalise_body(_body("What is my balance?"), None), normalise_body(_body("What is my savings balance?"), None)
    )
    assert line.startswith("body.messages[1].content: recorded ")
    assert "What is my balance?', now " in line and line.endswith("What is my savings balance?' (from character 60)")


def test_secrets_in_the_environment_are_never_stored(monkeypatch: pytest.MonkeyPatch) -> None:
    # Not shaped like a key (an sk- value would be scrubbed by its shape first): found by the variable's name.
    monkeypatch.setenv("MY_PROVIDER_API_KEY", "very-secret-value-123")
    stored = normalise_body({"messages": [{"role": "user", "content": "key very-secret-value-123 leaked"}]}, None)
    assert stored["messages"][0]["content"] == "key <redacted> leaked"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("AZURE_DEVOPS_PAT", "pat-value-not-for-cassettes"),
        ("SERVICE_CREDENTIALS", "credential-not-for-cassettes"),
        ("ORDERS_DB_PASSWD", "passwd-not-for-cassettes"),
        ("ORDERS_CONNECTION_STRING", "Server=db;User Id=app;Pwd=pwd-not-for-cassettes"),
    ],
)
def test_every_name_the_redactor_calls_secret_is_kept_out_of_a_cassette(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    redact("warm up")  # the redactor has read the environment already: only normalise's own reading can find it
    monkeypatch.setenv(name, value)
    assert is_secret_name(name)
    stored = normalise_body({"input": [{"content": f"the value is {value} here"}]}, None)
    assert value not in json.dumps(stored)
    assert stored["input"][0]["content"] == "the value is <redacted> here"


def test_a_cassette_of_another_version_or_format_is_refused_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"cassette": "copilot-eval", "version": 99}) + "\n")
    with pytest.raises(CassetteError, match=r"c\.jsonl:1: cassette version 99 is not supported"):
        read_cassette(path)
    path.write_text(json.dumps({"cassette": "copilot-eval", "version": 1}) + "\n{oops\n")
    with pytest.raises(CassetteError, match=r"c\.jsonl:2: not JSON"):
        read_cassette(path)
    with pytest.raises(CassetteError, match="no such cassette"):
        read_cassette(tmp_path / "missing.jsonl")


def test_recordings_are_served_in_order_and_record_missing_keeps_what_is_there(tmp_path: Path) -> None:
    path = tmp_path / cassette_name("tests/test_x.py::test_y[a b]")
    assert path.name == "tests_test_x.py_test_y_a_b.jsonl"
    recording = Cassette(path, "record")
    for text in ("first", "second"):
        recording.add(Exchange(0, "sha256:same", "completions", "http", {"n": 1}, {"status": 200, "body": text}))
    replay = Cassette(path, "replay")
    assert [replay.take("sha256:same").response["body"] for _ in range(2)] == ["first", "second"]
    assert replay.take("sha256:same") is None
    filling = Cassette(path, "record_missing")
    assert filling.take("sha256:same") is not None
    filling.add(Exchange(0, "sha256:new", "completions", "http", {"n": 2}, {"status": 200, "body": "third"}))
    assert [e.index for e in read_cassette(path)] == [0, 1, 2]


def test_the_summary_says_where_calls_were_recorded_and_what_was_served(tmp_path: Path) -> None:
    from copilot_eval.models.replay.sources import CassetteDir
    from copilot_eval.models.replay.wrap import cassette_summary

    def call(body: str) -> Exchange:
        return Exchange(0, f"sha256:{body}", "completions", "http", {"b": body}, {"status": 200, "body": body})

    recording = [CassetteDir(tmp_path, f"test_{n}", "record") for n in (1, 2)]
    for store, bodies in zip(recording, (["a", "b"], ["c"]), strict=True):
        for body in bodies:
            store.get(store.cassette).add(call(body))
    assert cassette_summary(recording) == [f"recorded 3 model calls into 2 cassettes in {tmp_path}"]
    replaying = CassetteDir(tmp_path, "test_1", "replay")
    replaying.get("test_1").take("sha256:a")
    assert cassette_summary([replaying]) == [
        f"replayed 1 model call from 1 cassette in {tmp_path}; no live model was called"
    ]
    filling = CassetteDir(tmp_path, "test_2", "record_missing")
    filling.get("test_2").take("sha256:c")
    filling.get("test_2").add(call("d"))
    assert cassette_summary([filling]) == [
        f"recorded 1 model call missing from 1 cassette in {tmp_path}; 1 model call served from them"
    ]
