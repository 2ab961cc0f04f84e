"""Phases of the turn 314-317: the end of turn and the start of the next player's turn."""

from __future__ import annotations

from scenarios import cleanups, scoring, triggers
from scenarios.state import Refusal
from scenarios.trace import procedure


@procedure("turn", "316.6", "317.1", summary=lambda g, a: f"{a['by']} ends the turn")
def end_turn(game, action: dict):
    if action["by"] != game.turn_player or game.chain or game.showdown or game.combat:
        raise Refusal("316.6", "only the turn player ends the turn, from a Neutral Open State")
    game.phase = "ending"
    for unit in game.units():
        unit.stunned = False  # 410.1.a.2
    triggers.fire(game, "end_of_turn", player=game.turn_player)
    yield from cleanups.cleanup(game, reason="the Ending Step began (319.2)")
    if game.chain:
        game.flags["continuation"] = "end_of_turn"
        from scenarios import chain

        chain.give_priority_to_newest(game)
        return
    yield from finish_end_of_turn(game)


def finish_end_of_turn(game):
    game.flags.pop("continuation", None)
    yield from cleanups.cleanup(game, reason="End of Turn (317.2)", special="end_of_turn")
    _expire(game)
    yield from start_turn(game, game.next_player(game.turn_player))


@procedure("turn", "317.3", summary=lambda g: "expiration step: 'this turn' effects expire")
def _expire(game) -> None:
    for obj in game.objects.values():
        obj.modifiers = [m for m in obj.modifiers if m["until"] != "turn"]
        obj.granted = [g for g in obj.granted if g["until"] not in ("turn", "combat")]
        obj.moves_this_turn = 0
        obj.scored_this_turn = []
    game.delayed = [d for d in game.delayed if d.get("until") != "turn"]
    game.flags.pop("once_per_turn", None)
    for player in game.players.values():
        player.cards_played_this_turn = 0


@procedure("turn", "315", "317.4", summary=lambda g, player: f"{player}'s turn begins")
def start_turn(game, player: str):
    game.turn_player = player
    game.priority = None
    game.turn_number += 1
    game.phase = "beginning"
    for obj in game.objects.values():
        if obj.controller == player and obj.zone == "board":
            obj.exhausted = False  # 315.1.a
    for bf in game.battlefields():
        if bf.battlefield_controller == player:
            scoring.hold(game, player, bf)  # 315.2.b.1
    yield from cleanups.cleanup(game, reason="the Beginning Phase (319.2)")
    if game.chain:  # hold triggers resolve before the Draw Phase
        from scenarios import chain

        game.flags["continuation"] = "beginning"
        chain.give_priority_to_newest(game)
        return
    finish_beginning(game)


def finish_beginning(game) -> None:
    game.flags.pop("continuation", None)
    if game.deck(game.turn_player):
        _draw_for_turn(game, game.turn_player)
    game.phase = "action"
    game.priority = game.turn_player


@procedure("turn", "315.4.b", summary=lambda g, player: f"{player} draws 1 for the turn", objects=lambda g, p: [p])
def _draw_for_turn(game, player: str) -> None:
    game.deck(player)[0].zone = "hand"
