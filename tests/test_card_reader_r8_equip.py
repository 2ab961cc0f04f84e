"""Equipment and gear (r8-equip): an Equipment's [Hunt] is its equipped unit's (136.2.c); its "When you play this"
is its rules text (a played card enters unattached, 434.2.a; Quick-Draw's shape, 819.1.d); "attach it to a unit
you control" attaches the card (434.1); "Equip [cost]" printed without brackets is Equip (818.1.c). Read-card
disputes 700-719 judge them with the real read cards, and mutants of the readings are killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-7*.yaml")
    if 700 <= int(p.name.split("-")[1]) <= 719
)


def _read(text: str, kind: str = "Gear", tags: tuple[str, ...] = ("Equipment",)) -> dict:
    reading = read_card(CardText("Some Card", kind, text, tags=tags))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    return reading.definition


def test_an_equipments_hunt_is_the_equipped_units():
    triggers = _read("[Hunt] (When I conquer or hold, gain 1 XP.)")["triggers"]
    assert sorted(t["when"]["event"] for t in triggers) == ["conquer", "hold"]
    assert {t["when"]["who"] for t in triggers} == {"equipped unit"}


def test_a_units_hunt_is_its_own():
    triggers = _read("[Hunt]", "Unit", ())["triggers"]
    assert {t["when"]["who"] for t in triggers} == {"self"}


@pytest.mark.parametrize("text", ["When you play this, gain 1 XP.", "When you play this from face down, draw 1."])
def test_an_equipments_play_trigger_is_its_rules_text(text):
    (trigger,) = _read(text)["triggers"]
    assert trigger["when"]["event"] == "play" and trigger["when"]["who"] == "self"


def test_an_equipments_other_trigger_about_others_stays_unread():
    """ "When a unit dies" on an Equipment: rules or effect text, the text does not say (not a play trigger)."""
    assert (
        read_card(CardText("X", "Gear", "When a friendly unit dies, draw 1.", tags=("Equipment",))).status == "unread"
    )


def test_attach_it_after_a_play_trigger_attaches_the_card():
    (trigger,) = _read("When you play this from face down, attach it to a unit you control.")["triggers"]
    assert trigger["effects"] == [{"op": "attach", "what": "this", "to": "target"}]
    assert trigger["targets"] == {"target": {"type": "unit", "side": "friendly"}}


def test_attach_it_naming_another_object_is_not_the_card():
    """ "it" after a trigger about another unit is that unit, not this card: unread."""
    reading = read_card(CardText("X", "Gear", "When a friendly unit dies, attach it to a unit you control."))
    assert reading.status == "unread"


def test_equip_printed_without_brackets_is_equip():
    card = _read("Equip [Body rune] ([Body rune]: Attach this to a unit you control.)")
    (equip,) = card["activated"]
    assert equip["equip"] and equip["cost"] == {"domain_power": {"Body": 1}}


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 3
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


def _mutant(real_db, change) -> list[str]:
    return _verdicts(read_every_card_changed(real_db, change))


def test_my_disputes_kill_the_hunt_read_as_the_gears_own(real_db):
    def own(mapping: dict) -> None:
        when = mapping.get("when")
        if isinstance(when, dict) and when.get("event") in ("conquer", "hold") and when.get("who") == "equipped unit":
            when["who"] = "self"

    assert "mismatch" in _mutant(real_db, own)


def test_my_disputes_kill_the_play_trigger_read_as_effect_text(real_db):
    def effect_text(mapping: dict) -> None:
        when = mapping.get("when")
        if isinstance(when, dict) and when.get("event") == "play" and when.get("who") == "self":
            when["who"] = "equipped unit"

    assert "mismatch" in _mutant(real_db, effect_text)


def test_my_disputes_kill_attach_read_as_nothing(real_db):
    def unattached(mapping: dict) -> None:
        effects = mapping.get("effects")
        if isinstance(effects, list) and mapping.get("when") and any(e.get("op") == "attach" for e in effects):
            mapping["effects"] = [e for e in effects if e.get("op") != "attach"]

    assert "mismatch" in _mutant(real_db, unattached)


def test_an_equipped_unit_is_a_target_that_must_be_equipped_and_loses_an_equipment():
    card = read_card(
        CardText(
            "X",
            "Spell",
            "Choose an equipped friendly unit. It deals damage equal to its Might to an enemy unit. "
            "Then detach an Equipment from it.",
        )
    ).definition
    assert card["targets"]["target"] == {"type": "unit", "side": "friendly", "equipped": True}
    assert card["effects"][-1] == {"op": "detach", "from": "target"}  # the equipped unit, not the enemy


def test_my_disputes_kill_the_equipped_requirement_dropped(real_db):
    def unequipped(mapping: dict) -> None:
        mapping.pop("equipped", None)

    assert "mismatch" in _mutant(real_db, unequipped)


def test_my_disputes_kill_detach_read_as_nothing_or_from_the_other_unit(real_db):
    def dropped(mapping: dict) -> None:
        if isinstance(mapping.get("effects"), list):
            mapping["effects"] = [e for e in mapping["effects"] if e.get("op") != "detach"]

    def other(mapping: dict) -> None:
        if mapping.get("op") == "detach" and "from" in mapping:
            mapping["from"] = "other"

    assert "mismatch" in _mutant(real_db, dropped)
    assert "mismatch" in _mutant(real_db, other)


def test_a_later_you_may_in_a_trigger_is_decided_as_it_resolves():
    card = read_card(
        CardText(
            "X",
            "Battlefield",
            "When you conquer here, you may ready a friendly gear. If it's an Equipment, you may detach it.",
        )
    ).definition
    (trigger,) = card["triggers"]
    assert trigger["optional"] is True
    assert trigger["effects"][1] == {
        "op": "if_it",
        "it": "target",
        "state": "equipment",
        "then": [{"op": "may", "then": [{"op": "detach", "what": "target"}]}],
    }


def test_you_may_in_a_spell_is_decided_on_resolution_but_chooses_no_target_of_its_own():
    """355.17: a choice not made as it is played is made on resolution; 355.12: a target is chosen as it is played,
    apart from the decision, so "you may stun a unit" is not read this way."""
    card = read_card(CardText("X", "Spell", "Choose a unit. You may stun it.")).definition
    assert card["effects"] == [{"op": "may", "then": [{"op": "stun", "what": "target"}]}]
    assert read_card(CardText("X", "Spell", "Draw 1. You may stun a unit.")).status == "unread"


def test_detach_it_names_a_gear_only():
    """ "Detach it" of a unit chosen is no detach: a unit is not attached to anything (435.1.a)."""
    assert read_card(CardText("X", "Spell", "Choose a unit. Detach it.")).status == "unread"


def test_my_disputes_kill_a_later_you_may_read_as_a_must(real_db):
    def must(mapping: dict) -> None:
        for key in ("effects", "then"):
            if isinstance(mapping.get(key), list):
                mapping[key] = [i for e in mapping[key] for i in (e["then"] if e.get("op") == "may" else [e])]

    assert "mismatch" in _mutant(real_db, must)


def test_my_disputes_kill_the_equipment_condition_dropped(real_db):
    def always(mapping: dict) -> None:
        for key in ("effects", "then"):
            if isinstance(mapping.get(key), list):
                mapping[key] = [i for e in mapping[key] for i in (e["then"] if e.get("state") == "equipment" else [e])]

    assert "mismatch" in _mutant(real_db, always)


@pytest.mark.parametrize(("state", "attached"), [("a detached", False), ("an attached", True)])
def test_attach_an_equipment_chooses_the_equipment_and_the_unit(state, attached):
    card = _read(f"[Exhaust]: Attach {state} Equipment you control to a unit you control.", "Legend", ())
    (ability,) = card["activated"]
    assert ability["targets"]["unit"] == {"type": "gear", "side": "friendly", "tag": "Equipment", "attached": attached}
    assert ability["effects"] == [{"op": "attach", "what": "unit", "to": "other"}]


def test_my_disputes_kill_attached_or_detached_ignored_or_swapped(real_db):
    def ignored(mapping: dict) -> None:
        mapping.pop("attached", None)

    def swapped(mapping: dict) -> None:
        if isinstance(mapping.get("attached"), bool):
            mapping["attached"] = not mapping["attached"]

    assert "mismatch" in _mutant(real_db, ignored)
    assert "mismatch" in _mutant(real_db, swapped)


def test_a_gear_within_my_might_is_the_sources_might_and_no_spell_says_it():
    card = _read("When I conquer, you may kill a gear with Energy cost no more than my Might.", "Unit", ())
    assert card["triggers"][0]["targets"]["target"] == {"type": "gear", "cost_within_my_might": True}
    spell = read_card(CardText("X", "Spell", "Kill a gear with Energy cost no more than my Might."))
    assert spell.status == "unread"  # a spell has no Might of its own


def test_my_disputes_kill_the_cost_within_my_might_dropped(real_db):
    def dropped(mapping: dict) -> None:
        mapping.pop("cost_within_my_might", None)

    assert "mismatch" in _mutant(real_db, dropped)


def test_an_equipments_i_cant_be_moved_is_the_equipped_units():
    card = _read(
        "Equip [Body rune] ([Body rune]: Attach this to a unit you control.)\nI can't be moved by enemy spells and abilities."
    )
    assert card["passives"] == [{"to": {"who": "equipped unit"}, "restrictions": ["unmovable_by_enemy"]}]
    unit = _read("I can't be moved by enemy spells and abilities.", "Unit", ())
    assert unit["passives"] == [{"to": {"who": "self"}, "restrictions": ["unmovable_by_enemy"]}]


def test_my_disputes_kill_the_move_restriction_dropped_or_the_gears_own(real_db):
    def dropped(mapping: dict) -> None:
        if mapping.get("restrictions") == ["unmovable_by_enemy"]:
            mapping["restrictions"] = []

    def own(mapping: dict) -> None:
        if mapping.get("restrictions") == ["unmovable_by_enemy"]:
            mapping["to"] = {"who": "self"}

    assert "mismatch" in _mutant(real_db, dropped)
    assert "mismatch" in _mutant(real_db, own)


def test_an_equipments_conditional_i_have_is_the_equipped_units():
    card = _read("I have +2 [Might] while I'm at a battlefield with exactly one other unit you control.")
    (passive,) = card["passives"]
    assert passive["to"] == {"who": "equipped unit"} and passive["might"] == 2
    assert passive["condition"] == "exactly one other friendly unit at a battlefield"


def test_my_disputes_kill_the_hammers_condition_dropped_or_the_gears_own(real_db):
    def dropped(mapping: dict) -> None:
        if mapping.get("condition") == "exactly one other friendly unit at a battlefield":
            del mapping["condition"]

    def own(mapping: dict) -> None:
        if mapping.get("condition") == "exactly one other friendly unit at a battlefield":
            mapping["to"] = {"who": "self"}

    assert "mismatch" in _mutant(real_db, dropped)
    assert "mismatch" in _mutant(real_db, own)


def test_my_disputes_kill_an_equipments_condition_counted_from_the_gear(real_db, monkeypatch):
    """The engine's mutant: the condition of an Equipment's effect text said of the gear, not the equipped unit."""
    from scenarios.kernel import Condition, calc
    from scenarios.rules import layers

    def from_the_gear(game, source, passive):
        context = Condition(calc.ability_controller(game, source), source.id, False)
        return calc.condition_holds(game, passive.condition, context)

    monkeypatch.setattr(layers, "_holds", from_the_gear)
    assert "mismatch" in _verdicts(read_every_card(real_db))


def test_a_unit_and_an_equipment_with_the_same_controller_are_two_targets():
    card = read_card(
        CardText(
            "X",
            "Spell",
            "Choose a unit and an Equipment with the same controller. Attach that Equipment to that unit or detach "
            "that Equipment from that unit. Draw 1.",
        )
    ).definition
    assert card["targets"] == {
        "target": {"type": "unit"},
        "other": {"type": "gear", "tag": "Equipment", "controller_as": "target"},
    }
    (either, draw) = card["effects"]
    assert either["options"] == [
        [{"op": "attach", "what": "other", "to": "target"}],
        [{"op": "detach", "what": "other", "from_unit": "target"}],
    ]


def test_my_disputes_kill_the_same_controller_dropped(real_db):
    def dropped(mapping: dict) -> None:
        mapping.pop("controller_as", None)

    assert "mismatch" in _mutant(real_db, dropped)


def test_if_this_was_attached_to_me_this_turn_is_the_equipped_units_passive():
    card = _read("If this was attached to me this turn, I have an additional +2 [Might].")
    assert card["passives"] == [{"to": {"who": "equipped unit", "attached_this_turn": True}, "might": 2}]


def test_my_disputes_kill_attached_this_turn_dropped(real_db):
    def dropped(mapping: dict) -> None:
        mapping.pop("attached_this_turn", None)

    assert "mismatch" in _mutant(real_db, dropped)


def test_my_disputes_kill_the_attach_turn_not_recorded(real_db, monkeypatch):
    """The engine's mutant: attaching does not record the turn (so no Equipment was ever attached "this turn")."""
    from scenarios.rules import filters

    monkeypatch.setattr(filters, "_attached_this_turn", lambda game, view: False)
    assert "mismatch" in _verdicts(read_every_card(real_db))


