"""Movement 423-431 and Recalls 432-436: a Move is a change of location that triggers and contests; a Recall is not.

Restrictions on moving ("Units can't move from here to base") stop moves of every
kind (427, 054.1) but never a Recall (434.3). A Recall leaves damage, exhaustion,
buffs and layer alterations as they were (436.1) unless its source says otherwise.
"""

from __future__ import annotations

from scenarios import control, triggers
from scenarios.state import Refusal
from scenarios.trace import procedure


def blocked(game, unit, destination: str) -> str | None:
    """The object whose restriction forbids this move, if any."""
    origin = unit.location
    if (
        game.is_battlefield(origin)
        and destination == "base"
        and "no_move_from_here_to_base" in game.obj(origin).definition.restrictions
    ):
        return origin
    return None


def check_destination(game, unit, destination: str, standard: bool) -> None:
    if unit.zone != "board" or unit.kind != "unit":
        raise Refusal("425.3", f"{unit.id} is not a unit on the board")
    if destination == unit.location:
        raise Refusal("425", f"{unit.id} is already at {destination}")
    if destination != "base" and not game.is_battlefield(destination):
        raise Refusal("425.2", f"{destination} is not a location")
    blocker = blocked(game, unit, destination)
    if blocker:
        raise Refusal("054.1", f"{game.obj(blocker).card}: units can't move from {blocker} to base")
    if standard and game.is_battlefield(unit.location) and game.is_battlefield(destination):
        from scenarios.layers import has_keyword

        if not has_keyword(game, unit, "Ganking"):
            raise Refusal(
                "143.4", f"{unit.id} can't move from a battlefield to another battlefield without Ganking (736)"
            )
    others = (
        {u.controller for u in game.units(destination) if u.controller != unit.controller}
        if destination != "base"
        else set()
    )
    if len(others) >= 2:
        raise Refusal("427.2", f"{destination} already has units of two other players")


@procedure(
    "movement",
    "424.1",
    "425",
    summary=lambda g, ids, dest, by: (
        f"move {', '.join(ids)} to {dest}" + (" (standard move)" if by == "standard" else f" ({by})")
    ),
    objects=lambda g, ids, dest, by: ids + [dest],
)
def move(game, unit_ids, destination: str, by: str) -> None:
    moved = []
    for unit_id in unit_ids:
        unit = game.obj(unit_id)
        if blocked(game, unit, destination):
            game.trace.note(
                "movement",
                f"{unit_id} can't move to {destination}: {game.obj(unit.location).card} forbids it",
                ["054.1", "055"],
                [unit_id],
            )
            continue
        unit.location = destination
        unit.moves_this_turn += 1
        for gear in game.attached(unit_id):
            gear.location = destination  # 421.4
        moved.append(unit)
    if moved and game.is_battlefield(destination):
        control.contest(game, game.obj(destination), moved[0].controller, rule="428")
    for unit in moved:
        triggers.fire(game, "move", unit=unit.id, location=destination)


@procedure(
    "movement",
    "433",
    "434",
    "436.1",
    summary=lambda g, uid, rule: f"recall {uid} to base (not a move)",
    objects=lambda g, uid, rule: [uid],
)
def recall(game, unit_id: str, rule: str = "433") -> None:
    obj = game.obj(unit_id)
    obj.location = "base"
    for gear in game.attached(unit_id):
        gear.location = "base"
