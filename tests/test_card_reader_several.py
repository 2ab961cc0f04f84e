"""The long tail of instructions (scenarios/card_reader/several.py, otherwise.py, and the states and groups of
phrases.py): one instruction on several objects, a condition with what happens otherwise, a target's state, groups
by Might and of both permanent types; what they refuse, and mutants of their readings that the read-card disputes
read-301 to read-319 kill."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("read-3[01][0-9]-*.yaml"))


def read(text: str, kind: str = "Spell", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    if reading.status == "read":
        Card.model_validate(reading.definition)
    return reading


def test_up_to_two_is_two_optional_slots_and_one_instruction():
    reading = read("Deal 6 to each of up to two units.")
    assert reading.definition["effects"] == [{"op": "deal", "amount": 6, "to": ["target", "other"]}]
    assert reading.definition["targets"] == {
        "target": {"type": "unit", "optional": True},
        "other": {"type": "unit", "optional": True, "not_target": "target"},
    }
    monk = read("When you play me, buff up to two other friendly units.", "Unit", might=4)
    (trigger,) = monk.definition["triggers"]
    assert trigger["effects"] == [{"op": "buff", "what": ["target", "other"]}]
    assert all(spec["other"] and spec["side"] == "friendly" for spec in trigger["targets"].values())


def test_a_pair_of_objects_is_two_slots_in_the_order_printed():
    reading = read("Return a friendly unit and an enemy unit to their owners' hands.")
    assert reading.definition["effects"] == [{"op": "return_to_hand", "what": ["target", "other"]}]
    assert reading.definition["targets"]["target"]["side"] == "friendly"
    assert reading.definition["targets"]["other"] == {"type": "unit", "side": "enemy", "not_target": "target"}
    same = read("Stun a friendly unit and an enemy unit at the same battlefield.")
    assert same.definition["targets"]["other"]["same_place_as"] == "target"
    assert {s["where"] for s in same.definition["targets"].values()} == {"battlefield"}


def test_you_may_with_up_to_one_is_the_optional_choice():
    reading = read("You may kill up to one gear. Draw 1.")
    assert reading.definition["effects"] == [{"op": "kill", "what": "target"}, {"op": "draw", "n": 1}]
    assert reading.definition["targets"] == {"target": {"type": "gear", "optional": True}}


def test_a_targets_state_is_a_restriction():
    exhausted = read("[Exhaust]: Buff an exhausted friendly unit.", "Gear")
    (ability,) = exhausted.definition["activated"]
    assert ability["targets"]["unit"] == {"type": "unit", "side": "friendly", "exhausted": True}
    ready = read("Kill a ready enemy unit.")
    assert ready.definition["targets"]["target"]["exhausted"] is False
    attacking = read("[Repeat] [2 Energy] Stun an attacking unit.")
    assert attacking.definition["targets"]["target"] == {"type": "unit", "role": "attacker"}
    assert read("Stun a defending enemy unit.").definition["targets"]["target"]["role"] == "defender"


def test_at_its_location_and_your_legend():
    text = "Give a friendly unit +1 [Might] this turn and [Stun] an enemy unit at its location."
    charge = read(text)
    assert charge.definition["effects"] == [
        {"op": "might", "amount": 1, "to": "target"},
        {"op": "stun", "what": "other"},
    ]
    assert charge.definition["targets"]["other"] == {
        "type": "unit",
        "side": "enemy",
        "not_target": "target",
        "same_place_as": "target",
    }
    (hall,) = read("When you conquer here, you may pay [1 Energy] to ready your legend.", "Battlefield").definition[
        "triggers"
    ]
    assert hall["effects"] == [{"op": "ready", "what": {"all": {"who": "friendly legend"}}}]
    assert hall["cost"] == {"energy": 1} and hall["optional"]


def test_might_and_a_keyword_together():
    text = "When I attack or defend, give one of your other units here +3 [Might] and [Tank] this turn."
    triggers = read(text, "Unit", might=1).definition["triggers"]
    assert [t["when"]["event"] for t in triggers] == ["attack", "defend"]
    assert triggers[0]["effects"] == [
        {"op": "might", "amount": 3, "to": "target"},
        {"op": "grant", "keyword": "Tank", "to": "target"},
    ]
    assert triggers[0]["targets"]["target"] == {"type": "unit", "side": "friendly", "where": "here", "other": True}
    assert read("Give me +2 [Might] and [Flying] this turn.", "Unit", might=2).status == "unread"


def test_a_facedown_card_condition():
    text = "At the start of your Beginning Phase, if you control a facedown card at a battlefield, draw 1."
    (trigger,) = read(text, "Gear").definition["triggers"]
    # the "if" right after the Condition is part of the Trigger Condition (383.2.a.1), not of the Effect
    assert trigger["condition"] == "you control a facedown card"
    assert trigger["effects"] == [{"op": "draw", "n": 1}]


def test_groups_by_might_and_of_both_permanent_types():
    small = read("Return all units with 2 [Might] or less to their owners' hands.")
    assert small.definition["effects"] == [{"op": "return_to_hand", "what": {"all": {"who": "unit", "max_might": 2}}}]
    both = read("Return all units and gear to their owners' hands.")
    assert both.definition["effects"] == [{"op": "return_to_hand", "what": {"all": {"who": "permanent"}}}]


def test_if_it_is_with_otherwise_is_one_condition():
    text = "When you play me, choose an enemy unit. If it is stunned, kill it. Otherwise, stun it."
    (trigger,) = read(text, "Unit", might=4).definition["triggers"]
    assert trigger["effects"] == [
        {
            "op": "if_it",
            "it": "target",
            "state": "stunned",
            "then": [{"op": "kill", "what": "target"}],
            "else": [{"op": "stun", "what": "target"}],
        }
    ]


def test_if_you_control_a_tag():
    (trigger,) = read("When you play me, if you control a Poro, buff me and draw 1.", "Unit", might=3).definition[
        "triggers"
    ]
    assert trigger["condition"] == "you control a Poro"  # part of the Trigger Condition (383.2.a.1)
    assert trigger["effects"] == [{"op": "buff", "what": "this"}, {"op": "draw", "n": 1}]


def test_its_owner_performs_their_part():
    reading = read("Return a friendly unit to its owner's hand. Its owner channels 1 rune exhausted.")
    assert reading.definition["effects"][1] == {
        "op": "each_player",
        "players": {"owner_of": "target"},
        "effects": [{"op": "channel", "n": 1, "exhausted": True}],
    }
    assert read("Its owner draws 1.").status == "unread"  # "it" names nothing


def test_a_counted_condition_right_after_a_trigger_is_its_condition():
    """383.2.a.1: it belongs to the Trigger Condition, a count as much as a condition word."""
    (plaza,) = read("When you hold here, if you have 7+ units here, you win the game.", "Battlefield").definition[
        "triggers"
    ]
    assert plaza["condition"]["at_least"] == 7 and plaza["effects"] == [{"op": "win_game"}]


def test_a_permission_to_be_played_where_you_attack():
    reading = read("[Reaction] I can be played to a battlefield you're attacking.", "Unit", might=3)
    assert reading.definition["played_to"] == ["attacking"]
    assert read("I can be played to a battlefield you're defending.", "Unit", might=3).status == "unread"


def test_two_changes_count_conditions_and_where_i_am():
    dance = read("Give a unit +2 [Might] this turn and another unit -2 [Might] this turn.")
    assert dance.definition["effects"] == [
        {"op": "might", "amount": 2, "to": "target"},
        {"op": "might", "amount": -2, "to": "other"},
    ]
    assert dance.definition["targets"]["other"]["not_target"] == "target"
    (drop,) = read("When you play me, if you control two or more gear, ready me.", "Unit", might=4).definition[
        "triggers"
    ]
    assert drop["condition"]["at_least"] == 2 and drop["effects"] == [{"op": "ready", "what": "this"}]
    text = "When you play me, buff me. Then, if I am at a battlefield, buff all other friendly units there."
    (guardian,) = read(text, "Unit", might=5).definition["triggers"]
    assert guardian["effects"][1] == {
        "op": "if",
        "condition": "at a battlefield",
        "then": [{"op": "buff", "what": {"all": {"who": "other friendly unit", "where": "here"}}}],
    }
    assert read("If I'm at a battlefield, draw 1.").status == "unread"  # a spell is at no battlefield


@pytest.mark.parametrize(
    "text",
    [
        "Otherwise, draw 1.",  # no condition before it
        "Draw 1. Otherwise, draw 2.",  # the sentence before is no condition
        "Buff up to two units and draw 1 at the same battlefield.",
        "Return a friendly unit and an enemy unit.",  # returned where: not said
        "Buff up to two gear.",  # a buff is a unit's (702)
        "If it is stunned, kill it.",  # "it" names nothing chosen
        "Return all units and damaged gear to their owners' hands.",
    ],
)
def test_what_is_not_said_stays_unread(text):
    assert read(text).status == "unread"


# -- mutants the disputes kill ------------------------------------------------------------------------------------


def _first_slot_only(d: dict) -> None:
    for key in ("what", "to"):
        if isinstance(d.get(key), list) and d.get("op"):
            d[key] = d[key][0]


def _no_not_target(d: dict) -> None:
    if d.get("type") in ("unit", "gear"):
        d.pop("not_target", None)


def _no_same_place(d: dict) -> None:
    d.pop("same_place_as", None)


def _no_exhausted(d: dict) -> None:
    if d.get("type") == "unit":
        d.pop("exhausted", None)


def _no_role(d: dict) -> None:
    if d.get("type") == "unit":
        d.pop("role", None)


def _otherwise_dropped(d: dict) -> None:
    if d.get("op") == "if_it":
        d.pop("else", None)


def _condition_always(d: dict) -> None:
    if "when" in d and "control a" in str(d.get("condition")):  # a trigger's condition (383.2.a.1)
        d.pop("condition")
        d.pop("if_clause", None)
    effects = d.get("effects")
    if isinstance(effects, list):
        d["effects"] = [
            e2 for e in effects for e2 in (e["then"] if e.get("op") == "if" and "control a" in e["condition"] else [e])
        ]


def _no_max_might(d: dict) -> None:
    if "who" in d:
        d.pop("max_might", None)


def _permanent_as_unit(d: dict) -> None:
    if d.get("who") == "permanent":
        d["who"] = "unit"


def _owner_as_you(d: dict) -> None:
    effects = d.get("effects")
    if isinstance(effects, list):
        d["effects"] = [e2 for e in effects for e2 in (e["effects"] if isinstance(e.get("players"), dict) else [e])]


def _signs_swapped(d: dict) -> None:
    effects = d.get("effects")
    mights = [e for e in effects if e.get("op") == "might"] if isinstance(effects, list) else []
    if len(mights) == 2 and mights[0]["amount"] == -mights[1]["amount"]:
        mights[0]["amount"], mights[1]["amount"] = mights[1]["amount"], mights[0]["amount"]


def _at_a_battlefield_dropped(d: dict) -> None:
    effects = d.get("effects")
    if isinstance(effects, list):
        d["effects"] = [
            e2
            for e in effects
            for e2 in (e["then"] if e.get("op") == "if" and e["condition"] == "at a battlefield" else [e])
        ]


def _no_attacking_permission(d: dict) -> None:
    if "attacking" in d.get("played_to", []):
        d["played_to"] = [p for p in d["played_to"] if p != "attacking"]


def _legend_not_readied(d: dict) -> None:
    effects = d.get("effects")
    if isinstance(effects, list):
        d["effects"] = [e for e in effects if e.get("what") != {"all": {"who": "friendly legend"}}]


def _keyword_dropped(d: dict) -> None:
    effects = d.get("effects")
    if isinstance(effects, list) and any(e.get("op") == "might" for e in effects):
        d["effects"] = [e for e in effects if e.get("op") != "grant"]


MUTANTS = {
    "the keyword of '+N and [keyword]' dropped": _keyword_dropped,
    "ready your legend dropped": _legend_not_readied,
    "the attacking permission dropped": _no_attacking_permission,
    "+2 and -2 swapped": _signs_swapped,
    "if I'm at a battlefield read as always": _at_a_battlefield_dropped,
    "its owner read as you": _owner_as_you,
    "up to two read as one": _first_slot_only,
    "the second choice may be the first": _no_not_target,
    "the same battlefield dropped": _no_same_place,
    "an exhausted target read as any": _no_exhausted,
    "an attacking target read as any": _no_role,
    "otherwise dropped": _otherwise_dropped,
    "a tag condition read as always": _condition_always,
    "2 might or less dropped": _no_max_might,
    "units and gear read as units": _permanent_as_unit,
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_disputes_kill_a_mutant_of_each_template(mutant, real_db):
    verdicts = verdicts_with(read_every_card_changed(real_db, MUTANTS[mutant]), DISPUTES)
    assert set(verdicts) != {"match"}, f"the mutant {mutant!r} of the reader survives every dispute 301-319"
