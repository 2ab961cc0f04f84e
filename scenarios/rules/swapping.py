"""Swap 433: "Swap the Might of two units ... this turn": the difference between their Mights as the instruction
executes is an increase to the lower and a decrease to the higher, for the duration the effect says (433.1.a,
433.1.b); equal Mights are not changed (433.1.c). A unit no longer on the board has no Might (359.3.e.12): then
there is nothing to swap.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, do, instruction
from scenarios.objects import Zone


@instruction("swap_might")
def op_swap_might(game: Game, run, ins) -> None:
    """`{op: swap_might, a: <ref>, b: <ref>}`: both Mights read first, then both changed (433.1.b)."""
    found = [game.objects.get(ids[0]) if (ids := calc.refs(game, run, ins[key])) else None for key in ("a", "b")]
    units = [unit for unit in found if unit is not None and unit.zone == Zone.BOARD]
    if len(units) != 2:
        calc.impossible(game, run, "a unit to swap with is missing: nothing is swapped", "359.3.e.12")
        return
    low, high = sorted(units, key=lambda unit: calc.might(game, unit))
    difference = calc.might(game, high) - calc.might(game, low)
    if not difference:
        calc.impossible(game, run, "their Mights are equal: swapping changes nothing", "433.1.c")
        return
    because = (run.because, "433.1.b")
    do.give_might(game, [low.id], difference, None, run.item.label, because=because)
    if calc.unreplaced(game, run, "lose_might", [high.id]):  # its decrease may be replaced (369)
        do.give_might(game, [high.id], -difference, None, run.item.label, because=because)
