"""Conditions on the object an instruction is about (364.3.a): "If it's attacking, deal 4 to it instead", "If it's
[Empowered], give it +4 [Might] this turn instead", "If it's an Equipment, you may detach it". `{op: if_it, it: <reference>, state: <word>, then: [...], else:
[...]}`: the state is checked as the instruction executes, of the object still there (359.3.e: an object that has
left the board is in none of these states); "If it was an enemy unit" (`was enemy`, `was friendly`): whose it is,
or was as it last left the board.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, instruction, note
from scenarios.objects import BOARD, Role
from scenarios.trace import StepKind

# a state -> its test: an attacker or a defender (464.2.c), Empowered (441.1), stunned (423.1), buffed (702.2.a),
# Mighty (708)
STATES = {
    "attacking": lambda game, obj: obj.designation == Role.ATTACKER,
    "defending": lambda game, obj: obj.designation == Role.DEFENDER,
    "empowered": lambda game, obj: obj.empowered,
    "stunned": lambda game, obj: obj.stunned,
    "buffed": lambda game, obj: obj.buffs > 0,
    "mighty": lambda game, obj: calc.is_mighty(game, obj),
    # "If it's an Equipment": a card with the Equipment tag (133.8); "if it's equipped": a unit an Equipment is
    # attached to (818.3.b)
    "equipment": lambda game, obj: obj.tagged("Equipment"),
    "equipped": lambda game, obj: any(g.tagged("Equipment") for g in game.attached(obj.id)),
}
# "If it was an enemy unit": whose it was, on the board or as it last left it (the killed unit of "Kill a unit.
# If it was an enemy unit, ..."; like "Its controller draws 2", a linked instruction about it, 359.3.e.14.b)
WAS = {
    "was enemy": lambda player, controller: controller != player,
    "was friendly": lambda player, controller: controller == player,
}


@instruction("if_it")
def op_if_it(game: Game, run, ins) -> None:
    ids = calc.refs(game, run, ins["it"])
    obj = game.objects.get(ids[0]) if ids else None
    if ins["state"] in WAS:  # its controller now, or as it last left the board (an illegal target is none, 359.3.e.5)
        controller = None if obj is None else obj.controller if obj.zone == BOARD else obj.left_controller
        holds = controller is not None and WAS[ins["state"]](run.item.controller, controller)
    else:
        holds = obj is not None and obj.zone == BOARD and bool(STATES[ins["state"]](game, obj))
    name = obj.id if obj is not None else "it"
    summary = (
        f"{run.item.label}: {name} is {ins['state']}" if holds else f"{run.item.label}: {name} is not {ins['state']}"
    )
    note(game, StepKind.EFFECT, "condition", summary, run.because, ("364.3.a",), [name])
    calc.execute(game, run, ins.get("then" if holds else "else", []))
