"""Reflexive triggers (386-388): "Then do this: ..." read as `{op: reflexive}`, a new triggered ability made as the
instructions before it are done, pending on the Chain once its item has finished (388.1), choosing its own targets
as it is finalized (402.2) and still naming what the item named. Read-card disputes 400-419 judge them with the
real read cards, and a mutant of each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card, load_library

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-4*.yaml")
    if 400 <= int(p.name.split("-")[1]) <= 419
)


def read(text: str, kind: str = "Spell", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    if reading.status == "read":
        Card.model_validate(reading.definition)
    return reading


def test_then_do_this_reads_as_a_reflexive_trigger_naming_what_came_before():
    reading = read(
        "Move an enemy unit. Then do this: Choose another enemy unit at its destination. They deal damage equal to"
        " their Mights to each other.",
        energy=4,
    )
    assert reading.status == "read", reading.unread
    (linked,) = reading.definition["effects"]  # made only if the unit moved (faq:2025-10-16#q55)
    assert linked["op"] == "if_done" and "else" not in linked
    (move,), (reflexive,) = linked["do"], linked["then"]
    assert move == {"op": "move", "what": "target", "to": "destination"}
    assert reflexive == {
        "op": "reflexive",
        "keep": ["target", "destination"],
        "targets": {"other": {"type": "unit", "side": "enemy", "not_target": "target", "same_place_as": "destination"}},
        "effects": [{"op": "fight", "a": "target", "b": "other"}],
    }
    assert set(reading.definition["targets"]) == {"target", "destination"}  # chosen as the spell is played


def test_then_you_may_do_this_is_an_optional_reflexive_trigger():
    reading = read("Draw 1. Then you may do this: Discard 1.", energy=2)
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [
        {"op": "draw", "n": 1},
        {"op": "reflexive", "effects": [{"op": "discard", "n": 1}], "optional": True},
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Draw 1. Then do this: Discard 1. Then do this: Draw 1.",  # a reflexive trigger inside another: not read
        "Draw 1. Then do this: Frobnicate a unit.",  # words after "do this" not read: the whole card is not
        "Choose another enemy unit at its destination. Draw 1.",  # no move named a destination
    ],
)
def test_what_is_not_understood_leaves_the_card_unread(text):
    assert read(text, energy=2).status == "unread"


def test_a_triggered_abilitys_then_do_this_is_read_inside_it():
    reading = read("When I attack, draw 1. Then do this: Discard 1.", "Unit", energy=2, might=2)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"][-1] == {"op": "reflexive", "effects": [{"op": "discard", "n": 1}]}


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _judged(definitions) -> list[str]:
    """The disputes' verdicts with the read cards, a hand-written card (the oracle: Dragon's Rage) replaced by its
    reading too, so the reading is what is judged."""
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    library = load_library()
    saved = dict(library)
    try:
        for name, card in saved.items():
            if card.real in definitions and card.type not in ("token", "rune"):
                library[name] = Card.model_validate({**definitions[card.real], "name": name})
        return verdicts_with(definitions, MINE)
    finally:
        library.clear()
        library.update(saved)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 3
    assert set(_judged(read_every_card(real_db))) == {"match"}


def test_my_disputes_kill_a_choice_not_tied_to_the_destination(real_db):
    def anywhere(node: dict) -> None:
        node.pop("same_place_as", None)

    verdicts = _judged(read_every_card_changed(real_db, anywhere))
    assert "mismatch" in verdicts, "'another enemy unit at its destination' read as 'anywhere' survives 400-419"


# -- an Equipment's Deathknell and its activated ability "(Use only if unattached.)" ------------------------------


def test_an_equipments_deathknell_is_the_equipped_units_and_me_is_that_unit():
    text = "[Equip] [1 Energy]\n[Deathknell] — Banish me. (When I die, get the effect.)"
    reading = read_card(CardText("Some Gear", "Gear", text, energy=2, tags=("Equipment",)))
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "die", "who": "equipped unit"}  # 136.2.c
    assert trigger["effects"] == [{"op": "banish", "what": "trigger_unit"}]
    assert reading.definition["passives"] == [{"to": {"who": "equipped unit"}, "keywords": {"Deathknell": 1}}]


def test_use_only_if_unattached_makes_an_equipments_ability_its_own():
    text = "[Equip] [1 Energy]\n[2 Energy], Banish this: Draw 1. (Use only if unattached.)"
    reading = read_card(CardText("Some Gear", "Gear", text, energy=2, tags=("Equipment",)))
    assert reading.status == "read", reading.unread
    ability = reading.definition["activated"][1]
    assert ability["only_unattached"] is True and ability["effects"] == [{"op": "draw", "n": 1}]
    unsaid = read_card(
        CardText("Some Gear", "Gear", text.replace(" (Use only if unattached.)", ""), tags=("Equipment",))
    )
    assert unsaid.status == "unread"  # which box holds it is not known: refused, as before


def test_my_disputes_kill_an_equipments_deathknell_read_as_the_gears_own(real_db):
    def own(node: dict) -> None:
        if node.get("event") == "die" and node.get("who") == "equipped unit":
            node["who"] = "self"

    verdicts = _judged(read_every_card_changed(real_db, own))
    assert "mismatch" in verdicts, "an Equipment's Deathknell read as the gear's own death survives 400-419"


def test_my_disputes_kill_use_only_if_unattached_dropped(real_db):
    def always(node: dict) -> None:
        node.pop("only_unattached", None)

    verdicts = _judged(read_every_card_changed(real_db, always))
    assert "mismatch" in verdicts, "an ability used while its Equipment is attached survives 400-419"


# -- "banished with this" (427.3) ---------------------------------------------------------------------------------


def test_a_unit_banished_with_this_is_played_paid_for():
    text = "When you play this, banish all units from your trash.\n[Exhaust]: Play a unit banished with this. (You must pay its costs.)"
    reading = read(text, "Gear", energy=4)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"] == [{"op": "banish", "what": {"all": {"who": "friendly unit", "zone": "trash"}}}]
    (ability,) = reading.definition["activated"]
    assert ability["effects"] == [{"op": "play_banished_by_this", "one": True}]
    played = read("[Exhaust]: Play all units banished with this, ignoring their costs.", "Gear", energy=4)
    assert played.definition["activated"][0]["effects"] == [{"op": "play_banished_by_this"}]


def test_my_disputes_kill_one_unit_read_as_all_of_them_free(real_db):
    def all_free(node: dict) -> None:
        node.pop("one", None)

    verdicts = _judged(read_every_card_changed(real_db, all_free))
    assert "mismatch" in verdicts, "'play a unit banished with this' read as all of them, free, survives 400-419"


def test_my_disputes_kill_your_trash_read_as_every_trash(real_db):
    def every(node: dict) -> None:
        if node.get("zone") == "trash" and node.get("who") == "friendly unit":
            node["who"] = "unit"

    verdicts = _judged(read_every_card_changed(real_db, every))
    assert "mismatch" in verdicts, "'banish all units from your trash' read as every trash survives 400-419"


# -- "If this kills it, do this:" (387.3, 428.5.c) ----------------------------------------------------------------


def test_if_this_kills_it_waits_for_the_death_of_the_unit_dealt_damage():
    reading = read("Deal 3 to a unit at a battlefield. If this kills it, do this: draw 1.", energy=4)
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [
        {"op": "deal", "amount": 3, "to": "target"},
        {"op": "reflexive", "kills": "target", "effects": [{"op": "draw", "n": 1}]},
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Stun a unit at a battlefield. If this kills it, do this: draw 1.",  # no damage: nothing this kills
        "Deal 3 to a unit at a battlefield. If this kills it, do this: stun it.",  # names what was chosen before
    ],
)
def test_if_this_kills_it_is_read_only_after_damage_and_naming_nothing_chosen(text):
    assert read(text, energy=4).status == "unread"


def test_my_disputes_kill_if_this_kills_it_read_as_always(real_db):
    def always(node: dict) -> None:
        node.pop("kills", None)

    verdicts = _judged(read_every_card_changed(real_db, always))
    assert "mismatch" in verdicts, "'if this kills it, do this' read as 'then do this' survives 400-419"


# -- a reflexive trigger's cost, and the token the instructions before it played ----------------------------------


def test_you_may_pay_to_is_the_reflexive_triggers_cost_and_it_is_the_token_played():
    reading = read("Play a 2 [Might] Sand Soldier unit token. Then do this: You may pay [Order rune] to ready it.")
    assert reading.status == "read", reading.unread
    token, reflexive = reading.definition["effects"]
    assert token["as"] == "played" and token["n"] == 1
    assert reflexive == {
        "op": "reflexive",
        "optional": True,
        "cost": {"domain_power": {"Order": 1}},
        "effects": [{"op": "ready", "what": "played"}],
        "keep": ["played"],
    }
    plain = read("Play a 2 [Might] Sand Soldier unit token. Then do this: Draw 1.")
    assert "as" not in plain.definition["effects"][0]  # nothing names the token: nothing kept


def test_my_disputes_kill_the_reflexive_triggers_cost_dropped(real_db):
    def free(node: dict) -> None:
        if node.get("op") == "reflexive":
            node.pop("cost", None)

    verdicts = _judged(read_every_card_changed(real_db, free))
    assert "mismatch" in verdicts, "'you may pay [Order] to ready it' read without its cost survives 400-419"


# -- "Then, if there's an enemy unit alone at that battlefield" (740.2.a): where the unit moved from ---------------


def test_that_battlefield_is_where_the_unit_moved_from():
    reading = read(
        "Move an enemy unit from a battlefield to its base. Then, if there's an enemy unit alone at that battlefield,"
        " draw 1.",
        energy=2,
    )
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [
        {"op": "move", "what": "target", "to": "base", "from_as": "origin"},
        {
            "op": "if_amount",
            "amount": {"count": {"who": "enemy unit", "where": "at origin", "alone": True}},
            "at_least": 1,
            "then": [{"op": "draw", "n": 1}],
        },
    ]
    # no move from a battlefield before it: "that battlefield" names nothing
    assert read("Draw 1. Then, if there's an enemy unit alone at that battlefield, draw 1.").status == "unread"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda node: node.update(where="battlefield") if node.get("where") == "at origin" else None, "anywhere"),
        (lambda node: node.pop("alone", None) if node.get("where") == "at origin" else None, "not alone"),
    ],
)
def test_my_disputes_kill_that_battlefield_misread(real_db, change, said):
    verdicts = _judged(read_every_card_changed(real_db, change))
    assert "mismatch" in verdicts, f"'an enemy unit alone at that battlefield' read as {said} survives 400-419"


# -- "When you burn a unit this way, do this:" and the burned card's printed Might ---------------------------------


def test_when_you_burn_a_unit_this_way_names_the_burned_card():
    reading = read(
        "When you play this, [Burn 1]. When you burn a unit this way, do this: Give a friendly unit +[Might] equal to"
        " the burned card's Might this turn.",
        "Gear",
        energy=5,
    )
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    burn, reflexive = trigger["effects"]
    assert burn == {"op": "trash_from_deck", "n": 1, "as": "burned"}
    assert reflexive["a_unit_among"] == "burned" and reflexive["keep"] == ["burned"]
    assert reflexive["effects"] == [{"op": "might", "amount": {"printed_might": "burned"}, "to": "target"}]
    # "the burned card" with no burn before it names nothing
    assert read("Give a friendly unit +[Might] equal to the burned card's Might this turn.").status == "unread"
    assert read("Draw 1. When you burn a unit this way, do this: Draw 1.").status == "unread"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda node: node.pop("a_unit_among", None), "any card burned"),
        (
            lambda node: (
                node.update(amount="might_of:burned") if node.get("amount") == {"printed_might": "burned"} else None
            ),
            "its Might on the board",
        ),
    ],
)
def test_my_disputes_kill_the_burned_card_misread(real_db, change, said):
    verdicts = _judged(read_every_card_changed(real_db, change))
    assert "mismatch" in verdicts, f"'when you burn a unit this way' read as {said} survives 400-419"
