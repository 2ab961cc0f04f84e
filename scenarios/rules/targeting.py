"""Targeting 352.5-352.11 and mistargeting 359.3.e: which objects a choice may pick, and whether it still may.

A chosen target is kept as (object id, incarnation): an object that left the board and came back is a new
object (359.3.e.4). Choices of a card played from hidden (and of its play effects) are restricted to the
battlefield where it was hidden, unless the choice's own restriction could never be met there (811.1.d.2).
"""

from __future__ import annotations

import itertools

from scenarios.game import Game
from scenarios.kernel import Refusal, calc, choose, query
from scenarios.objects import Kind, Role, Targeting, View, Zone


def _restricted_to_hidden(spec, hidden_at) -> bool:
    """811.1.d.2: restricted to the hidden battlefield, unless the spec could never be met there."""
    return (
        hidden_at is not None
        and spec.type not in ("spell", "card_in_hand")
        and spec.zone is None
        and spec.where not in ("base", "other_battlefield", "not_here")
    )


def _counted(game: Game, amount, ctx: Targeting) -> int:
    """A quantity a choice's requirement names, counted from its chooser's point of view as it is checked."""
    counted = calc.quantity(game, View(ctx.source, ctx.controller, ctx.here), amount)
    return counted if counted is not None else 0


def _zone_owner(spec, ctx: Targeting) -> str | None:
    """Whose zone a card is chosen in: the chooser's ("your trash"), or the player chosen for the slot `zone_of`
    names ("choose an opponent ... a unit in their trash"), none while that player is not chosen."""
    if spec.zone_of is None:
        return ctx.controller
    chosen = ctx.chosen.get(spec.zone_of, ())
    return chosen[0] if chosen and isinstance(chosen[0], str) else None


