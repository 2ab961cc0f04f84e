"""The engine itself: push/pop, text round trip, refusals citing rules, strict choices, validation errors."""

from __future__ import annotations

import json
import textwrap

import pytest
import yaml

import scenarios
from scenarios import schema
from scenarios.replay import render_tree, replay_file
from scenarios.state import GameState, Refusal, UnansweredChoice

BASIC = {
    "turn": {"player": "A"},
    "players": {"A": {"base": [{"id": "a1", "card": "Test Unit", "might": 4}]}, "B": {}},
    "battlefields": [
        {
            "id": "bf1",
            "card": "Neutral Ground",
            "controller": "B",
            "units": [
                {"id": "d1", "card": "Test Defender", "controller": "B", "might": 2},
                {"id": "d2", "card": "Test Defender", "controller": "B", "might": 2},
            ],
        }
    ],
}


ATTACK = ({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"}, {"by": "A", "do": "pass"}, {"by": "B", "do": "pass"})


def attack(game, boards=None):
    """A attacks bf1 with a1 and both players pass Focus (the combat damage step asks A to assign)."""
    for action in ATTACK:
        game.push(action)
        if boards is not None:
            boards.append(game.to_dict()["board"])


def test_push_and_pop_restore_the_previous_state():
    game = GameState(BASIC)
    before = game.to_dict()["board"]
    game.push({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"})
    assert game.obj("a1").location == "bf1" and game.combat
    game.pop()
    assert game.to_dict()["board"] == before
    assert game.history == []


def test_state_round_trips_through_json_even_with_a_pending_choice():
    game = GameState(BASIC)
    attack(game)
    assert game.pending and game.pending.kind == "assign"
    text = json.dumps(game.to_dict())
    again = GameState.from_dict(json.loads(text))
    assert again.to_dict() == game.to_dict()
    assert yaml.safe_load(yaml.safe_dump(game.to_dict())) == json.loads(text)


def test_state_with_a_chain_round_trips_through_yaml():
    setup = json.loads(json.dumps(BASIC))
    setup["players"]["A"]["hand"] = [{"id": "seeker", "card": "Void Seeker"}]
    setup["players"]["A"]["deck"] = [{"id": "a-top", "card": "Test Unit"}]  # its draw burns no one out
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "seeker", "targets": {"target": "d1"}})
    data = yaml.safe_load(yaml.safe_dump(game.to_dict()))
    assert data["board"]["chain"][0]["label"] == "Void Seeker"
    again = GameState.from_dict(data)
    again.push({"by": "A", "do": "pass"})
    again.push({"by": "B", "do": "pass"})
    assert again.obj("d1").zone == "trash" and again.obj("a-top").zone == "hand" and again.players["B"].points == 0


def test_unanswered_choice_is_an_error_not_a_default():
    game = GameState(BASIC)
    attack(game)
    with pytest.raises(UnansweredChoice, match="assign 4 combat damage"):
        game.finish()


def test_another_action_while_a_choice_is_pending_is_refused():
    game = GameState(BASIC)
    attack(game)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "end_turn"})
    assert refusal.value.rule == "465.2.c"


@pytest.mark.parametrize(
    "pick,rule",
    [
        ({"d1": 3, "d2": 1}, "465.2.c.4"),  # more than lethal on d1 while d2 is short of lethal
        ({"d1": 1, "d2": 1}, "465.2.c"),  # does not total 4
        ({"d1": 1, "d2": 3}, "465.2.c.4"),
    ],
)
def test_illegal_damage_assignments_are_refused_with_their_rule(pick, rule):
    game = GameState(BASIC)
    attack(game)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "choose", "choice": "assign", "pick": pick})
    assert refusal.value.rule == rule
    assert game.pending is not None  # the state is untouched; the question is still open


def test_a_legal_assignment_trades_everything_and_empties_the_battlefield():
    game = GameState(BASIC)
    attack(game)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert game.obj("d1").zone == game.obj("d2").zone == game.obj("a1").zone == "trash"
    assert game.obj("bf1").battlefield_controller is None  # 444.2.d
    assert game.players["A"].points == 0


