"""The dispute builder's edits (rules_db/dispute.py): keywords on units from the engine's registry, cards found
by any spelling or nickname through the one card list, errors that name the form's field."""

from __future__ import annotations

import pytest

from rules_db import dispute
from scenarios import schema


def _added(text: str = dispute.NEW_DISPUTE, **form) -> str:
    return dispute.edit(text, "test", "add", {"player": "A", "where": "base", **form})


def _units(text: str) -> list:
    scenario, _ = schema.parse(text, "test")
    return [u for p in scenario.setup.players.values() for u in p.base] + [
        u for f in scenario.setup.battlefields for u in f.units
    ]


def test_a_unit_is_given_any_keyword_of_the_engines_registry_with_its_number():
    text = _added(card="Test Unit", keyword="tank")
    text = _added(text, card="Test Unit", keyword="Shield", keyword_value="2", where="bf1", player="B")
    text = _added(text, card="Test Unit", keyword="Assault")  # "Assault" alone is Assault 1
    assert [u.keywords for u in _units(text)] == [{"Tank": 1}, {"Assault": 1}, {"Shield": 2}]
    text = dispute.edit(text, "test", "keyword", {"id": "u1", "keyword": "Deflect", "keyword_value": "3"})
    text = dispute.edit(text, "test", "keyword", {"id": "u1", "keyword": "Tank", "keyword_value": "0"})
    assert _units(text)[0].keywords == {"Deflect": 3}
    offered = {k["name"]: k for k in dispute.unit_keywords()}
    assert {"Tank", "Shield", "Assault", "Deflect", "Hidden", "Ganking"} <= set(offered)
    assert offered["Shield"]["valued"] and not offered["Tank"]["valued"] and offered["Tank"]["rule"] == "815"


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"keyword": "Flying"}, "Keyword: the engine knows no keyword “Flying”"),
        ({"keyword": "Shield", "keyword_value": "lots"}, "Keyword: Shield's number is a whole number, not “lots”"),
        ({"keyword": "Shield", "keyword_value": "-1"}, "Keyword: Shield's number is at least 1"),
        ({"card": "Nobody Card"}, "Card: the engine does not model a card named “Nobody Card”"),
        ({"card": "  "}, "Card: type a card's name"),
        ({"card": "Neutral Ground"}, "Card: Neutral Ground is a battlefield card; here the form needs a"),
    ],
)
def test_a_forms_mistake_names_the_field(form, said):
    with pytest.raises(ValueError) as raised:
        _added(**{"card": "Test Unit", **form})
    assert str(raised.value).startswith(said)


def test_a_card_is_found_in_any_case_without_punctuation_or_by_its_nickname():
    """Every name resolves through `builder_cards`, the one list a card reader may extend."""
    listed = {card["name"] for card in dispute.builder_cards()}
    printed = next(card for card in dispute.builder_cards() if card["real"] and card["kind"] == "gear")
    assert dispute.find_card(printed["real"].upper().replace("'", ""), {"gear"})["name"] == printed["name"]
    assert dispute.find_card("test unit", {"unit"})["name"] == "Test Unit"
    assert dispute.find_card("zhonyas", {"gear"})["real"] == "Zhonya's Hourglass"  # a curated nickname
    assert all(
        dispute.find_card(name, {card["kind"]})["name"] == name
        for name in listed
        for card in [next(c for c in dispute.builder_cards() if c["name"] == name)]
    )
