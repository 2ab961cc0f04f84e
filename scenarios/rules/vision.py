"""Vision 817: "When this is played, look at the top card of your Main Deck. You may recycle it" (817.1.b),
triggered by the permanent entering the board (817.1.c). Several instances trigger separately, each with its
own choice (817.2, 817.2.a); one that leaves the card on top lets the next see the same card (817.2.b). An
empty Main Deck gives nothing to look at and never burns out (431.1.c).
"""

from __future__ import annotations

from scenarios.cards import Trigger
from scenarios.game import Game
from scenarios.kernel import calc, choose, do, instruction, keyword_ability, note
from scenarios.trace import StepKind

keyword_ability(
    "Vision",
    "817.1.b",
    Trigger.model_validate(
        {
            "when": {"event": "play", "who": "self"},
            "label": "Vision: look at the top card, you may recycle it",
            "effects": [{"op": "look_at_top", "may_recycle": True}],
        }
    ),
    stacks=True,
)


@instruction("look_at_top")
def op_look_at_top(game: Game, run, ins) -> None:
    """Look at the top card of your Main Deck (128.4: only you); `may_recycle`: you may recycle it (416)."""
    player = run.item.controller
    deck = game.deck(player)
    if not deck:
        calc.impossible(game, run, f"{player}'s Main Deck is empty: nothing to look at (no Burn Out)", "431.1.c")
        return
    top = deck[0]
    note(
        game,
        StepKind.EFFECT,
        "look",
        f"{player} looks at the top card of their Main Deck: {top.id}",
        run.because,
        ("128.4",),
        [top.id],
    )
    if ins.get("may_recycle"):
        prompt = f"{run.item.label}: recycle {top.id} to the bottom of the Main Deck?"
        if choose(game, "may", player, prompt, ["yes", "no"], "817.2.a") == "yes":
            do.recycle(game, [top.id], run.item.label, because=run.because)
