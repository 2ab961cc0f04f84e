"""Burn Out 431: a player who must draw (or move) more cards from their Main Deck than it holds does as much as
possible, then burns out (413.4, 431.1.a; 431.1.b for cards put from the deck into the trash): they recycle their trash into their Main Deck (431.2.b), choose an
opponent to gain 1 point (431.2.c), and complete the action (431.2.d). With the trash empty too the deck stays
empty, and the next attempt burns them out again, until an opponent reaches the Victory Score (431.3). In the
Draw Phase the turn player burns out and still draws 1 (315.4.b.1-2). Looking at or revealing cards past the
deck's end never burns out (431.1.c); under Core Rules 2025-06-02 looking at or revealing cards of an empty Main
Deck did (its 607.1.b): `looking_past_the_deck`, read by `deck_to_look_at`.

The points are gained outside Conquer and Hold, so the Final Point rule does not apply (471.1.a.1); the
winner is declared by the next Cleanup (323.1), unless a Burn Out repeated in sequence gave the point (431.3.c.1).

Burning out is a replacement effect (431.5). When a card's replacement effect also applies to the draw
("if you would draw, instead ..."), the owner may choose the order (372.1); the engine applies the card's
effect first (the draw is then replaced and nothing burns out). The other order, burning out and then having
the draw replaced, is not offered.
"""

from __future__ import annotations

from typing import Final

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, procedure, query
from scenarios.objects import TRASH
from scenarios.trace import StepKind


@query("burn_out_until_a_card")
def burn_out_until_a_card(game: Game, player: str, because) -> bool:
    """Burn out (`because`: the draw or move that found the Main Deck short) until the Main Deck holds a card
    (True), or an opponent wins (431.3.a). With the trash empty too, the action attempted again burns the player
    out again (431.3, 431.2.d). Up to 2025-12-01 a player wins as the point is gained (`victory_when`); from Core
    Rules 1.4 a first Burn Out's point waits for the Cleanup, but a point of the Burn Outs that follow it in
    sequence wins at once, with more points than any opponent (431.3.c, 431.3.c.1)."""
    first = True
    while not game.deck(player):
        do.burn_out(game, player, because=because if first else ("431.3", "431.2.d"))
        if not first:
            _a_repeated_burn_outs_point_wins(game, player)
        first = False
    return True


def _a_repeated_burn_outs_point_wins(game: Game, player: str) -> None:
    if game.reading(VICTORY).choice != "in_a_cleanup":
        return  # the point already won as it was gained (its version's "immediately")
    winner = calc.victor(game)
    if winner in game.opponents(player):
        do.wins(game, winner, because=("431.3.c", "431.3.c.1"))


VICTORY: Final = "victory_when"


@query("deck_to_look_at")
def deck_to_look_at(game, player: str) -> list:
    """The Main Deck an instruction looks at or reveals cards of: with it empty, the version judged under says
    whether the player burns out first (`looking_past_the_deck`), citing the rule that makes it burn out."""
    deck = game.deck(player)
    if not deck:
        reading = game.reading(LOOKING)
        if reading.choice == "burns_out":
            calc.burn_out_until_a_card(game, player, reading.cited)
            deck = game.deck(player)
    return deck


LOOKING: Final = "looking_past_the_deck"


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
