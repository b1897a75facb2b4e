"""The one table of exit codes: documented as it is, ranked as the issue says, and printed as one line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copilot_eval.exit_codes import (
    BELOW_GATE,
    EXIT_TABLE,
    INTERRUPTED,
    OK,
    PASSED,
    PLATFORM,
    UNUSABLE_INPUT,
    Verdict,
    row_of,
    worst,
)

DOC = Path(__file__).resolve().parents[1] / "docs" / "evaluation-runs.md"


def _documented_rows() -> list[tuple[int, str, str]]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- exit-codes:", 1)[1].split("<!-- /exit-codes -->", 1)[0]
    rows = []
    for line in block.splitlines():
        match = re.match(r"^\| (\d+) \| (.+?) \| (.+) \|$", line)
        if match:
            rows.append((int(match.group(1)), match.group(2), match.group(3)))
    return rows


def test_the_documented_table_is_the_table_the_commands_use():
    expected = [(row.code, row.name, row.meaning) for row in EXIT_TABLE]
    assert _documented_rows() == expected, (
        "docs/evaluation-runs.md's exit-code table differs from copilot_eval.exit_codes.EXIT_TABLE: "
        "write the same rows in both"
    )


def test_the_codes_are_unique_and_in_order():
    codes = [row.code for row in EXIT_TABLE]
    assert codes == sorted(set(codes))
    assert [row_of(code) for code in codes] == list(EXIT_TABLE)
    with pytest.raises(ValueError, match="exit code 7 is not in copilot-eval's table"):
        row_of(7)


@pytest.mark.parametrize(
    ("rows", "expected"),
    [
        ((BELOW_GATE, PLATFORM), PLATFORM),  # a gate over a platform failure is no verdict on the agent
        ((PLATFORM, UNUSABLE_INPUT), UNUSABLE_INPUT),
        ((BELOW_GATE, UNUSABLE_INPUT, PLATFORM), UNUSABLE_INPUT),
        ((OK, BELOW_GATE), BELOW_GATE),
        ((UNUSABLE_INPUT, INTERRUPTED), INTERRUPTED),
        ((OK, OK), OK),
    ],
)
def test_when_several_apply_2_then_3_then_1(rows, expected):
    assert worst(Verdict(row, f"because {row.code}") for row in rows).row == expected


def test_the_worst_verdict_keeps_every_reason_of_its_row():
    verdict = worst([Verdict(BELOW_GATE, "draft: score 0%"), Verdict(OK), Verdict(BELOW_GATE, "published: score 10%")])
    assert verdict.line() == "exit 1 (below a gate): draft: score 0%; published: score 10%"
    assert worst([]) == PASSED


def test_a_non_zero_verdict_is_one_line_naming_its_row_and_why():
    assert Verdict(PLATFORM, "no case could be graded").line() == (
        "exit 3 (the platform or the infrastructure): no case could be graded"
    )
    assert "\n" not in (Verdict(UNUSABLE_INPUT, "x").line() or "")
    assert PASSED.line() is None
