"""Deal 404, Heal 405, Kill 415, Banish 414: damage is marked, cleared, and kills through Cleanup.

A permanent leaving the board becomes a new object (356.3.e.4): its incarnation
changes, its buffs are removed (705) and attached gear detaches where it was (422.4.b).
"""

from __future__ import annotations

from scenarios import replacement, triggers
from scenarios.trace import procedure


@procedure(
    "effect",
    "404.1.b",
    "404.1.d",
    summary=lambda g, amounts, source, rule: (
        "deal damage: " + ", ".join(f"{amount} to {uid}" for uid, amount in amounts.items())
    ),
    objects=lambda g, amounts, source, rule: list(amounts),
)
def deal_many(game, amounts: dict, source: str, rule: str) -> None:
    dealt = []
    for unit_id, amount in amounts.items():
        unit = game.obj(unit_id)
        if amount <= 0 or unit.zone != "board":
            continue
        unit.damage += amount
        dealt.append(unit_id)
    for unit_id in dealt:
        triggers.fire(game, "takes_damage", unit=unit_id, source=source)


@procedure("effect", "405.1", summary=lambda g, ids, rule: f"heal {', '.join(ids)}", objects=lambda g, ids, rule: ids)
def heal(game, unit_ids, rule: str = "405.1") -> None:
    for unit_id in unit_ids:
        game.obj(unit_id).damage = 0


def kill_many(game, unit_ids, passive: bool):
    """Deathknells first (322.3 / 415.1.a.1.b), then each death, unless a replacement effect applies."""
    for unit_id in unit_ids:
        unit = game.obj(unit_id)
        if unit.zone != "board":
            continue
        replaced = yield from replacement.would_die(game, unit)
        if not replaced:
            _dies(game, unit, passive)


@procedure(
    "effect",
    "415.1",
    "415.2",
    "109",
    summary=lambda g, unit, passive: (
        f"{unit.id} is killed " + ("(lethal damage, 322.4)" if passive else "(kill instruction)")
    ),
    objects=lambda g, unit, passive: [unit.id],
)
def _dies(game, unit, passive: bool) -> None:
    triggers.add_deathknell(game, unit)
    leave_board(game, unit, "trash")


def leave_board(game, obj, zone: str) -> None:
    last_location = obj.location
    for gear in game.attached(obj.id):
        gear.attached_to = None
        gear.location = last_location  # 422.4.b: detaches to the last location
    obj.zone = zone
    obj.location = None
    obj.damage = 0
    obj.buffs = 0  # 705
    obj.modifiers = []
    obj.granted = []
    obj.designation = None
    obj.stunned = False
    obj.attached_to = None
    obj.incarnation += 1  # a new object (356.3.e.4)
    if obj.kind == "unit" and obj.controller != obj.owner:
        obj.controller = obj.owner


@procedure("effect", "414.2", "109", summary=lambda g, uid, by: f"banish {uid}", objects=lambda g, uid, by: [uid])
def banish(game, unit_id: str, by: str | None = None) -> None:
    obj = game.obj(unit_id)
    leave_board(game, obj, "banishment") if obj.zone == "board" else setattr(obj, "zone", "banishment")
    obj.banished_by = by


@procedure("effect", "415.1.a.1", summary=lambda g, gid: f"kill {gid}", objects=lambda g, gid: [gid])
def kill_gear(game, gear_id: str) -> None:
    leave_board(game, game.obj(gear_id), "trash")
