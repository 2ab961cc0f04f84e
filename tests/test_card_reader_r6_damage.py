"""Bonus Damage read from card text (scenarios/card_reader/damage.py, 712-715): passives ("Your spells and abilities
deal 1 Bonus Damage", "... to units here"), a Deal action's own ("This deals 1 Bonus Damage for each ..."), and the
delayed passive of the next spell (391). Read-card disputes 440-459 judge them with the real read cards, and a
mutant of each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-4[45]*.yaml")
    if 440 <= int(p.name.split("-")[1]) <= 459
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


@pytest.mark.parametrize(
    ("text", "kind", "passive"),
    [
        (
            "Your spells and abilities deal 1 Bonus Damage. (Each instance of damage the spell deals is increased by 1.)",
            "Unit",
            {"to": {"who": "unit"}, "bonus_damage": 1, "bonus_from": "you"},
        ),
        (
            "Spells and abilities deal 2 Bonus Damage to units here.",
            "Battlefield",
            {"to": {"who": "unit", "where": "here"}, "bonus_damage": 2, "bonus_from": "any"},
        ),
    ],
)
def test_a_bonus_damage_passive_reads_as_the_passive_the_engine_sums(text, kind, passive):
    reading = read(text, kind, might=4) if kind == "Unit" else read(text, kind)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["passives"] == [passive]


@pytest.mark.parametrize(
    "text",
    [
        "Your spells and abilities deal 0 Bonus Damage.",  # 714.1: Bonus Damage is only ever positive
        "Your spells deal 1 Bonus Damage.",  # spells only: not said by this passive
        "Your spells and abilities deal 1 Bonus Damage to units there.",
    ],
)
def test_other_bonus_damage_shapes_stay_unread(text):
    assert read(text, might=4).status == "unread"


def test_an_equipments_bonus_damage_said_to_be_effect_text_reads():
    """ "(while this is attached)" says the paragraph is the Equipment's effect text (136.2.b): its passive is the
    equipped unit's (136.2.c). Without it, which box holds the paragraph is not in the text: unread."""
    said = "[Equip] [1 Energy]\nYour spells and abilities deal 3 Bonus Damage (while this is attached)."
    reading = read_card(CardText("Some Gear", "Gear", said, energy=4, tags=("Equipment",)))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["passives"] == [
        {"to": {"who": "unit"}, "bonus_damage": 3, "bonus_from": "you", "effect_text": True}
    ]
    unsaid = said.replace(" (while this is attached)", "")
    assert read_card(CardText("Some Gear", "Gear", unsaid, energy=4, tags=("Equipment",))).status == "unread"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _judged(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 2
    assert set(_judged(read_every_card(real_db))) == {"match"}


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("whose spells flipped", lambda d: d.update(bonus_from={"you": "any", "any": "you"}[d["bonus_from"]])),
        ("here dropped", lambda d: d["to"].pop("where", None)),
        ("bonus doubled", lambda d: d.update(bonus_damage=2 * d["bonus_damage"])),
    ],
)
def test_my_disputes_kill_a_wrong_bonus_damage_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if "bonus_damage" in mapping:
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"bonus damage {name} survives"


# -- a Deal action's own Bonus Damage: "This deals 1 Bonus Damage for each ..." --------------------------------

CURSE = "Deal 2 to a unit at a battlefield. This deals 1 Bonus Damage for each card with this name in your trash."


def test_a_spells_own_bonus_damage_reads_as_the_bonus_of_its_deal():
    reading = read(CURSE, "Spell", energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    counted = {"count": {"who": "friendly card", "zone": "trash", "named_as": "this"}, "times": 1}
    assert reading.definition["effects"] == [{"op": "deal", "amount": 2, "to": "target", "bonus": counted}]


@pytest.mark.parametrize(
    "text",
    [
        "Draw 1. This deals 1 Bonus Damage for each card in your trash.",  # no Deal action before it
        "Deal 2 to a unit at a battlefield. This deals 1 Bonus Damage for each card with this name in my trash.",
    ],
)
def test_a_bonus_without_its_deal_or_count_stays_unread(text):
    assert read(text, "Spell", energy=2).status == "unread"


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("any card counted", lambda d: d.get("count", {}).pop("named_as", None)),
        ("bonus dropped", lambda d: d.pop("bonus", None)),
    ],
)
def test_my_disputes_kill_a_wrong_own_bonus_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("op") == "deal" and "bonus" in mapping:
            change(mapping if name == "bonus dropped" else mapping["bonus"])

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"own bonus damage: {name} survives"


