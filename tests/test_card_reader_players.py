"""The per-player and per-opponent templates of the card reader (scenarios/card_reader/players.py): what they read,
what they refuse, and mutants of their readings that the read-card disputes read-141 to read-159 kill."""

from __future__ import annotations

from pathlib import Path

import pytest
from read_cards import read_every_card, swap_reader, verdicts_with

from scenarios.card_reader import CardText, abilities, conditions, costs, effects, entering, read_card
from scenarios.card_reader import players as reader
from scenarios.cards import Card
from scenarios.kernel import do
from scenarios.state import GameState

DISPUTES = sorted((Path(__file__).parent / "data" / "read_card_disputes").glob("read-1[45][0-9]-*.yaml"))


def read(text: str, kind: str = "Spell", **numbers):
    reading = read_card(CardText("Some Card", kind, text, **numbers))
    if reading.status == "read":
        Card.model_validate(reading.definition)
    return reading


def test_each_player_kills_one_of_their_units_is_performed_per_player():
    reading = read("Each player kills one of their units.")
    assert reading.definition["effects"] == [
        {"op": "each_player", "players": "each", "effects": [{"op": "kill_one", "kind": "unit"}]}
    ]
    assert "targets" not in reading.definition  # 355.10.e: chosen by each player, not a target


def test_each_player_parts_read_in_the_order_printed():
    reading = read("Each player discards their hand, then draws 4.")
    assert reading.definition["effects"] == [
        {"op": "each_player", "players": "each", "effects": [{"op": "discard_hand"}, {"op": "draw", "n": 4}]}
    ]
    gear = read("Each player kills one of their gear.")
    assert gear.definition["effects"][0]["effects"] == [{"op": "kill_one", "kind": "gear"}]


@pytest.mark.parametrize(
    ("who", "players"), [("Each opponent", "opponents"), ("Each other player", "others"), ("Each player", "each")]
)
def test_who_performs_it(who, players):
    reading = read(f"{who} draws 1.")
    assert reading.definition["effects"] == [
        {"op": "each_player", "players": players, "effects": [{"op": "draw", "n": 1}]}
    ]


def test_a_trigger_can_make_each_player_channel():
    reading = read("When you hold here, each player channels 1 rune exhausted.", "Battlefield")
    (trigger,) = reading.definition["triggers"]
    assert trigger["effects"] == [
        {"op": "each_player", "players": "each", "effects": [{"op": "channel", "n": 1, "exhausted": True}]}
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Each player kills a unit.",  # not "one of their": whose unit is not said per player
        "Each player returns one of their units to their hand.",
        "Each player draws 1 and deals 2 to an enemy unit.",  # an object the card names: not a per-player part
        "Each opponent reveals the top card of their Main Deck.",
    ],
)
def test_what_is_not_a_players_own_part_stays_unread(text):
    reading = read(text)
    assert reading.status == "unread" and reading.unread


def _ready_if(reading) -> str:
    """The condition of "If <condition>, I enter ready": a replacement of entering exhausted (369.3)."""
    (replacement,) = reading.definition["replacements"]
    assert replacement["would"] == "enter_exhausted" and replacement["to"] == {"who": "self"}
    return replacement["condition"]


def test_conditions_about_an_opponent_read_into_condition_words():
    leona = read("If an opponent's score is within 3 points of the Victory Score, I enter ready.", "Unit", might=6)
    assert _ready_if(leona) == "an opponent within 3 points of the victory score"
    assert not leona.definition.get("enters_ready")
    vayne = read("If an opponent controls a battlefield, I enter ready.", "Unit", might=2)
    assert _ready_if(vayne) == "an opponent controls a battlefield"
    monch = read("If an opponent controls a stunned unit, I cost [2 Energy] less and enter ready.", "Unit", might=6)
    assert monch.definition["discounts"] == [{"energy": 2, "condition": "an opponent controls a stunned unit"}]
    assert _ready_if(monch) == "an opponent controls a stunned unit"
    center = read("If an opponent's score is within 3 points of the Victory Score, this costs [2 Energy] less.")
    assert center.definition["discounts"] == [
        {"energy": 2, "condition": "an opponent within 3 points of the victory score"}
    ]


def test_a_spell_does_not_enter_ready():
    reading = read("If an opponent controls a battlefield, I enter ready.")
    assert reading.status == "unread"


