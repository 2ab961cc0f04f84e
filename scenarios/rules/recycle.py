"""Recycle 416: a card goes to the bottom of its owner's corresponding deck: a Main Deck card to the Main Deck
(416.1.a), a rune to the Rune Deck (416.1.b), whoever is told to recycle it (416.1.c). A permanent or rune
leaving the board this way becomes a new object (359.3.e.4).

Several cards recycled to the Main Deck at once go to the bottom in a random order (416.5); the engine is
deterministic and keeps the order it is given (a scenario that depends on that order is not a replay of the
rules). Several runes go in the order their owner chooses (416.5.a), also the order given.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, event_kind, procedure, query
from scenarios.objects import BOARD, DECK, RUNE, RUNE_DECK, Event
from scenarios.trace import StepKind

event_kind("recycle_cards", "416.1.a", would="recycle cards to the Main Deck")
event_kind("recycle_rune", "416.1.b", would="recycle a rune to the Rune Deck")


@query("bottom_of_deck")
def bottom_of_deck(game: Game) -> int:
    """A sort position below every card now in any deck (decks are read top first, by `order`)."""
    return game.tick() + 1_000_000


@procedure(
    "recycle",
    StepKind.EFFECT,
    defines=("416.1",),
    summary=lambda g, ids, label: f"{label}: recycle {', '.join(ids)} to the bottom of its deck",
    objects=lambda g, ids, label: list(ids),
    cite=lambda g, ids, label: sorted({"416.1.b" if g.objects[i].kind == RUNE else "416.1.a" for i in ids}),
)
def recycle(game: Game, card_ids, label: str) -> None:
    """Each player recycles its own cards (416.1.c): one event per player who recycled one or more Main Deck
    cards, however many ("When you recycle one or more cards to your Main Deck"; runes are not cards), and one
    per rune ("When you recycle a rune")."""
    recyclers: list[str] = []
    for card_id in card_ids:
        card = game.objects[card_id]
        deck = RUNE_DECK if card.kind == RUNE else DECK
        if card.zone == BOARD:
            calc.leave_board(game, card, deck)
        else:
            card.zone, card.location = deck, None
        card.order = bottom_of_deck(game)
        if deck == DECK and card.zone == DECK and card.owner not in recyclers:
            recyclers.append(card.owner)
        if deck == RUNE_DECK:  # "When you recycle a rune": each rune, recycled by its owner (416.1.b, 416.1.c)
            calc.fire(game, Event("recycle_rune", player=card.owner, card=card_id))
    for player in recyclers:
        calc.fire(game, Event("recycle_cards", player=player))
