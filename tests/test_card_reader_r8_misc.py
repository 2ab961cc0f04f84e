"""Single cards' phrases read one at a time (wave r8, "misc"): "I can have any number of buffs" (426.1.b.2),
"[Burn 1]" as a trigger's cost (440.3.a, 204.3.a), "you must recycle one of your runes" (355.10.f, 416.1.b),
"increase the points needed to win the game by 1" (194.3.a), "take a turn after this one. Banish this." (735-738,
427.1), "an enemy unit with less Might than it" (the unit chosen before, 355.8), "all enemy units at that
battlefield with less Might than the chosen unit" (355.10.d), "a battlefield you control and a unit you control at
a different location" (190.1, 355.4.a), "ready or exhaust a legend" (355.10.a, 355.17), "[Deathknell] — Recycle me
to ready your runes" (383.3.b's example, 404.2), "Deal 4 to that unit and 1 to each other enemy unit there"
(417.1.d), "friendly buffed units have [Deflect] if they didn't already" (809.2), "I cost [2][C] less for each
point you scored from holding this turn" (356.4, 469.2), "you may hide an additional card here" (107.3.b.1).
Read-card disputes 780-799 judge them with the real read cards; mutants of the readings are killed by them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-7[89]*.yaml")
    if 780 <= int(p.name.split("-")[1]) <= 799
)


def read(text: str, kind: str = "Spell", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    return reading.definition


def test_any_number_of_buffs_is_a_passive_permission_of_the_unit():
    definition = read("[Exhaust]: Buff me.\nI can have any number of buffs.", "Unit", might=5, energy=5)
    assert definition["passives"] == [{"to": {"who": "self"}, "restrictions": ["any_number_of_buffs"]}]


def test_any_number_of_buffs_is_a_units_only():
    reading = read_card(CardText("Some Card", "Gear", "I can have any number of buffs.", energy=2))
    assert reading.status == "unread"


def test_burn_is_a_triggers_cost_after_you_may():
    definition = read("When I move, you may [Burn 1] to give me +1 [Might] this turn.", "Unit", might=2, energy=2)
    [trigger] = definition["triggers"]
    assert trigger["optional"] is True
    assert trigger["cost"] == {"burn": 1}
    assert trigger["effects"] == [{"op": "might", "amount": 1, "to": "this"}]


def test_must_recycle_one_of_your_runes_targets_nothing():
    definition = read("When you conquer here, you must recycle one of your runes.", "Battlefield")
    [trigger] = definition["triggers"]
    assert trigger["effects"] == [{"op": "recycle_rune"}]
    assert "targets" not in trigger


def test_less_might_than_it_compares_with_the_slot_chosen_before():
    definition = read("Choose a friendly unit. Kill an enemy unit with less Might than it.", energy=2)
    assert definition["effects"] == [{"op": "kill", "what": "other"}]
    assert definition["targets"] == {
        "target": {"type": "unit", "side": "friendly"},
        "other": {"type": "unit", "side": "enemy", "less_might_than": "target"},
    }


def test_less_might_than_it_with_nothing_chosen_before_stays_unread():
    reading = read_card(CardText("Some Card", "Spell", "Kill an enemy unit with less Might than it.", energy=2))
    assert reading.status == "unread"


def test_ready_or_exhaust_a_legend_targets_one_legend_and_chooses_the_verb_later():
    definition = read("When you play me, ready or exhaust a legend.", "Unit", might=4, energy=3)
    [trigger] = definition["triggers"]
    assert trigger["targets"] == {"target": {"type": "legend"}}
    assert trigger["effects"] == [
        {
            "op": "either",
            "options": [[{"op": "ready", "what": "target"}], [{"op": "exhaust", "what": "target"}]],
            "labels": ["ready a legend", "exhaust a legend"],
        }
    ]


def test_a_legend_is_never_killed_or_stunned_as_a_unit_is():
    for text in ("Kill a legend.", "Stun a legend.", "Ready or ready a legend."):
        assert read_card(CardText("Some Card", "Spell", text, energy=2)).status == "unread", text


def test_increase_the_points_needed_to_win_is_a_battlefields_passive():
    definition = read("Increase the points needed to win the game by 1.", "Battlefield")
    assert definition["passives"] == [{"to": {"who": "self"}, "victory_score": 1}]
    assert (
        read_card(CardText("Some Card", "Unit", "Increase the points needed to win the game by 1.")).status == "unread"
    )


def test_take_a_turn_after_this_one_then_banish_this():
    definition = read("Take a turn after this one. Banish this.", energy=10, power=4)
    assert definition["effects"] == [{"op": "additional_turn"}, {"op": "banish", "what": "this"}]
    assert read_card(CardText("Some Card", "Unit", "When I attack, banish this.", might=1)).status == "unread"


def test_all_enemy_units_at_that_battlefield_with_less_might_than_the_chosen_unit():
    text = (
        "Choose a friendly unit and a battlefield. Move all enemy units at that battlefield with less Might than the "
        "chosen unit to their base."
    )
    definition = read(text, energy=2)
    assert definition["targets"] == {"target": {"type": "unit", "side": "friendly"}, "other": {"type": "battlefield"}}
    assert definition["effects"] == [
        {
            "op": "move",
            "what": {"all": {"who": "enemy unit", "less_might_than": "target", "where": "at other"}},
            "to": "base",
        }
    ]


def test_a_battlefield_chosen_for_nothing_stays_unread():
    reading = read_card(CardText("Some Card", "Spell", "Choose a friendly unit and a battlefield. Draw 1.", energy=2))
    assert reading.status == "unread"


def test_a_battlefield_you_control_and_a_unit_you_control_at_a_different_location():
    text = (
        "Choose a battlefield you control and a unit you control at a different location. Move that unit to that "
        "battlefield and give it +2 [Might] this turn."
    )
    definition = read(text, energy=2, power=1)
    assert definition["targets"] == {
        "target": {"type": "battlefield", "side": "friendly"},
        "other": {"type": "unit", "side": "friendly", "not_same_place_as": "target"},
    }
    assert definition["effects"] == [
        {"op": "move", "what": "other", "to": "target"},
        {"op": "might", "amount": 2, "to": "other"},
    ]


def test_a_cost_first_in_a_deathknell_is_its_base_cost_without_you_may():
    text = "[Deathknell] — Recycle me to ready your runes. (When I die, get the effect.)"
    definition = read(text, "Unit", might=5, energy=5)
    [trigger] = definition["triggers"]
    assert (trigger["optional"], trigger["cost"]) == (False, {"recycle": "this"})
    assert trigger["effects"] == [{"op": "ready_runes", "all": True}]


def test_a_battlefield_and_an_enemy_unit_there_then_one_deal_of_two_amounts():
    text = "Choose a battlefield and an enemy unit there. Deal 4 to that unit and 1 to each other enemy unit there."
    definition = read(text, energy=3, power=1)
    assert definition["targets"] == {
        "target": {"type": "battlefield"},
        "other": {"type": "unit", "side": "enemy", "same_place_as": "target"},
    }
    others = {"all": {"who": "enemy unit", "where": "at target", "other_than": "other"}}
    assert definition["effects"] == [{"op": "deal", "amount": 4, "to": "other", "also": [{"amount": 1, "to": others}]}]
    unfinished = "Choose a battlefield and an enemy unit there. Draw 1."
    assert read_card(CardText("Some Card", "Spell", unfinished, energy=3)).status == "unread"


def test_have_a_keyword_if_they_didnt_already_is_never_summed():
    text = "Friendly buffed units have [Deflect] if they didn't already."
    definition = read(text, "Gear", energy=2, power=1)
    assert definition["passives"] == [
        {"to": {"who": "friendly unit", "buffed": True}, "keywords": {"Deflect": 1}, "if_not_already": True}
    ]


def test_i_cost_less_for_each_point_scored_from_holding_this_turn():
    text = "I cost [2 Energy][Calm rune] less for each point you scored from holding this turn."
    reading = read_card(CardText("Some Card", "Unit", text, energy=10, power=3, might=5, domains=("Calm",)))
    assert reading.status == "read", reading.unread
    assert reading.definition["discounts"] == [
        {"energy": 2, "power": 1, "for_each": "point you scored from holding this turn"}
    ]


def test_hide_an_additional_card_here_is_a_battlefields_passive():
    definition = read("You may hide an additional card here.", "Battlefield")
    assert definition["passives"] == [{"to": {"who": "self"}, "restrictions": ["hide_an_additional_card"]}]
    assert (
        read_card(CardText("Some Card", "Gear", "You may hide an additional card here.", energy=1)).status == "unread"
    )


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _judged(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 5
    assert set(_judged(read_every_card(real_db))) == {"match"}


def _no_buff_permission(d: dict) -> None:
    if "any_number_of_buffs" in d.get("restrictions", []):
        d["restrictions"] = [r for r in d["restrictions"] if r != "any_number_of_buffs"]


def _burn_free(d: dict) -> None:
    if isinstance(d.get("cost"), dict) and d["cost"].get("burn"):
        d["cost"] = {k: v for k, v in d["cost"].items() if k != "burn"} or {"energy": 0}


def _burn_two(d: dict) -> None:
    if isinstance(d.get("cost"), dict) and d["cost"].get("burn"):
        d["cost"] = {**d["cost"], "burn": 2}


def _rune_readied(d: dict) -> None:
    if d.get("op") == "recycle_rune":
        d.update(op="ready_runes", n=1)


def _any_might(d: dict) -> None:
    if "side" in d:  # a target slot's
        d.pop("less_might_than", None)


def _any_might_moved(d: dict) -> None:
    if "who" in d:  # an object filter's
        d.pop("less_might_than", None)


def _anywhere_moved(d: dict) -> None:
    if d.get("less_might_than") and "who" in d:
        d.pop("where", None)


def _verbs_swapped(d: dict) -> None:
    if d.get("op") == "either" and d.get("labels") == ["ready a legend", "exhaust a legend"]:
        d["options"] = list(reversed(d["options"]))


def _no_victory_score(d: dict) -> None:
    if d.get("victory_score"):
        d["victory_score"] = 0


def _victory_score_two(d: dict) -> None:
    if d.get("victory_score"):
        d["victory_score"] = 2


def _no_additional_turn(d: dict) -> None:
    if d.get("op") == "additional_turn":
        d.update(op="draw", n=0)


def _not_banished(d: dict) -> None:
    if d.get("op") == "banish" and d.get("what") == "this":
        d.update(op="draw", n=0)
        d.pop("what")


def _same_place_allowed(d: dict) -> None:
    d.pop("not_same_place_as", None)


def _any_battlefield(d: dict) -> None:
    if d.get("type") == "battlefield" and d.get("side") == "friendly":
        d.pop("side")


def _not_recycled(d: dict) -> None:
    if isinstance(d.get("cost"), dict) and d["cost"].get("recycle"):
        d.pop("cost")


def _one_rune(d: dict) -> None:
    if d.get("op") == "ready_runes" and d.get("all"):
        d.pop("all")


def _no_other_amount(d: dict) -> None:
    d.pop("also", None)


def _the_chosen_too(d: dict) -> None:
    d.pop("other_than", None)


def _every_battlefield(d: dict) -> None:
    if d.get("other_than"):
        d.pop("where", None)


def _summed(d: dict) -> None:
    d.pop("if_not_already", None)


def _unbuffed_too(d: dict) -> None:
    if d.get("who") == "friendly unit" and d.get("buffed"):
        d.pop("buffed")


def _held_discount_once(d: dict) -> None:
    if d.get("for_each") == "point you scored from holding this turn":
        d.pop("for_each")
        d["energy"] = 0


def _no_room(d: dict) -> None:
    if "hide_an_additional_card" in d.get("restrictions", []):
        d["restrictions"] = [r for r in d["restrictions"] if r != "hide_an_additional_card"]


def _only_own_legend(d: dict) -> None:
    for spec in d.get("targets", {}).values():
        if spec.get("type") == "legend":
            spec["side"] = "friendly"


@pytest.mark.parametrize(
    "change",
    [
        _no_buff_permission,
        _burn_free,
        _burn_two,
        _rune_readied,
        _any_might,
        _verbs_swapped,
        _only_own_legend,
        _no_victory_score,
        _victory_score_two,
        _no_additional_turn,
        _not_banished,
        _any_might_moved,
        _anywhere_moved,
        _same_place_allowed,
        _any_battlefield,
        _not_recycled,
        _one_rune,
        _no_other_amount,
        _the_chosen_too,
        _every_battlefield,
        _summed,
        _unbuffed_too,
        _held_discount_once,
        _no_room,
    ],
)
def test_my_disputes_kill_a_wrong_reading(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change)), f"{change.__name__} survives"
