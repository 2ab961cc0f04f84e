"""Control and Contested 182-184: who controls a battlefield, who applied Contested, and taking control of units."""

from __future__ import annotations

from scenarios import scoring
from scenarios.trace import procedure


def contest(game, bf, player: str, rule: str) -> None:
    """184.3.a.1: arriving at a battlefield its controller does not control contests it, unless already contested."""
    if bf.battlefield_controller != player and not bf.contested_by:
        _apply_contested(game, bf, player, rule)


@procedure(
    "effect",
    "184.3.a.1",
    summary=lambda g, bf, player, rule: f"{player} applies Contested to {bf.id}",
    objects=lambda g, bf, player, rule: [bf.id, player],
    cite=lambda g, bf, player, rule: [rule],
)
def _apply_contested(game, bf, player: str, rule: str) -> None:
    bf.contested_by = player


@procedure(
    "scoring",
    "184.4",
    summary=lambda g, bf, player, rule: (
        f"{player} keeps control of {bf.id}"
        if bf.battlefield_controller == player
        else f"{player} establishes control of {bf.id}"
    ),
    objects=lambda g, bf, player, rule: [bf.id, player],
)
def establish(game, bf, player: str, rule: str):
    """A player who already controls the battlefield keeps it; only gaining control is a Conquer (446.1)."""
    gained = bf.battlefield_controller != player
    bf.battlefield_controller = player
    bf.contested_by = None
    bf.staged = None
    if gained:
        yield from scoring.conquer(game, player, bf)


@procedure(
    "effect",
    "184.4.c",
    summary=lambda g, bf, rule="322.6": f"{bf.id} has no units and is not contested: uncontrolled",
    objects=lambda g, bf, rule="322.6": [bf.id],
    cite=lambda g, bf, rule="322.6": [rule],
)
def lose_control(game, bf, rule: str = "322.6") -> None:
    bf.battlefield_controller = None


@procedure(
    "effect",
    "183",
    "184.6",
    summary=lambda g, uid, player: f"{player} takes control of {uid}",
    objects=lambda g, uid, player: [uid, player],
)
def take_control(game, unit_id: str, player: str) -> None:
    unit = game.obj(unit_id)
    unit.controller = player
    for gear in game.attached(unit_id):
        gear.controller = player
    if game.is_battlefield(unit.location):
        contest(game, game.obj(unit.location), player, rule="184.3.a")