def test_attach_one_of_its_equipment_to_me_is_chosen_on_resolution_once_per_turn():
    card = _read(
        "[Calm rune]: [Action] — Choose a unit you control. Move me to its location and it to my original location. "
        "If it's equipped, you may attach one of its Equipment to me. Use only once per turn.",
        "Unit",
        (),
    )
    (ability,) = card["activated"]
    assert ability["limit"] == "once_per_turn"
    assert ability["effects"][1] == {
        "op": "if_it",
        "it": "unit",
        "state": "equipped",
        "then": [{"op": "may", "then": [{"op": "attach", "from": "unit", "to": "this"}]}],
    }


def test_my_disputes_kill_once_per_turn_dropped_or_the_equipment_not_taken(real_db):
    def unlimited(mapping: dict) -> None:
        if mapping.get("limit") == "once_per_turn" and "cost" in mapping:
            del mapping["limit"]

    def kept(mapping: dict) -> None:
        for key in ("effects", "then"):
            if isinstance(mapping.get(key), list):
                mapping[key] = [e for e in mapping[key] if not (e.get("op") == "attach" and "from" in e)]

    assert "mismatch" in _mutant(real_db, unlimited)
    assert "mismatch" in _mutant(real_db, kept)


def test_your_equipment_everywhere_is_a_passive_over_every_zone():
    card = _read("Your Equipment everywhere have [Quick-Draw]. (It gains [Reaction]. ...)", "Unit", ())
    assert card["passives"] == [
        {"to": {"who": "friendly gear", "tag": "Equipment", "zone": "anywhere"}, "keywords": {"Quick-Draw": 1}}
    ]


