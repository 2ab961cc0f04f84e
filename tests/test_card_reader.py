"""The card-text reader (scenarios/card_reader): templates read into the engine's vocabulary, nothing half-read."""

from __future__ import annotations

import pytest

from scenarios.card_reader import CardText, read_card
from scenarios.cards import Card


def read(text: str, kind: str = "Unit", **numbers):
    return read_card(CardText("Some Card", kind, text, **numbers))


def test_a_keyword_line_with_its_reminder_reads_as_the_keyword():
    reading = read("[Deflect 2] (Opponents must pay [Any rune][Any rune] to choose me.)\n[Tank]", might=3)
    assert reading.status == "read"
    assert reading.definition["keywords"] == {"Deflect": 2, "Tank": 1}
    assert reading.definition["might"] == 3


def test_a_trigger_reads_into_its_event_targets_and_instructions():
    reading = read("When you play me, deal 2 to an enemy unit at a battlefield.")
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "play", "who": "self"}
    assert trigger["targets"] == {"target": {"type": "unit", "side": "enemy", "where": "battlefield"}}
    assert trigger["effects"] == [{"op": "deal", "amount": 2, "to": "target"}]
    Card.model_validate(reading.definition)


def test_a_spell_reads_its_sentences_in_order():
    reading = read("[Action] (Play on your turn or in showdowns.)\nGive a unit +2 [Might] this turn. Draw 1.", "Spell")
    assert reading.definition["keywords"] == {"Action": 1}
    assert reading.definition["effects"] == [{"op": "might", "amount": 2, "to": "target"}, {"op": "draw", "n": 1}]


@pytest.mark.parametrize(
    "text",
    [
        "When I attack, deal 3 to all enemy units here. Then do a thing no card says.",
        "[Burn 2] (They trash the top 2 cards of their Main Deck.)",
        "When you play me, choose an opponent.",
        "[Tank] (I must be assigned combat damage first.) Some unknown words.",
    ],
)
def test_a_card_with_any_unread_words_is_refused_naming_them(text):
    reading = read(text)
    assert reading.status == "unread" and reading.definition is None
    assert reading.unread and all(phrase for phrase in reading.unread)


def test_reminder_text_is_unread_unless_it_restates_a_read_keyword():
    assert read("When I conquer, draw 1. (You may look at it.)").unread == ["(You may look at it.)"]
    assert read("[Tank] (I must be assigned combat damage first.)").status == "read"


@pytest.mark.parametrize(
    ("text", "kind", "where", "expected"),
    [
        (
            "When I move to a battlefield, draw 1.",
            "Unit",
            "triggers",
            {"event": "move", "who": "self", "where": "battlefield"},
        ),
        (
            "When another friendly unit dies, draw 1.",
            "Unit",
            "triggers",
            {"event": "die", "who": "other friendly unit"},
        ),
        ("When I'm played and when I conquer, buff me.", "Unit", "triggers", {"event": "conquer", "who": "self"}),
        (
            "When you play me to a battlefield, draw 1.",
            "Unit",
            "triggers",
            {"event": "play", "who": "self", "where": "battlefield"},
        ),
        (
            "When you play another unit, buff me.",
            "Unit",
            "triggers",
            {"event": "play", "who": "other friendly unit", "by": "you"},
        ),
        ("When you conquer or hold, draw 1.", "Unit", "triggers", {"event": "hold", "who": "you"}),
        ("When you play me or when I hold, draw 1.", "Unit", "triggers", {"event": "hold", "who": "self"}),
        ("[Deathknell][>] Draw 1. (When I die, get the effect.)", "Unit", "triggers", {"event": "die", "who": "self"}),
        (
            "The third time I move in a turn, you score 1 point.",
            "Unit",
            "triggers",
            {"event": "move", "who": "self", "nth": 3},
        ),
    ],
)
def test_trigger_templates(text, kind, where, expected):
    reading = read(text, kind)
    assert reading.status == "read", reading.unread
    assert reading.definition[where][-1]["when"] == expected


