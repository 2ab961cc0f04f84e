"""The engine itself: push/pop, text round trip, refusals citing rules, strict choices, validation errors."""
from __future__ import annotations

import json
import textwrap

import pytest
import yaml

from scenarios import schema
from scenarios.replay import render_tree, replay_file
from scenarios.state import GameState, Refusal, UnansweredChoice

BASIC = {
    "turn": {"player": "A"},
    "players": {"A": {"base": [{"id": "a1", "card": "Test Unit", "might": 4}]}, "B": {}},
    "battlefields": [{"id": "bf1", "card": "Neutral Ground", "controller": "B",
                      "units": [{"id": "d1", "card": "Test Defender", "controller": "B", "might": 2},
                                {"id": "d2", "card": "Test Defender", "controller": "B", "might": 2}]}],
}


def attack(game):
    game.push({"by": "A", "do": "move", "units": ["a1"], "to": "bf1"})
    game.push({"by": "A", "do": "pass"})
    game.push({"by": "B", "do": "pass"})


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
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "seeker", "targets": {"target": "d1"}})
    data = yaml.safe_load(yaml.safe_dump(game.to_dict()))
    assert data["board"]["chain"][0]["label"] == "Void Seeker"
    again = GameState.from_dict(data)
    again.push({"by": "A", "do": "pass"})
    again.push({"by": "B", "do": "pass"})
    assert again.obj("d1").zone == "trash" and again.players["A"].points == 0


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
    assert refusal.value.rule == "443.1.d"


@pytest.mark.parametrize("pick,rule", [
    ({"d1": 3, "d2": 1}, "443.1.d.4"),      # more than lethal on d1 while d2 is short of lethal
    ({"d1": 1, "d2": 1}, "443.1.d"),        # does not total 4
    ({"d1": 1, "d2": 3}, "443.1.d.4"),
])
def test_illegal_damage_assignments_are_refused_with_their_rule(pick, rule):
    game = GameState(BASIC)
    attack(game)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "choose", "choice": "assign", "pick": pick})
    assert refusal.value.rule == rule
    assert game.pending is not None            # the state is untouched; the question is still open


def test_a_legal_assignment_trades_everything_and_empties_the_battlefield():
    game = GameState(BASIC)
    attack(game)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert game.obj("d1").zone == game.obj("d2").zone == game.obj("a1").zone == "trash"
    assert game.obj("bf1").battlefield_controller is None      # 444.2.d
    assert game.players["A"].points == 0


def test_tank_must_take_lethal_damage_first():
    setup = json.loads(json.dumps(BASIC))
    setup["battlefields"][0]["units"][1]["keywords"] = {"Tank": 1}
    game = GameState(setup)
    attack(game)
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 3, "d2": 1}})
    assert refusal.value.rule in ("741.1.b", "443.1.d.4")
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})


def test_refusal_leaves_the_state_untouched_and_is_traced():
    game = GameState(BASIC)
    before = game.to_dict()
    with pytest.raises(Refusal) as refusal:
        game.push({"by": "B", "do": "move", "units": ["d1"], "to": "base"})
    assert refusal.value.rule == "398.1.a"
    assert game.to_dict() == before
    assert game.trace.roots[-1].kind == "refusal" and game.trace.roots[-1].rules == ["398.1.a"]


def test_timing_refusals_cite_the_rule():
    setup = json.loads(json.dumps(BASIC))
    setup["players"]["A"]["hand"] = [{"id": "seeker", "card": "Void Seeker"}, {"id": "charm", "card": "Charm"}]
    game = GameState(setup)
    game.push({"by": "A", "do": "play", "card": "seeker", "targets": {"target": "d1"}})
    with pytest.raises(Refusal) as refusal:       # Charm has no Reaction: not while the Chain exists
        game.push({"by": "A", "do": "play", "card": "charm", "targets": {"target": "d2", "destination": "base"}})
    assert refusal.value.rule == "330.1.a"
    with pytest.raises(Refusal) as refusal:       # B does not have priority yet
        game.push({"by": "B", "do": "pass"})
    assert refusal.value.rule == "312.1"


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
    card = Card.model_validate({"name": "Typo", "made_up": True, "type": "spell",
                                "effects": [{"op": "deall", "amount": 2, "to": "target"}]})
    with pytest.raises(ValueError, match="unknown instruction 'deall'"):
        check_vocabulary(card)


def test_pop_undoes_an_answered_choice():
    game = GameState(BASIC)
    attack(game)
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert game.obj("a1").zone == "trash"
    game.pop()
    assert game.pending and game.pending.kind == "assign" and game.obj("a1").where() == "bf1"
    game.push({"by": "A", "do": "choose", "choice": "assign", "pick": {"d1": 2, "d2": 2}})
    assert game.obj("a1").zone == "trash"