# -- a delayed passive: "The next spell you play this turn deals 1 Bonus Damage" (391) ----------------------------


def test_the_next_spell_bonus_reads_as_the_delayed_passive_instruction():
    text = "[Exhaust]: The next spell you play this turn deals 1 Bonus Damage. (Each instance of damage the spell"
    reading = read(text + " deals is increased by 1.)", "Gear", energy=3)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (ability,) = reading.definition["activated"]
    assert ability["effects"] == [{"op": "next_spell_bonus", "n": 1}]


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("one more", lambda d: d.update(n=d["n"] + 1)),
        ("dropped", lambda d: d.update(n=0)),
    ],
)
def test_my_disputes_kill_a_wrong_next_spell_bonus(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("op") == "next_spell_bonus":
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"next spell bonus {name} survives"


# -- "Deal 6 to it unless its controller has you draw 2": its controller chooses (355.17) ---------------------------


def test_damage_unless_its_controller_reads_as_their_choice():
    reading = read("Choose an enemy unit. Deal 6 to it unless its controller has you draw 2.", "Spell", energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (either,) = reading.definition["effects"]
    assert either["op"] == "either" and either["chooser"] == "target"
    assert either["options"] == [[{"op": "deal", "amount": 6, "to": "target"}], [{"op": "draw", "n": 2}]]


def test_unless_its_controller_without_a_chosen_unit_stays_unread():
    assert read("Deal 6 to it unless its controller has you draw 2.", "Spell", energy=2).status == "unread"


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("the spell's controller chooses", lambda d: d.pop("chooser")),
        ("options swapped", lambda d: d.update(options=d["options"][::-1])),
    ],
)
def test_my_disputes_kill_a_wrong_unless_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("op") == "either" and "chooser" in mapping:
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"unless its controller: {name} survives"


# -- "Discard 1. Deal its Energy cost as damage to ...": the discarded card's printed cost (206) -------------------


def test_the_discarded_cards_cost_reads_as_a_noted_discard_and_its_cost():
    text = "Discard 1. Deal its Energy cost as damage to a unit at a battlefield. (Ignore its Power cost.)"
    reading = read(text, "Spell", energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["effects"] == [
        {"op": "discard", "n": 1, "noted": "discarded"},
        {"op": "deal", "amount": {"energy_cost": "discarded"}, "to": "target"},
    ]


def test_its_cost_after_two_discards_stays_unread():
    text = "Discard 2. Deal its Energy cost as damage to a unit at a battlefield."
    assert read(text, "Spell", energy=2).status == "unread"


def test_my_disputes_kill_its_cost_read_as_the_spells_own(real_db):
    def mutate(mapping: dict) -> None:
        if mapping.get("energy_cost") == "discarded":
            mapping["energy_cost"] = "this"

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), "the spell's own cost survives"


def test_my_disputes_kill_effect_text_read_as_rules_text(real_db):
    def mutate(mapping: dict) -> None:
        mapping.pop("effect_text", None)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), "an Equipment's rules text survives"


# -- "Deal 1 to up to three units at the same location" ------------------------------------------------------------


def test_up_to_three_units_at_one_location_read_as_three_slots():
    reading = read("Deal 1 to up to three units at the same location.", "Spell", energy=1)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    targets = reading.definition["targets"]
    first, second, third = targets
    assert reading.definition["effects"] == [{"op": "deal", "amount": 1, "to": [first, second, third]}]
    assert targets[third]["not_target"] == [first, second] and targets[third]["same_place_as"] == first
    assert all(spec["optional"] for spec in targets.values())


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("the third may repeat the first", lambda d: d.update(not_target=d["not_target"][-1:])),
        ("anywhere", lambda d: d.pop("same_place_as", None)),
    ],
)
def test_my_disputes_kill_a_wrong_same_location_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if isinstance(mapping.get("not_target"), list):
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"same location: {name} survives"


