"""Exhaust 414, Ready 415, Stun 423, Buff 426 and 701-705, Attach 434, and Might and keyword
changes made by resolving effects (477.3.b, 801.3.a)."""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, instruction, note, procedure
from scenarios.objects import Grant, Modifier
from scenarios.trace import StepKind


def _label(game: Game, ids, label) -> str:
    return f"{label}: " if label else ""


def _status(name: str, attribute: str, value: bool, defines: tuple[str, ...]):
    """A procedure that sets one status of objects: exhausted (414.1), ready (415.1), stunned (423.1).
    Setting a status an object already has changes nothing (414.1.c, 415.1.c, 423.1.a.1)."""

    def apply(game: Game, object_ids, label=None) -> None:
        for object_id in object_ids:
            setattr(game.objects[object_id], attribute, value)

    return procedure(
        name,
        StepKind.EFFECT,
        defines=defines,
        summary=lambda g, ids, label=None: f"{_label(g, ids, label)}{name} {', '.join(ids)}",
        objects=lambda g, ids, label=None: ids,
        pure=True,
    )(apply)


exhaust = _status("exhaust", "exhausted", True, ("414.1",))
ready = _status("ready", "exhausted", False, ("415.1",))
stun = _status("stun", "stunned", True, ("423.1",))


@procedure(
    "buff",
    StepKind.EFFECT,
    defines=("426.1", "703"),
    summary=lambda g, ids, label=None: f"{_label(g, ids, label)}buff {', '.join(ids)}",
    objects=lambda g, ids, label=None: ids,
)
def buff(game: Game, unit_ids, label=None) -> None:
    for unit_id in unit_ids:
        unit = game.objects[unit_id]
        if unit.buffs:
            note(game, StepKind.EFFECT, "buff", f"{unit_id} already has a buff", "426.1.b.1", objects=[unit_id])
        else:
            unit.buffs = 1


@procedure(
    "spend_buff",
    StepKind.EFFECT,
    defines=("702.2.b",),
    summary=lambda g, uid, label=None: f"{_label(g, uid, label)}spend the buff of {uid}",
    objects=lambda g, uid, label=None: [uid],
)
def spend_buff(game: Game, unit_id: str, label=None) -> None:
    game.objects[unit_id].buffs -= 1


@procedure(
    "give_might",
    StepKind.EFFECT,
    defines=("477.3.a", "477.3.b"),
    summary=lambda g, ids, amount, minimum, label: (
        f"{label}: give {', '.join(ids)} {amount:+d} might this turn"
        + (f", to a minimum of {minimum}" if minimum is not None else "")
    ),
    objects=lambda g, ids, *a: ids,
)
def give_might(game: Game, unit_ids, amount: int, minimum, label: str) -> None:
    for unit_id in unit_ids:
        unit = game.objects[unit_id]
        fixed = calc.snapshot_modifier(game, unit, amount, minimum)
        note(
            game,
            StepKind.LAYER_CALCULATION,
            "might",
            f"{unit_id} has {calc.explain_might(game, unit)}: "
            + (
                f"the {amount:+d} can take it only to {minimum}, so it gives {fixed:+d} for the turn"
                if fixed != amount
                else f"it gets {fixed:+d}"
            ),
            "477.3.b",
            ("477.3.e", *calc.might_rules(game, unit)),
            [unit_id],
        )
        unit.modifiers = (*unit.modifiers, Modifier(fixed, label, game.tick()))


@procedure(
    "grant_keyword",
    StepKind.EFFECT,
    defines=("801.3.a",),
    summary=lambda g, ids, keyword, value, until, label: (
        f"{label}: give {', '.join(ids)} [{keyword} {value}]"
        + (" this combat" if until == "combat" else " this turn" if until == "turn" else "")
    ),
    objects=lambda g, ids, *a: ids,
)
def grant_keyword(game: Game, unit_ids, keyword: str, value: int, until: str, label: str) -> None:
    for unit_id in unit_ids:
        unit = game.objects[unit_id]
        unit.granted = (*unit.granted, Grant(keyword, value, until))


@procedure(
    "attach",
    StepKind.EFFECT,
    defines=("434.1", "434.4", "818.2"),
    summary=lambda g, gear_ids, unit_id, label: f"{label}: attach {', '.join(gear_ids)} to {unit_id}",
    objects=lambda g, gear_ids, unit_id, label: [*gear_ids, unit_id],
)
def attach(game: Game, gear_ids, unit_id: str, label: str) -> None:
    """434.1.f: attaching detaches from any previous unit; 434.4: the gear goes where the unit is (not a move)."""
    unit = game.objects[unit_id]
    for gear_id in gear_ids:
        gear = game.objects[gear_id]
        gear.attached_to = unit_id
        gear.location = unit.location


# -- instructions --------------------------------------------------------------------------------------------


def _ids(game: Game, run, ins, key="what"):
    return calc.still_there(game, run, ins[key], f"the '{ins['op']}' instruction on")


def _on_objects(name: str):
    """The instruction `{op: <name>, what: <objects>}`: the procedure of that name on the objects on the board."""

    def op(game: Game, run, ins) -> None:
        ids = _ids(game, run, ins)
        if ids:
            getattr(do, name)(game, ids, run.item.label, because=run.because)

    return op


for _name in ("exhaust", "ready", "stun", "buff"):
    instruction(_name)(_on_objects(_name))


@instruction("spend_buff")
def op_spend_buff(game: Game, run, ins) -> None:
    """Spend a buff of a unit you control (702.2.b.2); the instructions in `then` happen only if one was spent."""
    buffed = [u.id for u in game.units(controller=run.item.controller) if u.buffs]
    if not buffed:
        calc.impossible(game, run, "no friendly unit has a buff to spend", "702.2.b.1")
        return
    pick = choose(
        game,
        "spend_buff",
        run.item.controller,
        "unit whose buff to spend (one you control)",
        buffed,
        "355.17",
    )
    do.spend_buff(game, pick, run.item.label, because=run.because)
    calc.execute(game, run, ins.get("then", []))


@instruction("might")
def op_might(game: Game, run, ins) -> None:
    ids = _ids(game, run, ins, "to")
    amount = calc.amount(game, run, ins["amount"]) if ids else None
    if ids and amount is None:
        calc.impossible(game, run, "the amount is null: no Might is given", "359.3.e.12")
    elif ids and amount is not None:
        do.give_might(game, ids, amount, ins.get("minimum"), run.item.label, because=run.because)


@instruction("grant")
def op_grant(game: Game, run, ins) -> None:
    ids = _ids(game, run, ins, "to")
    if ids:
        until = ins.get("until", "turn")
        do.grant_keyword(game, ids, ins["keyword"], ins.get("value", 1), until, run.item.label, because=run.because)


@instruction("attach")
def op_attach(game: Game, run, ins) -> None:
    units = calc.refs(game, run, ins["to"])
    gear_ids = calc.refs(game, run, ins["what"])
    if not units or not gear_ids or game.objects[units[0]].zone != "board":
        calc.impossible(game, run, "nothing to attach")
        return
    do.attach(game, gear_ids, units[0], run.item.label, because=run.because)
