"""Linked instructions 359.3.e.14: "Kill a friendly unit. If you do, ...", "Channel 1 rune exhausted. If you can't,
draw 1." — the later instruction checks whether the game action of the earlier one was performed, not what it was
meant to do (359.3.e.14.b): a kill replaced by another event (a unit healed and recalled instead of dying) is not
done, and "if you do" text is not executed; a channel with no rune left to channel (055) is one you can't do.

`{op: if_done, do: [<instruction>], then: [...], else: [...]}`: `do` is one instruction whose performance the engine
sees: one that moves objects out of their zone (kill, banish, return to hand; "banish a unit from your trash" too),
done when an object it named has left its zone since (a zone change makes a new object, 124: the same object
still there means its event was replaced or could not be performed, 055); a channel, done when its controller's runes on the board grew by as many; a move, done when the unit is at another location.

`linked_controller`: "Kill a unit at a battlefield. Its controller draws 2.": the later instruction references the
object of the earlier one, not its game action, so it is executed even when the kill was replaced (359.3.e.14.b),
but the controller it reads is the object's information: on the board, its controller; killed by the earlier
instruction, its controller as it died, looked back at (359.3.e.13); moved off the board by another event (a
replacement's "banish it instead"), none (359.3.e.12; the Vendetta FAQ: Hidden Blade on a unit Smite marked).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, instruction, note, query
from scenarios.objects import BOARD
from scenarios.trace import StepKind

REMOVING = ("kill", "banish", "return_to_hand")  # the instructions whose performance is the object leaving the board
SEEN = (*REMOVING, "channel", "move")  # every instruction whose performance `if_done` sees


def _performed(game: Game, run, action) -> tuple[bool, str]:
    """Execute `action`; was its game action performed, and a summary of what was seen."""
    if action["op"] == "channel":
        player = run.item.controller
        before = len(calc.runes_on_board(game, player))
        calc.execute(game, run, [action])
        grew = len(calc.runes_on_board(game, player)) - before
        return grew >= action["n"], f"{player} channelled {grew} of {action['n']} rune(s)"
    named = [
        (i, game.objects[i].zone, game.objects[i].location, game.objects[i].incarnation)
        for i in calc.refs(game, run, action["what"])
        if i in game.objects
    ]
    calc.execute(game, run, [action])
    if action["op"] == "move":  # a move is done when the unit is somewhere else (446.1)
        done = [i for i, _, where, _ in named if game.objects[i].location != where]
        return bool(done), (f"{', '.join(done)} moved" if done else "the move was not performed")
    done = [i for i, zone, _, n in named if game.objects[i].zone != zone or game.objects[i].incarnation != n]
    verb = action["op"].replace("_", " ")
    return bool(done), (f"{', '.join(done)} left its zone" if done else f"the {verb} was not performed")


@instruction("if_done")
def op_if_done(game: Game, run, ins) -> None:
    (action,) = ins["do"]
    done, seen = _performed(game, run, action)
    said = "it was done" if done else "it was not done"
    # "Move an enemy unit. Then do this: ...": the reflexive trigger's condition is the move done (387.2; the
    # Origins FAQ, q55); "If you do": the linked instruction's (359.3.e.14.b)
    reflexive = any(then.get("op") == "reflexive" for then in ins.get("then", []))
    rule = "387.2" if reflexive else "359.3.e.14.b"
    note(game, StepKind.EFFECT, "condition", f"{run.item.label}: {seen}: {said}", run.because, (rule,))
    calc.execute(game, run, ins.get("then" if done else "else", []))


@query("linked_controller")
def linked_controller(game: Game, run, object_id: str) -> str | None:
    """The controller of the object an earlier linked instruction named, as a later one reads it (359.3.e.14):
    its controller while on the board; as it left, when the earlier instruction killed it (359.3.e.13: a spell
    that moves something to another zone looks back at it); else null (359.3.e.12)."""
    obj = game.objects[object_id]
    if obj.zone == BOARD:
        return obj.controller
    return obj.left_controller if object_id in run.legal.get("killed", ()) else None
