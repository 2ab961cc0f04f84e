"""Player actions, the engine's entry point: standard move, play, activate, pass, choose, end turn.

`apply` runs the handler as a generator. When the engine needs a choice it yields
a `Choice`, the generator is kept suspended in the state, and the next action must
be a `choose` that answers it. After every action `settle` hands Priority to whoever
the rules give it to (312.2).
"""

from __future__ import annotations

from scenarios import chain, cleanups, movement, playing, showdowns, turn
from scenarios.choices import validate
from scenarios.state import Refusal
from scenarios.trace import procedure

_START = object()


def apply(game, action: dict) -> None:
    if game.flags.get("winner"):
        raise Refusal("449", f"the game is over: {game.flags['winner']} won")
    if game.pending:
        if action.get("do") != "choose":
            raise Refusal(
                game.pending.rule or "312.1.b.1", f"{game.pending.player} must first answer: {game.pending.prompt}"
            )
        answer = validate(game.pending, action)
        generator = game._suspended
        game.pending = game._suspended = None
        _run(game, generator, answer)
        return
    if action.get("do") == "choose":
        raise Refusal("398.2.b", "there is no pending choice to answer")
    handler = HANDLERS.get(action.get("do"))
    if handler is None:
        raise Refusal("398", f"unknown action {action.get('do')!r}")
    _run(game, _with_settle(game, handler(game, action)), _START)


def _with_settle(game, generator):
    yield from generator
    settle(game)


def _run(game, generator, answer) -> None:
    try:
        question = next(generator) if answer is _START else generator.send(answer)
    except StopIteration:
        return
    game.pending = question
    game._suspended = generator


def settle(game) -> None:
    """Who may act now: the controller of the newest chain item, the player with Focus, or the turn player."""
    if game.chain:
        if game.priority is None:
            chain.give_priority_to_newest(game)
    elif game.showdown:
        if game.priority is None:
            game.priority = game.showdown["focus"]
    else:
        game.priority = game.turn_player


@procedure(
    "action",
    "407.3",
    "426",
    summary=lambda g, a: f"{a['by']} standard-moves {', '.join(a['units'])} to {a['to']}",
    objects=lambda g, a: a["units"] + [a["to"]],
)
def standard_move(game, action: dict):
    player = action["by"]
    if game.chain or game.showdown or player != game.turn_player or game.priority != player:
        raise Refusal(
            "398.1.a",
            "the Standard Move is a Discretionary Action: the turn player, in a Neutral Open State, with Priority",
        )
    for unit_id in action["units"]:
        unit = game.obj(unit_id)
        if unit.controller != player:
            raise Refusal("426", f"{player} does not control {unit_id}")
        if unit.exhausted:
            raise Refusal("401.4", f"{unit_id} is exhausted: it can't pay the Standard Move's cost (407.3.a)")
        movement.check_destination(game, unit, action["to"], standard=True)
    _pay_standard_move(game, action["units"])
    movement.move(game, list(action["units"]), action["to"], by="standard")
    yield from cleanups.cleanup(game, reason="a move was completed (431)")


@procedure(
    "action",
    "407.3.a",
    "401.3.a",
    summary=lambda g, ids: f"cost paid: exhaust {', '.join(ids)}",
    objects=lambda g, ids: list(ids),
)
def _pay_standard_move(game, unit_ids) -> None:
    for unit_id in unit_ids:
        game.obj(unit_id).exhausted = True


def pass_priority(game, action: dict):
    player = action["by"]
    if game.priority != player:
        raise Refusal("312.1", f"{player} does not have Priority ({game.priority} has it)")
    if game.chain:
        yield from _pass_on_chain(game, player)
    elif game.showdown:
        yield from _pass_focus(game, player)
    else:
        raise Refusal(
            "316.6", "in a Neutral Open State the turn player acts or ends the turn; there is nothing to pass"
        )


@procedure("action", "334.1.c", "335", summary=lambda g, p: f"{p} passes Priority", objects=lambda g, p: [p])
def _pass_on_chain(game, player: str):
    game.passes.append(player)
    if set(game.passes) < set(game.turn_order):
        game.priority = game.next_player(player)
        return
    showdown_before = game.showdown
    game.priority = None
    yield from chain.resolve_top(game)
    if game.chain:
        chain.give_priority_to_newest(game)
    elif game.showdown is not None and game.showdown is showdown_before:
        showdowns.after_chain_emptied(game)
    elif game.flags.get("continuation") == "end_of_turn":
        yield from turn.finish_end_of_turn(game)
    elif game.flags.get("continuation") == "beginning":
        turn.finish_beginning(game)


@procedure("action", "344.3", summary=lambda g, p: f"{p} passes Focus", objects=lambda g, p: [p])
def _pass_focus(game, player: str):
    yield from showdowns.pass_focus(game, player)


@procedure(
    "action",
    "408",
    "737.1.b",
    summary=lambda g, a: f"{a['by']} hides {a['card']} at {a.get('at')}",
    objects=lambda g, a: [a["card"], a.get("at")],
)
def hide(game, action: dict):
    """408: hide a card with [Hidden] facedown at a battlefield you control, for [A]; no chain (737.1.c.2)."""
    player, card, where = action["by"], game.obj(action["card"]), action.get("at")
    if card.owner != player or card.zone != "hand" or not card.definition.has("Hidden"):
        raise Refusal("737.1", f"{card.id} is not a card with [Hidden] in {player}'s hand")
    if player != game.turn_player or game.chain or game.priority != player:
        raise Refusal("737.1.b", "hiding is done on your turn, in an Open State, with Priority")
    if not game.is_battlefield(where) or game.obj(where).battlefield_controller != player:
        raise Refusal("408.1", f"cards are hidden at a battlefield their owner controls, not {where}")
    if any(o.zone == "facedown" and o.location == where and o.owner == player for o in game.objects.values()):
        raise Refusal("737.1.b", f"{player} already has a facedown card at {where}")
    playing.pay(game, player, 0, 1, rule="737.1.b")
    card.zone, card.location = "facedown", where
    yield from cleanups.cleanup(game, reason="a card was hidden")


HANDLERS = {
    "hide": hide,
    "move": standard_move,
    "play": playing.play_card,
    "activate": playing.activate,
    "pass": pass_priority,
    "end_turn": turn.end_turn,
}
