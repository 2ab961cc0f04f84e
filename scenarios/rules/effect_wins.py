"""Winning by an effect (195): "When you hold here, if you have 7+ units here, you win the game". A player whom an
effect instructs to win wins at once, and the game ends (196); no Cleanup and no points are needed (unlike the
Victory Score's win in a Cleanup, 194.2, 472, `cleanups.wins`).

`{op: win_game}`: the controller of the spell or ability wins.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import GameOver, do, instruction, procedure
from scenarios.trace import StepKind


@procedure(
    "wins_by_effect",
    StepKind.SCORING,
    defines=("195", "196"),
    summary=lambda g, name, label: f"{label}: {name} wins the game",
    objects=lambda g, name, label: [name],
    pure=True,
)
def wins_by_effect(game: Game, name: str, label: str) -> None:
    """An effect instructs the player to win (195): the game ends at once (196), nothing after it is done."""
    game.winner = name
    raise GameOver(name)


@instruction("win_game")
def op_win_game(game: Game, run, ins) -> None:
    if game.winner is None:
        do.wins_by_effect(game, run.item.controller, run.item.label, because=run.because)