@query("matches_target")
def matches_target(game: Game, spec, obj, ctx: Targeting) -> bool:
    if spec.zone is not None:  # "a unit from your trash / hand": a card of that zone (355.10.a; 355.5)
        return (
            obj.zone == (Zone.TRASH if spec.zone == "trash" else Zone.HAND)
            and obj.owner == _zone_owner(spec, ctx)
            and (
                obj.kind == spec.type
                or spec.type == "card"
                or (spec.type == "permanent" and obj.kind in (Kind.UNIT, Kind.GEAR))
            )
            and (spec.keyword is None or (obj.definition is not None and obj.definition.has(spec.keyword)))
            and (spec.tag is None or calc.tagged(game, obj, spec.tag))  # 133.8
            and (spec.max_cost is None or obj.definition.energy <= spec.max_cost)
            and (spec.max_power is None or obj.definition.power <= spec.max_power)
            and (spec.cost_below is None or obj.definition.energy < _counted(game, spec.cost_below, ctx))
        )
    if spec.type == "spell":
        return (
            obj.zone == Zone.CHAIN
            and obj.kind == Kind.SPELL
            and (spec.max_cost is None or obj.definition.energy <= spec.max_cost)
            and (spec.max_power is None or obj.definition.power <= spec.max_power)
        )
    if spec.type == "card_in_hand":
        return obj.zone == Zone.HAND and obj.owner == ctx.controller
    permanent = spec.type == "permanent" and obj.kind in (Kind.UNIT, Kind.GEAR)  # "a unit or gear" (133.4.a.2)
    # "a unit at a battlefield or a gear": the unit's restrictions are not the gear's (355.9.b)
    gear_too = spec.or_gear and obj.kind == Kind.GEAR
    rune = spec.or_rune and obj.kind == Kind.RUNE  # "units, gear, and/or runes": a rune on the board (160)
    rune = rune or (spec.or_legend and obj.kind == Kind.LEGEND)  # "something": a legend too
    if (spec.type != obj.kind and not permanent and not gear_too and not rune) or obj.zone != Zone.BOARD:
        return False
    if spec.domain is not None and (obj.definition is None or spec.domain not in obj.definition.domains):
        return False  # "an enemy Chaos unit": of that Domain (134.1)
    if spec.other and obj.id == ctx.source:  # "another unit": one other than the ability's source
        return False
    if spec.name is not None and obj.card != spec.name:  # "a Shadow Clone you control": by its name (187.11)
        return False
    if spec.tag is not None and not calc.tagged(game, obj, spec.tag):  # "a friendly Mech" (133.8), a tag it gained too
        return False
    if spec.not_tag is not None and calc.tagged(game, obj, spec.not_tag):  # "a non-Dragon unit" (133.8)
        return False
    if spec.token is not None and (obj.definition is not None and obj.definition.type == "token") != spec.token:
        return False  # "your token units" (185)
    if spec.side == "friendly" and obj.controller != ctx.controller:
        return False
    if spec.side == "enemy" and obj.controller == ctx.controller:
        return False
    if obj.controller != ctx.controller and calc.restricted_by(game, obj, "unchoosable_by_enemy"):
        return False  # "I can't be chosen by enemy spells and abilities" (355.9.b)
    location = obj.id if obj.kind == Kind.BATTLEFIELD else obj.location
    if _restricted_to_hidden(spec, ctx.hidden_at) and location != ctx.hidden_at:
        return False
    if spec.attached is not None and bool(obj.attached_to) != spec.attached:  # attached or not (434.1, 435.1.b)
        return False
    if spec.controller_as is not None and not _same_controller(game, obj, ctx.chosen.get(spec.controller_as, ())):
        return False
    if gear_too or rune:  # the rest restricts the unit; exhausted or ready says of any (414)
        return spec.exhausted is None or obj.exhausted == spec.exhausted
    at_battlefield = game.is_battlefield(obj.location)
    if spec.where == "battlefield" and not at_battlefield:
        return False
    if spec.where == "base" and obj.location != "base":
        return False
    if spec.where == "moved_to_or_from" and (not at_battlefield or obj.location not in ctx.trigger_places):
        return False
    if spec.where == "here" and obj.location != ctx.here:
        return False
    if spec.where == "not_here" and obj.location == ctx.here:
        return False
    if spec.where == "my_battlefield" and (obj.location != ctx.here or not at_battlefield):
        return False
    if spec.where == "other_battlefield" and (not at_battlefield or obj.location == ctx.here):
        return False
    if spec.max_might is not None and calc.might(game, obj) > spec.max_might:
        return False
    if spec.max_cost is not None and (obj.definition.energy or 0) > spec.max_cost:  # its printed cost (206)
        return False
    if spec.same_place_as is not None:  # "two units at the same battlefield": where the other chosen unit is
        chosen = ctx.chosen.get(spec.same_place_as, ())
        places = {ref if isinstance(ref, str) else game.objects[ref[0]].location for ref in chosen}  # or a place
        if obj.location not in places:
            return False
    if spec.cost_within_my_might and not _cost_within_might(game, obj, ctx.source):
        return False
    if spec.less_might_than_me:  # "an enemy unit here with less Might than me"
        source = game.objects.get(ctx.source)
        if source is None or source.zone != Zone.BOARD or calc.might(game, obj) >= calc.might(game, source):
            return False
    if spec.exhausted is not None and obj.exhausted != spec.exhausted:  # exhausted or ready (414)
        return False
    if spec.role is not None and obj.designation != Role(spec.role):  # "an attacking unit" (464.2.c)
        return False
    if spec.equipped is not None and _equipped(game, obj) != spec.equipped:  # 818.3.b
        return False
    return spec.stunned is None or obj.stunned == spec.stunned


def _cost_within_might(game: Game, obj, source_id) -> bool:
    """ "A gear with Energy cost no more than my Might": its printed Energy cost (206) against the Might of the
    source on the board, as it is chosen."""
    source = game.objects.get(source_id)
    if source is None or source.zone != Zone.BOARD or obj.definition is None:
        return False
    return (obj.definition.energy or 0) <= calc.might(game, source)


