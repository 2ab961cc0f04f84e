"""Phases of the turn 314-317: the end of the turn and the start of the next player's turn."""

from __future__ import annotations

from scenarios.actions import EndTurn
from scenarios.kernel import Refusal, action, calc, do, procedure, query
from scenarios.objects import Event, Zone
from scenarios.trace import StepKind


@action("end_turn", EndTurn, because=("316.6",), candidates=lambda game, player: [EndTurn(by=player)])
@procedure(
    "end_turn",
    StepKind.TURN,
    defines=("316.6.b", "317.1"),
    summary=lambda g, a: f"{a.by} ends the turn",
    objects=lambda g, a: [a.by],
)
def end_turn(game, act: EndTurn) -> None:
    if act.by != game.turn_player or game.chain or game.showdown or game.combat or game.phase != "action":
        raise Refusal("316.6", "only the turn player ends the turn, from a Neutral Open State in the Action Phase")
    game.phase = "ending"
    for unit in game.units():
        unit.stunned = False  # 410.1.a.2: stunned units recover at the beginning of the Ending Step
    calc.fire(game, Event("end_of_turn", player=game.turn_player))
    calc.cleanup(game, "the Ending Step began", "319.2")
    if game.chain:
        game.continuation = "end_of_turn"
        calc.give_priority_to_newest(game)
        return
    do.finish_end_of_turn(game, because="317.2")


@procedure(
    "finish_end_of_turn", StepKind.TURN, defines=("317.2.a",), summary="end of turn cleanup, expiration, next turn"
)
def finish_end_of_turn(game) -> None:
    game.continuation = None
    calc.cleanup(game, "End of Turn", "317.2.a", special="end_of_turn")
    do.expire(game, because="317.3")
    do.start_turn(game, game.next_player(game.turn_player), because="317.4")


@procedure("expire", StepKind.TURN, defines=("317.3.a",), summary="expiration step: 'this turn' effects expire")
def expire(game) -> None:
    for obj in game.objects.values():
        if obj.modifiers:
            obj.modifiers = tuple(m for m in obj.modifiers if m.until != "turn")
        if obj.granted:
            obj.granted = tuple(g for g in obj.granted if g.until not in ("turn", "combat"))
        if obj.moves_this_turn:
            obj.moves_this_turn = 0
        if obj.scored_this_turn:
            obj.scored_this_turn = ()
    if game.delayed:
        game.delayed = tuple(d for d in game.delayed if d.until != "turn")
    if game.lasting:
        game.lasting = tuple(r for r in game.lasting if r.until != "turn")
    if game.trigger_marks:
        game.trigger_marks = ()
    for player in game.players.values():
        if player.cards_played_this_turn:
            player.cards_played_this_turn = 0


@procedure(
    "start_turn",
    StepKind.TURN,
    defines=("315", "315.1.a"),
    summary=lambda g, player: f"{player}'s turn begins",
    objects=lambda g, p: [p],
)
def start_turn(game, player: str) -> None:
    game.turn_player = player
    game.priority = None
    game.turn_number += 1
    game.phase = "beginning"
    for obj in game.objects.values():
        if obj.controller == player and obj.zone == Zone.BOARD and obj.exhausted:
            obj.exhausted = False  # 315.1.a: the Awaken Phase readies everything the turn player controls
    calc.fire(game, Event("beginning", player=player))  # 315.2.a: effects at the start of the Beginning Phase
    for bf in game.battlefields():
        if bf.battlefield_controller == player:
            do.hold(game, player, bf, because="315.2.b.1")
    calc.cleanup(game, "the Beginning Phase", "319.2")
    if game.chain:  # hold triggers resolve before the Draw Phase
        game.continuation = "beginning"
        calc.give_priority_to_newest(game)
        return
    finish_beginning(game)


@query("finish_beginning")
def finish_beginning(game) -> None:
    game.continuation = None
    if game.deck(game.turn_player):
        do.draw(game, game.turn_player, 1, because="315.4.b")
    game.phase = "action"
    game.priority = game.turn_player  # 312.2.a
