"""Phases of the turn 314-317: the end of the turn and the start of the next player's turn.

The Start of Turn runs its phases in order (315): Awaken (ready everything), the Beginning Phase's
Beginning Step (its "at the start of your Beginning Phase" abilities, such as Temporary's, go on the Chain and
resolve before scoring) and Scoring Step (Hold), the Channel Phase (315.3), the Draw Phase (315.4), after
which the Rune Pools empty (316.3) and the Main Phase begins (the Action Phase before 1.4). When a step's cleanup leaves items on the
Chain, the next step waits until the Chain has resolved (`continuation` names it).
"""

from __future__ import annotations

from scenarios.actions import EndTurn
from scenarios.game import Game
from scenarios.kernel import Refusal, action, calc, do, instruction, note, procedure, query
from scenarios.objects import BOARD, UNIT, Event
from scenarios.trace import StepKind


@query("check_discretionary")
def check_discretionary(game: Game, player: str, what: str) -> None:
    """410.1.a: a Discretionary Action (the Standard Move 420, hiding 421.2) is taken by the turn player, in a
    Neutral Open State (no Chain, no showdown), with Priority."""
    if game.chain or game.showdown or player != game.turn_player or game.priority != player:
        raise Refusal(
            "410.1.a", f"{what} is a Discretionary Action: the turn player, in a Neutral Open State, with Priority"
        )


@action("end_turn", EndTurn, because=("316.9",), candidates=lambda game, player: [EndTurn(by=player)])
@procedure(
    "end_turn",
    StepKind.TURN,
    defines=("316.9.b", "317.1.a"),
    summary=lambda g, a: f"{a.by} ends the turn",
    objects=lambda g, a: [a.by],
    pure=True,
)
def end_turn(game: Game, act: EndTurn) -> None:
    if act.by != game.turn_player or game.chain or game.showdown or game.combat or game.phase != "main":
        phase = game.word("main").capitalize()
        raise Refusal("316.9", f"only the turn player ends the turn, from a Neutral Open State in the {phase} Phase")
    game.phase = "ending"
    if game.reading("stun_ends").choice == "ending_step":
        _recover_from_stun(game)  # up to 2025-12-01 (its 410.1.a.2): as the Ending Step begins
    calc.fire(game, Event("end_of_turn", player=game.turn_player))
    calc.cleanup(game, "the Ending Step began", "319.2")
    _next_step(game, "end_of_turn")


def _recover_from_stun(game: Game) -> None:
    """Stunned units lose the status, when the version judged under says (`stun_ends`), citing its rules."""
    recovered = [unit for unit in game.unit_objects if unit.stunned and unit.zone == BOARD]
    for unit in recovered:
        unit.stunned = False
    if recovered:
        reading = game.reading("stun_ends")
        note(
            game,
            StepKind.TURN,
            "stun ends",
            f"{', '.join(unit.id for unit in recovered)} lose(s) the Stunned status",
            reading.cited,
            reading.cited,
            [unit.id for unit in recovered],
        )


@procedure(
    "finish_end_of_turn", StepKind.TURN, defines=("317.2.a",), summary="end of turn cleanup, expiration, next turn"
)
def finish_end_of_turn(game: Game) -> None:
    game.continuation = None
    calc.cleanup(game, "End of Turn", "317.2.a", special="end_of_turn")
    do.expire(game, because="317.2.c")
    if game.additional_turns:  # an Additional Turn is the next queued turn (737); the Turn Order is unchanged
        game.regular_turn_player = game.regular_turn_player or game.turn_player
        player, game.additional_turns = game.additional_turns[0], game.additional_turns[1:]
        do.start_turn(game, player, because=("317.3", "737"))
        return
    regular = game.regular_turn_player or game.turn_player  # after Additional Turns, the queue goes on (737)
    game.regular_turn_player = ""
    do.start_turn(game, game.next_player(regular), because="317.3")


@instruction("additional_turn")
def op_additional_turn(game: Game, run, ins) -> None:
    """ "Take a turn after this one": an Additional Turn of the item's controller inserted into the turn queue right
    after the current turn (735); one queued later is inserted before those queued earlier, as 738's second example
    orders them, and none changes the Turn Order (737)."""
    do.queue_additional_turn(game, run.item.controller, run.item.label, because=run.because)


@procedure(
    "queue_additional_turn",
    StepKind.EFFECT,
    defines=("735",),
    summary=lambda g, player, label: f"{label}: {player} takes an Additional Turn after this one",
    objects=lambda g, player, label: [player],
)
def queue_additional_turn(game: Game, player: str, label: str) -> None:
    game.additional_turns = (player, *game.additional_turns)


