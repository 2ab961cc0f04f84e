"""Legion 812: "Legion — [Text]" applies its text only if its controller has played another card this turn.

Which cards count is a behaviour the Core Rules versions disagree on (`cards_played_as_checked` in
scenarios/versions.py). Up to 2025-12-01, cards whose play is complete (its 347.1, 406.4.a; a countered card was
never played, 412.1.b): on spells and on play effects of permanents another Main Deck card before this one
(738.1.c.1), on other abilities any card this turn (738.1.c.2). From Core Rules 1.4, every card Finalized this
turn other than the one with Legion, a countered one too (419.4.b, 812.1.c). One card played satisfies every
Legion of its player (812.2).

The condition word `legion` is read by triggers (`condition: legion`: the ability exists only while it
holds), discounts ("[Legion] — I cost [2] less") and `if` instructions ("[Legion] — Kill it now instead").
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import Condition, calc, condition


@condition("legion", "812.1.b", reads="cards_played_as_checked")
def legion(game: Game, context: Condition) -> bool:
    played, ids = calc.plays_checked(game, context.player)
    if game.reading("cards_played_as_checked").choice == "finalized":
        return played - (context.source in ids) >= 1
    if context.own_play and context.source in ids:
        played -= 1  # 812.1.b.1: another card, before this one
    return played >= 1
