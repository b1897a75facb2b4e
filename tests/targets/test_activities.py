"""Reading what a user saw from raw activities: reference links, Claim entities, cards, error codes."""

from __future__ import annotations

from copilot_eval.targets.activities import entity_citations, fill_turn, merge_citations, split_references
from copilot_eval.targets.evidence import TargetTurn


def test_reference_definitions_are_removed_and_cite_placeholders_have_no_url():
    text = 'Use `ray.init()` [1] and see [2].\n\n[1]: https://docs.ray.io/a "Ray A"\n[2]: cite:1 "an abstract"'
    visible, links = split_references(text)
    assert visible == "Use `ray.init()` [1] and see [2]."
    assert [(c.position, c.url, c.title) for c in links] == [
        ("1", "https://docs.ray.io/a", "Ray A"),
        ("2", None, "an abstract"),
    ]


def test_the_entity_wins_by_position_and_fills_what_markdown_lacks():
    _, links = split_references('[1]: https://old "Old title"\n[3]: https://only-md "MD"')
    entity = entity_citations(
        [
            {
                "@type": "Message",
                "citation": [
                    {
                        "@type": "Claim",
                        "@id": "_:c1",
                        "position": 1,
                        "appearance": {"name": "New title", "url": "https://new"},
                    },
                    {"@type": "Claim", "@id": "https://two", "position": "2", "appearance": {"name": "Two"}},
                ],
            }
        ]
    )
    merged = merge_citations(links, entity)
    assert [(c.position, c.url, c.title, c.sources) for c in merged] == [
        ("1", "https://new", "New title", ["markdown", "entity"]),
        ("2", "https://two", "Two", ["entity"]),
        ("3", "https://only-md", "MD", ["markdown"]),
    ]


def test_a_message_with_an_error_code_is_an_error_not_an_answer():
    turn = fill_turn(
        TargetTurn(prompt="q"),
        [{"type": "message", "text": "Sorry. Error code: FlowActionTimedOut."}],
        typing_observable=True,
    )
    assert turn.answer is None and turn.error_code == "FlowActionTimedOut" and "FlowActionTimedOut" in turn.error


def test_signin_cards_and_suggested_actions_are_kept():
    turn = fill_turn(
        TargetTurn(prompt="q"),
        [
            {
                "type": "message",
                "text": "Please sign in.",
                "attachments": [{"contentType": "application/vnd.microsoft.card.oauth", "content": {}}],
                "suggestedActions": {"actions": [{"type": "imBack", "title": "Yes", "value": "Yes"}]},
            }
        ],
        typing_observable=False,
    )
    assert [a.kind for a in turn.attachments] == ["signin_card"]
    assert turn.suggested_actions == [{"type": "imBack", "title": "Yes", "value": "Yes"}]
    assert turn.answer == "Please sign in." and turn.typing_seen is None