def test_an_if_about_an_opponent_wraps_the_instructions_it_governs():
    reading = read(
        "When you play me, if an opponent's score is within 3 points of the Victory Score, ready me and gain 3 XP.",
        "Unit",
        might=5,
    )
    (trigger,) = reading.definition["triggers"]
    assert trigger["condition"] == "an opponent within 3 points of the victory score"  # 383.2.a.1
    assert trigger["effects"] == [{"op": "ready", "what": "this"}, {"op": "gain_xp", "n": 3}]


def test_a_trigger_on_an_opponents_turn_has_that_condition():
    reading = read(
        "When you play a spell on an opponent's turn, you may exhaust me to play a Gold gear token exhausted.", "Gear"
    )
    (trigger,) = reading.definition["triggers"]
    assert trigger["when"] == {"event": "card_played", "who": "you", "card_type": "spell"}
    assert trigger["condition"] == "an opponent's turn"
    assert trigger["optional"] and trigger["cost"] == {"exhaust": "this"}
    # "a card": a token is played (185.2.a) but is not a card (185), so the filter leaves tokens out
    (card,) = read("When you play a card on an opponent's turn, draw 1.", "Gear").definition["triggers"]
    assert card["when"]["card_type"] == "card" and card["condition"] == "an opponent's turn"


def test_an_opponents_play_and_what_it_played():
    (trigger,) = read("When an opponent plays a gear, you may banish me to banish it.", "Unit", might=3).definition[
        "triggers"
    ]
    assert trigger["when"] == {"event": "card_played", "who": "opponent", "card_type": "gear"}
    assert trigger["cost"] == {"banish": "this"} and trigger["optional"]
    assert trigger["effects"] == [{"op": "banish", "what": "trigger_unit"}]  # "it": the gear played


def test_an_opponents_score_is_their_conquer_or_hold():
    reading = read("When an opponent scores, draw 1.", "Gear")
    assert [t["when"] for t in reading.definition["triggers"]] == [
        {"event": "conquer", "who": "opponent"},
        {"event": "hold", "who": "opponent"},
    ]
    (holds,) = read("When an opponent holds, draw 1.", "Gear").definition["triggers"]
    assert holds["when"] == {"event": "hold", "who": "opponent"}


def test_an_if_at_the_start_of_the_beginning_phase_is_a_trigger_with_that_condition():
    text = "If you control fewer runes than an opponent at the start of your Beginning Phase, give me +1 [Might] this turn."
    (trigger,) = read(text, "Unit", might=2).definition["triggers"]
    assert trigger["when"] == {"event": "beginning", "who": "you"}
    assert trigger["condition"] == "you control fewer runes than an opponent"
    assert trigger["effects"] == [{"op": "might", "amount": 1, "to": "this"}]


def test_each_player_chooses_is_read_with_what_is_done_with_the_chosen():
    duel = read("Each player chooses a unit they control. Kill the rest.")
    assert duel.definition["effects"] == [
        {"op": "each_chooses", "players": "each", "whose": "own", "then": "kill_rest"}
    ]
    edict = read(
        "Starting with the next player, each other player chooses a unit you don't control that hasn't been chosen "
        "for this spell. Kill those units."
    )
    (choice,) = edict.definition["effects"]
    assert (choice["players"], choice["start"], choice["whose"], choice["distinct"], choice["then"]) == (
        "others",
        "next",
        "not the controller's",
        True,
        "kill",
    )
    whirlwind = read("Starting with the next player, each player may return a unit to its owner's hand.")
    assert whirlwind.definition["effects"][0]["optional"] is True
    assert read("Each player chooses a unit they control. Draw 1.").status == "unread"


def test_a_chosen_opponent_is_a_target_and_they_act_as_themselves():
    roost = read(
        "When you play me, choose an opponent. They play a 1 [Might] Bird unit token with [Deflect].", "Unit", might=6
    )
    (trigger,) = roost.definition["triggers"]
    assert trigger["targets"] == {"target": {"type": "player", "side": "enemy"}}
    (their,) = trigger["effects"]
    assert their["op"] == "each_player" and their["players"] == "target"
    assert their["effects"][0]["token"] == "bird"
    sabotage = read(
        "Choose an opponent. They reveal their hand. Choose a non-unit card from it, and recycle that card."
    )
    assert sabotage.definition["effects"] == [
        {"op": "reveal_hand", "of": "target"},
        {"op": "choose_from_hand", "of": "target", "card": "non-unit", "then": "recycle"},
    ]


