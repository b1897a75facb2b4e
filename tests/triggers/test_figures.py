"""The figures: exact counts, rates only over plays that count, intervals, the verdict, the sample size."""

from __future__ import annotations

import pytest

from copilot_eval.exit_codes import BELOW_GATE, OK, PLATFORM, UNUSABLE_INPUT
from copilot_eval.triggers import ANOTHER, NONE, PlayRecord, TriggerPrompt, sample_size_for, summarise_triggers
from copilot_eval.triggers.gates import TriggerGates, parse_gate, trigger_verdict

PROMPTS = (
    TriggerPrompt(1, "fill the form", "pdf"),
    TriggerPrompt(2, "clean the csv", "csv"),
    TriggerPrompt(3, "what is a pdf", NONE, ("near-miss",)),
    TriggerPrompt(4, "hello", NONE),
)


def play(number: int, repeat: int, chosen: str | None, kind: str = "chose") -> PlayRecord:
    expected = PROMPTS[number - 1].expected
    return PlayRecord(number, repeat, expected, kind, chosen, "because")


PLAYS = [
    play(1, 0, "pdf"), play(1, 1, "pdf"), play(1, 2, None, "error"),
    play(2, 0, "pdf"), play(2, 1, "pdf"), play(2, 2, "csv"),
    play(3, 0, "pdf"), play(3, 1, NONE), play(3, 2, None, "undelivered"),
    play(4, 0, NONE), play(4, 1, "builtin-skill"), play(4, 2, None, "setup"),
]  # fmt: skip


def test_figures_are_exact_and_errors_stay_out_of_every_rate() -> None:
    figures = summarise_triggers(PROMPTS, PLAYS, names=("csv", "pdf"), threshold=0.5)
    first, second, near, hello = figures.prompts
    assert (first.hits, first.counted, first.rate, first.verdict, first.apart) == (2, 2, 1.0, "pass", {"error": 1})
    assert (second.hits, second.counted, second.verdict) == (1, 3, "fail")
    assert (near.hits, near.counted, near.rate, near.verdict) == (1, 2, 0.5, "pass")
    assert (hello.hits, hello.counted) == (1, 2)
    pdf, csv = figures.skill("pdf"), figures.skill("csv")
    # pdf was taken by prompts 1 (right), 2 (2/3) and 3 (1/2 at threshold 0.5): TP 1, FP 2
    assert (pdf.true_positives, pdf.false_positives, pdf.false_negatives) == (1, 2, 0)
    assert (pdf.precision, pdf.recall, pdf.f1) == (pytest.approx(1 / 3), 1.0, pytest.approx(0.5))
    assert (csv.true_positives, csv.false_positives, csv.false_negatives) == (0, 0, 1)
    assert (csv.precision, csv.recall, csv.f1) == (None, 0.0, None)  # unknown stays unknown
    assert figures.columns == ("csv", "pdf", NONE, ANOTHER)
    assert figures.confusion == {
        "csv": {"csv": 1, "pdf": 2, NONE: 0, ANOTHER: 0},
        "pdf": {"csv": 0, "pdf": 2, NONE: 0, ANOTHER: 0},
        NONE: {"csv": 0, "pdf": 1, NONE: 2, ANOTHER: 1},
    }
    assert (figures.near_miss_false_triggers, figures.near_miss_counted, figures.near_miss_rate) == (1, 2, 0.5)
    assert figures.apart == {"error": 1, "undelivered": 1, "setup": 1}
    assert (figures.counted, figures.correct) == (9, 5)
    document = figures.to_dict()
    lo, hi = document["prompts"][0]["interval"]
    assert 0.15 < lo < 0.35 and hi == 1.0  # Wilson at 2 of 2: wide, never a point


def test_sample_size_grows_as_the_difference_shrinks() -> None:
    assert sample_size_for(None, 0.1) is None
    small, large = sample_size_for(0.8, 0.2), sample_size_for(0.8, 0.1)
    assert small is not None and large is not None and large > small
    assert large == 294  # 80% vs 70%, two-sided 5%, power 80%: the textbook 294 per side


def test_the_verdict_reads_the_gates_and_plays_that_could_not_count() -> None:
    figures = summarise_triggers(PROMPTS, PLAYS, names=("csv", "pdf"))
    assert trigger_verdict(figures).row == OK
    below = trigger_verdict(figures, TriggerGates(min_precision={None: 0.5}))
    assert below.row == BELOW_GATE and "pdf: precision 33% is below --min-precision 0.5" in (below.why or "")
    recall = trigger_verdict(figures, TriggerGates(min_recall=parse_gate(["csv=0.5"], "--min-recall")))
    assert recall.row == BELOW_GATE and "csv: recall 0%" in (recall.why or "")
    setup_only = [play(1, 0, None, "setup")]
    assert trigger_verdict(summarise_triggers(PROMPTS, setup_only, names=("pdf",))).row == UNUSABLE_INPUT
    errors_only = [play(1, 0, None, "error"), play(2, 0, None, "setup")]
    assert trigger_verdict(summarise_triggers(PROMPTS, errors_only, names=("pdf",))).row == PLATFORM
    with pytest.raises(ValueError, match="--min-recall 'x=2'"):
        parse_gate(["x=2"], "--min-recall")
