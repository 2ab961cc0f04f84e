"""A Standard Move's groups are listed a unit at a time and all together, not every subset (issue 35): a board of
twelve ready units listed 2^12 groups to each destination, which exhausted the dispute builder's budget on every
request. Any group is still accepted when named."""

from __future__ import annotations

from scenarios.state import GameState


def _board(units: int, battlefields: int) -> dict:
    return {
        "turn": {"player": "A"},
        "players": {
            "A": {"base": [{"id": f"a{n}", "card": "Test Unit", "might": 1} for n in range(1, units + 1)]},
            "B": {},
        },
        "battlefields": [{"id": f"bf{n}", "card": "Neutral Ground"} for n in range(1, battlefields + 1)],
    }


def test_twelve_ready_units_list_each_alone_and_all_together_to_each_destination():
    game = GameState(_board(12, 3))
    moves = [action for action in game.legal_actions() if action.do == "move"]
    groups = {tuple(move.units) for move in moves}
    assert groups == {(f"a{n}",) for n in range(1, 13)} | {tuple(f"a{n}" for n in range(1, 13))}
    assert len(moves) <= 13 * 3  # three battlefields (base: the units are there already)


def test_a_group_that_is_not_listed_is_accepted_when_named():
    game = GameState(_board(12, 3))
    game.push({"by": "A", "do": "move", "units": ["a2", "a5", "a7"], "to": "bf1"})
    assert {unit.id for unit in game.units(controller="A") if unit.location == "bf1"} == {"a2", "a5", "a7"}
