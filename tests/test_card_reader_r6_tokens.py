"""Tokens and banishing from the trash: the Shadow Clone token (187.11) with its own triggered ability, Tentacle
tokens "from Bilgewater" (a tag of the kind, 187.10), a token's Might printed as a number icon (377.2.b quotes
Ultrasoft Poro's), and "banish a unit from your trash" (a target there, 355.10.a) whose "if you do" sees the card
leave the trash (359.3.e.14.b). Read-card disputes 480-499 judge them with the real read cards, and a mutant of
each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, phrases, read_card
from scenarios.cards import Card, all_cards
from scenarios.kernel import CONDITIONS
from scenarios.rules.tokens import token_definition
from scenarios.token_kinds import UNIT_TOKEN_ABILITIES

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-4*.yaml")
    if 480 <= int(p.name.split("-")[1]) <= 499
)


def read(text: str, kind: str = "Spell", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def _effects(text: str) -> list:
    reading = read(text, energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    return reading.definition["effects"]


@pytest.mark.parametrize(
    ("text", "played"),
    [
        (
            "Play two 1 [Might] Tentacle unit tokens from Bilgewater.",
            {"op": "play_token", "token": "tentacle", "might": 1, "n": 2},
        ),
        (
            "Play two [1 Energy] [Might] Bird unit tokens with [Deflect].",
            {"op": "play_token", "token": "bird", "might": 1, "n": 2, "keywords": {"Deflect": 1}},
        ),
        (
            "Play a 0 [Might] Shadow Clone unit token to your base.",
            {"op": "play_token", "token": "shadow clone", "might": 0, "n": 1, "to": "base"},
        ),
    ],
)
def test_a_token_phrasing_reads_as_the_token_187_defines(text, played):
    assert _effects(text) == [played]


@pytest.mark.parametrize(
    "text",
    [
        "Play two 1 [Might] Tentacle unit tokens from Noxus.",  # not a tag the Tentacle has (187.10)
        "Play two 1 [Might] Recruit unit tokens from Bilgewater.",
        "Play a 0 [Might] Shadow Clone unit token from Zaun.",
    ],
)
def test_a_tag_the_token_does_not_have_is_refused(text):
    assert read(text, energy=2).status == "unread"


def test_banishing_a_unit_from_your_trash_targets_a_card_there():
    reading = read("Banish a unit from your trash. Draw 1.", energy=2)
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [{"op": "banish", "what": "target"}, {"op": "draw", "n": 1}]
    assert reading.definition["targets"] == {"target": {"type": "unit", "zone": "trash"}}


@pytest.mark.parametrize("kind", sorted(UNIT_TOKEN_ABILITIES))
def test_a_token_kind_s_abilities_are_its_187_text_as_the_reader_reads_it(kind):
    """The abilities 187 gives a token kind, written in `cards.UNIT_TOKEN_ABILITIES`, equal the reader's reading
    of that text: the token's trigger is the template the cards use, not a second implementation of it."""
    abilities = UNIT_TOKEN_ABILITIES[kind]
    reading = read(abilities["text"], "Unit", might=0)
    assert reading.status == "read", reading.unread
    label = lambda triggers: [{k: v for k, v in t.items() if k != "label"} for t in triggers]  # noqa: E731
    assert label(reading.definition["triggers"]) == label(abilities["triggers"])
    definition = token_definition(kind, 0)
    assert definition.triggers and definition.text.endswith(abilities["text"])


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions: dict) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 3
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


def _token_changed(kind: str, change: dict):
    def mutate(mapping: dict) -> None:
        if mapping.get("op") == "play_token" and mapping.get("token") == kind:
            mapping.update(change)

    return mutate


@pytest.mark.parametrize(
    ("token", "change"),
    [
        ("shadow clone", {"token": "reflection"}),  # the Clone read without its ability (187.11)
        ("tentacle", {"might": 2}),  # "from Bilgewater" read as another token
        ("bird", {"might": 0}),  # the Might icon read as no Might
    ],
)
def test_my_disputes_kill_a_token_read_wrong(real_db, token, change):
    mutant = read_every_card_changed(real_db, _token_changed(token, change))
    assert "mismatch" in _verdicts(mutant), f"{token} read with {change} survives every dispute 480-499"