def _same_controller(game: Game, obj, chosen) -> bool:
    """ "A unit and an Equipment with the same controller": the object chosen for the other slot is this one's
    controller's."""
    return any(not isinstance(ref, str) and game.objects[ref[0]].controller == obj.controller for ref in chosen)


def _equipped(game: Game, unit) -> bool:
    """818.3.b: a unit is equipped while one or more of the cards attached to it are Equipment."""
    return any(gear.tagged("Equipment") for gear in game.attached(unit.id))


def _moved(game: Game, spec, ctx: Targeting) -> list:
    return [game.objects[ref[0]] for ref in ctx.chosen.get(spec.of, ()) if not isinstance(ref, str)]


def _with_same_controller(game: Game, spec, ctx: Targeting, place: str) -> bool:
    """ "to a location where there's a unit with the same controller": another unit of the moved unit's controller
    is there (a base is its controller's own)."""
    moved = _moved(game, spec, ctx)
    ids = {unit.id for unit in moved}
    return any(
        u.location == place and u.id not in ids and any(u.controller == m.controller for m in moved)
        for u in game.units()
    )


# Destinations a move's location slot may be restricted to (355.4, "a valid Location" 355.4.a): by `where`.
DESTINATIONS = {
    "battlefield": lambda game, spec, ctx, place: game.is_battlefield(place),  # "to a different battlefield"
    "battlefield_with_your_units": lambda game, spec, ctx, place: (  # "to a battlefield where you have units"
        game.is_battlefield(place) and any(u.controller == ctx.controller for u in game.units(place))
    ),
    "with_same_controller": _with_same_controller,
}


def _taken(spec, chosen: dict) -> set:
    """The objects chosen for the slots this one must differ from ("another", "up to three units": 355.9)."""
    slots = (spec.not_target,) if isinstance(spec.not_target, str) else spec.not_target or ()
    return {ref[0] for slot in slots for ref in chosen.get(slot, ())}


@query("group_fulfils")
def group_fulfils(game: Game, spec, ids) -> bool:
    """Do these objects, chosen together for an "any number of" slot, meet its group requirements (355.11):
    at most `max_count` of them, a total Might at most `total_might`, all at one battlefield (`together`), all of
    one controller?"""
    objs = [game.objects[i] for i in ids]
    if spec.max_count is not None and len(objs) > spec.max_count:
        return False
    if spec.total_might is not None and sum(calc.might(game, o) for o in objs) > spec.total_might:
        return False
    if spec.together and len({o.location for o in objs}) > 1:
        return False
    return not spec.same_controller or len({o.controller for o in objs}) <= 1


def _groups(game: Game, spec, legal: list[str]):
    """Every group an "any number of" slot may choose among `legal` (355.11.a, 355.13): none, or any set of
    different objects that meets its group requirements."""
    yield None
    for size in range(1, len(legal) + 1):
        for group in itertools.combinations(legal, size):
            game.budget.tick()  # 2^N groups of N objects: a large board spends the replay's budget, never hangs it
            if calc.group_fulfils(game, spec, group):
                yield list(group)


@query("choose_group")
def choose_group(game: Game, item, slot: str, spec, legal: list[str]) -> tuple:
    """An "any number of" slot of a triggered ability, chosen one object at a time: each one that keeps the group
    within its requirements (355.11.a), until its controller is done; none at all is a choice (355.13)."""
    group: list[str] = []
    while True:
        options = [o for o in legal if o not in group and calc.group_fulfils(game, spec, [*group, o])]
        if not options:
            break
        prompt = f"target for {item.label} ({slot}): one more, or done"
        pick = choose(game, "target", item.controller, prompt, [*options, "done"], "355.13", also=("355.11.a",))
        if pick == "done":
            break
        group.append(pick)
    return tuple(calc.ref(game, o) for o in group)