def test_tank_must_take_lethal_damage_first():
    setup = json.loads(json.dumps(BASIC))
    setup["battlefields"][0]["units"][1]["keywords"] = {"Tank": 1}
    game = GameState(setup)
    attack(game)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 3, "d2": 1}})
    assert refusal.value.rule in ("815.1.b", "465.2.c.4")
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})


def test_backline_is_assigned_lethal_damage_after_the_units_without_it():
    setup = json.loads(json.dumps(BASIC))
    setup["players"]["A"]["base"][0]["might"] = 3
    setup["battlefields"][0]["units"][0]["keywords"] = {"Backline": 1}
    game = GameState(setup)
    attack(game)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 1}})
    assert refusal.value.rule == "826.4.b"
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d2": 2, "d1": 1}})
    assert game.obj("d2").zone == "trash" and game.obj("d1").zone == "board"
    assert any("826.4.b" in step.rules for _, step in game.trace.steps() if step.procedure == "choice")


def test_refusal_leaves_the_state_untouched_and_is_traced():
    game = GameState(BASIC)
    before = game.to_dict()
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "B", "do": "move", "units": ["d1"], "to": "base"})
    assert refusal.value.rule == "410.1.a"
    assert game.to_dict() == before
    assert game.trace.roots[-1].kind == "refusal" and game.trace.roots[-1].rules == ["410.1.a"]


def test_timing_refusals_cite_the_rule():
    setup = json.loads(json.dumps(BASIC))
    setup["players"]["A"]["hand"] = [{"id": "seeker", "card": "Void Seeker"}, {"id": "charm", "card": "Charm"}]
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "seeker", "targets": {"target": "d1"}})
    with pytest.raises(Refusal) as refusal:  # Charm has no Reaction: not while the Chain exists
        game.push({"by": "A", "do": "play", "card": "charm", "targets": {"target": "d2", "destination": "base"}})
    assert refusal.value.rule == "331.1.a"
    with pytest.raises(Refusal) as refusal:  # B does not have priority yet
        game.push({"by": "B", "do": "pass"})
    assert refusal.value.rule == "312.1"


ENEMY_BATTLEFIELD = {
    "id": "bf2",
    "card": "Neutral Ground",
    "controller": "B",
    "units": [{"id": "b2", "card": "Test Unit", "controller": "B"}],
}


def write(tmp_path, text):
    path = tmp_path / "scenario.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


VALID = """\
    meta: {id: t, title: t, ruling: 1}
    answer: t
    setup:
      turn: {player: A}
      players:
        A:
          base:
            - {id: a1, card: Test Unit, might: 4}
        B: {}
    expect:
      a1: {zone: base}
    """


def test_validation_error_names_file_line_and_field(tmp_path):
    path = write(tmp_path, VALID.replace("might: 4", "might: four"))
    with pytest.raises(schema.ScenarioError) as error:
        schema.load(path)
    message = str(error.value)
    assert str(path) in message
    assert error.value.line == 8
    assert error.value.field == "setup.players.A.base.0.might"


def test_unknown_card_and_unknown_field_are_reported(tmp_path):
    path = write(tmp_path, VALID.replace("card: Test Unit", "card: No Such Card"))
    with pytest.raises(schema.ScenarioError) as error:
        schema.load(path)
    assert error.value.line == 8 and "No Such Card" in error.value.message
    path = write(tmp_path, VALID.replace("answer: t", "answer: t\n    colour: red"))
    with pytest.raises(schema.ScenarioError) as error:
        schema.load(path)
    assert error.value.field == "colour" and error.value.line == 3


def test_wrong_expectation_prints_expected_against_computed(tmp_path):
    path = write(tmp_path, VALID.replace("a1: {zone: base}", "a1: {zone: trash}"))
    replay = replay_file(path)
    assert replay.verdict == "mismatch"
    assert replay.mismatches == ["a1.zone: expected 'trash', computed 'base'"]
    assert "expected 'trash', computed 'base'" in render_tree(replay)


