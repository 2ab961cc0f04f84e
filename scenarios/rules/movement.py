"""Movement 423-431 and Recalls 432-436: a Move is a change of location that triggers and contests; a Recall
is not. The Standard Move (144, 420.3) is the player action that exhausts units to move them.

Restrictions on moving ("Units can't move from here to base") stop moves of every kind (449, 054.1) but never
a Recall (456.3). A Recall leaves damage, exhaustion, buffs and layer alterations as they were (458.1) unless
its source says otherwise.
"""

from __future__ import annotations

from scenarios.actions import Move
from scenarios.game import Game
from scenarios.kernel import Refusal, action, calc, do, event_kind, instruction, keyword, note, procedure, query
from scenarios.objects import Event, Kind, Zone
from scenarios.trace import StepKind

keyword("Ganking", "810")  # a unit moves from a battlefield to another

event_kind("move", "446.1")
event_kind("move_from", "446.1", would="move from its location")
event_kind("move_some", "446.1", would="move, one or more at once")


@query("move_blocked_by")
def blocked_by(game: Game, unit, destination: str) -> str | None:
    """The object whose restriction forbids this move, if any (054.1: can't beats can; 449.1): the battlefield it
    leaves ("Units can't move from here to base"), the unit itself ("I can't move to base"), or a permanent on the
    board ("Units can't move to base"). A Recall is not a move and is never blocked (456.3)."""
    if destination != "base":
        return None
    origin = unit.location
    if game.is_battlefield(origin) and "no_move_from_here_to_base" in game.objects[origin].definition.restrictions:
        return origin
    if unit.definition is not None and "no_move_to_base" in unit.definition.restrictions:
        return unit.id
    for permanent in game.permanent_objects:
        definition = permanent.definition
        if (
            permanent.zone == Zone.BOARD
            and definition is not None
            and "units_no_move_to_base" in definition.restrictions
        ):
            return permanent.id
    return None


@query("check_destination")
def check_destination(game: Game, unit, destination: str, standard: bool) -> None:
    if unit.zone != Zone.BOARD or unit.kind != Kind.UNIT:
        raise Refusal("447", f"{unit.id} is not a unit on the board")
    if destination == unit.location:
        raise Refusal("447", f"{unit.id} is already at {destination}")
    if destination != "base" and not game.is_battlefield(destination):
        raise Refusal("447.2", f"{destination} is not a location")
    blocker = blocked_by(game, unit, destination)
    if blocker:
        raise Refusal(
            "054.1", f"{game.objects[blocker].card} ({blocker}) forbids {unit.id} to move to base", ("449.1",)
        )
    between_battlefields = game.is_battlefield(unit.location) and game.is_battlefield(destination)
    if standard and between_battlefields and not calc.has_keyword(game, unit, "Ganking"):
        raise Refusal(
            "144.4", f"{unit.id} can't move from a battlefield to another battlefield without Ganking", ("810.1.b",)
        )
    if destination != "base":
        others = {u.controller for u in game.units(destination) if u.controller != unit.controller}
        if len(others) >= 2:
            raise Refusal("449.2", f"{destination} already has units of two other players")


def _moving(game: Game, ids, destination, by, mover=None) -> str:
    return f"move {', '.join(ids)} to {destination}" + (" (standard move)" if by == "standard" else f" ({by})")