@pytest.mark.parametrize(
    ("text", "effects", "targets"),
    [
        (
            "Deal 1 to all units at battlefields.",
            [{"op": "deal", "amount": 1, "to": {"all": {"who": "unit", "where": "battlefield"}}}],
            None,
        ),
        (
            "Deal 2 to all enemy units in combat.",
            [{"op": "deal", "amount": 2, "to": {"all": {"who": "enemy unit", "where": "combat"}}}],
            None,
        ),
        ("Kill a gear.", [{"op": "kill", "what": "target"}], {"target": {"type": "gear"}}),
        (
            "Give a unit [Shield 2] and [Tank] this turn.",
            [
                {"op": "grant", "keyword": "Shield", "to": "target", "value": 2},
                {"op": "grant", "keyword": "Tank", "to": "target"},
            ],
            {"target": {"type": "unit"}},
        ),
        ("Ready 2 runes.", [{"op": "ready_runes", "n": 2}], None),
        (
            "Give two friendly units each +2 [Might] this turn.",
            [{"op": "might", "amount": 2, "to": "target"}, {"op": "might", "amount": 2, "to": "other"}],
            {
                "target": {"type": "unit", "side": "friendly"},
                "other": {"type": "unit", "side": "friendly", "not_target": "target"},
            },
        ),
        (
            "Deal 3 to all enemy units at a battlefield.",
            [{"op": "deal", "amount": 3, "to": {"all": {"who": "enemy unit", "where": "at target"}}}],
            {"target": {"type": "battlefield"}},
        ),
        (
            "Counter a spell that costs no more than [4 Energy] and no more than [Any rune].",
            [{"op": "counter", "what": "target"}],
            {"target": {"type": "spell", "max_cost": 4, "max_power": 1}},
        ),
        (
            "Deal 2 to a unit at a battlefield, then deal 2 to up to one other unit.",
            [{"op": "deal", "amount": 2, "to": "target"}, {"op": "deal", "amount": 2, "to": "other"}],
            {
                "target": {"type": "unit", "where": "battlefield"},
                "other": {"type": "unit", "optional": True, "not_target": "target"},
            },
        ),
    ],
)
def test_spell_templates(text, effects, targets):
    reading = read(text, "Spell")
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == effects
    assert reading.definition.get("targets") == targets


def test_an_equipments_when_i_is_the_equipped_units_trigger_and_its_me_that_unit():
    """136.2.c: an Equipment's effect text is the equipped unit's; its "this" is still the Equipment (136.2.d)."""
    blade = read_card(
        CardText("Blade", "Gear", "[Equip] [Fury rune]\nWhen I conquer, buff me and kill this.", tags=("Equipment",))
    )
    assert blade.status == "read", blade.unread
    (trigger,) = blade.definition["triggers"]
    assert trigger["when"] == {"event": "conquer", "who": "equipped unit"}
    assert trigger["effects"] == [{"op": "buff", "what": "equipped"}, {"op": "kill", "what": "this"}]
    might = "[Equip] [Fury rune]\nWhen I attack, deal damage equal to my Might to an enemy unit here."
    assert read_card(CardText("Bow", "Gear", might, tags=("Equipment",))).status == "unread"


def test_unique_is_a_deck_constraint_read_as_nothing_in_play():
    reading = read("[Unique] (Your deck can have only 1 card with this name.)\n[Tank]")
    assert reading.status == "read" and reading.definition["keywords"] == {"Tank": 1}