def test_every_library_card_names_a_real_card_or_says_it_is_made_up():
    from pathlib import Path

    from scenarios.cards import load_library

    corpus = json.loads((Path(__file__).resolve().parents[1] / "corpus" / "riftbound-cards.json").read_text())
    real_names = {card["name"] for card in corpus}
    for card in load_library().values():
        assert card.made_up or card.real in real_names, f"{card.name}: {card.real!r} is not in the card file"


def test_a_card_with_an_unknown_instruction_fails_at_load():
    from scenarios.cards import Card, check_vocabulary

    card = Card.model_validate(
        {"name": "Typo", "made_up": True, "type": "spell", "effects": [{"op": "deall", "amount": 2, "to": "target"}]}
    )
    with pytest.raises(ValueError, match="unknown instruction 'deall'"):
        check_vocabulary(card)


@pytest.mark.parametrize("first", [{"op": "exhaust", "what": "this"}, {"op": "spend_buff"}])
def test_a_cost_after_you_may_written_as_an_instruction_fails_at_load(first):
    """ "You may exhaust me to ...": the cost is the trigger's `cost:` (paid as it is finalized under 1.4,
    383.3.b.1), never its first instruction, which would be done even when it can't be paid."""
    from scenarios.cards import Card

    trigger = {"when": {"event": "play", "who": "self"}, "label": "Typo", "optional": True}
    spec = {"name": "Typo", "made_up": True, "type": "unit", "might": 1, "energy": 1}
    with pytest.raises(ValueError, match="declare it as the trigger's `cost:`"):
        Card.model_validate({**spec, "triggers": [{**trigger, "effects": [first, {"op": "draw", "n": 1}]}]})
    declared = {**trigger, "cost": {"exhaust": "this"}, "effects": [{"op": "draw", "n": 1}]}
    assert Card.model_validate({**spec, "triggers": [declared]}).triggers[0].cost.exhaust == "this"


def test_an_if_clause_without_a_condition_fails_at_load():
    """`if_clause` says the trigger's condition is the "if" right after its Condition (383.2.a.1): without a
    condition it would say nothing, a typo the loader names."""
    from scenarios.cards import Card

    trigger = {"when": {"event": "play", "who": "self"}, "label": "Typo", "if_clause": True, "effects": []}
    spec = {"name": "Typo", "made_up": True, "type": "unit", "might": 1, "energy": 1}
    with pytest.raises(ValueError, match="if_clause says what its condition is, but it has none"):
        Card.model_validate({**spec, "triggers": [trigger]})
    assert Card.model_validate({**spec, "triggers": [{**trigger, "condition": "legion"}]}).triggers[0].if_clause


def test_a_move_destination_slot_must_name_the_units_it_moves():
    """355.4.a: a move's destination is not where the units are; a location slot says whose units (`of`)."""
    from scenarios.cards import Card, check_vocabulary

    spec = {"name": "Typo", "made_up": True, "type": "spell", "energy": 1}
    move = [{"op": "move", "what": "target", "to": "destination"}]
    loose = {"target": {"type": "unit"}, "destination": {"type": "location"}}
    with pytest.raises(ValueError, match="must say `of: target`"):
        check_vocabulary(Card.model_validate({**spec, "targets": loose, "effects": move}))
    tied = {"target": {"type": "unit"}, "destination": {"type": "location", "of": "target"}}
    check_vocabulary(Card.model_validate({**spec, "targets": tied, "effects": move}))


def test_pop_undoes_an_answered_choice():
    game = GameState(BASIC)
    attack(game)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert game.obj("a1").zone == "trash"
    game.pop()
    assert game.pending and game.pending.kind == "assign" and game.obj("a1").where() == "bf1"
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert game.obj("a1").zone == "trash"


