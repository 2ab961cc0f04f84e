"""Effects that last until a later time (383-385): "Lose control of that unit and recall it at end of turn".

An effect that ends later is a delayed ability made by the effect that starts it (390.2, 392): the card data
says `{op: delayed, when: {event: end_of_turn, who: player}, it: ..., effects: [...]}` ("at end of turn":
the Ending Step of this turn, 317.1.a, whoever's turn it is), and its effects undo what was started. Taking
control of a unit "until" a time ends with `return_control`: the player who took it loses control, and it
goes back to its owner (191.3: the owner put it on the board). A unit that has left the board since is a new
object and is not affected (359.3.e.4).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, do, instruction, procedure
from scenarios.trace import StepKind


@procedure(
    "return_control",
    StepKind.EFFECT,
    defines=("189", "191.3"),
    summary=lambda g, uid, label: f"{label}: {g.objects[uid].controller} loses control of {uid}: back to its owner",
    objects=lambda g, uid, label: [uid],
)
def return_control(game: Game, unit_id: str, label: str) -> None:
    unit = game.objects[unit_id]
    unit.controller = unit.owner


@instruction("return_control")
def op_return_control(game: Game, run, ins) -> None:
    for unit_id in calc.still_there(game, run, ins["what"], "returning control of"):
        unit = game.objects[unit_id]
        if unit.controller != unit.owner:
            do.return_control(game, unit_id, run.item.label, because=run.because)