@procedure("expire", StepKind.TURN, defines=("317.2.c",), summary="expiration step: 'this turn' effects expire")
def expire(game: Game) -> None:
    if game.reading("stun_ends").choice == "expiration":
        _recover_from_stun(game)  # 423.1.a.2 (Core Rules 1.4): with the 'this turn' effects, step 3d
    for obj in game.objects.values():
        if obj.modifiers:
            obj.modifiers = tuple(m for m in obj.modifiers if m.until not in ("turn", "combat"))
        if obj.granted:
            obj.granted = tuple(g for g in obj.granted if g.until not in ("turn", "combat"))
        if obj.moves_this_turn:
            obj.moves_this_turn = 0
        if obj.dealt_damage_this_turn:
            obj.dealt_damage_this_turn = False
        if obj.scored_this_turn:
            obj.scored_this_turn = ()
        if obj.conquered_this_turn:
            obj.conquered_this_turn = ()
    if game.delayed:
        game.delayed = tuple(d for d in game.delayed if d.until != "turn")
    if game.lasting:
        game.lasting = tuple(r for r in game.lasting if r.until != "turn")
    if game.trigger_marks:
        game.trigger_marks = ()
    for player in game.players.values():
        if player.cards_played_this_turn or player.played_this_turn:
            player.cards_played_this_turn, player.played_this_turn = 0, ()
        if player.cards_finalized_this_turn:
            player.cards_finalized_this_turn, player.finalized_this_turn = 0, ()
        if player.discarded_this_turn or player.drawn_this_turn:
            player.discarded_this_turn, player.drawn_this_turn = 0, 0
        if player.died_this_turn:
            player.died_this_turn = 0
        if player.held_points_this_turn:
            player.held_points_this_turn = 0
        if player.spell_energy_this_turn or player.power_spent_this_turn:
            player.spell_energy_this_turn, player.power_spent_this_turn = 0, 0
        if player.buff_bonus_this_turn:  # 317.2.c: "this turn" effects end
            player.buff_bonus_this_turn = 0
        if player.enemy_units_chosen_this_turn:
            player.enemy_units_chosen_this_turn = 0
        if player.xp_gained_this_turn:
            player.xp_gained_this_turn = 0
        if player.cost_changes:  # "costs [1] more to play this turn" (317.2.c: "this turn" effects end)
            player.cost_changes = ()
        if player.hides_ignoring_costs:  # "You can hide cards ignoring costs this turn" (317.2.c)
            player.hides_ignoring_costs = False
        if player.spell_bonuses:  # "the next spell you play this turn deals 1 Bonus Damage" (317.2.c)
            player.spell_bonuses = ()
    do.empty_rune_pools(game, because="317.2.d")


@procedure(
    "start_turn",
    StepKind.TURN,
    defines=("315.1.b",),
    summary=lambda g, player: f"{player}'s turn begins",
    objects=lambda g, p: [p],
    pure=True,
)
def start_turn(game: Game, player: str) -> None:
    game.turn_player = player
    game.priority = None
    game.turn_number += 1
    game.players[player].turns_taken += 1
    game.phase = "beginning"
    readied = []
    for obj in game.objects.values():
        if obj.controller == player and obj.zone == BOARD and obj.exhausted:
            obj.exhausted = False  # 315.1.b: the Awaken Phase readies everything the turn player controls
            readied.append(obj.id)
    calc.status_changed(game, "ready", [i for i in readied if game.objects[i].kind == UNIT], player)  # 415.3.a
    calc.fire(game, Event("beginning", player=player))  # 315.2.a.1: effects at the start of the Beginning Phase
    calc.cleanup(game, "the Beginning Step", "319.2")
    _next_step(game, "scoring")


def _next_step(game: Game, step: str) -> None:
    """Go on to `step` now, or, when the last cleanup left items on the Chain, once they have resolved."""
    if not calc.game_goes_on(game):
        game.continuation = None
        return
    if game.chain:
        game.continuation = step
        calc.give_priority_to_newest(game)
        return
    if game.continuation is not None:
        game.continuation = None
    STEPS[step](game)


@query("resume_turn")
def resume_turn(game: Game) -> None:
    """The Chain a step of the turn made has resolved: the turn goes on where it stopped. A continuation that
    is not a step of the turn names a query of another rule module and its argument ("settle_combat:bf1")."""
    step, game.continuation = game.continuation, None
    if calc.game_goes_on(game):
        if step in STEPS:
            STEPS[step](game)
        else:
            assert step is not None, "resume_turn runs only with a continuation set"
            name, _, argument = step.partition(":")
            getattr(calc, name)(game, argument)


@query("game_goes_on")
def game_goes_on(game: Game) -> bool:
    """A player who wins in a Cleanup wins the game (472 in Core Rules 1.4): the turn goes no further."""
    return game.winner is None


def _scoring_step(game: Game) -> None:
    """315.2.b: Holding occurs at this time."""
    player = game.turn_player
    for bf in game.battlefields():
        if bf.battlefield_controller == player:
            do.hold(game, player, bf, because="315.2.b.2")
    calc.cleanup(game, "the Scoring Step", "319.2")
    _next_step(game, "channel")


def _channel_phase(game: Game) -> None:
    do.channel_phase(game, game.turn_player, because="305")
    calc.cleanup(game, "the Channel Phase", "319.2")
    _next_step(game, "draw")


def _draw_phase(game: Game) -> None:
    """315.4.b: the turn player draws 1 (an empty deck burns them out first, 315.4.b.1-2)."""
    game.phase = "draw"
    do.draw(game, game.turn_player, 1, because="315.4.b")
    calc.cleanup(game, "the Draw Phase", "319.2")
    _next_step(game, "main")


def _main_phase(game: Game) -> None:
    do.empty_rune_pools(game, because="316.3")
    game.phase = "main"
    game.priority = game.turn_player  # 312.2.a


STEPS = {
    "end_of_turn": lambda game: do.finish_end_of_turn(game, because="317.2.a"),
    "scoring": _scoring_step,
    "channel": _channel_phase,
    "draw": _draw_phase,
    "main": _main_phase,
}
