"""Exhaust 414, Ready 415, Stun 423, Buff 426 and 701-705, Attach 434, and Might and keyword
changes made by resolving effects (477.3.b, 801.3.a)."""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, choose, do, event_kind, instruction, note, procedure, query
from scenarios.objects import Event, Grant, Kind, Modifier
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
        if unit.buffs and _buffed_again_by(game, unit) is None:
            note(game, StepKind.EFFECT, "buff", f"{unit_id} already has a buff", "426.1.b.1", objects=[unit_id])
        elif unit.buffs:  # a permission to be buffed multiple times ignores 426.1.b.1 (426.1.b.2)
            unit.buffs += 1
            said = f"{unit_id} may have any number of buffs ({_buffed_again_by(game, unit)}): it has {unit.buffs}"
            note(game, StepKind.EFFECT, "buff again", said, "426.1.b.2", objects=[unit_id])
        else:
            unit.buffs = 1


def _buffed_again_by(game: Game, unit) -> str | None:
    """The source of a passive letting `unit` have any number of buffs ("I can have any number of buffs"), if any."""
    return calc.restricted_by(game, unit, "any_number_of_buffs")


@procedure(
    "buffs_give_more",
    StepKind.EFFECT,
    defines=("703",),
    summary=lambda g, player, n, label: f"{label}: buffs give {player}'s units an additional +{n} might this turn",
    objects=lambda g, player, n, label: [],
)
def buffs_give_more(game: Game, player: str, n: int, label: str) -> None:
    game.players[player].buff_bonus_this_turn += n


@instruction("buffs_give_more")
def op_buffs_give_more(game: Game, run, ins) -> None:
    """`{op: buffs_give_more, amount: 1}`: "Buffs give an additional +1 [Might] to friendly units this turn": each
    buff on a unit its controller controls contributes that much more Might (703), wherever the unit is and
    whenever it was buffed (811.2's example), until the turn ends (317.2.c)."""
    do.buffs_give_more(game, run.item.controller, int(ins.get("amount", 1)), run.item.label, because=run.because)


@procedure(
    "spend_buff",
    StepKind.EFFECT,
    defines=("702.2.b",),
    summary=lambda g, uid, label=None: f"{_label(g, uid, label)}spend the buff of {uid}",
    objects=lambda g, uid, label=None: [uid],
)
def spend_buff(game: Game, unit_id: str, label=None) -> None:
    """Its controller spends it (702.2.b.2): "When you spend a buff" sees that player."""
    unit = game.objects[unit_id]
    unit.buffs -= 1
    calc.fire(game, Event("spend_buff", player=unit.controller, units=(unit_id,), location=unit.location))


@procedure(
    "give_might",
    StepKind.EFFECT,
    defines=("477.3.a", "477.3.b"),
    summary=lambda g, ids, amount, minimum, label, until="turn": (
        f"{label}: give {', '.join(ids)} {amount:+d} might this {until}"
        + (f", to a minimum of {minimum}" if minimum is not None else "")
    ),
    objects=lambda g, ids, *a: ids,
)
def give_might(game: Game, unit_ids, amount: int, minimum, label: str, until: str = "turn") -> None:
    """`until`: "turn", or "combat" ("double my Might this combat": it expires as the combat ends, 466.7.c)."""
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
        unit.modifiers = (*unit.modifiers, Modifier(fixed, label, game.tick(), until))


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
        if gear.attached_to != unit_id:  # to its current unit nothing happens (434.1.g)
            gear.attached_turn = game.turn_number
        gear.attached_to = unit_id
        gear.location = unit.location


@procedure(
    "detach",
    StepKind.EFFECT,
    defines=("435.1", "435.4"),
    summary=lambda g, gear_ids, label: f"{label}: detach {', '.join(gear_ids)}",
    objects=lambda g, gear_ids, label: list(gear_ids),
)
def detach(game: Game, gear_ids, label: str) -> None:
    """435.1: the cards cease to be attached; 435.4: each stays where its unit is (a gear left at a battlefield is
    recalled in the next cleanup, 435.4.a)."""
    for gear_id in gear_ids:
        game.objects[gear_id].attached_to = None


