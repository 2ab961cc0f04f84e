"""Readings for cards of the letters G to O: a comma-separated list of keywords, a "non-<tag>" target, a
condition on the total Might of units, a Level restriction on the card itself, "if an enemy unit is alone here",
"kill it if it has 3 [Might] or less", a token played "there" where I moved from, units "at that battlefield" of a
conquer, a permission for the friendly units played; what they refuse, and mutants of their readings that the
read-card disputes read-331 to read-339 kill."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("read-33[1-9]-*.yaml"))


def read(text: str, kind: str = "Unit", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    if reading.status == "read":
        Card.model_validate(reading.definition)
    return reading


def test_a_comma_lists_keywords():
    reading = read("[Assault 2], [Shield 2] (+2 [Might] while I'm an attacker or defender.)", might=5)
    assert reading.definition["keywords"] == {"Assault": 2, "Shield": 2}
    assert read("[Tank], [Deflect]", might=3).definition["keywords"] == {"Tank": 1, "Deflect": 1}


def test_a_non_tag_target_excludes_the_tag():
    reading = read("When you play me, you may return a non-Dragon unit to its owner's hand.", might=7)
    (trigger,) = reading.definition["triggers"]
    assert trigger["targets"]["target"] == {"type": "unit", "not_tag": "Dragon"}
    assert trigger["effects"] == [{"op": "return_to_hand", "what": "target"}]
    spell = read("Stun a friendly non-Mech unit.", "Spell")
    assert spell.definition["targets"]["target"] == {"type": "unit", "side": "friendly", "not_tag": "Mech"}
    group = read("Kill all non-Poro units.", "Spell")
    assert group.definition["effects"] == [{"op": "kill", "what": {"all": {"who": "unit", "not_tag": "Poro"}}}]


def test_total_might_is_a_summed_quantity():
    reading = read("When you play me, draw 1 if your other units have total Might 5 or more.", might=3)
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"] == [
        {
            "op": "if_amount",
            "amount": {"total_might": {"who": "other friendly unit"}},
            "at_least": 5,
            "then": [{"op": "draw", "n": 1}],
        }
    ]
    (ten,) = read("Draw 2 if friendly units have total Might 10 or more.", "Spell").definition["effects"]
    assert (ten["amount"], ten["at_least"]) == ({"total_might": {"who": "friendly unit"}}, 10)


def test_a_level_restriction_on_me():
    reading = read("[Level 16][>] I can't be chosen by enemy spells and abilities.", might=12)
    assert reading.definition["passives"] == [
        {"to": {"who": "self"}, "restrictions": ["unchoosable_by_enemy"], "condition": "level 16"}
    ]


def test_a_counted_condition_right_after_a_trigger_is_its_condition():
    """383.2.a.1: "if an enemy unit is alone here" / "if you have 4+ units at that battlefield" right after the
    trigger's condition belong to the Trigger Condition: a count (`selectors.Counted`), no longer the effect's."""
    text = "When I attack or defend, if an enemy unit is alone here, give me +2 [Might] this turn and gain 2 XP."
    alone = read(text, might=4).definition["triggers"]
    assert [t["condition"]["at_most"] for t in alone] == [1, 1] and alone[0]["effects"][0]["op"] == "might"
    (conquer,) = read("When you conquer, if you have 4+ units at that battlefield, draw 2.", "Legend").definition[
        "triggers"
    ]
    assert conquer["condition"]["amount"]["count"]["where"] == "at trigger_location"


def test_a_might_condition_on_it():
    reading = read("Choose a unit. Then kill it if it has 3 [Might] or less.", "Spell")
    assert reading.definition["effects"] == [
        {"op": "if_amount", "amount": "might_of:target", "at_most": 3, "then": [{"op": "kill", "what": "target"}]}
    ]
    assert read("Draw 1 if it has 3 [Might] or less.", "Spell").status == "unread"  # "it" names nothing


def test_a_token_there_is_where_i_moved_from():
    text = "When I move from a location, play a 3 [Might] Sprite unit token with [Temporary] there."
    (trigger,) = read(text, might=3).definition["triggers"]
    assert trigger["effects"] == [
        {
            "op": "play_token",
            "token": "sprite",
            "might": 3,
            "n": 1,
            "to": "trigger_location",
            "keywords": {"Temporary": 1},
        }
    ]
    assert read("When you play me, play a 1 [Might] Recruit unit token there.", might=3).status == "unread"


def test_a_permission_for_friendly_units():
    reading = read("Friendly units may be played to open battlefields.", might=4)
    assert reading.definition["units_played_to"] == ["open"]
    assert "played_to" not in reading.definition  # not this card's own permission only: every friendly unit's
    assert read("Enemy units may be played to open battlefields.", might=4).status == "unread"


@pytest.mark.parametrize(
    "text",
    [
        "[Assault 2], draw 1.",  # a keyword, then words that are no keyword
        "[Tank], [Frobnicate]",  # an unknown keyword after the comma
        "When you play me, return a non-Wizard unit to its owner's hand.",  # a tag the reader doesn't know
        "When you play me, draw 1 if your gear have total Might 5 or more.",  # gear have no Might
        "When you play me, draw 1 if your other units have total Might 5.",  # "or more" not said
        "[Level 6][>] I have +1 [Might] and I can't be chosen by enemy spells and abilities.",
    ],
)
def test_what_is_not_said_stays_unread(text):
    assert read(text, might=3).status == "unread"


# -- mutants the disputes kill ------------------------------------------------------------------------------------


def _listed_keyword_dropped(d: dict) -> None:
    if "], [" in d.get("text", "") and len(d.get("keywords", {})) > 1:
        first = next(iter(d["keywords"]))
        d["keywords"] = {first: d["keywords"][first]}


def _no_not_tag(d: dict) -> None:
    if d.get("type") in ("unit", "gear"):
        d.pop("not_tag", None)


def _total_might_counted(d: dict) -> None:
    if isinstance(d.get("total_might"), dict):  # a quantity's filter, not a target group's bound (an int)
        d["count"] = d.pop("total_might")


def _level_restriction_always(d: dict) -> None:
    for passive in d.get("passives", []) if isinstance(d.get("passives"), list) else []:
        if passive.get("restrictions") and str(passive.get("condition", "")).startswith("level"):
            passive.pop("condition")


def _might_condition_dropped(d: dict) -> None:
    effects = d.get("effects")
    if isinstance(effects, list):
        d["effects"] = [
            e2
            for e in effects
            for e2 in (e["then"] if e.get("op") == "if_amount" and str(e["amount"]).startswith("might_of:") else [e])
        ]


def _there_as_here(d: dict) -> None:
    if d.get("op") == "play_token" and d.get("to") == "trigger_location":
        d["to"] = "here"


def _no_units_permission(d: dict) -> None:
    d.pop("units_played_to", None)


MUTANTS = {
    "the friendly units' permission dropped": _no_units_permission,
    "a token there read as here": _there_as_here,
    "N Might or less read as always": _might_condition_dropped,
    "a keyword after a comma dropped": _listed_keyword_dropped,
    "a non-<tag> target read as any unit": _no_not_tag,
    "total Might read as a count of units": _total_might_counted,
    "a Level restriction read as always": _level_restriction_always,
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_the_disputes_kill_a_mutant_of_each_template(mutant, real_db):
    verdicts = verdicts_with(read_every_card_changed(real_db, MUTANTS[mutant]), DISPUTES)
    assert set(verdicts) != {"match"}, f"the mutant {mutant!r} of the reader survives every dispute 331-339"


def test_the_disputes_match_with_the_reader_as_it_is(real_db):
    assert set(verdicts_with(read_every_card(real_db), DISPUTES)) == {"match"}
