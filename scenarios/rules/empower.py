"""Empower 441, 827 and Empowered 828. Empowered is a status of a game object on the board (441.1.a, 441.2); an
object already Empowered can't be Empowered again (441.1.b: nothing happens, 441.1.c); Disempowering removes it
(442). The keyword "[Empower] [Cost]" is short for "[Cost]: Empower this. Play only if not Empowered." (827.1.c.1):
an activated ability with the condition "not empowered". "[Empowered][>] [Text]" is short for "While I have the
Empowered status, this card gains '[Text]'" (828.1.b.1): the condition "empowered" on a passive or a trigger.
A permanent entering the board is a new object, not Empowered (`playing.enter_board`). Becoming Empowered is an
event abilities may name (441.2.a, 827.2.a): "When I become [Empowered]", "When you empower something else" (the
event `empower`, its player the controller of the effect that empowered it). "Disempower this" as a cost
(`Cost.disempower`) can be paid only while its source is Empowered (442.1.a, 203.3).

`{op: empower, what: this}`, `{op: disempower, what: this}`.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, condition, do, event_kind, instruction, procedure
from scenarios.objects import Event
from scenarios.trace import StepKind

event_kind("empower", "441.2.a", would="become Empowered")


@condition("empowered", "828.1.b.1")
def _empowered(game: Game, context) -> bool:
    source = game.objects.get(context.source) if context.source else None
    return source is not None and source.empowered


@condition("not empowered", "827.1.c.1")
def _not_empowered(game: Game, context) -> bool:
    return not _empowered(game, context)


@procedure(
    "set_empowered",
    StepKind.EFFECT,
    defines=("441.1", "442.1"),
    summary=lambda g, object_id, status, label: (
        f"{label}: {object_id} " + ("becomes Empowered" if status else "is Disempowered")
    ),
    objects=lambda g, object_id, status, label: [object_id],
    pure=True,
)
def set_empowered(game: Game, object_id: str, status: bool, label: str) -> None:
    game.objects[object_id].empowered = status


def _change(game: Game, run, ins, status: bool) -> None:
    for object_id in calc.still_there(game, run, ins["what"], "empowering" if status else "disempowering"):
        obj = game.objects[object_id]
        if obj.empowered != status:  # 441.1.c, 442.1.a.1: otherwise nothing happens
            do.set_empowered(game, object_id, status, run.item.label, because=run.because)
            if status:  # becoming Empowered is an event (441.2.a), by the player whose effect empowered it
                calc.fire(game, Event("empower", unit=object_id, player=run.item.controller, location=obj.location))


@instruction("empower")
def op_empower(game: Game, run, ins) -> None:
    _change(game, run, ins, True)


@instruction("disempower")
def op_disempower(game: Game, run, ins) -> None:
    _change(game, run, ins, False)
