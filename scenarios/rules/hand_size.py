"""The hand as a condition: the number of cards in it, "Draw 1 if you have one or fewer cards in your hand" (public
information, 108.7.e; the condition words "N or fewer cards in hand" are registered for the numbers cards print),
and whether a card was discarded from it this turn ("If you've discarded a card this turn", 422.1); the cards
drawn into it, counted each turn ("When you draw your second card each turn", 413).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, condition, query
from scenarios.objects import Event

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


@query("card_drawn")
def card_drawn(game: Game, player: str) -> None:
    """A card has been drawn (413.1): the player's count this turn goes up, and "when you draw" abilities see it
    (`count`: the Nth card drawn this turn)."""
    pool = game.players[player]
    pool.drawn_this_turn += 1
    calc.fire(game, Event("draw", player=player, amount=1, count=pool.drawn_this_turn))
