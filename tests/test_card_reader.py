"""The card-text reader (scenarios/card_reader): templates read into the engine's vocabulary, nothing half-read."""

from __future__ import annotations

import pytest

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def test_a_keyword_line_with_its_reminder_reads_as_the_keyword():
    reading = read("[Deflect 2] (Opponents must pay [Any rune][Any rune] to choose me.)\n[Tank]", might=3)
    assert reading.status == "read"
    assert reading.definition["keywords"] == {"Deflect": 2, "Tank": 1}
    assert reading.definition["might"] == 3


def test_a_trigger_reads_into_its_event_targets_and_instructions():
    reading = read("When you play me, deal 2 to an enemy unit at a battlefield.")
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "play", "who": "self"}
    assert trigger["targets"] == {"target": {"type": "unit", "side": "enemy", "where": "battlefield"}}
    assert trigger["effects"] == [{"op": "deal", "amount": 2, "to": "target"}]
    Card.model_validate(reading.definition)


def test_a_spell_reads_its_sentences_in_order():
    reading = read("[Action] (Play on your turn or in showdowns.)\nGive a unit +2 [Might] this turn. Draw 1.", "Spell")
    assert reading.definition["keywords"] == {"Action": 1}
    assert reading.definition["effects"] == [{"op": "might", "amount": 2, "to": "target"}, {"op": "draw", "n": 1}]


@pytest.mark.parametrize(
    "text",
    [
        "When I attack, deal 3 to all enemy units here. Then do a thing no card says.",
        "[Ambush] (You may play me as a [Reaction].)",
        "When you play me, choose an opponent.",
        "[Tank] (I must be assigned combat damage first.) Some unknown words.",
    ],
)
def test_a_card_with_any_unread_words_is_refused_naming_them(text):
    reading = read(text)
    assert reading.status == "unread" and reading.definition is None
    assert reading.unread and all(phrase for phrase in reading.unread)


def test_reminder_text_is_unread_unless_it_restates_a_read_keyword():
    assert read("When I conquer, draw 1. (You may look at it.)").unread == ["(You may look at it.)"]
    assert read("[Tank] (I must be assigned combat damage first.)").status == "read"
