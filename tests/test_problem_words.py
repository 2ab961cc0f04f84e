"""A scenario's validation errors in a judge's words (scenarios/problem_words.py): each kind of error pydantic
reports is a sentence naming the field as a judge would, never the validator's own words."""

from __future__ import annotations

import pytest

from rules_db import dispute
from scenarios import problem_words, schema

BATTLEFIELD = "  - {id: bf1, card: Neutral Ground}"
VALIDATOR_WORDS = ("Input should", "Dictionary should", "Field required", "Extra inputs", "validation", "Value error")


def _unit(**fields) -> str:
    unit = ", ".join(f"{key}: {value}" for key, value in {"id": "u1", "card": "Test Unit", **fields}.items())
    return dispute.NEW_DISPUTE.replace(BATTLEFIELD, f"  - {{id: bf1, card: Neutral Ground, units: [{{{unit}}}]}}")


@pytest.mark.parametrize(
    ("text", "field", "said"),
    [
        (dispute.NEW_DISPUTE.replace("    B: {}\n", ""), "setup.players", "players needs at least 2 entries; it has 1"),
        (_unit(might="abc"), "setup.battlefields.0.units.0.might", "battlefield 1, unit 1: might takes a whole number"),
        (
            _unit(damage=-2),
            "setup.battlefields.0.units.0.damage",
            "battlefield 1, unit 1: damage is at least 0, not -2",
        ),
        (_unit(exhausted="maybe"), "setup.battlefields.0.units.0.exhausted", "takes yes or no (true or false)"),
        (_unit(keywords="[Tank]"), "setup.battlefields.0.units.0.keywords", "keywords takes a mapping of names"),
        (_unit(wings=2), "setup.battlefields.0.units.0.wings", "wings is not a field a scenario has here"),
        (dispute.NEW_DISPUTE.replace("    A: {}", "    A: {base: 3}"), "setup.players.A.base", "A's base takes a list"),
        (
            dispute.NEW_DISPUTE.replace("    A: {}", "    A: {hand: [{id: x1}]}"),
            "setup.players.A.hand.0.card",
            "A's hand card 1: card is missing",
        ),
        (
            dispute.NEW_DISPUTE.replace("turn: {player: A}", "turn: {player: A, phase: 3}"),
            "setup.turn.phase",
            "turn: phase is one of 'main' or 'action', not 3",
        ),
    ],
)
def test_a_validation_error_names_its_field_in_words(text, field, said):
    with pytest.raises(schema.ScenarioError) as raised:
        schema.parse(text, "your dispute")
    assert raised.value.field == field
    assert said in raised.value.message
    assert not any(words in raised.value.message for words in VALIDATOR_WORDS), raised.value.message


def test_every_kind_of_error_has_its_own_words_and_an_unknown_one_still_names_the_field():
    """The words come from the error's kind and its numbers, not from its message: a kind with no words of its
    own still names the field first."""
    loc = ("setup", "players", "A", "base", 1, "might")
    assert problem_words.field_words(loc) == "A's base card 2: might"
    assert problem_words.field_words(("actions", 2, "pick")) == "action 3: pick"
    too_long = {"type": "too_long", "ctx": {"max_length": 8, "actual_length": 9, "field_type": "List"}, "msg": "x"}
    assert problem_words.sentence(too_long, ("actions",)) == "actions holds at most 8 entries; it has 9"
    odd = {"type": "url_scheme", "msg": "URL scheme should be 'http'", "input": "ftp"}
    assert problem_words.sentence(odd, loc) == "A's base card 2: might is not valid: URL scheme should be 'http'"


def test_a_fields_pattern_is_said_in_words():
    """An id with a space: the page says how an id is written, not a regular expression."""
    with pytest.raises(schema.ScenarioError) as raised:
        schema.parse(_unit(id="'u 1'"), "your dispute")
    assert raised.value.message == (
        "battlefield 1, unit 1: id is written as one of letters or digits, then 0 to 39 of letters, digits, _ or -, "
        "not “u 1”"
    )
    assert problem_words._pattern_words(r"^\d{4}-\d{2}-\d{2}$") == (
        "4 of digits, then -, then 2 of digits, then -, then 2 of digits"
    )