# -- "if it was an enemy unit": whose the unit chosen was, as it was killed --------------------------------------


def test_whose_unit_it_was_reads_as_a_condition_on_the_unit_chosen():
    effects = _effects(
        "Kill a unit at a battlefield. If it was an enemy unit, draw 1. If it was a friendly unit, draw 2."
    )
    assert effects == [
        {"op": "kill", "what": "target"},
        {"op": "if_it", "it": "target", "state": "was enemy", "then": [{"op": "draw", "n": 1}]},
        {"op": "if_it", "it": "target", "state": "was friendly", "then": [{"op": "draw", "n": 2}]},
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Kill an enemy unit at a battlefield. If it was a friendly unit, draw 1.",  # a side it can't be
        "Kill a gear. If it was an enemy unit, draw 1.",  # not a unit
        "Draw 1. If it was an enemy unit, draw 1.",  # nothing chosen
    ],
)
def test_whose_unit_it_was_without_a_unit_of_either_side_is_refused(text):
    assert read(text, energy=2).status == "unread"


def test_my_disputes_kill_enemy_and_friendly_swapped(real_db):
    def swapped(mapping: dict) -> None:
        if mapping.get("op") == "if_it" and mapping.get("state") in ("was enemy", "was friendly"):
            mapping["state"] = {"was enemy": "was friendly", "was friendly": "was enemy"}[mapping["state"]]

    mutant = read_every_card_changed(real_db, swapped)
    assert "mismatch" in _verdicts(mutant), "'if it was an enemy unit' read as friendly survives disputes 480-499"


# -- tags counted among a player's units: "for each of the following tags among your units — Bird, Cat, ..." ------


@pytest.mark.parametrize(
    ("said", "tags"),
    [
        ("bird, cat, dog, and poro", (["Bird", "Cat", "Dog", "Poro"], "and")),
        ("bird, cat, dog, or poro", (["Bird", "Cat", "Dog", "Poro"], "or")),
        ("mech, dragon and poro", (["Mech", "Dragon", "Poro"], "and")),
        ("bird, cat, and yordle", None),  # not a tag the reader knows
        ("bird, bird, and cat", None),
    ],
)
def test_a_list_of_tags_reads_as_the_tags(said, tags):
    assert phrases.tag_list(said) == tags


def test_a_count_of_tags_among_your_units_reads_as_a_quantity():
    effects = _effects(
        "Choose a unit. Give it +2 [Might] this turn for each of the following tags among your units — Bird, Cat,"
        " Dog, and Poro."
    )
    amount = {"tags_among": {"who": "friendly unit"}, "tags": ["Bird", "Cat", "Dog", "Poro"], "times": 2}
    assert effects == [{"op": "might", "amount": amount, "to": "target"}]


@pytest.mark.parametrize(
    "text",
    [
        "Choose a unit. Give it +1 [Might] this turn for each of the following tags among your units — Bird, Cat,"
        " or Poro.",  # "or": not a list of tags counted
        "Choose a unit. Give it +1 [Might] this turn for each of the following tags among your units — Bird, Cat,"
        " and Yordle.",
    ],
)
def test_a_count_of_tags_not_listed_with_and_or_not_known_is_refused(text):
    assert read(text, energy=2).status == "unread"


_DISCOUNT = "Reduce my cost by [1 Energy] for each of the following tags among your units — Bird, Cat, Dog, and Poro."


def test_all_n_tags_names_the_one_list_the_card_said():
    reading = read(f"{_DISCOUNT}\nWhen I attack while your units have all 4 tags, draw 1.", "Unit", energy=9, might=8)
    assert reading.status == "read", reading.unread
    (discount,) = reading.definition["discounts"]
    assert discount["for_each"]["tags"] == ["Bird", "Cat", "Dog", "Poro"] and discount["energy"] == 1
    (trigger,) = reading.definition["triggers"]
    assert trigger["condition"] == "your units have the tags Bird, Cat, Dog, Poro" in CONDITIONS


@pytest.mark.parametrize(
    "text",
    [
        "When I attack while your units have all 4 tags, draw 1.",  # no list said before
        f"{_DISCOUNT}\nWhen I attack while your units have all 3 tags, draw 1.",  # not that list's size
    ],
)
def test_all_n_tags_without_its_list_is_refused(text):
    assert read(text, "Unit", energy=9, might=8).status == "unread"