@procedure(
    "move",
    StepKind.MOVEMENT,
    defines=("446.1", "447"),
    summary=_moving,
    objects=lambda g, ids, d, by, mover=None: [*ids, d],
    pure=True,
)
def move(game: Game, unit_ids, destination: str, by: str, mover: str | None = None) -> None:
    """`by`: "standard" or the label of the spell or ability moving them; `mover`: the player whose Standard Move or
    effect moves them (the event's player: "when you move an enemy unit"), by default each unit's controller."""
    moved, origins = [], []
    for unit_id in unit_ids:
        unit = game.objects[unit_id]
        if (blocker := blocked_by(game, unit, destination)) is not None:
            note(
                game,
                StepKind.MOVEMENT,
                "move blocked",
                f"{unit_id} can't move to {destination}: {game.objects[blocker].card} forbids it",
                "054.1",
                ("055",),
                [unit_id],
            )
            continue
        origin = unit.location
        if calc.would(
            game, Event("move", unit=unit_id, player=unit.controller, location=origin, destination=destination)
        ):
            continue
        unit.location = destination
        unit.moves_this_turn += 1
        for gear in game.attached(unit_id):
            gear.location = destination  # 719.3.a: attached cards move with it
        moved.append(unit)
        origins.append(origin)
    if moved and game.is_battlefield(destination):
        calc.contest(game, game.objects[destination], moved[0].controller, "450")
    for unit, origin in zip(moved, origins, strict=True):
        calc.fire(
            game,
            Event(
                "move",
                unit=unit.id,
                player=mover or unit.controller,
                location=destination,
                count=unit.moves_this_turn,
                origin=origin,
            ),
        )
        # "When a unit moves from here", "When I move from a battlefield": the same move, seen from where it left
        calc.fire(
            game, Event("move_from", unit=unit.id, player=unit.controller, location=origin, destination=destination)
        )
    if moved:  # "When one or more enemy units move to a battlefield": once for the units one move moves (446.1)
        calc.fire(game, Event("move_some", player=mover, location=destination, units=tuple(u.id for u in moved)))


@procedure(
    "recall",
    StepKind.MOVEMENT,
    defines=("455", "456", "458.1"),
    summary=lambda g, uid: f"recall {uid} to base (not a move)",
    objects=lambda g, uid: [uid],
)
def recall(game: Game, object_id: str) -> None:
    obj = game.objects[object_id]
    obj.location = "base"
    for gear in game.attached(object_id):
        gear.location = "base"


# -- the Standard Move ------------------------------------------------------------------------------------------


def standard_moves(game: Game, player: str):
    """Each of the player's ready units alone, and all of them together, to every destination (144.3: one
    destination per move). Any other group is accepted as well, but not listed: the groups of n units number 2^n,
    so a board of twelve listed thousands (a judge builds a group a unit at a time, or types it)."""
    ready = [u.id for u in game.units(controller=player) if not u.exhausted]
    destinations = ["base", *(bf.id for bf in game.battlefields())]
    groups = [(unit,) for unit in ready] + ([tuple(ready)] if len(ready) > 1 else [])
    for group in groups:
        for destination in destinations:
            yield Move(by=player, units=group, to=destination)


@action("move", Move, because=("420.3",), candidates=standard_moves)
@procedure(
    "standard_move",
    StepKind.ACTION,
    defines=("144", "448"),
    summary=lambda g, a: f"{a.by} standard-moves {', '.join(a.units)} to {a.to}",
    objects=lambda g, a: [*a.units, a.to],
    pure=True,
)
def standard_move(game: Game, act: Move) -> None:
    player = act.by
    calc.check_discretionary(game, player, "the Standard Move")
    if len(set(act.units)) != len(act.units) or not act.units:
        raise Refusal("144.3", "a Standard Move names each moving unit once")
    for unit_id in act.units:
        unit = game.obj(unit_id)
        if unit.controller != player:
            raise Refusal("448", f"{player} does not control {unit_id}")
        if unit.exhausted:
            raise Refusal("414.4", f"{unit_id} is exhausted: it can't pay the Standard Move's cost", ("420.3.a",))
        if forbidder := calc.restricted_by(game, player, "no_move_it", about=unit):
            raise Refusal("054.1", f"{player} can't move {unit_id} this turn ({game.objects[forbidder].card})")
        check_destination(game, unit, act.to, standard=True)
    ganking = game.is_battlefield(act.to) and any(game.is_battlefield(game.obj(u).location) for u in act.units)
    do.exhaust(game, list(act.units), "cost of the Standard Move", because=("420.3.a", "144.3.c"))
    # from a battlefield to another, Ganking is what permits the move (144.4.c.1, 810.1.b)
    do.move(
        game, list(act.units), act.to, "standard", because=("420.3.b", "144.4.c.1", "810.1.b") if ganking else "420.3.b"
    )
    calc.cleanup(game, "a move was completed", "453")
    calc.settle_priority(game)


# -- instructions --------------------------------------------------------------------------------------------


