"""Placeholders filled as gh-models fills them: plain replacement, values written as Go's %v writes them."""

from __future__ import annotations

import math

import pytest

from copilot_eval.evalsets.prompt_text import fill, go_float, go_text, go_trim, placeholders
from copilot_eval.evalsets.prompt_yaml import plain_value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e6, "1e+06"),
        (999999.0, "999999"),
        (1234567.0, "1.234567e+06"),
        (0.0001, "0.0001"),
        (0.00001, "1e-05"),
        (100.0, "100"),
        (-2.5e-7, "-2.5e-07"),
        (0.1, "0.1"),
        (math.inf, "+Inf"),
        (math.nan, "NaN"),
    ],
)
def test_floats_are_written_as_go_writes_them(value, text):
    assert go_float(value) == text


def test_other_values_are_written_as_go_writes_them():
    assert go_text(True) == "true"
    assert go_text(None) == "<nil>"
    assert go_text(42) == "42"
    assert go_text(["a", 1, False]) == "[a 1 false]"
    assert go_text({"b": 2, "a": 1.5}) == "map[a:1.5 b:2]"  # Go prints a map's keys in order


def test_fill_is_one_pass_of_plain_replacement():
    assert fill("{{a}} and {{ab}} and {{c}}", {"a": 1, "ab": "two"}) == "1 and two and {{c}}"
    # A value holding another placeholder is not filled again (gh-models' result depends on Go's map order).
    assert fill("{{a}}", {"a": "{{b}}", "b": "x"}) == "{{b}}"
    assert fill("{{ a }}", {"a": 1}) == "{{ a }}"  # only the exact spelling is replaced
    assert placeholders("{{a}} {{ b }} {{a}}") == ["a", " b "]


def test_trim_is_gos_trim_space():
    assert go_trim("\u00a0\t PASS \n\r") == "PASS"
    assert go_trim("PASS\u2028") == "PASS\u2028"  # a line separator is not white space to Go


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("yes", "yes"),
        ("on", "on"),
        ("True", True),
        ("~", None),
        ("", None),
        ("0777", 511),
        ("0x1f", 31),
        ("0b101", 5),
        ("1_000", 1000),
        ("08", 8.0),
        ("1.5e3", 1500.0),
        (".inf", math.inf),
        ("-.inf", -math.inf),
        ("2024-01-01", "2024-01-01"),
        ("12:30", "12:30"),
    ],
)
def test_plain_scalars_resolve_as_yaml_v3_resolves_them(text, value):
    assert plain_value(text) == value
