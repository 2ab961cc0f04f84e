"""Countering and restrictions read from card text: "Counter a spell unless its controller pays [2 Energy]" (the
spell's controller chooses as it resolves, 355.17; 425.1), "This can't be countered" (054.1). Read-card disputes 760-779 judge the readings with the
real read cards, and mutants of the readings are killed by those disputes."""

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
    if 760 <= int(p.name.split("-")[1]) <= 779
)


def _read(text: str, kind: str = "Spell") -> dict:
    reading = read_card(CardText("Some Card", kind, text, might=3 if kind == "Unit" else None))
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    return reading.definition


def test_counter_unless_its_controller_pays_reads_as_a_payment_by_the_spells_controller():
    definition = _read("Counter a spell unless its controller pays [2 Energy].")
    assert definition["targets"] == {"target": {"type": "spell"}}
    assert definition["effects"] == [
        {"op": "pay_to", "cost": {"energy": 2}, "payer": "target", "else": [{"op": "counter", "what": "target"}]}
    ]


def test_this_cant_be_countered_is_the_spells_own_restriction():
    definition = _read("This can't be countered.\nDeal 4 to an enemy unit.")
    assert definition["restrictions"] == ["uncounterable"]
    assert definition["effects"] == [{"op": "deal", "amount": 4, "to": "target"}]


def test_this_cant_be_countered_is_read_on_spells_only():
    assert read_card(CardText("Some Card", "Unit", "This can't be countered.", might=3)).status != "read"


def test_use_my_abilities_only_conditions_each_activated_ability():
    definition = _read(
        "[1 Energy]: Draw 1.\n[Exhaust]: Score 1 point.\nUse my abilities only while I'm at a battlefield.", "Unit"
    )
    assert [a["condition"] for a in definition["activated"]] == ["at a battlefield", "at a battlefield"]


@pytest.mark.parametrize(
    "text",
    [
        "Use my abilities only while I'm at a battlefield.\n[1 Energy]: Draw 1.",  # none read before it
        "[1 Energy]: Draw 1. Use only if you've chosen an enemy unit this turn.\n"
        "Use my abilities only while I'm at a battlefield.",  # a condition of its own
    ],
)
def test_use_my_abilities_only_is_unread_without_abilities_to_condition(text):
    assert read_card(CardText("Some Card", "Unit", text, might=3)).status != "read"


def test_mageseeker_wardens_restrictions_are_passives_under_its_condition():
    definition = _read(
        "While I'm at a battlefield, opponents can only play units to their base.\n"
        "While I'm at a battlefield, spells and abilities can't ready enemy units and gear.",
        "Unit",
    )
    assert definition["passives"] == [
        {"to": {"who": "opponent"}, "restrictions": ["units_only_to_base"], "condition": "at a battlefield"},
        {"to": {"who": "enemy unit"}, "restrictions": ["no_ready_by_effects"], "condition": "at a battlefield"},
        {"to": {"who": "enemy gear"}, "restrictions": ["no_ready_by_effects"], "condition": "at a battlefield"},
    ]


def test_a_counter_if_another_spell_was_played_excludes_the_spell_chosen():
    definition = _read("Counter a spell if an opponent has played another spell this turn.")
    assert definition["effects"] == [
        {
            "op": "if",
            "condition": "an opponent has played another spell this turn",
            "other_than": "target",
            "then": [{"op": "counter", "what": "target"}],
        }
    ]


def test_a_counter_under_an_unknown_condition_is_not_read():
    assert read_card(CardText("Some Card", "Spell", "Counter a spell if it rains.")).status != "read"


@pytest.mark.parametrize(
    ("turns", "n"),
    [("first", 1), ("first or second", 2), ("first, second, or third", 3)],
)
def test_not_played_on_your_first_turns_is_the_cards_own_restriction(turns, n):
    definition = _read(f"I can't be played on your {turns} turns.", "Unit")
    assert definition["restrictions"] == [f"not_played_on_your_first_{n}_turns"]


def test_no_score_until_their_third_turn_is_a_battlefields_passive_on_players_there():
    definition = _read("Players can't score here until their third turn.", "Battlefield")
    assert definition["passives"] == [
        {"to": {"who": "player", "where": "here"}, "restrictions": ["no_score_here_before_turn_3"]}
    ]


def test_they_cant_move_it_restricts_the_controller_of_the_unit_played():
    definition = _read("When an opponent plays a unit, [Stun] it. They can't move it this turn.", "Unit")
    assert definition["triggers"][0]["effects"][1] == {
        "op": "restrict",
        "players": "controller",
        "what": "trigger_unit",
        "restriction": "no_move_it",
    }


def test_they_cant_move_a_chosen_unit_is_not_read():
    """ "They" names no player for a unit the card chose: not read."""
    text = "Stun an enemy unit. They can't move it this turn."
    assert read_card(CardText("Some Card", "Spell", text)).status != "read"