# -- instructions --------------------------------------------------------------------------------------------


def _ids(game: Game, run, ins, key="what"):
    return calc.still_there(game, run, ins[key], f"the '{ins['op']}' instruction on")


def _on_objects(name: str):
    """The instruction `{op: <name>, what: <objects>}`: the procedure of that name on the objects on the board."""

    def op(game: Game, run, ins) -> None:
        ids = _ids(game, run, ins)
        if ids and name == "stun":  # "if a spell or ability that chooses me would stun me, ... instead"
            ids = calc.unreplaced(game, run, "stun", ids)
        if name == "ready":  # "Spells and abilities can't ready enemy units and gear" (054.1)
            ids = calc.readied_by_effect(game, run, ids)
        if ids:
            changed = calc.changing_status(game, name, ids)
            getattr(do, name)(game, ids, run.item.label, because=run.because)
            calc.status_changed(game, name, changed, run.item.controller)

    return op


# "When you stun an enemy unit", "When you buff me", "When I become ready": a unit is stunned, buffed or readied only
# when it was not already (423.1.a.1, 426.1.c, 415.1.b, with their examples), and the player who did it is the
# controller of the effect (415.3.a: the turn player readies their objects in the Awaken Phase)
event_kind("stun", "423.1", would="be stunned")
event_kind("ready", "415.1", would="become ready")
event_kind("buff", "426.1", would="be buffed")
event_kind("stun_some", "423.1", would="stun one or more units")
event_kind("spend_buff", "702.2.b", would="spend a buff")
_UNCHANGED = {"stun": "stunned", "ready": "ready", "buff": "buffed"}


@query("changing_status")
def changing_status(game: Game, name: str, ids) -> list[str]:
    """The units among `ids` that `name` ("stun", "ready", "buff") would change: not already in that state."""
    state = _UNCHANGED.get(name)
    units = [game.objects[i] for i in ids if game.objects[i].kind == Kind.UNIT]
    if state == "stunned":
        return [u.id for u in units if not u.stunned]
    if state == "ready":
        return [u.id for u in units if u.exhausted]
    if state == "buffed":  # already buffed: not buffed again (426.1.c), unless it may have any number (426.1.b.2)
        return [u.id for u in units if not u.buffs or _buffed_again_by(game, u) is not None]
    return []


@query("status_changed")
def status_changed(game: Game, name: str, ids, player: str) -> None:
    """`player` stunned, readied or buffed these units: the abilities that trigger on it trigger (383.2)."""
    for unit_id in ids:
        calc.fire(game, Event(name, unit=unit_id, player=player, location=game.objects[unit_id].location))
    if ids and name == "stun":  # "When you stun one or more enemy units": once for the units one effect stuns
        calc.fire(game, Event("stun_some", player=player, units=tuple(ids)))


for _name in ("exhaust", "ready", "stun", "buff"):
    instruction(_name)(_on_objects(_name))


@instruction("spend_buff")
def op_spend_buff(game: Game, run, ins) -> None:
    """Spend a buff of a unit you control (702.2.b.2), or of the unit `what` names ("spend its buff"); the
    instructions in `then` happen only if one was spent."""
    if "what" in ins:
        buffed = [i for i in _ids(game, run, ins, "what") if game.objects[i].buffs]
        if buffed:
            do.spend_buff(game, buffed[0], run.item.label, because=run.because)
            calc.execute(game, run, ins.get("then", []))
        else:
            calc.impossible(game, run, "it has no buff to spend", "702.2.b.1")
        return
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
        if amount < 0:  # "if a spell or ability that chooses me would give me -[Might], ... instead"
            ids = _unreplaced_decrease(game, run, ids, amount, ins.get("minimum"))
        until = ins.get("until", "turn")
        do.give_might(game, ids, amount, ins.get("minimum"), run.item.label, until, because=run.because)


def _unreplaced_decrease(game: Game, run, ids: list[str], amount: int, minimum: int | None) -> list[str]:
    """The units a decrease is still given to once replacements of "would be given -[Might]" applied (369). A unit
    its minimum already holds is snapshot to -0 (477.3.b): no -[Might] is given it, so no such event is there to
    replace (the Vendetta FAQ: Stupefy on a 1 [Might] Gangplank, Naval); it is given the -0."""
    given = [i for i in ids if calc.snapshot_modifier(game, game.objects[i], amount, minimum) < 0]
    kept = set(calc.unreplaced(game, run, "lose_might", given)) if given else set()
    return [i for i in ids if i not in given or i in kept]