def test_turn_cycle_holds_and_clears_this_turn_effects():
    setup = {
        "turn": {"player": "A"},
        "players": {
            "A": {
                "deck": [
                    {"id": "c1", "card": "Test Unit"},
                    {"id": "c2", "card": "Test Unit"},
                    {"id": "c3", "card": "Test Unit"},
                ],
                "hand": [{"id": "disc", "card": "Discipline"}],
            },
            "B": {"deck": [{"id": "b1", "card": "Test Unit"}]},  # an empty deck would burn B out (418)
        },
        "battlefields": [
            {
                "id": "grove",
                "card": "Grove of the God-Willow",
                "controller": "A",
                "units": [
                    {"id": "u1", "card": "Test Unit", "controller": "A", "might": 2, "damage": 1, "exhausted": True}
                ],
            }
        ],
    }
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "disc", "targets": {"target": "u1"}})
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert game.obj("u1").might_base == 2 and game.obj("u1").modifiers
    game.push({"by": "A", "do": "end_turn"})
    assert game.turn_player == "B"
    assert game.obj("u1").damage == 0 and not game.obj("u1").modifiers  # 317.2.b heal, 317.3 expiry
    with pytest.raises(Refusal):
        game.push({"by": "A", "do": "end_turn"})  # not A's turn
    game.push({"by": "B", "do": "end_turn"})
    assert game.turn_player == "A" and game.players["A"].points == 1  # hold (446.2)
    assert not game.obj("u1").exhausted  # awaken (315.1.a)
    assert game.chain and game.chain[-1].label == "Grove of the God-Willow: draw 1"
    assert game.phase == "beginning"  # the hold trigger resolves before the Draw Phase
    hand = len(game.hand("A"))
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert len(game.hand("A")) == hand + 2  # the Grove's draw, then the turn's draw (315.4.b)
    assert game.phase == "main" and game.priority == "A"


def test_an_action_naming_an_unknown_object_is_refused():
    game = GameState(BASIC)
    with pytest.raises(Refusal, match="does not exist: 'ghost'"):
        game.push({"by": "A", "do": "move", "units": ["ghost"], "to": "bf1"})
    assert game.history == []