def test_an_equipment_gives_its_keywords_to_the_equipped_unit_and_refuses_its_other_abilities():
    armor = read_card(
        CardText("Armor", "Gear", "[Equip] [Calm rune] (reminder)\n[Tank] (reminder)", tags=("Equipment",))
    )
    assert armor.status == "read"
    assert armor.definition["passives"] == [{"to": {"who": "equipped unit"}, "keywords": {"Tank": 1}}]
    assert armor.definition["activated"][0]["cost"] == {"domain_power": {"Calm": 1}}
    ring = read_card(CardText("Ring", "Gear", "[Equip] [Calm rune]\nWhen you conquer, draw 1.", tags=("Equipment",)))
    assert ring.status == "unread" and "equipped unit" in ring.unread[0]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Play two 1 [Might] Recruit unit tokens here.",
            {"op": "play_token", "token": "recruit", "might": 1, "n": 2, "to": "here"},
        ),
        (
            "Play a ready 3 [Might] Sprite unit token with [Temporary].",
            {"op": "play_token", "token": "sprite", "might": 3, "n": 1, "ready": True, "keywords": {"Temporary": 1}},
        ),
        (
            "Play two Gold gear tokens exhausted.",
            {"op": "play_token", "token": "gold", "n": 2, "exhausted": True},
        ),
        (
            "Play three 3 [Might] Mech unit tokens to your base.",
            {"op": "play_token", "token": "mech", "might": 3, "n": 3, "to": "base"},
        ),
    ],
)
def test_a_token_is_read_with_its_kind_might_number_and_place(text, expected):
    reading = read(text, "Spell")
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Play a 1 [Might] Goblin unit token.",  # no such token (187)
        "Play a ready 1 [Might] Recruit unit token exhausted.",
        "Play a 2 [Might] Sand Soldier unit token with [Flow].",  # a keyword the engine does not know
    ],
)
def test_a_token_the_rules_do_not_define_is_not_read(text):
    assert read(text, "Spell").status == "unread"


def test_a_played_token_is_a_unit_token_of_its_kind():
    """187.2: a Sprite is a 3 Might Fae unit token with Temporary; the token's might is the printed one."""
    from scenarios.cards import Card, check_vocabulary
    from scenarios.rules.tokens import token_definition
    from scenarios.token_kinds import UNIT_TOKENS

    sprite = token_definition("sprite", 3, ready=True)
    assert (sprite.type, sprite.might, sprite.tags, sprite.keywords) == ("token", 3, ["Fae"], {"Temporary": 1})
    assert sprite.enters_ready and sprite.object_kind == "unit"
    assert token_definition("bird", 1).keywords == {"Deflect": 1}
    gold = token_definition("gold")
    assert gold.object_kind == "gear" and gold.activated[0].cost.kill == "this" and gold.activated[0].adds
    assert set(UNIT_TOKENS) >= {"recruit", "sprite", "sand soldier", "mech", "bird"}
    bad = Card(name="X", made_up=True, type="spell", effects=[{"op": "play_token", "token": "goblin", "might": 1}])
    with pytest.raises(ValueError, match="unknown token"):
        check_vocabulary(bad)


@pytest.mark.parametrize(
    ("text", "effects"),
    [
        ("Put the top 2 cards of your Main Deck into your trash.", [{"op": "trash_from_deck", "n": 2}]),
        ("Ready up to 3 runes.", [{"op": "ready_runes", "n": 3}]),
        (
            "Ready up to 2 runes at the end of this turn.",
            [
                {
                    "op": "delayed",
                    "when": {"event": "end_of_turn", "who": "player"},
                    "effects": [{"op": "ready_runes", "n": 2}],
                }
            ],
        ),
        (
            "Take control of an enemy unit at a battlefield. Lose control of that unit and recall it at end of turn.",
            [
                {"op": "take_control", "what": "target"},
                {
                    "op": "delayed",
                    "when": {"event": "end_of_turn", "who": "player"},
                    "effects": [{"op": "return_control", "what": "it"}, {"op": "recall", "what": "it"}],
                    "it": "target",
                },
            ],
        ),
        (
            "Choose a unit. Kill it the next time it takes damage this turn.",
            [
                {
                    "op": "delayed",
                    "when": {"event": "takes_damage", "who": "it"},
                    "it": "target",
                    "effects": [{"op": "kill", "what": "it"}],
                }
            ],
        ),
        (
            "When any unit takes damage this turn, kill it.",
            [
                {
                    "op": "delayed",
                    "when": {"event": "takes_damage", "who": "unit"},
                    "once": False,
                    "effects": [{"op": "kill", "what": "trigger_unit"}],
                }
            ],
        ),
        (
            "Choose a unit. The next time that unit would be dealt damage this turn, prevent it.",
            [{"op": "replace_next", "would": "takes_damage", "it": "target", "instead": []}],
        ),
        (
            "Choose a friendly unit. The next time it would die this turn, heal it, exhaust it, and recall it instead.",
            [
                {
                    "op": "replace_next",
                    "would": "die",
                    "it": "target",
                    "instead": [
                        {"op": "heal", "what": "affected"},
                        {"op": "exhaust", "what": "affected"},
                        {"op": "recall", "what": "affected"},
                    ],
                }
            ],
        ),
        (
            "Choose a unit. It gains [Shield 2] this combat.",
            [{"op": "grant", "keyword": "Shield", "to": "target", "value": 2, "until": "combat"}],
        ),
    ],
)
def test_delayed_control_and_deck_templates(text, effects):
    reading = read(text, "Spell")
    assert reading.status == "read", reading.unread
    assert reading.definition["effects"] == effects


