"""The result of a combat 466.3: "When I win a combat", "When you win a combat".

A player has won a combat if they were the attacker or the defender and are the only player with units remaining
at its battlefield as the result is determined (466.3.a); the units there share their controller's result
(466.3.c). There is no result when the attackers were recalled in the Combat Cleanup (466.3.d). Winning is the
event `win_combat` (of the winner and their units there); what it triggers resolves before control is
established (466.4, `combat.settle_combat`). The Core Rules before 1.4 define no combat result: judged under them,
a combat is won by no one.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, event_kind, note, query
from scenarios.objects import Event
from scenarios.trace import StepKind

event_kind("win_combat", "466.3.a", would="win a combat")


@query("combat_result")
def combat_result(game: Game, combat) -> str | None:
    """Determine the result of `combat` (466.3): the winner, whose `win_combat` abilities trigger, or None."""
    bf = combat.battlefield
    present = {u.controller for u in game.units(bf)}
    players = {combat.attacker, combat.defender} - {None}
    if combat.recalled or len(present) != 1 or not present <= players:
        return None
    (winner,) = present
    units = tuple(u.id for u in game.units(bf))
    note(
        game, StepKind.COMBAT_STEP, "combat result", f"{winner} wins the combat at {bf}", "466.3.a", ("466.3.c",), [bf]
    )
    calc.fire(game, Event("win_combat", player=winner, units=units, location=bf))
    return winner
