"""The reader's family of further trigger conditions (scenarios/card_reader/trigger_conditions.py) and a spell's
delayed triggers on the unit it chose (effects._when_this_turn): read-card disputes 261-279 judge them with the
real read cards under Core Rules 1.4, and a mutant of each reading is killed by those disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, swap_reader, verdicts_with

from scenarios.card_reader import CardText, effects, read_card, readers, trigger_conditions
from scenarios.cards import Card

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-2[67]*.yaml")
    if 261 <= int(p.name.split("-")[1]) <= 279
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


@pytest.mark.parametrize(
    ("head", "events"),
    [
        ("When a buffed friendly unit dies", [{"event": "die", "who": "friendly unit", "buffed": True}]),
        ("When a buffed enemy unit dies", [{"event": "die", "who": "enemy unit", "buffed": True}]),
        ("The first time a friendly unit dies each turn", [{"event": "die", "who": "friendly unit", "nth": 1}]),
        ("When this leaves the board", [{"event": "leave_board", "who": "self"}]),
        (
            "When another non-Recruit unit you control dies",
            [{"event": "die", "who": "other friendly unit", "not_tag": "Recruit"}],
        ),
        ("When a unit you control dies", [{"event": "die", "who": "friendly unit"}]),
        (
            "When you conquer here with one or more [Mighty] units",
            [{"event": "conquer", "who": "friendly unit", "mighty": True, "where": "here"}],
        ),
        ("When you defend at a battlefield", [{"event": "defend", "who": "you", "where": "battlefield"}]),
        (
            "When you [Stun] an enemy unit at a battlefield",
            [{"event": "stun", "who": "enemy unit", "by": "you", "where": "battlefield"}],
        ),
        ("When you play a token unit", [{"event": "play", "who": "friendly unit", "by": "you", "token": True}]),
        ("When you play me or I attack", [{"event": "play", "who": "self"}, {"event": "attack", "who": "self"}]),
        (
            "When you use an activated ability of a gear",
            [{"event": "activate", "who": "you", "card_type": "gear"}],
        ),
    ],
)
def test_trigger_conditions_read_into_their_events(head, events):
    reading = read(f"{head}, draw 1.", might=2)
    assert reading.status == "read", reading.unread
    assert [t["when"] for t in reading.definition["triggers"]] == events
    assert "limit" not in reading.definition["triggers"][0]  # the first death is counted, not once a turn
    Card.model_validate(reading.definition)


def test_the_first_time_of_an_unknown_event_is_still_refused():
    reading = read("The first time a friendly unit dies during your Beginning Phase each turn, draw 1.", might=2)
    assert reading.status == "unread"
    assert read("When another non-Zorp unit you control dies, draw 1.", might=2).unread == ["non-zorp"]


def test_a_paragraph_of_two_triggers_reads_as_two_abilities():
    text = (
        "When I win a combat, draw 1. When I attack or defend, you may pay [Fury rune] to give me +2 [Might] this turn."
    )
    triggers = read(text, might=4).definition["triggers"]
    assert [t["when"]["event"] for t in triggers] == ["win_combat", "attack", "defend"]
    assert triggers[0]["effects"] == [{"op": "draw", "n": 1}] and "cost" not in triggers[0]
    assert triggers[1]["cost"] == {"domain_power": {"Fury": 1}} and triggers[1]["optional"] is True
    assert triggers[1]["effects"] == [{"op": "might", "amount": 2, "to": "this"}]
    # one trigger with a second sentence of its own instructions is not split
    (one,) = read("When I attack, draw 1. Give me +1 [Might] this turn.", might=4).definition["triggers"]
    assert len(one["effects"]) == 2
    # a second sentence not read refuses the paragraph, never half of it
    assert read("When I attack, draw 1. When I hold, flibber.", might=4).status == "unread"


@pytest.mark.parametrize(
    ("text", "event", "once"),
    [
        ("Deal 3 to an enemy unit. When it dies this turn, draw 1.", "die", True),
        ("Give a friendly unit +3 [Might] this turn. When it wins a combat this turn, gain 2 XP.", "win_combat", False),
    ],
)
def test_a_spells_delayed_trigger_about_the_unit_it_chose(text, event, once):
    reading = read(text, "Spell")
    assert reading.status == "read", reading.unread
    delayed = reading.definition["effects"][-1]
    assert delayed["op"] == "delayed" and delayed["when"] == {"event": event, "who": "it"}
    assert delayed["it"] == "target" and delayed.get("once", True) is once


def test_a_dying_it_the_delayed_instructions_name_is_refused():
    assert read("Deal 3 to an enemy unit. When it dies this turn, banish it.", "Spell").status == "unread"
    assert read("When a friendly unit wins a combat this turn, draw 1.", "Spell").status == "unread"


def test_move_me_there_is_the_battlefield_of_the_trigger():
    (pup,) = read("When you defend at a battlefield, you may move me there.", might=3).definition["triggers"]
    assert pup["effects"] == [{"op": "move", "what": "this", "to": "trigger_location"}] and pup["optional"] is True
    assert read("When I conquer, move me there.", might=3).status == "unread"  # no battlefield said: no "there"
    (vex,) = read("When you stun an enemy unit at a battlefield, move me to that battlefield.").definition["triggers"]
    assert vex["effects"] == [{"op": "move", "what": "this", "to": "trigger_location"}]


def test_the_gold_tokens_reminder_restates_it():
    text = 'Play a Gold gear token exhausted. (It has "[Reaction][>] Kill this, [Exhaust]: [Add] [Any rune].")'
    assert read(text, "Spell").status == "read"
    assert read('Draw 1. (It has "[Reaction][>] Kill this, [Exhaust]: [Add] [Any rune].")', "Spell").status == "unread"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


def _verdicts(real_db) -> list[str]:
    return verdicts_with(read_every_card(real_db), MINE)


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 5
    assert all(yaml.safe_load(path.read_text())["rules"]["core"] >= "2026-06-18" for path in MINE)  # Core Rules 1.4
    assert set(_verdicts(real_db)) == {"match"}


TRIGGER_MUTANTS = {
    "a dying unit's buff ignored": lambda e: {k: v for k, v in e.items() if k != "buffed"},
    "the first death read as any death": lambda e: {k: v for k, v in e.items() if k != "nth"},
    "a Recruit's death read as any unit's": lambda e: {k: v for k, v in e.items() if k != "not_tag"},
    "any object's ability read as a gear's": lambda e: {k: v for k, v in e.items() if k != "card_type"},
    "a token played read as any unit played": lambda e: {k: v for k, v in e.items() if k != "token"},
    "a conquest with any units": lambda e: {k: v for k, v in e.items() if k != "mighty"},
    "a defence read as an attack": lambda e: {**e, "event": "attack"} if e["event"] == "defend" else e,
    "a stunned unit of either side": lambda e: {**e, "who": "unit"} if e["event"] == "stun" else e,
    "leaving the board read as being played": lambda e: {**e, "event": "play"} if e["event"] == "leave_board" else e,
}


@pytest.mark.parametrize("mutant", TRIGGER_MUTANTS)
def test_my_disputes_kill_a_mutant_of_each_trigger_condition(mutant, real_db, monkeypatch):
    from scenarios.card_reader import abilities

    change = TRIGGER_MUTANTS[mutant]
    mine = {family for family, _, _ in trigger_conditions.ADDED}
    patched = [
        (f, p, (lambda m, b=b: [change(dict(e)) for e in b(m)]) if f in mine else b) for f, p, b in abilities.TRIGGERS
    ]
    monkeypatch.setattr(abilities, "TRIGGERS", patched)
    assert "mismatch" in _verdicts(real_db), f"the mutant {mutant!r} survives every read-card dispute 261-279"


def test_my_disputes_kill_a_paragraph_read_as_its_first_trigger_only(real_db, monkeypatch):

    def first_only(text, card, used, around):
        if not trigger_conditions.read_several_triggers(text, card, used, around):
            return False
        card["triggers"] = card["triggers"][:1]
        return True

    swap_reader(monkeypatch, trigger_conditions.read_several_triggers, first_only)
    assert "mismatch" in _verdicts(real_db)


def test_my_disputes_kill_a_delayed_death_read_as_damage(real_db, monkeypatch):
    def damaged(m, ctx):
        found = effects._when_this_turn(m, ctx)
        if found is None:
            return None
        return [
            {**i, "when": {**i["when"], "event": "takes_damage"}} if i["when"]["event"] == "die" else i for i in found
        ]

    templates = [(f, p, damaged if b is effects._when_this_turn else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", templates)
    assert "mismatch" in _verdicts(real_db)


def test_my_disputes_kill_the_first_death_read_as_once_a_turn(real_db, monkeypatch):
    """Once a turn is not the first time: a unit that died before the source came to the board was the first."""
    from scenarios.card_reader import abilities

    def once_a_turn(text, card, used, around):
        first = "the first time a friendly unit dies each turn, "
        if not text.startswith(first):
            return False
        return abilities.read_trigger("once each turn, when a friendly unit dies, " + text[len(first) :], card, used)

    monkeypatch.setattr(readers, "READERS", [("first", once_a_turn), *readers.READERS])
    assert "mismatch" in _verdicts(real_db)


def test_a_trigger_while_im_at_a_battlefield_has_that_condition():
    text = "Once each turn, when an enemy unit dies while I'm at a battlefield, draw 1."
    (trigger,) = read(text, might=2).definition["triggers"]
    assert trigger["when"] == {"event": "die", "who": "enemy unit"}
    assert trigger["condition"] == "at a battlefield" and trigger["limit"] == "once_per_turn"
    assert read("When I flibber while I'm at a battlefield, draw 1.", might=2).status == "unread"
    (beans,) = read("When you play a unit during a showdown, draw 1.", "Gear").definition["triggers"]
    assert beans["when"] == {"event": "card_played", "who": "you", "card_type": "unit"}
    assert beans["condition"] == "during a showdown"


@pytest.mark.parametrize("word", ["at a battlefield", "during a showdown"])
def test_my_disputes_kill_a_trigger_without_its_condition(word, real_db, monkeypatch):

    def unconditional(text, card, used, around):
        if not trigger_conditions.read_while_at_a_battlefield(text, card, used, around):
            return False
        if card["triggers"][-1]["condition"] == word:
            card["triggers"][-1].pop("condition")
        return True

    swap_reader(monkeypatch, trigger_conditions.read_while_at_a_battlefield, unconditional)
    assert "mismatch" in _verdicts(real_db)
