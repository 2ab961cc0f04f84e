"""Burn Out 431: a player who must draw (or move) more cards from their Main Deck than it holds does as much as
possible, then burns out (413.4, 431.1.a; 431.1.b for cards put from the deck into the trash): they recycle their trash into their Main Deck (431.2.b), choose an
opponent to gain 1 point (431.2.c), and complete the action (431.2.d). With the trash empty too the deck stays
empty, and the next attempt burns them out again, until an opponent reaches the Victory Score (431.3). In the
Draw Phase the turn player burns out and still draws 1 (315.4.b.1-2). Looking at or revealing cards past the
deck's end never burns out (431.1.c).

The points are gained outside Conquer and Hold, so the Final Point rule does not apply (471.1.a.1); the
winner is declared by the next Cleanup (323.1).

Burning out is a replacement effect (431.5). When a card's replacement effect also applies to the draw
("if you would draw, instead ..."), the owner may choose the order (372.1); the engine applies the card's
effect first (the draw is then replaced and nothing burns out). The other order, burning out and then having
the draw replaced, is not offered.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, procedure, query
from scenarios.objects import TRASH
from scenarios.trace import StepKind


@query("burn_out_until_a_card")
def burn_out_until_a_card(game: Game, player: str, because) -> bool:
    """Burn out (`because`: the draw or move that found the Main Deck short) until the Main Deck holds a card
    (True) or an opponent would win (431.3.a, 431.3.c: reaching the Victory Score wins only with more points than
    any other player)."""
    while not game.deck(player):
        do.burn_out(game, player, because=because)
        if calc.victor(game) in game.opponents(player):
            return bool(game.deck(player))
    return True


@procedure(
    "burn_out",
    StepKind.EFFECT,
    defines=("431.2",),
    summary=lambda g, player: f"{player} must take a card from an empty Main Deck: burns out",
    objects=lambda g, player: [player],
)
def burn_out(game: Game, player: str) -> None:
    trash = sorted((o for o in game.objects.values() if o.owner == player and o.zone == TRASH), key=lambda o: o.order)
    if trash:
        do.recycle(game, [card.id for card in trash], f"{player} burns out", because="431.2.b")
    opponent = choose(game, "opponent", player, "the opponent who gains 1 point", game.opponents(player), "431.2.c")
    do.gain_points(game, opponent, 1, f"{player}'s Burn Out", because="431.2.c")