def test_final_point_by_conquer_needs_every_battlefield_scored():
    setup = {
        "turn": {"player": "A"},
        "players": {"A": {"points": 7, "base": [{"id": "a1", "card": "Test Unit"}]}, "B": {}},
        "battlefields": [{"id": "bf1", "card": "Neutral Ground"}, {"id": "bf2", "card": "Neutral Ground"}],
    }
    game = GameState(setup)
    game.push({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"})
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert game.obj("bf1").battlefield_controller == "A"
    assert game.players["A"].points == 7  # 448.1.b.2: bf2 not scored this turn: a card instead of the point
    assert any("471.1.b.1" in step.rules for _, step in game.trace.steps())
    setup["battlefields"][1]["scored_this_turn"] = ["A"]
    game = GameState(setup)
    game.push({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"})
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert game.players["A"].points == 8 and game.winner == "A"
    assert game.outcome().winner == "A" and "472" in game.outcome().reason


def test_attack_triggers_fire_once_per_combat_not_once_per_turn():
    setup = {
        "turn": {"player": "A"},
        "players": {
            "A": {
                "base": [{"id": "anivia", "card": "Anivia, Primal"}],
                "hand": [{"id": "wind", "card": "Ride the Wind"}],
            },
            "B": {},
        },
        "battlefields": [
            {
                "id": "bf1",
                "card": "Neutral Ground",
                "controller": "B",
                "units": [{"id": "d1", "card": "Test Defender", "controller": "B", "might": 1}],
            },
            {
                "id": "bf2",
                "card": "Neutral Ground",
                "controller": "B",
                "units": [{"id": "d2", "card": "Test Defender", "controller": "B", "might": 1}],
            },
        ],
    }
    game = GameState(setup)
    game.push({"by": "A", "do": "move", "units": ["anivia"], "to": "bf1"})
    for player in ("A", "B", "A", "B"):  # the attack trigger resolves, then both pass Focus
        game.push({"by": player, "do": "pass"})
    assert game.obj("d1").zone == "trash" and game.obj("bf1").battlefield_controller == "A"
    game.push({"by": "A", "do": "play", "card": "wind", "targets": {"target": "anivia", "destination": "bf2"}})
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert game.chain and game.chain[-1].label == "Anivia: deal 3 to all enemy units here"
    assert game.log["triggered"].count("Anivia: deal 3 to all enemy units here") == 2


def test_equip_is_an_activated_ability_that_uses_the_chain():
    setup = {
        "turn": {"player": "A"},
        "players": {
            "A": {
                "power": 1,
                "base": [{"id": "u1", "card": "Test Unit", "might": 2}, {"id": "ga", "card": "Guardian Angel"}],
            },
            "B": {},
        },
    }
    game = GameState(setup)
    game.push({"by": "A", "do": "activate", "source": "ga", "targets": {"unit": "u1"}})
    assert game.chain[-1].label == "Guardian Angel: Equip" and game.players["A"].power == 0
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert game.obj("ga").attached_to == "u1"
    from scenarios.kernel import calc

    assert calc.might(game, game.obj("u1")) == 3  # the Might bonus of attached gear (421.1.d)
    with pytest.raises(Refusal) as refusal:  # no power left to pay the Equip cost again
        game.push({"by": "A", "do": "activate", "source": "ga", "targets": {"unit": "u1"}})
    assert refusal.value.rule == "404.1"
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "activate", "source": "ga", "ability": 3})
    assert refusal.value.rule == "377.1"


def test_hide_then_react_from_facedown_for_free():
    setup = {
        "turn": {"player": "A"},
        "players": {
            "A": {"power": 1, "energy": 0, "hand": [{"id": "flight", "card": "Fight or Flight"}]},
            "B": {"base": [{"id": "b1", "card": "Test Unit"}], "deck": [{"id": "b-top", "card": "Test Unit"}]},
        },
        "battlefields": [
            {
                "id": "bf1",
                "card": "Neutral Ground",
                "controller": "A",
                "units": [{"id": "a1", "card": "Test Unit", "controller": "A"}],
            },
            ENEMY_BATTLEFIELD,
        ],
    }
    game = GameState(setup)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "hide", "card": "flight", "at": "bf2"})
    assert refusal.value.rule == "421.1"
    game.push({"by": "A", "do": "hide", "card": "flight", "at": "bf1"})
    assert game.obj("flight").zone == "facedown" and game.players["A"].power == 0
    game.push({"by": "A", "do": "end_turn"})
    game.push({"by": "B", "do": "move", "units": ["b1"], "to": "bf1"})  # B attacks; A defends
    assert game.combat and game.priority == "B"
    game.push({"by": "B", "do": "pass"})
    game.push({"by": "A", "do": "play", "card": "flight", "targets": {"target": "b1"}})  # costs 0 from facedown
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})
    assert game.obj("b1").where() == "base" and game.obj("flight").zone == "trash"


def test_a_scenario_can_start_in_an_open_combat_showdown():
    setup = {
        "turn": {"player": "A", "state": "showdown-open", "showdown": {"battlefield": "bf1", "focus": "B"}},
        "players": {"A": {}, "B": {"hand": [{"id": "smoke", "card": "Smoke Screen"}]}},
        "battlefields": [
            {
                "id": "bf1",
                "card": "Neutral Ground",
                "controller": "B",
                "contested_by": "A",
                "units": [
                    {"id": "a1", "card": "Test Unit", "controller": "A", "might": 4},
                    {"id": "d1", "card": "Test Defender", "controller": "B", "might": 3},
                ],
            }
        ],
    }
    game = GameState(setup)
    assert game.combat.plain() == {"battlefield": "bf1", "attacker": "A", "defender": "B"}
    assert game.obj("a1").designation == "attacker" and game.priority == "B"
    game.push({"by": "B", "do": "play", "card": "smoke", "targets": {"target": "a1"}})
    game.push({"by": "B", "do": "pass"})
    game.push({"by": "A", "do": "pass"})  # Smoke Screen: 4 -> 1; Focus passes to A
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})  # combat: 1 against 3
    assert game.obj("a1").zone == "trash" and game.obj("d1").where() == "bf1"
    assert game.obj("bf1").battlefield_controller == "B"