def test_lose_control_needs_a_unit_taken_before():
    assert read("Lose control of that unit at end of turn.", "Spell").status == "unread"


@pytest.mark.parametrize(
    ("name", "text", "tags", "replacement"),
    [
        (
            "Hourglass",
            "If a friendly unit would die, kill this instead. Heal that unit, exhaust it, and recall it.",
            (),
            {
                "would": "die",
                "to": {"who": "friendly unit"},
                "instead": [
                    {"op": "kill", "what": "this"},
                    {"op": "heal", "what": "affected"},
                    {"op": "exhaust", "what": "affected"},
                    {"op": "recall", "what": "affected"},
                ],
            },
        ),
        (
            "Angel",
            "[Equip] [Calm rune]\nIf I would die, kill Angel instead. Heal me, exhaust me, and recall me.",
            ("Equipment",),
            {
                "would": "die",
                "to": {"who": "equipped unit"},
                "instead": [
                    {"op": "kill", "what": "this"},
                    {"op": "heal", "what": "affected"},
                    {"op": "exhaust", "what": "affected"},
                    {"op": "recall", "what": "affected"},
                ],
            },
        ),
        (
            "Healer",
            "If another unit you control here would die, if it has less Might than me, instead recall it.",
            (),
            {
                "would": "die",
                "to": {"who": "other friendly unit", "where": "here", "less_might_than_me": True},
                "instead": [{"op": "recall", "what": "affected"}],
            },
        ),
    ],
)
def test_a_death_replaced_reads_as_a_replacement_of_the_unit_it_names(name, text, tags, replacement):
    reading = read_card(CardText(name, "Gear", text, tags=tags))
    assert reading.status == "read", reading.unread
    assert reading.definition["replacements"] == [replacement]


def test_static_words_and_reminders_of_keyword_actions():
    reading = read("I must be assigned combat damage last.")
    assert reading.definition["restrictions"] == ["assigned_combat_damage_last"]
    stun = read("When I attack, stun an enemy unit here. (It doesn't deal combat damage this turn.)")
    assert stun.status == "read"
    assert read("When I attack, draw 1. (It doesn't deal combat damage this turn.)").status == "unread"


def test_another_unit_is_not_the_source_of_an_ability_nor_a_spells_first_choice():
    rookie = read("When you play me, buff another friendly unit.")
    (trigger,) = rookie.definition["triggers"]
    assert trigger["targets"] == {"target": {"type": "unit", "side": "friendly", "other": True}}
    spell = read("Choose a unit. Choose another unit. They deal damage equal to their Mights to each other.", "Spell")
    assert spell.definition["targets"]["other"] == {"type": "unit", "not_target": "target"}
    assert read("Buff another friendly unit.", "Spell").status == "unread"  # a spell has no "other than me"


