"""The one table of board and player conditions (`scenarios/card_reader/conditions.py`): each phrase reads into a
condition word the engine registers, and every family reading "if <condition>" of this kind reads it the same."""

from __future__ import annotations

import pytest

from scenarios import kernel
from scenarios.card_reader import CardText, read_card
from scenarios.card_reader.conditions import CONDITIONS, condition_word

PHRASES = {
    "you control another poro": "you control another Poro",
    "you control a mech": "you control a Mech",
    "you have two or fewer cards in your hand": "2 or fewer cards in hand",
    "an opponent controls a stunned unit": "an opponent controls a stunned unit",
    "an opponent's score is within 3 points of the victory score": "an opponent within 3 points of the victory score",
    "you have 2 or more other units in your base": "2 or more other units in your base",
    "you have a card with my name in your trash": "a card with my name in your trash",
    "an enemy unit has died this turn": "an enemy unit died this turn",
    "you control a battlefield with exactly two units there": "you control a battlefield with exactly two units there",
    "you control something that's [empowered]": "you control something empowered",
    "it's your beginning phase": "your beginning phase",
    "you control a facedown card at a battlefield": "you control a facedown card",
    "you control four or fewer runes": "you control 4 or fewer runes",
    "an opponent has played another spell this turn": "an opponent has played another spell this turn",
}


@pytest.mark.parametrize(("phrase", "word"), PHRASES.items())
def test_each_phrase_reads_into_a_registered_condition_word(phrase, word):
    kernel.load_rules()
    assert condition_word(phrase) == word
    assert word in kernel.CONDITIONS


def test_every_pattern_of_the_table_is_exercised():
    assert all(any(pattern.fullmatch(p) for p in PHRASES) for pattern, _ in CONDITIONS)


@pytest.mark.parametrize("phrase", ["you control 13 or more runes", "you control 0 or more runes", "you juggle"])
def test_what_is_not_a_registered_condition_has_no_word(phrase):
    assert condition_word(phrase) is None


def test_a_discount_and_entering_ready_read_the_same_condition_word():
    unit = read_card(CardText("Some Unit", "Unit", "I enter ready if you have two or fewer cards in your hand.", 3))
    cheaper = read_card(CardText("Some Unit", "Unit", "If you control a Mech, I cost [2 Energy] less.", 3))
    assert unit.definition["replacements"][0]["condition"] == "2 or fewer cards in hand"
    assert cheaper.definition["discounts"] == [{"energy": 2, "condition": "you control a Mech"}]