def test_my_disputes_kill_tags_counted_as_units(real_db):
    def as_units(mapping: dict) -> None:
        if "tags_among" in mapping:
            mapping["count"] = mapping.pop("tags_among")
            mapping.pop("tags")

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, as_units)), "tags counted as units survives"


def test_my_disputes_kill_all_four_tags_dropped(real_db):
    def dropped(mapping: dict) -> None:
        if str(mapping.get("condition", "")).startswith("your units have the tags"):
            del mapping["condition"]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped)), "'while ... all 4 tags' dropped survives"


def test_hand_written_cards_carry_their_printed_tags():
    """The hand-written Pouty Poro is a Poro (133.8): dispute 485 counts it among A's tags."""
    assert "Poro" in all_cards()["Pouty Poro"].tags


# -- a tag list as a target: "return a Bird, Cat, Dog, or Poro from your trash to your hand" ----------------------


def test_a_tag_list_in_the_trash_reads_as_a_target_with_any_of_the_tags():
    reading = read("Return a Bird, Cat, Dog, or Poro from your trash to your hand.", energy=2)
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [{"op": "return_from_trash", "what": "target"}]
    spec = {"type": "unit", "zone": "trash", "tag": ["Bird", "Cat", "Dog", "Poro"]}
    assert reading.definition["targets"] == {"target": spec}


@pytest.mark.parametrize(
    "text",
    [
        "Return a Bird, Cat, Dog, and Poro from your trash to your hand.",  # "and": no one card is all of them
        "Return a Bird, Cat, or Yordle from your trash to your hand.",
    ],
)
def test_a_tag_list_not_of_alternatives_or_not_known_is_refused(text):
    assert read(text, energy=2).status == "unread"


def test_my_disputes_kill_the_tag_list_dropped(real_db):
    def untagged(mapping: dict) -> None:
        if isinstance(mapping.get("tag"), list):
            del mapping["tag"]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, untagged)), "the tag list dropped survives"


# -- "you and each opponent may ... For each opponent who did, you ..." -----------------------------------------


def test_each_player_may_and_for_each_opponent_who_did_read_as_one_instruction():
    effects = _effects(
        "You and each opponent may play a Gold gear token exhausted. For each opponent who did, you draw 1."
    )
    gold = {"op": "play_token", "token": "gold", "n": 1, "exhausted": True}
    assert effects == [
        {
            "op": "each_player",
            "players": "each",
            "optional": True,
            "effects": [gold],
            "each_opponent_who_did": [{"op": "draw", "n": 1}],
        }
    ]


@pytest.mark.parametrize(
    "text",
    [
        "You and each opponent may play a 1 [Might] Recruit unit token here.",  # "here" is the controller's
        "Draw 1. For each opponent who did, you draw 1.",  # no one chose to do anything
    ],
)
def test_each_player_may_outside_its_reading_is_refused(text):
    assert read(text, energy=2).status == "unread"


@pytest.mark.parametrize("key", ["each_opponent_who_did", "optional"])
def test_my_disputes_kill_each_player_may_read_wrong(real_db, key):
    def change(mapping: dict) -> None:
        if mapping.get("op") == "each_player" and mapping.get("optional"):
            mapping.pop(key)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, change)), f"{key} dropped survives"


# -- "play a 2 [Might] Sand Soldier unit token for each Equipment you control" -----------------------------------

_FOR_EACH_TEXT = "Play a 2 [Might] Sand Soldier unit token for each Equipment you control."
# A dispute judged with a card of that one sentence (Arise! says it with a "Then do this:" follow-up, read elsewhere)
_FOR_EACH_DISPUTE = """
meta: {id: read-test-tokens-for-each-equipment, title: "Tokens for each Equipment", tags: [card-reader, tokens]}
answer: >-
  One 2-Might Sand Soldier token (187.3) for each Equipment A controls as the spell resolves (359.3.f.2): two
  Equipment (Doran's Blade, Long Sword), and a gear without the tag (Zhonya's Hourglass) not counted; B's Equipment
  is not A's.
rules: {core: "2026-06-18"}
setup:
  turn: {player: A}
  players:
    A:
      energy: 2
      hand: [{id: spell, card: Soldiers For Each}]
      base:
        - {id: blade, card: Doran's Blade}
        - {id: sword, card: Long Sword}
        - {id: hourglass, card: Zhonya's Hourglass}
    B:
      base: [{id: b-blade, card: Doran's Blade}]
actions:
  - {by: A, do: play, card: spell}
  - {by: A, do: pass}
  - {by: B, do: pass}
expect:
  players: {A: {units: [Sand Soldier at base, Sand Soldier at base]}, B: {units: []}}
"""