def test_setup_in_a_showdown_needs_a_contested_battlefield(tmp_path):
    path = write(
        tmp_path,
        VALID.replace("turn: {player: A}", "turn: {player: A, state: showdown-open, showdown: {battlefield: bf9}}"),
    )
    with pytest.raises(schema.ScenarioError) as error:
        schema.load(path)
    assert error.value.field == "setup" and "contested_by" in error.value.message


def test_second_card_in_a_turn_triggers_darius():
    setup = {
        "turn": {"player": "A"},
        "players": {
            "A": {
                "hand": [{"id": "disc1", "card": "Discipline"}, {"id": "disc2", "card": "Discipline"}],
                "base": [{"id": "darius", "card": "Darius, Trifarian", "exhausted": True}],
                "deck": [{"id": "top1", "card": "Test Unit"}, {"id": "top2", "card": "Test Unit"}],  # Discipline draws
            },
            "B": {},
        },
    }
    game = GameState(setup)
    for card in ("disc1", "disc2"):
        game.push({"by": "A", "do": "play", "card": card, "targets": {"target": "darius"}})
        while game.chain:
            game.push({"by": game.priority, "do": "pass"})
    assert game.log["triggered"] == ["Darius, Trifarian: give me +2 might and ready me"]
    darius = game.obj("darius")
    assert not darius.exhausted and darius.might_base == 5 and sum(m.amount for m in darius.modifiers) == 6


def _with_heart(**heart):
    return {
        "turn": {"player": "A"},
        "players": {
            "A": {"base": [{"id": "heart", "card": "Heart of Dark Ice", **heart}, {"id": "u1", "card": "Test Unit"}]},
            "B": {
                "hand": [{"id": "jab", "card": "Quick Jab"}],
                "base": [{"id": "b1", "card": "Test Unit"}],
                "deck": [{"id": "b-top", "card": "Test Unit"}],  # B's Draw Phase (an empty deck burns out, 418)
            },
        },
    }


def test_an_activated_ability_needs_reaction_in_a_closed_state_and_its_controllers_turn():
    game = GameState(_with_heart())
    game.push({"by": "A", "do": "activate", "source": "heart", "targets": {"unit": "u1"}})
    assert game.chain[-1].label == "Heart of Dark Ice: +3 might" and game.obj("heart").exhausted  # cost paid
    game.pop()
    game.push({"by": "A", "do": "end_turn"})
    with pytest.raises(Refusal) as refusal:  # B's turn, Neutral Open: only B has Priority (312.2.a)
        game.push({"by": "A", "do": "activate", "source": "heart", "targets": {"unit": "u1"}})
    assert refusal.value.rule == "312.1"


def test_an_exhaust_cost_that_cannot_be_paid_is_refused_with_its_rule():
    game = GameState(_with_heart(exhausted=True))
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "activate", "source": "heart", "targets": {"unit": "u1"}})
    assert refusal.value.rule == "414.4"
    assert not any(a.do == "activate" for a in game.legal_actions())


def test_while_the_chain_exists_only_reaction_abilities_may_be_activated():
    setup = _with_heart()
    setup["players"]["A"]["hand"] = [{"id": "disc", "card": "Discipline"}]
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "disc", "targets": {"target": "u1"}})
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "activate", "source": "heart", "targets": {"unit": "u1"}})
    assert refusal.value.rule == "309.1.a"


def test_a_hidden_spell_with_no_target_at_its_battlefield_cannot_be_played():
    setup = {
        "turn": {"player": "A"},
        "players": {"A": {"facedown": [{"id": "flight", "card": "Fight or Flight", "at": "bf1"}]}, "B": {}},
        "battlefields": [
            {"id": "bf1", "card": "Neutral Ground", "controller": "A"},
            ENEMY_BATTLEFIELD,
        ],
    }
    game = GameState(setup)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "play", "card": "flight"})
    assert refusal.value.rule == "811.1.d"
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "play", "card": "flight", "targets": {"target": "b2"}})
    assert refusal.value.rule == "811.1.d.2"


