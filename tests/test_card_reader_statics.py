"""The card reader's statics family (scenarios/card_reader/statics.py): passive restrictions ("I don't deal combat
damage", "I can't be chosen by enemy spells and abilities", "Opponents can't gain points") and conditional passives
("While you have another unit here, I have +1 [Might]", "... unless I'm in combat"), their engine (scenarios/
rules/restrictions.py), and mutants of the readings that the family's read-card disputes kill."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card, verdicts_with

from scenarios.card_reader import CardText, effects, read_card, readers

DISPUTES = [
    Path(__file__).parent / "data" / "read_card_disputes" / name
    for name in (
        "read-221-sacred-protector-deals-no-combat-damage-unless.yaml",
        "read-222-ruin-runner-cant-be-chosen-by-enemy-spells.yaml",
        "read-223-trusty-ramhound-while-another-unit-here.yaml",
        "read-224-determined-sentry-cant-move-to-base.yaml",
        "read-225-tianna-crownguard-opponents-cant-gain-points.yaml",
        "read-226-turn-to-dust-gives-a-gear-temporary.yaml",
        "read-227-karthus-deathknell-triggers-an-additional-time.yaml",
        "read-228-black-flame-altar-units-with-temporary-have-shield.yaml",
        "read-229-kayn-doesnt-take-damage-after-moving-twice.yaml",
        "read-230-esteemed-hierophant-prevents-enemy-spell-damage.yaml",
        "read-231-twilight-shroud-cant-be-chosen-this-turn.yaml",
        "read-232-brynhir-opponents-cant-play-cards-this-turn.yaml",
        "read-233-rockfall-path-units-cant-be-played-here.yaml",
        "read-234-lilting-lullaby-its-controller-cant-play-spells.yaml",
        "read-235-lee-sin-buffed-units-at-my-battlefield.yaml",
        "read-236-aurok-general-empowered-units-while-empowered.yaml",
        "read-237-unyielding-spirit-prevents-spell-damage-this-turn.yaml",
        "read-238-dune-surfer-ignores-tank.yaml",
        "read-239-sandstone-chimera-players-channel-one-rune.yaml",
    )
]


def _passives(text: str, kind: str = "Unit", tags: tuple[str, ...] = ()) -> list[dict]:
    reading = read_card(CardText("Some Card", kind, text, might=3, tags=tags))
    assert reading.status == "read", reading.unread
    return reading.definition["passives"]


@pytest.mark.parametrize(
    ("text", "passive"),
    [
        ("I don't deal combat damage.", {"to": {"who": "self"}, "restrictions": ["no_combat_damage"]}),
        (
            "Enemy units here with less Might than me don't deal combat damage.",
            {
                "to": {"who": "enemy unit", "where": "here", "less_might_than_me": True},
                "restrictions": ["no_combat_damage"],
            },
        ),
        (
            "I can't be chosen by enemy spells and abilities.",
            {"to": {"who": "self"}, "restrictions": ["unchoosable_by_enemy"]},
        ),
    ],
)
def test_restrictions_are_read_as_passives_of_the_objects_named(text, passive):
    assert _passives(text) == [passive]


@pytest.mark.parametrize(
    ("text", "condition", "gives"),
    [
        ("While you have another unit here, I have +1 [Might].", "another friendly unit here", {"might": 1}),
        ("I have +2 [Might] while I'm attacking with another unit.", "attacking with another unit", {"might": 2}),
        ("While you have 8+ runes, I have +4 [Might].", "8 or more runes", {"might": 4}),
        ("While there's a stunned enemy unit here, I have +2 [Might].", "stunned enemy unit here", {"might": 2}),
        (
            "I have [Shield 3] while I'm at a battlefield with exactly one other unit you control.",
            "exactly one other friendly unit at a battlefield",
            {"keywords": {"Shield": 3}},
        ),
        (
            "I can't be chosen by enemy spells and abilities unless I'm in combat.",
            "not in combat",
            {"restrictions": ["unchoosable_by_enemy"]},
        ),
    ],
)
def test_a_conditional_passive_carries_its_condition(text, condition, gives):
    assert _passives(text) == [{"to": {"who": "self"}, **gives, "condition": condition}]


@pytest.mark.parametrize(
    ("text", "to"),
    [
        (
            "Other buffed friendly units at my battlefield have +2 [Might].",
            {"who": "other friendly unit", "where": "my battlefield", "buffed": True},
        ),
        ("Your token units have +1 [Might].", {"who": "friendly unit", "token": True}),
    ],
)
def test_passives_over_qualified_units(text, to):
    assert [p["to"] for p in _passives(text)] == [to]


def test_a_passive_behind_empowered():
    text = "[Empowered][>] Your units that are [Empowered] have +2 [Might] (including me)."
    assert _passives(text) == [
        {"to": {"who": "friendly unit", "empowered": True}, "might": 2, "condition": "empowered"}
    ]


def test_players_only_channel_one_rune():
    text = "While I'm at a battlefield, players only channel 1 rune at the start of their Channel Phase."
    assert _passives(text) == [
        {"to": {"who": "player"}, "restrictions": ["channel_one_rune"], "condition": "at a battlefield"}
    ]


def test_you_ignore_tank_here():
    assert _passives("You ignore [Tank] while assigning combat damage here.") == [
        {"to": {"who": "you", "where": "here"}, "restrictions": ["ignore_tank"]}
    ]


def test_spell_and_ability_damage_prevented_this_turn():
    reading = read_card(CardText("Some Spell", "Spell", "[Reaction]\nPrevent all spell and ability damage this turn."))
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [
        {
            "op": "replace_next",
            "would": "takes_damage",
            "to": {"who": "unit"},
            "instead": [],
            "once": False,
            "source": "spell or ability",
        }
    ]


def test_a_battlefields_units_cant_be_played_here():
    assert _passives("Units can't be played here.", "Battlefield") == [
        {"to": {"who": "self"}, "restrictions": ["no_units_played_here"]}
    ]
    assert read_card(CardText("Some Unit", "Unit", "Units can't be played here.", might=2)).status == "unread"


def test_a_restriction_on_players_behind_a_condition():
    passives = _passives("While I'm at a battlefield, opponents can't gain points.")
    assert passives == [{"to": {"who": "opponent"}, "restrictions": ["no_points"], "condition": "at a battlefield"}]


def test_a_condition_on_a_passive_of_other_units():
    passives = _passives("While I'm at a battlefield, your other units here have [Deflect].")
    assert passives == [
        {
            "to": {"who": "other friendly unit", "where": "here"},
            "keywords": {"Deflect": 1},
            "condition": "at a battlefield",
        }
    ]


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Your [Deathknell] effects trigger an additional time.", "deathknell"),
        ("Your conquer effects for conquering here trigger an additional time.", "conquer here"),
        ("Your hold effects for holding here trigger an additional time.", "hold here"),
    ],
)
def test_effects_that_trigger_an_additional_time(text, kind):
    assert _passives(text) == [{"to": {"who": "friendly card"}, "retriggers": [kind]}]


@pytest.mark.parametrize(
    "text",
    [
        "Your conquer effects trigger an additional time.",  # everywhere: no such kind yet
        "Your conquer effects for holding here trigger an additional time.",
    ],
)
def test_kinds_of_effects_not_named_stay_unread(text):
    assert read_card(CardText("Some Card", "Unit", text, might=3)).status == "unread"


def test_a_passive_over_the_units_with_a_keyword():
    passives = _passives(
        "Units here with [Temporary] have [Shield]. (+1 [Might] while they're defenders.)", "Battlefield"
    )
    assert passives == [{"to": {"who": "unit", "where": "here", "keyword": "Temporary"}, "keywords": {"Shield": 1}}]


def test_a_keyword_given_to_the_units_with_it_stays_unread():
    reading = read_card(CardText("Some Field", "Battlefield", "Units here with [Shield] have [Shield]."))
    assert reading.status == "unread"


@pytest.mark.parametrize(
    ("text", "replacement"),
    [
        (
            "If I have moved twice this turn, I don't take damage.",
            {"would": "takes_damage", "to": {"who": "self"}, "instead": [], "condition": "moved twice this turn"},
        ),
        (
            "While you control 7 or more runes, prevent all damage that enemy spells and abilities would deal to me.",
            {
                "would": "takes_damage",
                "to": {"who": "self"},
                "instead": [],
                "source": "enemy spell or ability",
                "condition": "7 or more runes",
            },
        ),
    ],
)
def test_damage_i_dont_take_is_a_replacement_by_nothing(text, replacement):
    reading = read_card(CardText("Some Card", "Unit", text, might=3))
    assert reading.status == "read", reading.unread
    assert reading.definition["replacements"] == [replacement]


@pytest.mark.parametrize(
    ("text", "effects_read"),
    [
        (
            "Give a friendly unit +1 [Might] this turn. It can't be chosen by enemy spells and abilities this turn.",
            [
                {"op": "might", "amount": 1, "to": "target"},
                {"op": "restrict", "what": "target", "restriction": "unchoosable_by_enemy"},
            ],
        ),
        (
            "Counter a spell. Its controller can't play spells this turn.",
            [
                {"op": "counter", "what": "target"},
                {"op": "restrict", "players": "controller", "what": "target", "restriction": "no_play_spells"},
            ],
        ),
    ],
)
def test_restrictions_for_a_turn_are_instructions(text, effects_read):
    reading = read_card(CardText("Some Spell", "Spell", text))
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == effects_read


def test_a_keyword_given_with_no_duration_is_given_for_good():
    reading = read_card(CardText("Some Spell", "Spell", "Give a gear [Temporary]. (Kill it at the start of ...)"))
    assert reading.status == "read", reading.unread
    assert reading.definition["targets"] == {"target": {"type": "gear"}}
    assert reading.definition["effects"] == [
        {"op": "grant", "keyword": "Temporary", "to": "target", "until": "permanent"}
    ]


@pytest.mark.parametrize(
    ("text", "status"),
    [
        # an Equipment's "I" is the equipped unit's (136.2.c, 136.2.d): tests/test_card_reader_r8_equip
        ("I have +2 [Might] while I'm at a battlefield with exactly one other unit you control.", "read"),
        ("I don't deal combat damage.", "read"),
        ("I have +2 [Might] while I'm at a battlefield with exactly two other units you control.", "unread"),
    ],
)
def test_an_equipments_i(text, status):
    reading = read_card(CardText("Some Gear", "Gear", f"[Equip] [Calm rune]\n{text}", tags=("Equipment",)))
    assert reading.status == status
    if status == "read":
        assert reading.definition["passives"][0]["to"] == {"who": "equipped unit"}


@pytest.mark.parametrize(
    "text",
    [
        "I have +2 [Might] unless I'm at a battlefield.",  # no word for "not at a battlefield"
        "While you have another unit here, draw 1.",  # not a passive
        "While I'm in combat, I enter ready.",  # not a passive the condition may be put on
        "While I'm in combat, while you have another unit here, I have +1 [Might].",  # two conditions
    ],
)
def test_what_is_not_a_conditional_passive_stays_unread(text):
    reading = read_card(CardText("Some Card", "Unit", text, might=3))
    assert reading.status == "unread", reading.definition


# -- mutants the disputes kill ---------------------------------------------------------------------------------


def _wrapped(change):
    def wrap(reader):
        def mutant(text, card, used, around):
            had = {key: len(card.get(key, [])) for key in ("passives", "replacements")}
            found = reader(text, card, used, around)
            for key, count in had.items():
                for ability in card.get(key, [])[count:]:
                    change(ability)
            return found

        return mutant

    return wrap


def _drop_restrictions(passive):
    passive.pop("restrictions", None)


def _drop_retriggers(passive):
    passive.pop("retriggers", None)


def _drop_keyword_filter(passive):
    passive["to"].pop("keyword", None)


def _drop_qualifiers(passive):
    for state in ("buffed", "token", "empowered"):
        passive.get("to", {}).pop(state, None)


def _drop_source(replacement):
    replacement.pop("source", None)


def _drop_condition(passive):
    passive.pop("condition", None)


def _given_this_turn(monkeypatch):
    def this_turn(build):
        return lambda m, ctx: [{**i, "until": "turn"} for i in build(m, ctx) or []] or None

    changed = [(f, p, this_turn(b) if f == "grant for good" else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", changed)


def _turns_restriction_dropped(monkeypatch):
    changed = [(f, p, (lambda m, ctx: []) if f == "can't this turn" else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", changed)


def _opponents_read_as_you(monkeypatch):  # and "its controller" as you
    def as_you(build):
        return lambda m, ctx: [{**i, "players": "you"} if "players" in i else i for i in build(m, ctx) or []] or None

    changed = [(f, p, as_you(b) if f == "can't this turn" else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", changed)


def _prevention_of_any_damage(monkeypatch):
    def any_damage(build):
        return lambda m, ctx: [{k: v for k, v in i.items() if k != "source"} for i in build(m, ctx) or []] or None

    changed = [(f, p, any_damage(b) if f == "prevent this turn" else b) for f, p, b in effects.TEMPLATES]
    monkeypatch.setattr(effects, "TEMPLATES", changed)


def _unless_as_while(passive):
    if passive.get("condition", "").startswith("not "):
        passive["condition"] = passive["condition"][4:]


@pytest.mark.parametrize(
    "change",
    [
        _drop_restrictions,
        _drop_retriggers,
        _drop_keyword_filter,
        _drop_qualifiers,
        _drop_source,
        _drop_condition,
        _unless_as_while,
        _given_this_turn,
        _turns_restriction_dropped,
        _opponents_read_as_you,
        _prevention_of_any_damage,
    ],
    ids=[
        "restriction dropped",
        "additional time dropped",
        "with a keyword dropped",
        "buffed, token, empowered dropped",
        "damage from enemy spells and abilities read as any damage",
        "condition dropped",
        "unless read as while",
        "given for good read as this turn",
        "a turn's restriction dropped",
        "opponents read as you",
        "spell and ability damage read as any damage",
    ],
)
def test_the_disputes_kill_a_mutant_of_each_reading(change, real_db, monkeypatch):
    if change in (_given_this_turn, _turns_restriction_dropped, _opponents_read_as_you, _prevention_of_any_damage):
        change(monkeypatch)
    else:
        wrapped = [(at, _wrapped(change)(read) if at == "static" else read) for at, read in readers.READERS]
        monkeypatch.setattr(readers, "READERS", wrapped)
    verdicts = verdicts_with(read_every_card(real_db), DISPUTES)
    assert "mismatch" in verdicts, f"the mutant {change.__name__} of the reader survives every statics dispute"


# -- the engine's condition words ------------------------------------------------------------------------------


def _condition(word: str, units: list[dict], runes: int = 0, source: str = "s") -> bool:
    from scenarios.kernel import Condition, calc
    from scenarios.state import GameState

    setup = {
        "turn": {"player": "A"},
        "players": {"A": {"runes": [{"id": f"r{n}", "card": "Fury Rune"} for n in range(runes)]}, "B": {}},
        "battlefields": [{"id": "bf1", "card": "Neutral Ground", "controller": "A", "units": units}],
    }
    game = GameState(setup)
    return calc.condition_holds(game, word, Condition("A", source, False))


def _unit(uid: str, controller: str = "A", **more) -> dict:
    return {"id": uid, "card": "Test Unit", "controller": controller, "might": 2, **more}


@pytest.mark.parametrize(
    ("word", "units", "holds"),
    [
        ("another friendly unit here", [_unit("s"), _unit("u")], True),
        ("another friendly unit here", [_unit("s"), _unit("e", "B")], False),
        ("exactly one other friendly unit at a battlefield", [_unit("s"), _unit("u")], True),
        ("exactly one other friendly unit at a battlefield", [_unit("s"), _unit("u"), _unit("v")], False),
        ("not exactly one other friendly unit at a battlefield", [_unit("s")], True),
        ("moved twice this turn", [_unit("s", moves_this_turn=2)], True),
        ("moved twice this turn", [_unit("s", moves_this_turn=1)], False),
        ("stunned enemy unit here", [_unit("s"), _unit("e", "B", stunned=True)], True),
        ("stunned enemy unit here", [_unit("s"), _unit("u", stunned=True)], False),
        ("in combat", [_unit("s")], False),
        ("not in combat", [_unit("s")], True),
    ],
)
def test_condition_words_of_passives(word, units, holds):
    assert _condition(word, units) is holds


def test_runes_condition_counts_the_runes_you_control():
    assert _condition("3 or more runes", [_unit("s")], runes=3)
    assert not _condition("3 or more runes", [_unit("s")], runes=2)
