"""Choices and hand-written oracle cards: "choose a player" (any player, its controller too; 355.9, 355.10); a
tie's replacement ("If a combat where you are the attacker ends in a tie, recall all units instead", 466.1.a.2,
740.3.a); "When a player chooses a friendly unit here with a spell for the first time each turn, they draw 1"
(any player, the unit friendly to them, and they draw: 190.6.c, 740.1.a); what a player spent (357.1): "If you've
spent [4 Energy] or more to play a spell this turn", "If you've spent at least [A][A] this turn" (conditions of a
passive, 364.3.a), "When you play a spell, if you spent [4 Energy] or more" (part of the trigger condition,
383.2.a.1), and a battlefield's "While you control this battlefield, when ..." (188); "Choose a battlefield. Give <units>
there ..." (355.8, 355.10.d); "a unit at a battlefield or a gear" (one target, the unit's restriction not the
gear's: 355.9.b); "Buffs give an additional +1 [Might] to friendly units this turn" (703); "Use only if you've chosen an enemy unit this
turn and only once each turn" (377.2.b, 355.7); "Choose a player. They gain control of this and recall it" (189,
455) and "all units you control"; "Choose a battlefield where you have units. You may move up to one enemy unit to
that battlefield. Then give enemy units there ..." (355.4.a, 355.8).
Read-card disputes 460-479 judge them with the real read cards, and a mutant of each reading is killed by those
disputes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from read_cards import read_every_card, read_every_card_changed, verdicts_with

from scenarios.card_reader import CardText, effects, read_card
from scenarios.cards import Card, load_library
from scenarios.kernel import CONDITIONS

MINE = sorted(
    p
    for p in (Path(__file__).parent / "data" / "read_card_disputes").glob("read-4*.yaml")
    if 460 <= int(p.name.split("-")[1]) <= 479
)


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def _trigger(text: str) -> dict:
    reading = read(text, might=3)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    return trigger


@pytest.mark.parametrize(
    ("text", "spec", "effects_"),
    [
        ("When you play me, choose a player. They discard 1.", {"type": "player"}, [{"op": "discard", "n": 1}]),
        ("When I attack, choose a player. They [Burn 2].", {"type": "player"}, [{"op": "trash_from_deck", "n": 2}]),
        ("When you play me, choose an opponent. They draw 1.", {"type": "player", "side": "enemy"}, None),
    ],
)
def test_a_chosen_player_is_a_target_who_then_acts(text, spec, effects_):
    trigger = _trigger(text)
    assert trigger["targets"] == {"target": spec}
    (each,) = trigger["effects"]
    assert each["op"] == "each_player" and each["players"] == "target"
    if effects_ is not None:
        assert each["effects"] == effects_


@pytest.mark.parametrize(
    "text",
    [
        "When you play me, choose a player.",  # a choice for nothing
        "When you play me, choose a player. They kill a unit.",  # not an instruction about themself
    ],
)
def test_a_chosen_player_with_nothing_of_theirs_to_do_is_refused(text):
    assert read(text, might=3).status == "unread"


@pytest.mark.parametrize(
    "text",
    [
        "If a combat where you are the attacker ends in a tie, recall ALL units instead.",
        "If a combat where you are the attacker ends in a tie that would recall any of your units, recall all units at"
        " that battlefield instead.",  # the Origins FAQ's erratum
    ],
)
def test_a_tie_of_your_attack_is_replaced(text):
    reading = read(text, kind="Gear", energy=1)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["replacements"] == [
        {
            "would": "recall_attackers",
            "to": {"who": "you"},
            "instead": [{"op": "recall", "what": {"all": {"who": "unit", "where": "combat"}}}],
        }
    ]


@pytest.mark.parametrize(
    "text",
    [
        "If a combat where you are the defender ends in a tie, recall all units instead.",  # no such event
        "If a combat where you are the attacker ends in a tie, kill a unit instead.",  # a choice: not a replacement's
    ],
)
def test_other_ties_are_refused(text):
    assert read(text, kind="Gear", energy=1).status == "unread"


def test_a_player_choosing_is_the_actor_who_draws():
    reading = read(
        "When a player chooses a friendly unit here with a spell for the first time each turn, they draw 1.",
        kind="Battlefield",
    )
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {
        "event": "choose",
        "who": "friendly unit",
        "actor": True,
        "where": "here",
        "via": "spell",
    }
    assert trigger["limit"] == "once_per_turn"
    assert trigger["effects"] == [{"op": "each_player", "players": "actor", "effects": [{"op": "draw", "n": 1}]}]
    you = read("When you choose a friendly unit, draw 1.", kind="Gear", energy=1).definition["triggers"][0]
    assert you["when"] == {"event": "choose", "who": "friendly unit", "by": "you"}
    assert you["effects"] == [{"op": "draw", "n": 1}]


@pytest.mark.parametrize(
    "text",
    [
        "When you choose a friendly unit, they draw 1.",  # no player acting named: "they" is nobody
        "When a player chooses a friendly unit here, they kill a unit.",  # not their own instruction
    ],
)
def test_they_without_a_player_acting_is_refused(text):
    assert read(text, kind="Battlefield").status == "unread"


@pytest.mark.parametrize(
    ("text", "word", "gives"),
    [
        (
            "If you've spent [4 Energy] or more to play a spell this turn, I have +4 [Might].",
            "spent 4 energy to play a spell this turn",
            {"might": 4},
        ),
        (
            "If you've spent at least [Any rune][Any rune] this turn, I have +2 [Might] and [Ganking].",
            "spent 2 power this turn",
            {"might": 2, "keywords": {"Ganking": 1}},
        ),
        ("If you've spent at least [Any rune] this turn, I have [Tank].", "spent 1 power this turn", None),
    ],
)
def test_what_was_spent_this_turn_conditions_a_passive(text, word, gives):
    reading = read(text, might=3)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (passive,) = reading.definition["passives"]
    assert passive["condition"] == word and word in CONDITIONS
    if gives is not None:
        assert passive == {"to": {"who": "self"}, "condition": word, **gives}


def test_what_was_paid_for_the_spell_played_is_part_of_the_trigger_condition():
    trigger = _trigger("When you play a spell, if you spent [4 Energy] or more, ready me.")
    assert trigger["when"] == {"event": "card_played", "who": "you", "card_type": "spell", "min_energy_paid": 4}
    assert "condition" not in trigger and trigger["effects"] == [{"op": "ready", "what": "this"}]
    reading = read(
        "While you control this battlefield, when you play a spell, if you spent [5 Energy] or more, draw 1.",
        kind="Battlefield",
    )
    assert reading.status == "read", reading.unread
    (library,) = reading.definition["triggers"]
    assert library["condition"] == "you control this battlefield" and library["when"]["min_energy_paid"] == 5


@pytest.mark.parametrize(
    "text",
    [
        "When I attack, if you spent [4 Energy] or more, draw 1.",  # no card played whose cost it could be
        "While you control this battlefield, I have +1 [Might].",  # not a battlefield's trigger
        "If you've spent [4 Energy] or more this turn, I have +1 [Might].",  # Energy spent for anything: not read
    ],
)
def test_what_was_spent_otherwise_is_refused(text):
    assert read(text, might=3).status == "unread"


def test_a_chosen_battlefield_is_where_the_units_there_are():
    reading = read(
        "Choose a battlefield. Give friendly units there +1 [Might] this turn and enemy units there -1 [Might] this"
        " turn, to a minimum of 1 [Might].",
        kind="Spell",
        energy=2,
    )
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["targets"] == {"target": {"type": "battlefield"}}
    assert reading.definition["effects"] == [
        {"op": "might", "amount": 1, "to": {"all": {"who": "friendly unit", "where": "at target"}}},
        {"op": "might", "amount": -1, "to": {"all": {"who": "enemy unit", "where": "at target"}}, "minimum": 1},
    ]
    kill = read("Choose a battlefield. Kill all units there.", kind="Spell", energy=2).definition
    assert kill["effects"] == [{"op": "kill", "what": {"all": {"who": "unit", "where": "at target"}}}]


@pytest.mark.parametrize(
    "text",
    [
        "Choose a battlefield.",  # chosen for nothing
        "Choose a battlefield. Draw 1.",  # nor for this
        "Choose a unit. Kill all units there.",  # "there" of a unit: not read as a battlefield's
        "Choose a battlefield. Kill all units there here.",
    ],
)
def test_a_chosen_battlefield_for_nothing_is_refused(text):
    assert read(text, kind="Spell", energy=2).status == "unread"


def test_a_unit_somewhere_or_a_gear_is_one_target():
    reading = read("Give a unit at a battlefield or a gear [Temporary].", kind="Spell", energy=4)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["targets"] == {"target": {"type": "unit", "where": "battlefield", "or_gear": True}}
    assert reading.definition["effects"] == [
        {"op": "grant", "keyword": "Temporary", "to": "target", "until": "permanent"}
    ]
    assert read("Give an enemy unit or a gear [Temporary].", kind="Spell", energy=4).status == "unread"


def test_buffs_give_more_this_turn():
    reading = read(
        "Buff a friendly unit. Buffs give an additional +1 [Might] to friendly units this turn.", kind="Spell", energy=3
    )
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["effects"] == [{"op": "buff", "what": "target"}, {"op": "buffs_give_more", "amount": 1}]
    assert read("Buffs give an additional +1 [Might] to enemy units this turn.", kind="Spell").status == "unread"


def test_use_only_if_chosen_and_once_each_turn():
    reading = read(
        "[Order rune]: Ready me. Use only if you've chosen an enemy unit this turn and only once each turn.", might=3
    )
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (ability,) = reading.definition["activated"]
    assert ability["condition"] == "chosen an enemy unit this turn" and ability["condition"] in CONDITIONS
    assert ability["limit"] == "once_per_turn" and ability["effects"] == [{"op": "ready", "what": "this"}]
    no_limit = read("[Order rune]: Ready me. Use only if you've chosen an enemy unit this turn.", might=3)
    assert "limit" not in no_limit.definition["activated"][0]
    assert read("[Order rune]: Ready me. Use only if you've played a spell this turn.", might=3).status == "unread"


def test_a_chosen_player_gains_control_of_this():
    reading = read("[Exhaust]: Choose a player. They gain control of this and recall it.", kind="Gear", energy=2)
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    (ability,) = reading.definition["activated"]
    assert ability["targets"] == {"unit": {"type": "player"}}
    assert ability["effects"] == [
        {
            "op": "each_player",
            "players": "unit",
            "effects": [{"op": "take_control", "what": "this"}, {"op": "recall", "what": "this"}],
        }
    ]
    assert read("[Exhaust]: They gain control of this and recall it.", kind="Gear", energy=2).status == "unread"
    units = read("At the end of your turn, deal 5 to all units you control.", kind="Gear", energy=2)
    assert units.definition["triggers"][0]["effects"] == [
        {"op": "deal", "amount": 5, "to": {"all": {"who": "friendly unit"}}}
    ]


def test_a_battlefield_where_you_have_units_and_a_move_to_it():
    reading = read(
        "Choose a battlefield where you have units. You may move up to one enemy unit to that battlefield. Then give"
        " enemy units there -2 [Might] this turn.",
        kind="Spell",
        energy=3,
    )
    assert reading.status == "read", reading.unread
    Card.model_validate(reading.definition)
    assert reading.definition["targets"] == {
        "target": {"type": "unit", "side": "enemy", "optional": True},
        "other": {"type": "location", "where": "battlefield_with_your_units", "of": "target"},
    }
    assert reading.definition["effects"] == [
        {"op": "move", "what": "target", "to": "other"},
        {"op": "might", "amount": -2, "to": {"all": {"who": "enemy unit", "where": "at other"}}},
    ]
    alone = read("Choose a battlefield where you have units.", kind="Spell", energy=3)
    assert alone.status == "unread"


# -- the disputes and the mutants they kill ----------------------------------------------------------------------


# The hand-written cards of scenarios/cards.yaml whose reading these disputes judge: the reading takes the
# hand-written card's place (a hand-written card otherwise overrides a read one), so a mutant of it is judged
ORACLE = ("Symbol of the Solari", "The Dreaming Tree", "Fading Memories", "Stand United")


def _judged(definitions: dict[str, dict]) -> list[str]:
    library = load_library()
    saved = dict(library)
    try:
        for name in ORACLE:
            library[name] = Card.model_validate(definitions[name])
        return verdicts_with(definitions, MINE)
    finally:
        library.clear()
        library.update(saved)


def _verdicts(real_db) -> list[str]:
    for path in MINE:
        assert str(yaml.safe_load(path.read_text())["rules"]["core"]) >= "2026-06-18"  # judged under Core Rules 1.4
    return _judged(read_every_card(real_db))


def test_my_disputes_are_judged_under_core_rules_1_4_and_match(real_db):
    assert len(MINE) >= 1
    assert set(_verdicts(real_db)) == {"match"}


def _replaced(monkeypatch, original, mutant):
    monkeypatch.setattr(effects, "TEMPLATES", [(f, p, mutant if b is original else b) for f, p, b in effects.TEMPLATES])


def test_my_disputes_kill_a_player_read_as_an_opponent(real_db, monkeypatch):
    from scenarios.card_reader import players

    original = players._choose_an_opponent

    def mutant(m, ctx):
        ctx.slot({"type": "player", "side": "enemy"})
        ctx.unfinished = players._CHOSEN
        return []

    _replaced(monkeypatch, original, mutant)
    assert "mismatch" in _verdicts(real_db)


def test_my_disputes_kill_a_tie_recalling_units_everywhere(real_db):
    def everywhere(d):
        if d.get("would") == "recall_attackers":
            for ins in d["instead"]:
                ins["what"]["all"].pop("where", None)

    assert "mismatch" in _judged(read_every_card_changed(real_db, everywhere))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(actor=False, by="you") if d.get("actor") else None,  # the text before its erratum
        lambda d: d.pop("limit", None) if d.get("when", {}).get("actor") else None,  # every time, not the first
    ],
    ids=["you-choose", "every-time"],
)
def test_my_disputes_kill_the_dreaming_tree_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


def _renamed(old: str, new: str):
    def change(d):
        if d.get("condition") == old:
            d["condition"] = new

    return change


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("min_energy_paid", None),  # any spell played
        _renamed("spent 4 energy to play a spell this turn", "spent 1 energy to play a spell this turn"),
        _renamed("spent 2 power this turn", "spent 2 energy to play a spell this turn"),
    ],
    ids=["any-spell", "one-energy", "energy-not-power"],
)
def test_my_disputes_kill_the_spent_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("where", None) if d.get("where") == "at target" else None,  # units everywhere
        lambda d: (
            d.update(who={"friendly unit": "enemy unit", "enemy unit": "friendly unit"}[d["who"]])
            if d.get("where") == "at target" and d.get("who") in ("friendly unit", "enemy unit")
            else None
        ),  # sides swapped
    ],
    ids=["everywhere", "sides-swapped"],
)
def test_my_disputes_kill_the_chosen_battlefield_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("or_gear", None),  # a unit only
        lambda d: d.pop("where", None) if d.get("or_gear") else None,  # a unit anywhere
    ],
    ids=["no-gear", "unit-anywhere"],
)
def test_my_disputes_kill_the_or_gear_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


@pytest.mark.parametrize("amount", [0, 2])
def test_my_disputes_kill_a_rider_of_another_size(real_db, amount):
    def change(d):
        if d.get("op") == "buffs_give_more":
            d["amount"] = amount

    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("limit", None) if d.get("condition") == "chosen an enemy unit this turn" else None,
        lambda d: d.pop("condition", None) if d.get("condition") == "chosen an enemy unit this turn" else None,
    ],
    ids=["every-time", "unconditional"],
)
def test_my_disputes_kill_the_use_only_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


def _given_to_an_opponent(d):
    if d.get("op") == "each_player" and {"op": "take_control", "what": "this"} in d.get("effects", []):
        d["players"] = "opponents"


def _all_units(d):
    if d.get("op") == "deal" and d.get("amount") == 5 and d.get("to") == {"all": {"who": "friendly unit"}}:
        d["to"] = {"all": {"who": "unit"}}


@pytest.mark.parametrize("change", [_given_to_an_opponent, _all_units], ids=["opponent", "all-units"])
def test_my_disputes_kill_the_glowstone_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.pop("where", None) if d.get("where") == "at other" and d.get("who") == "enemy unit" else None,
        lambda d: d.update(where="battlefield") if d.get("where") == "battlefield_with_your_units" else None,
    ],
    ids=["weakened-everywhere", "any-battlefield"],
)
def test_my_disputes_kill_the_moonfall_mutants(real_db, change):
    assert "mismatch" in _judged(read_every_card_changed(real_db, change))
