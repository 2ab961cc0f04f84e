"""Legion 738: "Legion — [Text]" applies its text only if its controller has played a Main Deck card this
turn: on spells and on play effects of permanents, another card before this one (738.1.c.1); on other
abilities, any card this turn (738.1.c.2). One card played satisfies every Legion of its player (738.2).

The condition word `legion` is read by triggers (`condition: legion`: the ability exists only while it
holds), discounts ("[Legion] — I cost [2] less") and `if` instructions ("[Legion] — Kill it now instead").
Cards played are counted as they finish being played (347.1, 406.4.a): a countered spell is never played.
"""

from __future__ import annotations

from scenarios.kernel import Condition, condition


@condition("legion", "738.1.c")
def legion(game, context: Condition) -> bool:
    player = game.players[context.player]
    played = player.cards_played_this_turn
    if context.own_play and context.source in player.played_this_turn:
        played -= 1  # 738.1.c.1: another card, before this one
    return played >= 1