@query("regroup")
def regroup(game: Game, item, slot: str, spec, legal: list[str]) -> list[str]:
    """355.11.b: a group that no longer meets its requirements as the item resolves: its controller chooses a
    subset of the original targets still legal that does, leaving out one object at a time."""
    kept = list(legal)
    while not calc.group_fulfils(game, spec, kept):
        out = choose(
            game, "target", item.controller, f"{item.label}: a target of '{slot}' to leave out", kept, "355.11.b"
        )
        kept.remove(out)
    return kept


@query("legal_targets")
def legal_targets(game: Game, spec, ctx: Targeting) -> list[str]:
    if spec.type == "mode":  # "choose one — • ... • ...": mode "1" to N (355.3)
        return calc.modes_offered(game, spec, ctx)
    if spec.type == "player":  # "choose an opponent" / "choose a player" (355.10: a player mentioned is a target)
        wanted = game.opponents(ctx.controller) + ([] if spec.side == "enemy" else [ctx.controller])
        return game.in_turn_order(wanted)
    if spec.type == "location":
        if ctx.hidden_at is not None and _restricted_to_hidden(spec, ctx.hidden_at):
            return [ctx.hidden_at]
        where = {game.objects[ref[0]].location for ref in ctx.chosen.get(spec.of, ()) if not isinstance(ref, str)}
        places = ["base"] + [bf.id for bf in game.battlefields()]
        if spec.where == "to_or_from_base":  # "move a unit to or from its base": base, or from base a battlefield
            places = places[1:] if "base" in where else ["base"]
        elif spec.where in DESTINATIONS:
            places = [place for place in places if DESTINATIONS[spec.where](game, spec, ctx, place)]
        return [place for place in places if place not in where]
    taken = _taken(spec, ctx.chosen)
    return [o.id for o in game.objects.values() if o.id not in taken and calc.matches_target(game, spec, o, ctx)]


@query("ref")
def ref(game: Game, object_id: str) -> tuple:
    return (object_id, game.objects[object_id].incarnation)


@query("choose_targets")
def choose_targets(game: Game, specs: tuple, picks: dict, ctx: Targeting) -> dict:
    """Targets named by a play or activate action, checked now (352.7-352.8, 358.1)."""
    chosen: dict = {}
    unknown = set(picks) - {slot for slot, _ in specs}
    if unknown:
        raise Refusal("355.8", f"{ctx.label} has no target slot {sorted(unknown)} (slots: {[s for s, _ in specs]})")
    for slot, spec in specs:
        value = picks.get(slot)
        if calc.mode_unchosen(game, spec, chosen):  # a slot of a mode not chosen: no choice made (355.3)
            if value is not None:
                raise Refusal("355.3", f"{ctx.label}: '{slot}' is chosen only in mode {spec.mode}")
            chosen[slot] = ()
            continue
        here = Targeting(ctx.label, ctx.controller, ctx.source, ctx.here, ctx.hidden_at, chosen)
        if value == [] and not spec.any_number:
            value = None  # a slot choosing one object: none named (an empty list) is no choice made
        if isinstance(value, list) and len(value) > 1 and not spec.any_number:
            raise Refusal("355.8", f"{ctx.label} chooses one {spec.type} for '{slot}', not {len(value)}: {value}")
        if value is None:
            if spec.optional or spec.any_number:  # "any number": zero chosen is a choice (355.13)
                chosen[slot] = ()
                continue
            if ctx.hidden_at and not legal_targets(game, spec, here):
                raise Refusal("811.1.d", f"{ctx.label} has no legal target at {ctx.hidden_at}, where it was hidden")
            raise Refusal("355.8", f"{ctx.label} needs a target for '{slot}'")
        values = value if isinstance(value, list) else [value]
        if spec.type in ("location", "player", "mode"):
            legal = legal_targets(game, spec, here)
            bad = [v for v in values if v not in legal]
            if bad:
                place = "811.1.d.2" if ctx.hidden_at else "355.4"
                rule = {"player": "355.9", "mode": "355.3"}.get(spec.type, place)
                raise Refusal(rule, f"{bad} is not a legal destination for '{slot}' (legal: {legal})")
            chosen[slot] = tuple(values)
            continue
        taken = _taken(spec, chosen)
        for v in values:
            if v in taken:  # "another", "two units": a slot that must name a different object than another
                raise Refusal("355.9", f"{v!r} is already chosen for '{spec.not_target}' of {ctx.label}")
            if v not in game.objects or not calc.matches_target(game, spec, game.objects[v], here):
                hidden = (
                    ctx.hidden_at
                    and v in game.objects
                    and matches_target(
                        game,
                        spec,
                        game.objects[v],
                        Targeting(ctx.label, ctx.controller, ctx.source, ctx.here, None, chosen),
                    )
                )
                rule = "811.1.d.2" if hidden else "355.9"
                raise Refusal(rule, f"{v!r} is not a legal target for '{slot}' of {ctx.label}")
        if spec.any_number and (len(set(values)) < len(values) or not calc.group_fulfils(game, spec, values)):
            rule = "355.13" if spec.max_count is not None and len(values) > spec.max_count else "355.11.a"
            raise Refusal(rule, f"{values} do not together meet the requirements of '{slot}' of {ctx.label}")
        chosen[slot] = tuple(ref(game, v) for v in values)
    return chosen