def _movable(game: Game, run, ids) -> list[str]:
    """The units among `ids` this item may move: "I can't be moved by enemy spells and abilities" keeps a unit where
    it is when the item's controller is an opponent of its controller, and "They can't move it this turn" one its
    controller may not move ("can't" beats "can", 054.1; 055)."""
    kept = [
        i
        for i in ids
        if game.objects[i].controller != run.item.controller
        and calc.restricted_by(game, game.objects[i], "unmovable_by_enemy")
    ]
    for unit_id in kept:
        text = f"{run.item.label}: {unit_id} can't be moved by enemy spells and abilities"
        note(game, StepKind.EFFECT, "restriction", text, run.because, ("054.1",), [unit_id])
    for unit_id in ids if game.lasting_restrictions else ():
        if unit_id not in kept and calc.restricted_by(
            game, run.item.controller, "no_move_it", about=game.objects[unit_id]
        ):
            calc.impossible(game, run, f"{unit_id} can't be moved by {run.item.controller} this turn", "054.1")
            kept.append(unit_id)
    return [i for i in ids if i not in kept]


@instruction("move")
def op_move(game: Game, run, ins) -> None:
    ids = _movable(game, run, calc.still_there(game, run, ins["what"], "moving"))
    destination = ins["to"]
    if destination == "here":  # "move an enemy unit to here": where the source is as this executes (359.3.f.2)
        destination = None if run.source_gone else run.view.here
        # not where it is already (355.4.a); a base is its own player's: no other player's unit goes there
        ids = [
            i
            for i in ids
            if game.objects[i].location != destination
            and (destination != "base" or game.objects[i].controller == run.item.controller)
        ]
    elif destination == "trigger_location":  # "to that battlefield": its trigger's, noted as it triggered (359.3.f.3)
        event = run.item.trigger.event if run.item.trigger is not None else None
        destination = event.location if event is not None and game.is_battlefield(event.location) else None
        ids = [i for i in ids if game.objects[i].location != destination]  # 355.4.a
    elif destination == "trigger_destination":  # "I may be moved with it": where the unit it saw leave went (446.1)
        event = run.item.trigger.event if run.item.trigger is not None else None
        destination = event.destination if event is not None else None
        ids = [i for i in ids if game.objects[i].location != destination]  # 355.4.a
    elif destination != "base":
        if destination.startswith("location_of:"):
            places = calc.refs(game, run, destination.split(":", 1)[1])
            destination = game.objects[places[0]].location if places else None
        else:
            places = calc.refs(game, run, destination)
            destination = places[0] if places else None
    if not ids or destination is None:
        calc.impossible(game, run, "nothing to move")
        return
    if ins.get("from_as") and run.view.slots is not None:  # "that battlefield": where it moved from, for later text
        run.view.slots[ins["from_as"]] = [game.objects[i].location for i in ids]
    do.move(game, ids, destination, run.item.label, run.item.controller, because=run.because)
    if ins.get("ready") and (ids := calc.readied_by_effect(game, run, ids)):
        readied = calc.changing_status(game, "ready", ids)
        do.ready(game, ids, run.item.label, because=run.because)
        calc.status_changed(game, "ready", readied, run.item.controller)


@instruction("swap_locations")
def op_swap_locations(game: Game, run, ins) -> None:
    """`{op: swap_locations, a: this, b: <slot>}`: "Move me to its location and it to my original location": both
    locations read first, then each unit moved to the other's (a move by an effect, 446.1), the first named first;
    a unit no longer on the board is not moved, nor to where it already is (355.4.a)."""
    found = [calc.still_there(game, run, ins[key], "moving") for key in ("a", "b")]
    if not all(found):
        calc.impossible(game, run, "a unit to swap locations with is gone: nothing moves", "359.3.e.12")
        return
    first, second = game.objects[found[0][0]], game.objects[found[1][0]]
    its, mine = second.location, first.location  # "its location", "my original location"
    if its is None or mine is None or its == mine:
        calc.impossible(game, run, "they are at the same location: neither moves", "355.4.a")
        return
    for unit, place in ((first, its), (second, mine)):
        if _movable(game, run, [unit.id]):
            do.move(game, [unit.id], place, run.item.label, run.item.controller, because=run.because)


@instruction("recall")
def op_recall(game: Game, run, ins) -> None:
    for object_id in calc.still_there(game, run, ins["what"], "recalling"):
        if game.objects[object_id].location != "base":
            do.recall(game, object_id, because=run.because)