def test_a_slot_choosing_one_object_takes_exactly_one():
    """ "Kill a unit" chooses one unit (355.8): two named for its slot are refused, not both killed, and an empty
    list is no choice made, not a spell played without its target; "any number of" slots take groups (355.13)."""
    setup = {
        "turn": {"player": "A"},
        "players": {"A": {"energy": 5, "hand": [{"id": "lesson", "card": "Harsh Lesson"}]}, "B": {}},
        "battlefields": [
            {
                "id": "bf1",
                "card": "Neutral Ground",
                "controller": "B",
                "units": [{"id": f"e{i}", "card": "Test Unit", "controller": "B"} for i in range(2)],
            }
        ],
    }
    game = GameState(setup)
    for named, said in ((["e0", "e1"], "chooses one unit for 'target', not 2"), ([], "needs a target")):
        with pytest.raises(Refusal, match=said) as refusal:
            game.push({"by": "A", "do": "play", "card": "lesson", "targets": {"target": named}})
        assert refusal.value.rule == "355.8" and game.history == []
    game.push({"by": "A", "do": "play", "card": "lesson", "targets": {"target": ["e1"]}})
    assert len(game.history) == 1 and game.obj("lesson").zone != "hand"


def _summaries(name: str) -> list[str]:
    path = next(p for p in scenarios.library_paths() if p.name.startswith(name))
    return [step.summary for root in replay_file(path).steps for _, step in root.walk()]


def test_might_steps_read_as_a_judge_says_them():
    """Might in words: what a unit has and where each part comes from, what a limited modifier gives and why,
    what lethal damage is measured against, what each side deals in combat."""
    tank = _summaries("core-36-")
    assert "a1 has 5 Might" in tank and "guard has 4 Might (base 3, +1 from Shield)" in tank
    assert "the defenders deal 7 damage in all" in tank
    assert "A: assign 5 combat damage among guard, d2 -> guard: 4, d2: 1" in tank
    assert "B assigns all 7 damage to a1, the only unit" in tank
    assert "guard has 4 damage and 4 Might (base 3, +1 from Shield): lethal, it dies" in tank
    assert "A applied Contested, so A attacks and B defends; A gains Focus" in _summaries("dispute-55-")
    saved = _summaries("dispute-17-")
    assert "Guardian Angel replaces the event: sentry would die" in saved
    assert "A: which replacement effect applies as sentry would die -> angel (only legal option)" in saved
    smoke = _summaries("ruling-10-")
    assert (
        "u1 has 4 Might (base 2, +1 from Trifarian War Camp, +1 from Darius, Executioner): "
        "the -4 can take it only to 1, so it gives -3 for the turn"
    ) in smoke
    assert (
        "u1 has 1 Might (base 2, +1 from Trifarian War Camp, +1 from Darius, Executioner, -3 from Smoke Screen): it gets +2"
        in smoke
    )


def test_a_gear_is_shown_entering_the_board_ready_and_a_unit_exhausted():
    """Only units enter exhausted (356.2.c); a gear played enters ready (356.2.d), and its step says so."""
    setup = {
        "turn": {"player": "A"},
        "players": {
            "A": {"hand": [{"id": "hourglass", "card": "Zhonya's Hourglass"}, {"id": "u1", "card": "Test Unit"}]},
            "B": {},
        },
    }
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "hourglass"})
    game.push({"by": "A", "do": "play", "card": "u1"})
    steps = game.trace.tree(len(game.trace.records))
    summaries = [step.summary for root in steps for _, step in root.walk()]
    assert "hourglass enters the board at base ready" in summaries
    assert "u1 enters the board at base exhausted" in summaries
    assert game.obj("hourglass").exhausted is False and game.obj("u1").exhausted is True