@pytest.mark.parametrize(
    ("text", "kind", "key", "expected"),
    [
        ("Kill all gear.", "Spell", "effects", [{"op": "kill", "what": {"all": {"who": "gear"}}}]),
        ("Kill all enemy gear.", "Spell", "effects", [{"op": "kill", "what": {"all": {"who": "enemy gear"}}}]),
        ("Return a gear to its owner's hand.", "Spell", "targets", {"target": {"type": "gear"}}),
        (
            "[Exhaust]: [Add] [1 Energy][Any rune].",
            "Unit",
            "activated",
            [
                {
                    "cost": {"exhaust": "this"},
                    "effects": [{"op": "add", "energy": 1}, {"op": "add", "power": 1}],
                    "label": "Some Card: [Exhaust]: [Add] [1 Energy][Any rune].",
                }
            ],
        ),
    ],
)
def test_group_gear_return_gear_and_adding_two_resources(text, kind, key, expected):
    reading = read(text, kind)
    assert reading.status == "read", reading.unread
    assert reading.definition[key] == expected


def test_if_i_didnt_die_alone_is_the_else_of_alone():
    (trigger,) = read("[Deathknell][>] If I didn't die alone, draw 1.").definition["triggers"]
    assert trigger["effects"] == [{"op": "if", "condition": "alone", "then": [], "else": [{"op": "draw", "n": 1}]}]


def test_my_battlefield_is_here_and_attacks_or_defends_alone_is_two_triggers():
    (trigger,) = read("When I attack, deal 1 to all units at my battlefield.").definition["triggers"]
    assert trigger["effects"][0]["to"] == {"all": {"who": "unit", "where": "here"}}
    alone = read("When a friendly unit attacks or defends alone, give it +1 [Might] this turn.", "Gear")
    assert [t["when"] for t in alone.definition["triggers"]] == [
        {"event": "attack", "who": "friendly unit", "alone": True},
        {"event": "defend", "who": "friendly unit", "alone": True},
    ]
    assert alone.definition["triggers"][0]["effects"] == [{"op": "might", "amount": 1, "to": "trigger_unit"}]


@pytest.mark.parametrize(
    ("text", "targets"),
    [
        (
            "Choose a friendly unit and an enemy unit. They deal damage equal to their Mights to each other.",
            {"target": {"type": "unit", "side": "friendly"}, "other": {"type": "unit", "side": "enemy"}},
        ),
        (
            "Choose two units. They deal damage equal to their Mights to each other.",
            {"target": {"type": "unit"}, "other": {"type": "unit", "not_target": "target"}},
        ),
        (
            "Choose a friendly unit anywhere and an enemy unit at a battlefield. They deal damage equal to their "
            "Mights to each other.",
            {
                "target": {"type": "unit", "side": "friendly"},
                "other": {"type": "unit", "side": "enemy", "where": "battlefield"},
            },
        ),
    ],
)
def test_two_units_chosen_fight(text, targets):
    reading = read(text, "Spell")
    assert reading.status == "read", reading.unread
    assert reading.definition["targets"] == targets
    assert reading.definition["effects"] == [{"op": "fight", "a": "target", "b": "other"}]


def test_we_deal_damage_to_each_other_is_a_fight_with_me():
    (trigger,) = read(
        "When you play me, choose an enemy unit at a battlefield. We deal damage equal to our Mights to each other."
    ).definition["triggers"]
    assert trigger["effects"] == [{"op": "fight", "a": "this", "b": "target"}]


def test_reveal_until_a_unit_needs_its_second_sentence():
    text = "Reveal cards from the top of your Main Deck until you reveal a unit and banish it."
    whole = read(text + " Play it, ignoring its cost, and recycle the rest.", "Spell")
    assert whole.definition["effects"] == [{"op": "reveal_play_unit"}]
    assert read(text, "Spell").status == "unread"
    assert read("Play it, ignoring its cost, and recycle the rest.", "Spell").status == "unread"


