"""Trigger conditions: a counted "if" right after a trigger's condition is part of it (383.2.a.1), as a condition
word already was: "When I hold, if there is exactly one other unit you control here, draw 1" triggers only if the
count holds as the event happens, and resolves even if it stops holding in reaction. Read-card disputes 420-439
judge them with the real read cards, and a mutant of each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card
from scenarios.kernel import CONDITIONS
from scenarios.selectors import Counted

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-4*.yaml")
    if 420 <= int(p.name.split("-")[1]) <= 439
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def _trigger(text: str, kind: str = "Unit", **numbers) -> dict:
    reading = read(text, kind, **numbers)
    assert reading.status == "read", reading.unread
    card = Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    assert isinstance(card.triggers[0].condition, Counted)
    return trigger


def test_an_exact_count_right_after_a_trigger_is_its_condition():
    trigger = _trigger("When I hold, if there is exactly one other unit you control here, draw 1.", might=3)
    assert trigger["condition"] == {
        "amount": {"count": {"who": "other friendly unit", "where": "here"}},
        "at_least": 1,
        "at_most": 1,
    }
    assert trigger["effects"] == [{"op": "draw", "n": 1}]  # not the effect's any more (383.2.a.1)


@pytest.mark.parametrize(
    ("text", "bounds"),
    [
        ("When you hold here, if you have 7+ units here, you win the game.", {"at_least": 7}),
        ("When you play me, if you control two or more gear, ready me.", {"at_least": 2}),
        ("When I attack, if an enemy unit is alone here, draw 1.", {"at_least": 1, "at_most": 1}),
    ],
)
def test_each_counted_if_reads_as_a_counted_condition(text, bounds):
    trigger = _trigger(text, "Battlefield" if "here, if you have" in text else "Unit", might=3)
    assert {k: v for k, v in trigger["condition"].items() if k != "amount"} == bounds


def test_a_count_later_in_the_effect_stays_the_effects():
    """383.2.a.1's second example: an "if" not right after the condition is the effect's, checked as it resolves."""
    reading = read("When I attack, draw 1. If you have 4+ units here, draw 1.", might=3)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert "condition" not in trigger and trigger["effects"][1]["op"] == "if_amount"


def test_a_count_with_an_otherwise_is_not_a_trigger_condition():
    """ "..., if X, A. Otherwise, B": both halves are the effect's; a trigger condition has no else."""
    reading = read("When I attack, if you have 4+ units here, draw 2. Otherwise, draw 1.", might=3)
    assert reading.status == "unread"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(definitions) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return verdicts_with(definitions, MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 4
    assert set(_verdicts(read_every_card(real_db))) == {"match"}


def _counted(mapping: dict) -> bool:
    return isinstance(mapping.get("condition"), dict) and "when" in mapping


def test_my_disputes_kill_a_counted_condition_checked_on_resolution(real_db):
    """The mutant: the count back in the effect, checked as the ability resolves (364.3.a) instead of as the event
    happens: it triggers when the count fails, and does nothing when it stops holding in reaction."""

    def on_resolution(mapping: dict) -> None:
        if _counted(mapping):
            condition = mapping.pop("condition")
            mapping.pop("if_clause", None)
            mapping["effects"] = [{"op": "if_amount", **condition, "then": mapping["effects"]}]

    verdicts = _verdicts(read_every_card_changed(real_db, on_resolution))
    assert "mismatch" in verdicts, "a counted trigger condition checked on resolution survives disputes 420-439"


def test_my_disputes_kill_a_counted_condition_dropped(real_db):
    def dropped(mapping: dict) -> None:
        if _counted(mapping):
            mapping.pop("condition")
            mapping.pop("if_clause", None)

    verdicts = _verdicts(read_every_card_changed(real_db, dropped))
    assert "mismatch" in verdicts, "a counted trigger condition dropped survives disputes 420-439"


def test_my_disputes_kill_an_exact_count_read_as_at_least(real_db):
    def at_least(mapping: dict) -> None:
        if _counted(mapping):
            mapping["condition"].pop("at_most", None)

    verdicts = _verdicts(read_every_card_changed(real_db, at_least))
    assert "mismatch" in verdicts, "'exactly one' read as 'one or more' survives disputes 420-439"


# -- trigger events ------------------------------------------------------------------------------------------------


def test_the_first_card_each_turn_is_the_first_counted():
    """419.4.a counts the cards played this turn; a token is not a card (185), so it is neither counted nor seen."""
    reading = read("When you play your first card each turn, draw 1.", might=3)
    assert reading.status == "read", reading.unread
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "card_played", "who": "you", "card_type": "card", "nth": 1}


def test_a_combat_i_was_in_ending_is_my_combat_end():
    reading = read("When a combat that I was in ends, empower me.", might=3)
    assert reading.status == "read", reading.unread
    assert reading.definition["triggers"][0]["when"] == {"event": "combat_end", "who": "self"}


def _when_changed(real_db, event: str, change: dict) -> list[str]:
    def changed(mapping: dict) -> None:
        if mapping.get("event") == event:
            mapping.update(change)

    return _verdicts(read_every_card_changed(real_db, changed))


def test_my_disputes_kill_the_first_card_read_as_the_second(real_db):
    assert "mismatch" in _when_changed(real_db, "card_played", {"nth": 2}), "first read as second survives 420-439"