def test_a_token_for_each_thing_counted_reads_as_a_counted_number():
    reading = read(_FOR_EACH_TEXT, energy=2)
    assert reading.status == "read", reading.unread
    count = {"count": {"who": "friendly gear", "tag": "Equipment"}, "times": 1}
    assert reading.definition["effects"] == [{"op": "play_token", "token": "sand soldier", "might": 2, "n": count}]


def test_a_token_for_each_equipment_is_played_once_per_equipment_and_its_mutant_dies(tmp_path):
    dispute = tmp_path / "read-test-tokens-for-each-equipment.yaml"
    dispute.write_text(_FOR_EACH_DISPUTE)
    definition = {**read(_FOR_EACH_TEXT, energy=2).definition, "name": "Soldiers For Each", "real": None}
    definition["made_up"] = True
    assert verdicts_with({"Soldiers For Each": definition}, [dispute]) == ["match"]
    once = {**definition, "effects": [{**definition["effects"][0], "n": 1}]}  # the count dropped: one token
    assert verdicts_with({"Soldiers For Each": once}, [dispute]) == ["mismatch"]


# -- "As you play me, choose Bird, Cat, Dog, or Poro. I gain that tag." and "... if your units have all of ..." --


def test_a_tag_chosen_as_played_reads_as_the_tags_to_choose_among():
    reading = read(
        "As you play me, choose Bird, Cat, Dog, or Poro. I gain that tag.\nWhen I hold, score 1 point if your units"
        " have all of the following tags among them — Bird, Cat, Dog, and Poro.",
        "Unit",
        energy=6,
        might=6,
    )
    assert reading.status == "read", reading.unread
    assert reading.definition["choose_tag"] == ["Bird", "Cat", "Dog", "Poro"]
    (trigger,) = reading.definition["triggers"]
    word = "your units have the tags Bird, Cat, Dog, Poro"
    assert trigger["effects"] == [{"op": "if", "condition": word, "then": [{"op": "score", "n": 1}]}]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("As you play me, choose Bird, Cat, Dog, and Poro. I gain that tag.", "Unit"),  # not a choice
        ("As you play me, choose Bird, Cat, or Yordle. I gain that tag.", "Unit"),
        ("Draw 1 if your units have all of the following tags among them — Bird, Cat, and Dog.", "Spell"),  # no set
    ],
)
def test_a_tag_choice_or_tag_set_outside_the_reading_is_refused(text, kind):
    assert read(text, kind, energy=6, might=6).status == "unread"


@pytest.mark.parametrize("key", ["choose_tag", "condition"])
def test_my_disputes_kill_the_chosen_tag_or_its_condition_dropped(real_db, key):
    def dropped(mapping: dict) -> None:
        if key == "choose_tag":
            mapping.pop("choose_tag", None)
        elif mapping.get("op") == "if" and str(mapping.get("condition", "")).startswith("your units have the tags"):
            mapping["else"] = mapping["then"]  # done whether the tags are there or not

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped)), f"{key} dropped survives"


# -- "Return up to two cards with [Hidden] from your trash ..." and "You can hide cards ignoring costs this turn" --


def test_up_to_two_cards_with_a_keyword_in_the_trash_read_as_two_optional_targets():
    reading = read(
        "Return up to two cards with [Hidden] from your trash to your hand. You can hide cards ignoring costs this"
        " turn.",
        energy=2,
    )
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [
        {"op": "return_from_trash", "what": ["target", "other"]},
        {"op": "hide_ignoring_costs"},
    ]
    spec = {"type": "card", "zone": "trash", "keyword": "Hidden", "optional": True}
    assert reading.definition["targets"] == {"target": spec, "other": {**spec, "not_target": "target"}}