def test_play_me_only_to_a_battlefield_you_conquered_is_the_units_own_restriction():
    text = "Play me only to a battlefield you conquered this turn. (You can't play me anywhere else.)"
    assert _read(text, "Unit")["restrictions"] == ["only_to_conquered_battlefield"]


def test_a_plain_counter_has_no_payment():
    assert _read("Counter a spell.")["effects"] == [{"op": "counter", "what": "target"}]


@pytest.mark.parametrize("text", ["Counter a spell unless its controller pays a lot."])
def test_an_unknown_payment_is_not_read(text):
    assert read_card(CardText("Some Card", "Spell", text)).status != "read"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert MINE
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


def test_my_disputes_kill_the_payment_made_by_the_counters_controller(real_db):
    """The mutant: "its controller" read as the countering spell's controller (no `payer`)."""

    def own_payer(mapping: dict) -> None:
        if mapping.get("op") == "pay_to":
            mapping.pop("payer", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, own_payer))


def test_my_disputes_kill_a_counter_done_even_when_paid(real_db):
    """The mutant: the spell countered whether or not its controller pays."""

    def always(mapping: dict) -> None:
        if mapping.get("op") == "pay_to" and "else" in mapping:
            mapping["then"] = list(mapping["else"])

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, always))


def test_my_disputes_kill_the_uncounterable_restriction_dropped(real_db):
    """The mutant: "This can't be countered" read as nothing."""

    def dropped(mapping: dict) -> None:
        if "uncounterable" in mapping.get("restrictions", ()):
            mapping["restrictions"] = [w for w in mapping["restrictions"] if w != "uncounterable"]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped))


def test_my_disputes_kill_the_use_only_condition_dropped(real_db):
    """The mutant: "Use my abilities only while I'm at a battlefield" read as nothing."""

    def anywhere(mapping: dict) -> None:
        if mapping.get("condition") == "at a battlefield" and "cost" in mapping:
            del mapping["condition"]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, anywhere))


def _dropping(word: str):
    def change(mapping: dict) -> None:
        if word in mapping.get("restrictions", ()):
            mapping["restrictions"] = [w for w in mapping["restrictions"] if w != word]

    return change


@pytest.mark.parametrize("word", ["units_only_to_base", "no_ready_by_effects", "only_to_conquered_battlefield"])
def test_my_disputes_kill_a_restriction_dropped(real_db, word):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, _dropping(word)))


def test_my_disputes_kill_the_readying_restriction_on_friendly_units(real_db):
    """The mutant: "enemy units and gear" read as every unit and gear."""

    def everyone(mapping: dict) -> None:
        if "no_ready_by_effects" in mapping.get("restrictions", ()):
            mapping["to"]["who"] = mapping["to"]["who"].split()[-1]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, everyone))


def test_my_disputes_kill_the_restrictions_condition_dropped(real_db):
    """The mutant: the passives active wherever Mageseeker Warden is."""

    def always(mapping: dict) -> None:
        if {"units_only_to_base", "no_ready_by_effects"} & set(mapping.get("restrictions", ())):
            mapping.pop("condition", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, always))


def test_my_disputes_kill_another_spell_read_as_any_spell(real_db):
    """The mutant: the spell chosen counted as the opponent's other spell."""

    def any_spell(mapping: dict) -> None:
        if mapping.get("op") == "if":
            mapping.pop("other_than", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, any_spell))


def test_my_disputes_kill_the_counters_condition_dropped(real_db):
    def unconditional(mapping: dict) -> None:
        if mapping.get("op") == "if" and mapping.get("condition") == "an opponent has played another spell this turn":
            mapping["condition"] = "an opponent's turn"  # true for B in the disputes: the condition ignored

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, unconditional))


@pytest.mark.parametrize("word", ["not_played_on_your_first_3_turns", "no_score_here_before_turn_3"])
def test_my_disputes_kill_a_turn_restriction_dropped(real_db, word):
    assert "mismatch" in _verdicts(read_every_card_changed(real_db, _dropping(word)))


@pytest.mark.parametrize(
    ("word", "fewer"),
    [
        ("not_played_on_your_first_3_turns", "not_played_on_your_first_2_turns"),
        ("no_score_here_before_turn_3", "no_score_here_before_turn_2"),
    ],
)
def test_my_disputes_kill_a_turn_restriction_one_turn_short(real_db, word, fewer):
    """The mutant: "third" read as "second"."""

    def shorter(mapping: dict) -> None:
        if word in mapping.get("restrictions", ()):
            mapping["restrictions"] = [fewer if w == word else w for w in mapping["restrictions"]]

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, shorter))


def test_my_disputes_kill_they_cant_move_it_dropped(real_db):
    def dropped(mapping: dict) -> None:
        if mapping.get("op") == "restrict" and mapping.get("restriction") == "no_move_it":
            mapping["restriction"] = "unchoosable_by_enemy"  # another restriction of theirs: moving it allowed

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped))
