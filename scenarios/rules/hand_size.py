"""The hand as a condition: the number of cards in it, "Draw 1 if you have one or fewer cards in your hand" (public
information, 108.7.e; the condition words "N or fewer cards in hand" are registered for the numbers cards print),
and whether a card was discarded from it this turn ("If you've discarded a card this turn", 422.1).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import condition

HAND_SIZES = range(8)  # the most a card's "N or fewer cards in your hand" says is far below 8


def _at_most(n: int):
    def holds(game: Game, context) -> bool:
        """The cards in the player's hand, the card asking aside: it is being played (on its way to the Chain or
        the board, 419.1), never in the hand its own text counts."""
        return len([c for c in game.hand(context.player) if c.id != context.source]) <= n

    holds.__name__ = f"_at_most_{n}_cards_in_hand"
    return holds


for _n in HAND_SIZES:
    condition(f"{_n} or fewer cards in hand", "108.7.e")(_at_most(_n))


@condition("discarded this turn", "422.1")
def _discarded_this_turn(game: Game, context) -> bool:
    return game.players[context.player].discarded_this_turn > 0
