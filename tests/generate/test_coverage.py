"""Coverage is decided in code: the same seed deals the same tuples, and the mix is honoured up to rounding."""

from __future__ import annotations

from collections import Counter

import pytest

from copilot_eval.generate import CoverageError, capabilities_of, deal, flavour_counts, parse_mix
from copilot_eval.generate.coverage import TRIGGER_FLAVOURS

INSTRUCTIONS = "You help a bike shop's staff.\n\nYou look up orders by number.\n\n   \n"


def _caps():
    return capabilities_of(
        instructions=INSTRUCTIONS,
        skills=[("refunds", "Handle refund requests."), ("silent", None)],
        tools=[("orders-lookup", "Find an order by its number.")],
        agents=[("reviewer", "Reviews replies before they are sent.")],
        knowledge=[("policy.md", "Returns within 30 days.\n\nNo refunds on sale items.")],
    )


def test_capabilities_carry_their_source_span():
    caps = _caps()
    assert [c.key for c in caps] == [
        "instructions:paragraph-1",
        "instructions:paragraph-2",
        "agent:reviewer",
        "skill:refunds",
        "tool:orders-lookup",
        "knowledge:policy.md#1",
        "knowledge:policy.md#2",
    ]
    second = caps[1]
    assert INSTRUCTIONS[second.span.start : second.span.end] == "You look up orders by number."
    policy = "Returns within 30 days.\n\nNo refunds on sale items."
    last = caps[-1]
    assert last.span.where == "knowledge:policy.md" and policy[last.span.start : last.span.end] == last.text


def test_same_seed_same_tuples_other_seed_other_order():
    mix = parse_mix(None)
    first = deal(_caps(), count=12, seed=7, mix=mix)
    assert first == deal(_caps(), count=12, seed=7, mix=mix)
    assert [t.as_dict() for t in first] != [t.as_dict() for t in deal(_caps(), count=12, seed=8, mix=mix)]
    assert [t.number for t in first] == list(range(1, 13))


def test_mix_is_honoured_and_capabilities_spread():
    mix = parse_mix("happy=1,adversarial=1")
    tuples = deal(_caps(), count=14, seed=1, mix=mix)
    assert Counter(t.flavour for t in tuples) == {"happy": 7, "adversarial": 7}
    happy = Counter(t.capability.key for t in tuples if t.flavour == "happy")
    assert len(happy) == 7  # seven capabilities, seven happy cases: each used once before any twice
    assert set(Counter(t.difficulty for t in tuples if t.flavour == "happy").values()) <= {2, 3}


def test_rounding_goes_to_largest_remainders_then_flavour_order():
    assert flavour_counts(10, parse_mix(None)) == {"happy": 4, "underspecified": 2, "out_of_scope": 2, "adversarial": 2}
    # 5 cases over four equal weights: 1.25 each; the spare one goes to the flavour named first
    assert flavour_counts(5, parse_mix("happy=1,underspecified=1,out_of_scope=1,adversarial=1")) == {
        "happy": 2,
        "underspecified": 1,
        "out_of_scope": 1,
        "adversarial": 1,
    }
    assert flavour_counts(
        3, parse_mix("positive=1,near-miss=2", flavours=TRIGGER_FLAVOURS), flavours=TRIGGER_FLAVOURS
    ) == {
        "positive": 1,
        "near_miss": 2,
        "control": 0,
    }


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("happy", "FLAVOUR=WEIGHT"),
        ("cheerful=1", "FLAVOUR=WEIGHT"),
        ("happy=lots", "not a number"),
        ("happy=-1", "at least 0"),
        ("happy=0", "above 0"),
    ],
)
def test_bad_mix_names_the_option(text, said):
    with pytest.raises(CoverageError, match="--mix") as caught:
        parse_mix(text)
    assert said in str(caught.value)


def test_nothing_to_draft_from_says_what_to_add():
    with pytest.raises(CoverageError, match="--knowledge"):
        deal([], count=3, seed=0, mix=parse_mix(None))
    with pytest.raises(CoverageError, match="--count"):
        flavour_counts(0, parse_mix(None))


def test_each_flavour_can_draw_from_its_own_pool_and_an_empty_one_says_which_mix_to_give():
    skill, sibling = _caps()[3], _caps()[4]
    pools = {"positive": [skill], "near_miss": [sibling], "control": [skill]}
    mix = parse_mix("positive=1,near_miss=1,control=1", flavours=TRIGGER_FLAVOURS)
    tuples = deal(pools, count=6, seed=4, mix=mix, flavours=TRIGGER_FLAVOURS, difficulties=("explicit", "implicit"))
    assert {t.capability.key for t in tuples if t.flavour == "near_miss"} == {sibling.key}
    assert {t.difficulty for t in tuples if t.flavour == "positive"} == {"explicit", "implicit"}
    with pytest.raises(CoverageError, match="--mix near_miss=0"):
        deal({**pools, "near_miss": []}, count=6, seed=4, mix=mix, flavours=TRIGGER_FLAVOURS)


def test_near_misses_come_from_the_siblings_nearest_in_words():
    from copilot_eval.generate.triggers import nearest_siblings
    from copilot_eval.triggers.catalogue import CatalogueEntry

    def entry(name, text):
        return CatalogueEntry(name, "skill", text, "project", None, True)

    target = entry("plantuml", "Generate ASCII diagrams with PlantUML when the user asks for diagrams.")
    siblings = [
        entry("weather", "Tell the weather when the user asks."),
        entry("drawio", "Generate draw.io diagrams and export them."),
        entry("git-commit", "Commit changes with a message when the user asks."),
    ]
    assert [e.name for e in nearest_siblings(target, siblings, limit=2)] == ["drawio", "git-commit"]
