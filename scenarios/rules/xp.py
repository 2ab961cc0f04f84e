"""XP (728-733): a resource players gain and spend, public (729.2), not a game object (731), without limit (733).
"Gain N XP" increases it (730.1); "Spend N XP" as a cost reduces it (730.2, `Cost.spend_xp`, paid by
`pay_cost`). Hunt (823) is read from a card's text as the ability it is short for, "When I conquer or hold, my
controller gains X XP" (823.1.c.1). Level (824), abilities active while a player has N XP, is not modelled.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import do, instruction, procedure
from scenarios.trace import StepKind


@procedure(
    "gain_xp",
    StepKind.EFFECT,
    defines=("730.1",),
    summary=lambda g, player, n, label: f"{label}: {player} gains {n} XP",
    objects=lambda g, player, n, label: [player],
    pure=True,
)
def gain_xp(game: Game, player: str, n: int, label: str) -> None:
    game.players[player].xp += n


@instruction("gain_xp")
def op_gain_xp(game: Game, run, ins) -> None:
    do.gain_xp(game, run.item.controller, ins.get("n", 1), run.item.label, because=run.because)
