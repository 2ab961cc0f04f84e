"""Cards taken back from a trash: "Return a unit from your trash to your hand". The card is a target, chosen
as the spell or ability goes on the Chain: a trash is a public zone (355.9.a, 355.10.a; `zone: trash` in its
target spec), and a target gone from the trash by then is no longer legal (359.3.e).
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, instruction, procedure
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