def test_hold_effects_also_conquer_effects_and_a_legion_instead():
    skyfall = read_card(
        CardText(
            "Sky",
            "Gear",
            "[Equip] [Fury rune]\nMy hold effects are also conquer effects, and vice versa.",
            tags=("Equipment",),
        )
    )
    assert skyfall.definition["passives"] == [
        {"to": {"who": "equipped unit"}, "triggers_also_on": {"conquer": ["hold"], "hold": ["conquer"]}}
    ]
    guillotine = read(
        "Choose a unit. Kill it the next time it takes damage this turn.\n[Legion] — Kill it now instead.", "Spell"
    )
    (choice,) = guillotine.definition["effects"]
    assert (choice["op"], choice["condition"], choice["then"]) == ("if", "legion", [{"op": "kill", "what": "target"}])
    assert choice["else"][0]["op"] == "delayed"
    assert read("[Legion] — Draw 2 instead.", "Spell").status == "unread"  # instead of nothing said before


def test_a_reminder_restating_take_control_is_read_with_it():
    reading = read(
        "Take control of an enemy unit at a battlefield. (Start a combat if other enemies are there.)", "Spell"
    )
    assert reading.status == "read"


@pytest.mark.parametrize(
    ("text", "kind", "key", "expected"),
    [
        (
            "Your Mechs have +1 [Might].",
            "Unit",
            "passives",
            [{"to": {"who": "friendly unit", "tag": "Mech"}, "might": 1}],
        ),
        (
            "Your Mechs have [Shield].",
            "Unit",
            "passives",
            [{"to": {"who": "friendly unit", "tag": "Mech"}, "keywords": {"Shield": 1}}],
        ),
        (
            "Give your Mechs +2 [Might] this turn.",
            "Spell",
            "effects",
            [{"op": "might", "amount": 2, "to": {"all": {"who": "friendly unit", "tag": "Mech"}}}],
        ),
    ],
)
def test_a_tag_names_the_units_that_have_it(text, kind, key, expected):
    reading = read(text, kind)
    assert reading.status == "read", reading.unread
    assert reading.definition[key] == expected


def test_another_friendly_mech_is_a_tagged_choice_and_an_equipments_passive_is_refused():
    (trigger,) = read("When you play me, ready another friendly Mech.").definition["triggers"]
    assert trigger["targets"]["target"] == {"type": "unit", "side": "friendly", "tag": "Mech", "other": True}
    gear = read_card(
        CardText("Req", "Gear", "[Equip] [Any rune]\nYour units here have [Ganking].", tags=("Equipment",))
    )
    assert gear.status == "unread"  # rules text or effect text? the text the reader gets does not say


@pytest.mark.parametrize(
    ("text", "passives"),
    [
        (
            "While I'm [Mighty], I have [Deflect], [Ganking], and [Shield].",
            [{"to": {"who": "self", "mighty": True}, "keywords": {"Deflect": 1, "Ganking": 1, "Shield": 1}}],
        ),
        ("While I'm buffed, I have an additional +1 [Might].", [{"to": {"who": "self", "buffed": True}, "might": 1}]),
        (
            "While I'm attacking or defending alone, I have +2 [Might].",
            [
                {"to": {"who": "self", "role": "attacker", "alone": True}, "might": 2},
                {"to": {"who": "self", "role": "defender", "alone": True}, "might": 2},
            ],
        ),
        (
            "Your Mechs have [Deflect] and [Ganking].",
            [{"to": {"who": "friendly unit", "tag": "Mech"}, "keywords": {"Deflect": 1, "Ganking": 1}}],
        ),
    ],
)
def test_passives_while_i_am_in_a_state_and_several_keywords(text, passives):
    reading = read(text)
    assert reading.status == "read", reading.unread
    assert reading.definition["passives"] == passives


def test_might_while_mighty_is_not_read():
    """Might that depends on being Mighty (Might 5+) would be computed from itself: refused, not guessed."""
    assert read("While I'm [Mighty], I have +2 [Might].").status == "unread"