def test_my_disputes_kill_everywhere_read_as_on_the_board(real_db):
    def board(mapping: dict) -> None:
        if mapping.get("zone") == "anywhere":
            del mapping["zone"]

    assert "mismatch" in _mutant(real_db, board)


def test_your_equipment_each_give_is_given_through_each_equipment():
    card = _read("Your Equipment each give [Assault]. (+1 [Might] while equipped unit is an attacker.)", "Legend", ())
    assert card["passives"] == [
        {"to": {"who": "friendly gear", "tag": "Equipment"}, "keywords": {"Assault": 1}, "via_equipment": True}
    ]


def test_my_disputes_kill_each_give_read_as_the_gears_own_keyword(real_db):
    def own(mapping: dict) -> None:
        mapping.pop("via_equipment", None)

    assert "mismatch" in _mutant(real_db, own)


def test_an_equipments_i_am_a_mech_gives_the_equipped_unit_the_tag():
    card = _read("I am a Mech.")
    assert card["passives"] == [{"to": {"who": "equipped unit"}, "tags": ["Mech"]}]
    assert read_card(CardText("X", "Gear", "I am a Wizard.", tags=("Equipment",))).status == "unread"


def test_my_disputes_kill_the_given_tag_dropped_or_the_gears_own(real_db):
    def dropped(mapping: dict) -> None:
        if mapping.get("tags") == ["Mech"] and "to" in mapping:
            mapping["tags"] = []

    def own(mapping: dict) -> None:
        if mapping.get("tags") == ["Mech"] and "to" in mapping:
            mapping["to"] = {"who": "self"}

    assert "mismatch" in _mutant(real_db, dropped)
    assert "mismatch" in _mutant(real_db, own)