# -- "Pay any amount of [A] to deal that much damage to ...": a cost within the instruction (204.3.b) --------------


def test_pay_any_amount_reads_as_the_cost_and_the_deal_of_that_much():
    text = "Pay any amount of [Any rune] to deal that much damage to all enemy units at a battlefield."
    reading = read(text, "Spell", energy=1)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    deal = {"op": "deal", "amount": "that much", "to": {"all": {"who": "enemy unit", "where": "at target"}}}
    assert reading.definition["effects"] == [{"op": "pay_any", "then": [deal]}]
    assert reading.definition["targets"] == {"target": {"type": "battlefield"}}


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("a fixed 1", lambda d: d.update(amount=1)),
        ("every unit there", lambda d: d["to"]["all"].update(who="unit")),
    ],
)
def test_my_disputes_kill_a_wrong_pay_any_reading(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("op") == "pay_any":
            for deal in mapping["then"]:
                change(deal)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"pay any amount: {name} survives"


# -- "Deal 1 to a unit at a battlefield I moved to or from. If I'm [Empowered], deal 2 instead." -------------------

AKALI = "When I move, you may deal 1 to a unit at a battlefield I moved to or from. If I'm [Empowered], deal 2 instead."


def test_a_unit_where_i_moved_reads_as_the_moves_places():
    reading = read(AKALI, might=3)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    assert trigger["targets"] == {"target": {"type": "unit", "where": "moved_to_or_from"}}
    deal = {"op": "deal", "to": "target"}
    assert trigger["effects"] == [
        {"op": "if", "condition": "empowered", "then": [{**deal, "amount": 2}], "else": [{**deal, "amount": 1}]}
    ]


@pytest.mark.parametrize(
    "text",
    [
        "When I attack, deal 1 to a unit at a battlefield I moved to or from.",  # no move of mine
        "Deal 1 to a unit at a battlefield I moved to or from.",
    ],
)
def test_where_i_moved_without_my_move_stays_unread(text):
    assert read(text, might=3).status == "unread"


def test_my_disputes_kill_any_battlefield_for_where_i_moved(real_db):
    def mutate(mapping: dict) -> None:
        if mapping.get("where") == "moved_to_or_from":
            mapping["where"] = "battlefield"

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), "any battlefield survives"


# -- "Deal 1 to that unit for each card with [Hidden] revealed this way, then recycle the revealed cards" -----------

TEEMO = (
    "When I defend, choose an enemy unit here and reveal the top 5 cards of your Main Deck. Deal 1 to that unit for"
    " each card with [Hidden] revealed this way, then recycle the revealed cards."
)


def test_a_count_of_cards_revealed_reads_inside_the_look():
    reading = read(TEEMO, might=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    counted = {"count": {"who": "card", "zone": "deck", "keyword": "Hidden", "among": "looked"}, "times": 1}
    assert trigger["effects"] == [
        {
            "op": "look_at_deck",
            "n": 5,
            "reveal": True,
            "during": [{"op": "deal", "amount": counted, "to": "target"}],
            "rest": "recycle",
        }
    ]


def test_a_count_of_cards_looked_at_privately_stays_unread():
    text = TEEMO.replace("and reveal the top", "and look at the top")
    assert read(text, might=2).status == "unread"


@pytest.mark.parametrize(
    ("name", "change"),
    [
        ("every card counted", lambda look: look["during"][0]["amount"]["count"].pop("among")),
        ("kept on top", lambda look: look.pop("rest")),
    ],
)
def test_my_disputes_kill_a_wrong_revealed_count(real_db, name, change):
    def mutate(mapping: dict) -> None:
        if mapping.get("op") == "look_at_deck" and "during" in mapping:
            change(mapping)

    assert "mismatch" in _judged(read_every_card_changed(real_db, mutate)), f"revealed count: {name} survives"