@pytest.mark.parametrize(
    ("text", "kind", "whens", "limit"),
    [
        (
            "The first time I conquer each turn, ready me.",
            "Unit",
            [{"event": "conquer", "who": "self"}],
            "once_per_turn",
        ),
        ("The first time I move each turn, draw 1.", "Unit", [{"event": "move", "who": "self", "nth": 1}], None),
        (
            "Once each turn, when an enemy unit here dies, draw 1.",
            "Unit",
            [{"event": "die", "who": "enemy unit", "where": "here"}],
            "once_per_turn",
        ),
        (
            "When you play me or another Dragon, draw 1.",
            "Unit",
            [
                {"event": "play", "who": "self"},
                {"event": "play", "who": "other friendly unit", "by": "you", "tag": "Dragon"},
            ],
            None,
        ),
        (
            "When a player plays a spell, draw 1.",
            "Battlefield",
            [{"event": "card_played", "who": "player", "card_type": "spell"}],
            None,
        ),
        (
            "When you play me or at the start of your Beginning Phase, draw 1.",
            "Unit",
            [{"event": "play", "who": "self"}, {"event": "beginning", "who": "you"}],
            None,
        ),
    ],
)
def test_more_trigger_heads_and_limits(text, kind, whens, limit):
    reading = read(text, kind)
    assert reading.status == "read", reading.unread
    assert [t["when"] for t in reading.definition["triggers"]] == whens
    assert {t.get("limit") for t in reading.definition["triggers"]} == {limit}


def test_the_first_time_with_a_choice_is_not_a_limit():
    assert read("The first time I conquer each turn, you may draw 1.").unread == ["the first time i conquer each turn"]


def test_a_spells_delayed_trigger_on_each_unit_played_this_turn():
    reading = read("When a friendly unit is played this turn, buff it. Draw 1.", "Spell")
    assert reading.definition["effects"] == [
        {
            "op": "delayed",
            "when": {"event": "play", "who": "friendly unit"},
            "once": False,
            "effects": [{"op": "buff", "what": "trigger_unit"}],
        },
        {"op": "draw", "n": 1},
    ]
    # a dying "it" triggers while still on the board (383.2.c.2), but is a new object by the time it is named
    assert read("Choose a unit. When it dies this turn, draw 1.", "Spell").status == "read"
    assert read("Choose a unit. When it dies this turn, return it to its owner's hand.", "Spell").status == "unread"


def test_hunt_is_read_as_the_ability_it_is_short_for_and_xp_is_gained_and_spent():
    """823.1.c.1: Hunt X is "When I conquer or hold, my controller gains X XP" (X omitted: 1, 823.1.c.2)."""
    hunt = read("[Hunt 2] (When I conquer or hold, gain 2 XP.)")
    assert [(t["when"], t["effects"]) for t in hunt.definition["triggers"]] == [
        ({"event": "conquer", "who": "self"}, [{"op": "gain_xp", "n": 2}]),
        ({"event": "hold", "who": "self"}, [{"op": "gain_xp", "n": 2}]),
    ]
    assert read("[Hunt]").definition["triggers"][0]["effects"] == [{"op": "gain_xp", "n": 1}]
    (ability,) = read("Spend 3 XP, [Exhaust]: Draw 1.").definition["activated"]
    assert ability["cost"] == {"spend_xp": 3, "exhaust": "this"}
    (trigger,) = read("When you play me, gain 1 XP.").definition["triggers"]
    assert trigger["effects"] == [{"op": "gain_xp", "n": 1}]


@pytest.mark.parametrize(
    ("text", "key", "expected"),
    [
        (
            "[Level 3][>] I have +1 [Might] and [Ganking].",
            "passives",
            [{"to": {"who": "self"}, "condition": "level 3", "might": 1, "keywords": {"Ganking": 1}}],
        ),
        (
            "[Level 6][>] I have [Deflect] and [Ganking].",
            "passives",
            [{"to": {"who": "self"}, "condition": "level 6", "keywords": {"Deflect": 1, "Ganking": 1}}],
        ),
    ],
)
def test_level_is_a_condition_on_the_ability_it_prefixes(text, key, expected):
    reading = read(text)
    assert reading.status == "read", reading.unread
    assert reading.definition[key] == expected
    (trigger,) = read("[Level 6][>] When you play me, draw 1.").definition["triggers"]
    assert trigger["condition"] == "level 6"
    assert read("[Level 6][>] Your units can't be chosen by spells.").status == "unread"


