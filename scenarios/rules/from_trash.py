"""Cards taken back from a trash: "Return a unit from your trash to your hand". The card is a target, chosen
as the spell or ability goes on the Chain: a trash is a public zone (355.9.a, 355.10.a; `zone: trash` in its
target spec), and a target gone from the trash by then is no longer legal (359.3.e).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, instruction, procedure, query
from scenarios.objects import HAND, TRASH
from scenarios.trace import StepKind


@procedure(
    "return_from_trash",
    StepKind.EFFECT,
    defines=("355.10.a",),
    summary=lambda g, card_id, label: f"{label}: return {card_id} from the trash to its owner's hand",
    objects=lambda g, card_id, label: [card_id],
    pure=True,
)
def return_from_trash(game: Game, card_id: str, label: str) -> None:
    card = game.objects[card_id]
    card.zone = HAND
    card.order = game.tick()


@instruction("return_from_trash")
def op_return_from_trash(game: Game, run, ins) -> None:
    for card_id in calc.refs(game, run, ins["what"]):
        if game.objects[card_id].zone == TRASH:
            return_from_trash(game, card_id, run.item.label, because=run.because)


@query("trash_of")
def trash_of(game: Game, player: str) -> list[str]:
    """The cards in `player`'s trash (108.2), oldest first."""
    cards = [o for o in game.objects.values() if o.owner == player and o.zone == TRASH]
    return [o.id for o in sorted(cards, key=lambda o: o.order)]


@query("recycle_from_trash")
def recycle_from_trash(game: Game, player: str, n: int, label: str, because) -> None:
    """ "Recycle 3 from your trash": 3 cards of the player's choice, which are not targets (416.6), recycled
    together to the bottom of the Main Deck (416.5: in a random order; the engine keeps the order chosen). As a
    cost the whole of it must be paid (416.3); as an effect as many as there are (416.4)."""
    picks: list[str] = []
    for _ in range(n):
        left = [card for card in trash_of(game, player) if card not in picks]
        if not left:
            break
        picks.append(choose(game, "recycle", player, f"{label}: card to recycle from the trash", left, "416.6"))
    if picks:
        do.recycle(game, picks, label, because=because)