@instruction("grant")
def op_grant(game: Game, run, ins) -> None:
    ids = _ids(game, run, ins, "to")
    if ids:
        until = ins.get("until", "turn")
        do.grant_keyword(game, ids, ins["keyword"], ins.get("value", 1), until, run.item.label, because=run.because)


def _one_equipment_of(game: Game, run, units, verb: str) -> list[str]:
    """One of the Equipment attached to these units, chosen by the item's controller as it resolves (355.17;
    attaching or detaching chooses no target, 434.3, 435.3); none when none is attached."""
    attached = [g.id for u in units for g in game.attached(u) if g.tagged("Equipment")]
    if not attached:
        return []
    prompt = f"{run.item.label}: an Equipment to {verb}"
    return [
        choose(
            game,
            verb,
            run.item.controller,
            prompt,
            attached,
            "355.17",
            also=("434.3",) if verb == "attach" else ("435.3",),
        )
    ]


@instruction("attach")
def op_attach(game: Game, run, ins) -> None:
    """ "Attach this to a unit you control" (`what`: the cards), or "attach one of its Equipment to me" (`from`: the
    unit whose Equipment one is chosen as it resolves)."""
    units = calc.refs(game, run, ins["to"])
    if "from" in ins:
        gear_ids = _one_equipment_of(game, run, calc.refs(game, run, ins["from"]), "attach")
    else:
        gear_ids = calc.refs(game, run, ins["what"])
    if not units or not gear_ids or game.objects[units[0]].zone != "board":
        calc.impossible(game, run, "nothing to attach")
        return
    attaching = calc.attaching(game, gear_ids, units[0])
    do.attach(game, gear_ids, units[0], run.item.label, because=run.because)
    calc.attached(game, attaching, units[0], run.item.controller)


@instruction("detach")
def op_detach(game: Game, run, ins) -> None:
    """ "Detach it" / "unattach this" (`what`: the cards), or "detach an Equipment from it" (`from`: the unit; its
    controller chooses one of the Equipment attached to it as the instruction resolves, 435.3: detaching chooses no
    target). A card not attached is not detached (435.1.a.1)."""
    if "from" in ins:
        gear_ids = _one_equipment_of(game, run, calc.refs(game, run, ins["from"]), "detach")
        if not gear_ids:
            calc.impossible(game, run, "no Equipment is attached to it: nothing to detach", "435.1.a.1")
            return
    else:
        # "detach that Equipment from that unit": only from that unit (`from_unit`)
        units = calc.refs(game, run, ins["from_unit"]) if "from_unit" in ins else None
        gear_ids = [
            g
            for g in calc.refs(game, run, ins["what"])
            if game.objects[g].attached_to and (units is None or game.objects[g].attached_to in units)
        ]
        if not gear_ids:
            calc.impossible(game, run, "it is not attached there: nothing to detach", "435.1.a.1")
            return
    do.detach(game, gear_ids, run.item.label, because=run.because)


# "When you attach an Equipment to me": attaching an Equipment to a unit it is not yet attached to (434.1.g: to the
# one it is attached to, nothing happens), by the controller of the effect that attaches it
event_kind("attach_equipment", "434.1", would="have an Equipment attached")


@query("attaching")
def attaching(game: Game, gear_ids, unit_id: str) -> list[str]:
    """The Equipment among `gear_ids` that attaching them to `unit_id` would attach (not already attached there)."""
    return [
        g
        for g in gear_ids
        if game.objects[g].attached_to != unit_id and "Equipment" in (game.objects[g].definition.tags or ())
    ]


@query("attached")
def attached(game: Game, gear_ids, unit_id: str, player: str) -> None:
    unit = game.objects[unit_id]
    for gear_id in gear_ids:
        calc.fire(game, Event("attach_equipment", unit=unit_id, player=player, location=unit.location, card=gear_id))