def test_up_to_two_cards_with_an_unknown_keyword_are_refused():
    assert read("Return up to two cards with [Sparkly] from your trash to your hand.", energy=2).status == "unread"


@pytest.mark.parametrize("mutant", ["keyword dropped", "hides still paid"])
def test_my_disputes_kill_the_hidden_readings_wrong(real_db, mutant):
    def change(mapping: dict) -> None:
        if mutant == "keyword dropped" and mapping.get("zone") == "trash":
            mapping.pop("keyword", None)
        if mutant == "hides still paid" and mapping.get("op") == "hide_ignoring_costs":
            mapping.update({"op": "draw", "n": 0})

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, change)), f"{mutant} survives"


# -- "This costs [2 Energy] less if you choose a Bird, Cat, Dog, or Poro" -----------------------------------------


def test_a_discount_on_a_chosen_tag_reads_as_the_tags_chosen():
    reading = read(
        "This costs [2 Energy] less if you choose a Bird, Cat, Dog, or Poro.\nReturn a unit from your trash to"
        " your hand.",
        energy=3,
    )
    assert reading.status == "read", reading.unread
    assert reading.definition["discounts"] == [{"energy": 2, "chosen_tag": ["Bird", "Cat", "Dog", "Poro"]}]


def test_a_discount_on_a_chosen_tag_of_a_unit_or_an_unknown_tag_is_refused():
    unit = read("This costs [2 Energy] less if you choose a Bird, Cat, Dog, or Poro.", "Unit", energy=3, might=2)
    assert unit.status == "unread"  # a unit chooses nothing as it is played (355.5.b)
    assert read("This costs [2 Energy] less if you choose a Bird or Yordle.\nDraw 1.", energy=3).status == "unread"


def test_my_disputes_kill_the_chosen_tag_of_a_discount_dropped(real_db):
    def dropped(mapping: dict) -> None:
        mapping.pop("chosen_tag", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped)), "the discount's chosen tag survives"


# -- "Choose a unit you control at another location. Move me to its location and it to my original location." ----


def test_a_swap_of_locations_reads_as_one_instruction_on_me_and_the_unit_chosen():
    reading = read(
        "When you play me, you may choose a unit you control at another location. Move me to its location and it"
        " to my original location.",
        "Unit",
        energy=2,
        might=2,
    )
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["optional"] and trigger["effects"] == [{"op": "swap_locations", "a": "this", "b": "target"}]
    assert trigger["targets"] == {"target": {"type": "unit", "side": "friendly", "where": "not_here"}}


def test_a_swap_of_locations_without_a_unit_chosen_or_on_a_spell_is_refused():
    assert read("Move me to its location and it to my original location.", "Unit", might=2).status == "unread"
    spell = "Choose a unit you control. Move me to its location and it to my original location."
    assert read(spell, energy=2).status == "unread"  # a spell is on no location ("me" is no unit)


@pytest.mark.parametrize("mutant", ["anywhere", "only me"])
def test_my_disputes_kill_the_swap_read_wrong(real_db, mutant):
    def change(mapping: dict) -> None:
        if mutant == "anywhere" and mapping.get("where") == "not_here" and mapping.get("side") == "friendly":
            mapping.pop("where")
        if mutant == "only me" and mapping.get("op") == "swap_locations":
            mapping.clear()
            mapping.update({"op": "move", "what": "this", "to": "location_of:target"})

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, change)), f"the swap read {mutant} survives"


def test_a_swap_with_a_token_kind_reads_as_a_unit_of_that_name():
    reading = read(
        "[1 Energy]: Move me and a Shadow Clone you control to each other's locations.", "Unit", energy=5, might=5
    )
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert ability["effects"] == [{"op": "swap_locations", "a": "this", "b": "unit"}]
    assert ability["targets"] == {"unit": {"type": "unit", "side": "friendly", "name": "Shadow Clone"}}
    zaun = "[1 Energy]: Move me and a Chemtech Golem you control to each other's locations."  # no such token (187)
    assert read(zaun, "Unit", energy=5, might=5).status == "unread"


def test_my_disputes_kill_the_token_name_dropped(real_db):
    def dropped(mapping: dict) -> None:
        mapping.pop("name", None) if mapping.get("name") == "Shadow Clone" else None

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped)), "'a Shadow Clone' as any unit survives"
