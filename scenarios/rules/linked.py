"""Linked instructions 359.3.e.14: "Kill a friendly unit. If you do, ..." — the later instruction checks whether the
game action of the earlier one was performed, not what it was meant to do (359.3.e.14.b): a kill replaced by
another event (a unit healed and recalled instead of dying) is not done, and the "if you do" text is not executed.

`{op: if_done, do: [<instruction>], then: [...]}`: `do` is one instruction that takes objects off the board (kill,
banish, return to hand); it was done when an object it named has left the board since (a zone change makes a new
object, 124): the same object still there means its event was replaced or it could not be performed (055).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, instruction, note
from scenarios.objects import Zone
from scenarios.trace import StepKind

REMOVING = ("kill", "banish", "return_to_hand")  # the instructions whose performance is the object leaving the board


@instruction("if_done")
def op_if_done(game: Game, run, ins) -> None:
    (action,) = ins["do"]
    named = [(i, game.objects[i].incarnation) for i in calc.refs(game, run, action["what"]) if i in game.objects]
    there = [(i, n) for i, n in named if game.objects[i].zone == Zone.BOARD]
    calc.execute(game, run, ins["do"])
    done = [i for i, n in there if game.objects[i].zone != Zone.BOARD or game.objects[i].incarnation != n]
    summary = (
        f"{run.item.label}: {', '.join(done)} left the board: it was done, so what follows is executed"
        if done
        else f"{run.item.label}: the {action['op'].replace('_', ' ')} was not performed: what follows is not executed"
    )
    note(game, StepKind.EFFECT, "condition", summary, run.because, ("359.3.e.14.b",), done)
    if done:
        calc.execute(game, run, ins.get("then", []))