@pytest.mark.parametrize(
    "text",
    [
        "They draw 2.",  # no player chosen before: who "they" are is not said
        "Choose a card from it, and they discard that card.",
        "Choose an opponent. They kill a friendly unit.",  # an object of theirs chosen: not a part they perform
        "Choose an opponent. They play a 1 [Might] Recruit unit token here.",  # "here" of whose?
        "Choose an opponent. They draw 1 and kill a unit.",  # "kill a unit" is theirs too, not the controller's
        "When you play me, choose an opponent.",  # chosen for nothing
        "Choose an opponent. Draw 1.",
    ],
)
def test_they_without_a_chosen_player_or_with_objects_stays_unread(text):
    assert read(text).status == "unread"


def test_opponents_cant_play_cards_this_turn_is_a_prohibition_on_each_opponent():
    (trigger,) = read("When you play me, opponents can't play cards this turn.", "Unit", might=5).definition["triggers"]
    assert trigger["effects"] == [{"op": "restrict", "players": "opponents", "restriction": "no_play_cards"}]
    assert read("Opponents can't move units this turn.").status == "unread"


def test_a_card_a_prohibited_player_would_play_by_an_effect_is_not_played():
    """Can't beats can (054.1): a card an effect would have the player play stays where it is; a token is no card
    (052) and is still played."""
    game = GameState(
        {"turn": {"player": "A"}, "players": {"A": {}, "B": {"hand": [{"id": "bu", "card": "Test Unit"}]}}}
    )
    game.lasting_restrictions = (("B", None, "no_play_cards", "bu", game.turn_number, ()),)
    do.play_by_effect(game, game.obj("bu"), "B", "base", "an effect", because="419.3")
    assert game.obj("bu").zone == "hand"
    game.lasting_restrictions = ()
    do.play_by_effect(game, game.obj("bu"), "B", "base", "an effect", because="419.3")
    assert game.obj("bu").zone == "board"


def test_opponents_cards_cost_more_is_a_tax_and_its_empowered_alternative():
    helm = read(
        "Opponents' spells cost [1 Energy] more. If this is [Empowered], they cost [1 Energy][Any rune] more instead.",
        "Gear",
    )
    assert helm.definition["cost_modifiers"] == [
        {"cards": "spell", "whose": "opponent", "energy": 1, "condition": "not empowered"},
        {"cards": "spell", "whose": "opponent", "energy": 1, "power": 1, "condition": "empowered"},
    ]
    units = read("Opponents' units cost [2 Energy] more.", "Gear").definition["cost_modifiers"]
    assert units == [{"cards": "unit", "whose": "opponent", "energy": 2}]
    assert read("Opponents' spells cost [Fury rune] more.", "Gear").status == "unread"  # a domain's Power: not said


def test_at_the_start_of_each_players_beginning_phase():
    text = "At the start of each player's Beginning Phase, deal 1 to each unit here. (This happens before scoring.)"
    (trigger,) = read(text, "Battlefield").definition["triggers"]
    assert trigger["when"] == {"event": "beginning", "who": "player"}
    assert trigger["effects"] == [{"op": "deal", "amount": 1, "to": {"all": {"who": "unit", "where": "here"}}}]
    # the reminder restates when a Beginning Phase's start is (315.2.a, 315.2.b): elsewhere it is words unread
    assert read("When I conquer, draw 1. (This happens before scoring.)", "Unit", might=2).status == "unread"


# -- mutants the disputes kill ------------------------------------------------------------------------------------


def _each_player_as_you(m, ctx):
    found = reader._each_player(m, ctx)
    return [e for i in found for e in i["effects"]] if found else found


def _if_always(m, ctx):
    found = reader._if_opponent(m, ctx)
    return found[0]["then"] if found else found


def _mutate_templates(monkeypatch, original, replacement):
    monkeypatch.setattr(
        effects, "TEMPLATES", [(f, p, replacement if b is original else b) for f, p, b in effects.TEMPLATES]
    )