@query("still_legal")
def still_legal(game: Game, reference, spec, ctx: Targeting) -> bool:
    """359.3.e.2/4: a target that changed zones is a new object; it must still meet the requirements."""
    if isinstance(reference, str):
        return True
    object_id, incarnation = reference
    obj = game.objects.get(object_id)
    return obj is not None and obj.incarnation == incarnation and calc.matches_target(game, spec, obj, ctx)


@query("targeting_of")
def targeting_of(game: Game, item) -> Targeting:
    """The targeting context of a chain item: "here" is where its source is now, information from the source
    being checked as the item executes (359.3.f.2); a source that has left the
    board has no "here" (null), except for the trigger of its own death, which keeps where it died
    (808.1.d.3). A spell's "here" is the item's own location."""
    source = game.objects.get(item.source)
    if calc.source_gone(game, item, source):
        here = None
    elif source is not None and source.zone == Zone.BOARD:
        here = source.id if source.kind == Kind.BATTLEFIELD else source.location
    else:
        here = item.location
    chosen = dict(item.targets or {})
    return Targeting(item.label, item.controller, item.source, here, item.hidden_at, chosen, trigger_places(game, item))


@query("trigger_places")
def trigger_places(game: Game, item) -> tuple[str, ...]:
    """The places of the event a triggered item answers: where a move came from and went to (359.3.f.3)."""
    event = item.trigger.event if item.trigger is not None else None
    if event is None or event.kind != "move":
        return ()
    return tuple(place for place in (event.origin, event.location) if place is not None)


def _as_its_mode(game: Game, spec, value, picked: dict) -> bool:
    """A mode's slot is chosen when its mode is, and only then (355.3)."""
    if spec.mode is None:
        return True
    if calc.mode_unchosen(game, spec, picked):
        return value is None
    return value is not None or spec.optional


@query("target_choices")
def target_choices(game: Game, specs: dict, context: Targeting):
    """Every combination of one legal choice per target slot (or none, for an optional slot)."""
    slots = list(specs)
    options = []
    for slot in slots:
        legal = legal_targets(game, specs[slot], context)
        if specs[slot].any_number:
            options.append(list(_groups(game, specs[slot], legal)))
            continue
        options.append(([None] if specs[slot].optional or specs[slot].mode else []) + legal)
    for combination in itertools.product(*options):
        picked = dict(zip(slots, combination))
        if not all(_as_its_mode(game, specs[s], picked[s], picked) for s in slots):
            continue
        yield {slot: value for slot, value in picked.items() if value is not None}
