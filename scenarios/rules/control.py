"""Control and Contested 182-186: who controls a battlefield, who applied Contested, and taking control."""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, do, instruction, procedure, query
from scenarios.trace import StepKind


@query("contest")
def contest(game: Game, bf, player: str, because: str) -> None:
    """190.3.a.1: arriving at a battlefield its controller does not control contests it, unless already contested."""
    if bf.battlefield_controller != player and not bf.contested_by:
        do.apply_contested(game, bf, player, because=because)


@procedure(
    "apply_contested",
    StepKind.EFFECT,
    defines=("190.3.a", "190.3.a.1"),
    summary=lambda g, bf, player: f"{player} applies Contested to {bf.id}",
    objects=lambda g, bf, player: [bf.id, player],
)
def apply_contested(game: Game, bf, player: str) -> None:
    bf.contested_by = player


@procedure(
    "establish_control",
    StepKind.SCORING,
    defines=("190.4",),
    summary=lambda g, bf, player: (
        f"{player} keeps control of {bf.id}"
        if bf.battlefield_controller == player
        else f"{player} establishes control of {bf.id}"
    ),
    objects=lambda g, bf, player: [bf.id, player],
)
def establish_control(game: Game, bf, player: str) -> None:
    """A player who already controls the battlefield keeps it; only gaining control is a Conquer (469.1)."""
    gained, uncontrolled = bf.battlefield_controller != player, bf.battlefield_controller is None
    bf.battlefield_controller = player
    bf.contested_by = None
    bf.staged = None
    if gained:
        do.conquer(game, player, bf, uncontrolled, because="469.1")


@procedure(
    "lose_control",
    StepKind.EFFECT,
    defines=("190.4.c",),
    summary=lambda g, bf: f"{bf.id} has no units and is not contested: uncontrolled",
    objects=lambda g, bf: [bf.id],
)
def lose_control(game: Game, bf) -> None:
    bf.battlefield_controller = None


@procedure(
    "take_control",
    StepKind.EFFECT,
    defines=("189",),
    summary=lambda g, uid, player, label: f"{label}: {player} takes control of {uid}",
    objects=lambda g, uid, player, label: [uid, player],
)
def take_control(game: Game, unit_id: str, player: str, label: str) -> None:
    """The unit changes controller; at a battlefield its new controller does not control, it contests it."""
    unit = game.objects[unit_id]
    unit.controller = player
    if game.is_battlefield(unit.location):
        contest(game, game.objects[unit.location], player, "190.3.a")


@instruction("take_control")
def op_take_control(game: Game, run, ins) -> None:
    for unit_id in calc.still_there(game, run, ins["what"], "taking control of"):
        do.take_control(game, unit_id, run.item.controller, run.item.label, because=run.because)