def _unconditional(read):
    """`read` with a condition about opponents dropped from the discounts and ways to enter it reads ("If an
    opponent controls a stunned unit, I cost [2] less and enter ready" read as always)."""

    def mutant(text, card, used, around):
        found = read(text, card, used, around)
        for ability in [*card.get("discounts", []), *card.get("replacements", [])]:
            if str(ability.get("condition", "")).startswith("an opponent"):
                ability.pop("condition")
        return found

    return mutant


def _any_turn(text, card, used, around):
    found = reader.read_on_an_opponents_turn(text, card, used, around)
    for trigger in card.get("triggers", []):
        trigger.pop("condition", None)
    return found


@pytest.mark.parametrize(
    "mutant",
    [
        "each player read as its controller alone",
        "an if about an opponent read as always",
        "a conditional passive read as always",
        "on an opponent's turn dropped",
        "within 3 read as within 2",
        "an opponent's event read as yours",
        "fewer runes dropped",
        "the rest read as the chosen",
        "from the next player read from the Turn Player",
        "they read as you",
        "any card read from their hand",
        "their discard read as a recycle",
        "opponents can't read as you can't",
    ],
)
def test_the_disputes_kill_a_mutant_of_each_template(mutant, real_db, monkeypatch):
    if mutant == "each player read as its controller alone":
        _mutate_templates(monkeypatch, reader._each_player, _each_player_as_you)
    elif mutant == "an if about an opponent read as always":
        _mutate_templates(monkeypatch, reader._if_opponent, _if_always)
    elif mutant == "an opponent's event read as yours":
        monkeypatch.setattr(
            abilities,
            "TRIGGERS",
            [
                (f, p, (lambda m, b=b: [{**e, "who": "you"} if e["who"] == "opponent" else e for e in b(m)]))
                for f, p, b in abilities.TRIGGERS
            ],
        )
    elif mutant == "within 3 read as within 2":
        said = conditions.opponent_condition
        monkeypatch.setattr(
            conditions,
            "opponent_condition",
            lambda found: (
                f"an opponent within {int(found['n']) - 1} points of the victory score" if found["n"] else said(found)
            ),
        )
    elif mutant == "the rest read as the chosen":
        monkeypatch.setitem(
            reader._CHOOSING,
            "each player chooses a unit they control. kill the rest",
            {"players": "each", "whose": "own", "then": "kill"},
        )
    elif mutant == "from the next player read from the Turn Player":
        _mutate_templates(
            monkeypatch,
            reader._each_may_return,
            lambda m, ctx: [{k: v for k, v in i.items() if k != "start"} for i in reader._each_may_return(m, ctx)],
        )
    elif mutant == "they read as you":
        _mutate_templates(
            monkeypatch,
            reader._they,
            lambda m, ctx: [e for i in reader._they(m, ctx) or [] for e in i["effects"]] or None,
        )
    elif mutant in ("any card read from their hand", "their discard read as a recycle"):
        change = {"card": "any"} if mutant.startswith("any") else {"then": "recycle"}
        _mutate_templates(
            monkeypatch,
            reader._choose_from_their_hand,
            lambda m, ctx: [{**i, **change} for i in reader._choose_from_their_hand(m, ctx) or []] or None,
        )
    elif mutant == "opponents can't read as you can't":
        _mutate_templates(
            monkeypatch,
            reader._opponents_cant,
            lambda m, ctx: [{**i, "players": "you"} for i in reader._opponents_cant(m, ctx)],
        )
    elif mutant == "fewer runes dropped":
        original_reader = reader.read_if_at_the_start

        def always(text, card, used, around):
            found = original_reader(text, card, used, around)
            for trigger in card.get("triggers", []):
                trigger.pop("condition", None)
            return found

        swap_reader(monkeypatch, original_reader, always)
    elif mutant.startswith("a conditional"):  # the one reading of "if <condition>, I cost less / enter ready"
        swap_reader(monkeypatch, costs.read_costs, _unconditional(costs.read_costs))
        swap_reader(monkeypatch, entering.read_entering, _unconditional(entering.read_entering))
    else:
        swap_reader(monkeypatch, reader.read_on_an_opponents_turn, _any_turn)
    verdicts = verdicts_with(read_every_card(real_db), DISPUTES)
    assert set(verdicts) != {"match"}, f"the mutant {mutant!r} of the reader survives every per-player dispute"