def test_my_disputes_kill_a_combat_i_was_in_read_as_any_friendly_units(real_db):
    verdicts = _when_changed(real_db, "combat_end", {"who": "friendly unit"})
    assert "mismatch" in verdicts, "'a combat that I was in' read as any friendly unit's survives 420-439"


def test_a_conquest_of_an_uncontrolled_battlefield_is_a_conquer_event_so_marked():
    reading = read("When I conquer a battlefield that was uncontrolled, draw 1.", might=3)
    assert reading.status == "read", reading.unread
    assert reading.definition["triggers"][0]["when"] == {"event": "conquer", "who": "self", "uncontrolled": True}


def test_my_disputes_kill_an_uncontrolled_battlefield_read_as_any(real_db):
    def any_battlefield(mapping: dict) -> None:
        mapping.pop("uncontrolled", None)

    verdicts = _verdicts(read_every_card_changed(real_db, any_battlefield))
    assert "mismatch" in verdicts, "'a battlefield that was uncontrolled' read as any survives disputes 420-439"


def test_a_discard_of_me_is_seen_from_the_trash():
    """383.2.c.1: discarded, the card is in the trash as the event is evaluated; its ability is active there."""
    (trigger,) = read("When you discard me, draw 1.", might=3).definition["triggers"]
    assert trigger["when"] == {"event": "discard", "who": "self", "by": "you"} and trigger["active_in"] == "trash"
    heap = read("When this is played, discarded, or killed, draw 1.", "Gear", energy=2)
    assert heap.status == "read", heap.unread
    assert [(t["when"]["event"], t.get("active_in")) for t in heap.definition["triggers"]] == [
        ("play", None),
        ("discard", "trash"),
        ("die", None),
    ]
    assert read("When this is played, discarded, or stunned, draw 1.", "Gear", energy=2).status == "unread"


def test_my_disputes_kill_a_discard_trigger_active_on_the_board(real_db):
    def on_the_board(mapping: dict) -> None:
        mapping.pop("active_in", None)

    verdicts = _verdicts(read_every_card_changed(real_db, on_the_board))
    assert "mismatch" in verdicts, "'when you discard me' active on the board survives disputes 420-439"


def test_a_card_played_from_anywhere_other_than_your_hand():
    (trigger,) = read("When you play a card from anywhere other than your hand, draw 1.", might=3).definition[
        "triggers"
    ]
    assert trigger["when"] == {"event": "card_played", "who": "you", "card_type": "card", "from_hand": False}


def test_my_disputes_kill_a_play_from_anywhere_read_as_from_hand(real_db):
    assert "mismatch" in _when_changed(real_db, "card_played", {"from_hand": True}), "from hand survives 420-439"


def test_not_dealt_damage_this_turn_is_a_condition_word_of_its_own():
    text = "When a combat that I was in ends, if I haven't been dealt damage this turn, draw 1."
    (trigger,) = read(text, might=3).definition["triggers"]
    assert trigger["condition"] == "not dealt damage this turn" and trigger["effects"] == [{"op": "draw", "n": 1}]
    assert {"not dealt damage this turn", "dealt damage this turn"} <= set(CONDITIONS)


def test_my_disputes_kill_not_dealt_damage_read_as_dealt_damage(real_db):
    def flipped(mapping: dict) -> None:
        if mapping.get("condition") == "not dealt damage this turn":
            mapping["condition"] = "dealt damage this turn"

    verdicts = _verdicts(read_every_card_changed(real_db, flipped))
    assert "mismatch" in verdicts, "'haven't been dealt damage' read as 'have been' survives disputes 420-439"


def test_one_on_one_and_this_combat():
    (attack, defend) = read("When I attack or defend one on one, double my Might this combat.", might=3).definition[
        "triggers"
    ]
    assert (attack["when"]["event"], defend["when"]["event"]) == ("attack", "defend")
    assert attack["when"]["one_on_one"] is True
    assert attack["effects"] == [{"op": "might", "amount": {"double": "this"}, "to": "this", "until": "combat"}]


def test_my_disputes_kill_one_on_one_dropped(real_db):
    def dropped(mapping: dict) -> None:
        mapping.pop("one_on_one", None)

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped)), "one on one dropped survives 420-439"


def test_my_disputes_kill_this_combat_read_as_this_turn(real_db):
    def this_turn(mapping: dict) -> None:
        if mapping.get("until") == "combat" and mapping.get("op") == "might":
            mapping.pop("until")

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, this_turn)), "this combat as turn survives"


def test_a_play_from_face_down_on_your_turn():
    text = "When you play me from face down on your turn, you may move an enemy unit at a different location to my battlefield."
    (trigger,) = read(text, might=2).definition["triggers"]
    assert trigger["when"] == {"event": "play", "who": "self", "from_hidden": True}
    assert trigger["condition"] == "your turn" and trigger["targets"]["target"]["where"] == "not_here"
    # a friendly unit could go to my base: "my battlefield" is no "here" for it
    friendly = "When you play me, move a friendly unit at a different location to my battlefield."
    assert read(friendly, might=2).status == "unread"


def test_my_disputes_kill_on_your_turn_dropped(real_db):
    def dropped(mapping: dict) -> None:
        if mapping.get("condition") == "your turn":
            mapping.pop("condition")

    assert "mismatch" in _verdicts(read_every_card_changed(real_db, dropped)), "on your turn dropped survives"


def test_my_disputes_kill_from_face_down_dropped(real_db):
    assert "mismatch" in _when_changed(real_db, "play", {"from_hidden": None}), "from face down dropped survives"
