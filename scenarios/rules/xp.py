"""XP (728-733): a resource players gain and spend, public (729.2), not a game object (731), without limit (733).
"Gain N XP" increases it (730.1); "Spend N XP" as a cost reduces it (730.2, `Cost.spend_xp`, paid by
`pay_cost`). Hunt (823) is read from a card's text as the ability it is short for, "When I conquer or hold, my
controller gains X XP" (823.1.c.1). Level (824): the condition words "level N", true while the controller of the
card has N or more XP, on a passive or a trigger of the card. "If you've gained XP this turn": the condition word
"gained xp this turn", true once its player has gained XP this turn (730.1), whatever they have spent since.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, condition, do, instruction, procedure
from scenarios.trace import StepKind

# Level N (824): "While you have N or more XP, this card gains '[Text]'" (824.1.b.1). A condition word per level
# a card may print ("level 6"): the dependent ability is active while its controller has that much XP.
LEVELS = range(1, 31)


def _level(n: int):
    return lambda game, context: game.players[context.player].xp >= n


for _n in LEVELS:
    condition(f"level {_n}", "824.1.b.1")(_level(_n))


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
    game.players[player].xp_gained_this_turn += n


@condition("gained xp this turn", "730.1")
def _gained_xp_this_turn(game: Game, context) -> bool:
    return game.players[context.player].xp_gained_this_turn > 0


@instruction("gain_xp")
def op_gain_xp(game: Game, run, ins) -> None:
    n = calc.amount(game, run, ins.get("n", 1))
    if n is None:
        calc.impossible(game, run, "the number is null: no XP is gained", "359.3.e.12")
    elif n > 0:
        do.gain_xp(game, run.item.controller, n, run.item.label, because=run.because)