def test_a_level_condition_holds_from_that_much_xp():
    from scenarios import kernel
    from scenarios.kernel import Condition

    kernel.load_rules()
    holds, rule, _ = kernel.CONDITIONS["level 6"]

    class Game:
        players = {"A": type("P", (), {"xp": 6})(), "B": type("P", (), {"xp": 5})()}

    assert rule == "824.1.b.1"
    assert holds(Game, Condition("A", None, False)) and not holds(Game, Condition("B", None, False))


def test_empower_is_an_ability_usable_only_if_not_empowered_and_empowered_a_condition():
    """827.1.c.1: "[Empower] [3]" is "[3]: Empower this. Play only if not Empowered."; 828.1.b.1: "[Empowered][>]
    text" is active while the card is Empowered."""
    reading = read("[Empower] [3 Energy] (reminder)\n[Empowered][>] I have +2 [Might] and [Ganking].")
    assert reading.status == "read", reading.unread
    (ability,) = reading.definition["activated"]
    assert (ability["cost"], ability["condition"], ability["effects"]) == (
        {"energy": 3},
        "not empowered",
        [{"op": "empower", "what": "this"}],
    )
    assert reading.definition["passives"] == [
        {"to": {"who": "self"}, "condition": "empowered", "might": 2, "keywords": {"Ganking": 1}}
    ]
    assert read("[Empower] — Discard 1").definition["activated"][0]["cost"] == {"discard": 1}
    cheaper = read("[Empower] [5 Energy]. This ability costs [3 Energy] less if you control 4 or fewer runes.")
    assert cheaper.definition["activated"][0]["discounts"] == [
        {"energy": 3, "condition": "you control 4 or fewer runes"}
    ]


def test_ambush_is_read_as_the_keyword_and_your_other_units_as_a_group():
    reading = read("[Ambush] (You may play me as a [Reaction] to a battlefield where you have units.)")
    assert reading.status == "read" and reading.definition["keywords"] == {"Ambush": 1}
    (trigger,) = read("When you play me, give your other units here [Shield] this turn.").definition["triggers"]
    assert trigger["effects"] == [
        {"op": "grant", "keyword": "Shield", "to": {"all": {"who": "other friendly unit", "where": "here"}}}
    ]


def test_use_this_ability_only_while_at_a_battlefield_is_a_condition_on_using_it():
    """377.2.b: a condition on using an activated ability must be true to activate it."""
    (ability,) = read(
        "[Exhaust]: Deal damage equal to my Might to a unit at a battlefield. Use this ability only while I'm at a "
        "battlefield."
    ).definition["activated"]
    assert ability["condition"] == "at a battlefield"
    assert ability["effects"] == [{"op": "deal", "amount": "might_of:this", "to": "unit"}]


def test_flow_is_an_alternate_cost_of_a_spell_only():
    """829.1.a, 829.1.c: Flow is present on spells, formatted "Flow [Cost]"."""
    reading = read(
        "Draw 1.\n[Flow] [2 Energy] (You may play this from your trash for its Flow cost. Then banish it.)", "Spell"
    )
    assert reading.status == "read" and reading.definition["flow"] == [{"energy": 2}]
    assert read("[Flow] [2 Energy]", "Unit").status == "unread"


def test_a_permission_to_play_a_unit_to_a_battlefield_not_normally_valid():
    """355.2.b; open: unoccupied and uncontrolled (170.11.c); occupied: a unit there (170.11.a)."""
    assert read("You may play me to an open battlefield.").definition["played_to"] == ["open"]
    assert read("You may play me to an occupied enemy battlefield.").definition["played_to"] == ["occupied enemy"]
    assert read("You may play me to an open battlefield.", "Spell").status == "unread"
