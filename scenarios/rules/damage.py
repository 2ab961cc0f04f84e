"""Deal 417 (its Bonus Damage 712-715), Heal 418, Banish 427, Kill 428: damage is marked, cleared, and kills through Cleanup.

A permanent leaving the board becomes a new object (359.3.e.4): its incarnation changes, its buffs are removed
(705), attached gear detaches where it was (435.4.b) and it returns to its owner's control.
"""

from __future__ import annotations

from scenarios.game import Game
from scenarios.kernel import calc, do, event_kind, instruction, note, procedure, query
from scenarios.objects import Event, ItemKind, Kind, Obj, Zone
from scenarios.trace import StepKind

event_kind("takes_damage", "417.1.b", would="take damage")
event_kind("die", "428.1")
event_kind("die_some", "428.1", would="die, one or more at once")  # the units killed together
event_kind("kill", "428.5")  # a kill attributed to a spell, an ability or combat: "when you kill a unit with a spell"
event_kind("banish", "427.1")  # a card banished by a player: "when you banish a card you own"
event_kind("leave_board", "124")  # a permanent changing zones from the board, to whatever zone ("When this leaves")

RESOLVES = "359.3.d"  # default reason when an effect executes outside the Chain


def _dealt(game: Game, amounts, source, label=None, via=None, by=None) -> str:
    return f"{label or source} deals " + ", ".join(f"{n} damage to {uid}" for uid, n in amounts.items())


@procedure(
    "deal",
    StepKind.EFFECT,
    defines=("417.1.b", "417.1.d"),
    summary=_dealt,
    objects=lambda g, amounts, *a, **k: list(amounts),
)
def deal(
    game: Game, amounts: dict, source: str | None, label: str | None = None, via: str | None = None, by=None
) -> None:
    """Mark damage on each unit (simultaneously, 417.1.d), unless a replacement effect replaces it. `via`: the
    damage's source is also a spell or an ability ("spell", "ability", 417.6.a, 417.6.b.2.a), or only `source`
    (None: a unit a spell or ability names as the source, 417.6.b.3; combat damage, 417.6.c); `by`: a spell's
    or ability's attribution (`attribution_of`) for a kill by this damage (428.5.c)."""
    dealt = []
    for unit_id, amount in amounts.items():
        unit = game.objects[unit_id]
        if amount <= 0 or unit.zone != Zone.BOARD or unit.kind != Kind.UNIT:
            continue
        event = Event(
            "takes_damage",
            unit=unit_id,
            player=unit.controller,
            location=unit.location,
            source=source,
            via=via,
            amount=amount,
        )
        modified = calc.replaced(game, event)
        if modified is None or modified.amount <= 0:  # replaced, or all of it prevented: not dealt at all (437.4)
            continue
        event, amount = modified, modified.amount
        unit.damage += amount
        unit.dealt_damage_this_turn = True  # "if I haven't been dealt damage this turn", healed or not
        attribution = _damage_attribution(game, unit, source, by)
        if attribution != unit.damage_by:
            unit.damage_by = attribution
        dealt.append(event)
    for event in dealt:
        calc.fire(game, event)


@procedure(
    "heal",
    StepKind.EFFECT,
    defines=("418.1",),
    summary=lambda g, ids: f"heal {', '.join(ids)}",
    objects=lambda g, ids: ids,
)
def heal(game: Game, unit_ids) -> None:
    for unit_id in unit_ids:
        game.objects[unit_id].damage = 0


def _damage_attribution(game: Game, unit: Obj, source, by) -> tuple[str, str] | None:
    """Who a kill by this damage would be attributed to (428.5.c): a spell's or an ability's Deal action (`by`),
    its controller responsible (428.5.c.1); combat damage, the sources' controller (428.5.c.2). A unit named as
    the source (417.6.b.3) is neither: no attribution."""
    if by is not None:
        return by
    if source == "combat" and game.combat is not None:
        side = game.combat.defender if unit.controller == game.combat.attacker else game.combat.attacker
        return (side, "combat")
    return None


@query("attribution_of")
def attribution_of(game: Game, run) -> tuple[str, str]:
    """A Kill instruction's kill: attributed to its spell or ability (428.5.b), and to the spell an ability
    originates from (428.5.d); its controller is responsible (411.5.a)."""
    item = run.item
    origin = game.objects.get(item.source)
    spell = item.kind == ItemKind.SPELL or (origin is not None and origin.kind == Kind.SPELL)
    return (item.controller, "spell" if spell else "ability")


@query("kill_all")
def kill_all(game: Game, object_ids, passive: bool, because, by: tuple[str, str] | None = None) -> None:
    """Kill permanents: each death a replacement effect does not replace happens; the dying see each other
    die at once (383.2.c.2), and Deathknells go on the Chain pending before the cards reach the Trash (808.1.d.2).
    `by`: the kill's attribution, (player responsible, "spell" or "ability"); a passive kill's is the damage's
    (428.5.c)."""
    dying = []
    for object_id in object_ids:
        obj = game.objects[object_id]
        if obj.zone != Zone.BOARD or obj in dying:
            continue
        if not calc.would(game, Event("die", unit=obj.id, player=obj.controller, location=obj.location)):
            dying.append(obj)
    leaving = frozenset(obj.id for obj in dying)
    # noted before any leaves (808.1.d.3): units dying together were there, and their passives still applied
    noted = [(_might_as_it_dies(game, obj), tuple(u.id for u in game.friendly_others(obj))) for obj in dying]
    units = tuple(obj.id for obj in dying if obj.kind == Kind.UNIT)
    if units:  # "When one or more enemy units die": once for the units dying together (428.1), seen on the board
        calc.fire(game, Event("die_some", units=units), leaving=leaving)
    for obj, (might, company) in zip(dying, noted):
        killer = obj.damage_by if passive else by
        do.dies(game, obj, passive, leaving, might, company, killer, because=because)


def _might_as_it_dies(game: Game, obj: Obj) -> int | None:
    return calc.might(game, obj) if obj.kind == Kind.UNIT else None


@procedure(
    "dies",
    StepKind.EFFECT,
    defines=("428.1", "428.2"),
    summary=lambda g, obj, passive, *a: (
        f"{obj.id} is killed " + ("(lethal damage)" if passive else "(kill instruction)")
    ),
    objects=lambda g, obj, *a: [obj.id],
    cite=lambda g, obj, passive, *a: ["323.5"] if passive else ["428.1.a.1"],
)
def dies(
    game: Game, obj: Obj, passive: bool, leaving: frozenset, might: int | None, company: tuple, killer=None
) -> None:
    """Its Might and the other friendly units where it died, noted for its Deathknell (808.1.d.3); a unit's death
    is counted among its controller's this turn ("the first time a friendly unit dies each turn"). A kill with an
    attribution (`killer`: player responsible and "spell", "ability" or "combat", 428.5) is also a `kill` event of
    that player, seen as it dies, its status still its own ("when you kill a stunned enemy unit")."""
    count = 0
    if obj.kind == Kind.UNIT and obj.controller in game.players:
        pool = game.players[obj.controller]
        pool.died_this_turn += 1
        count = pool.died_this_turn
    event = Event(
        "die", unit=obj.id, player=obj.controller, location=obj.location, might=might, company=company, count=count
    )
    if killer is not None:
        kill = Event("kill", unit=obj.id, player=killer[0], location=obj.location, via=killer[1], might=might)
        calc.fire(game, kill, leaving=leaving)
    calc.fire(game, event, leaving=leaving)
    obj.might_as_it_died = might
    calc.leave_board(game, obj, Zone.TRASH)
    obj.died_as = obj.incarnation


@query("leave_board")
def leave_board(game: Game, obj: Obj, zone: Zone) -> None:
    """The object leaves the board for `zone` and becomes a new object (359.3.e.4); a token leaving for any zone
    but the Chain ceases to exist there (186.1). Its own "when this leaves the board" sees it leave (383.2.c.2)."""
    calc.fire(
        game,
        Event("leave_board", unit=obj.id, player=obj.controller, location=obj.location, destination=str(zone)),
        leaving=frozenset({obj.id}),
    )
    last_location = obj.location
    for gear in game.attached(obj.id):
        gear.attached_to = None
        gear.location = last_location  # 435.4.b: detaches to the last location
    obj.zone = zone
    obj.location = None
    obj.damage = 0
    obj.damage_by = None
    obj.buffs = 0  # 705
    obj.modifiers = ()
    obj.granted = ()
    obj.gained_tags = ()  # a tag it gained as it was played (124.1: a new object)
    obj.designation = None
    obj.stunned = False
    obj.attached_to = None
    obj.incarnation += 1
    obj.left_controller = obj.controller
    if obj.controller != obj.owner:
        obj.controller = obj.owner
    if obj.definition.type == "token" and zone != Zone.CHAIN:
        obj.zone = Zone.CEASED
        note(
            game,
            StepKind.EFFECT,
            "token ceases to exist",
            f"{obj.id} is a token put into the {zone}: it ceases to exist",
            "186.1",
            objects=[obj.id],
        )


@procedure(
    "banish",
    StepKind.EFFECT,
    defines=("427.1", "427.2"),
    summary=lambda g, oid, by=None, player=None: f"banish {oid}",
    objects=lambda g, oid, by=None, player=None: [oid],
)
def banish(game: Game, object_id: str, by: str | None = None, player: str | None = None) -> None:
    """`by`: the object whose spell or ability banishes it (427.3); `player`: who banishes it (427.4.a: as an
    effect or a cost directs them)."""
    obj = game.objects[object_id]
    if obj.zone == Zone.BOARD:
        leave_board(game, obj, Zone.BANISHMENT)
    else:
        obj.zone = Zone.BANISHMENT
    obj.banished_by = by  # 427.3: cards banished by the same object
    calc.banished(game, obj, player)


@query("banished")
def banished(game: Game, obj: Obj, player: str | None) -> None:
    """`obj` was just put into Banishment by `player` (427.1): "When you banish a card you own" sees it there."""
    if player is not None:
        calc.fire(game, Event("banish", player=player, card=obj.id))


# -- instructions --------------------------------------------------------------------------------------------


@instruction("deal")
def op_deal(game: Game, run, ins) -> None:
    amount = calc.amount(game, run, ins["amount"])
    if amount is None:
        calc.impossible(game, run, "the amount is null: no damage is dealt", "359.3.e.12")
        return
    targets = calc.still_there(game, run, ins["to"], "dealing damage to")
    # "Deal 4 to that unit and 1 to each other enemy unit there": other amounts to other units, dealt at the same time
    # as one Deal (417.1.c, 417.1.d)
    also = [
        (calc.amount(game, run, p["amount"]) or 0, calc.still_there(game, run, p["to"], "dealing damage to"))
        for p in ins.get("also", ())
    ]
    if "by" in ins:  # "It deals damage ...": the unit is the source of the damage, not in addition (417.6.b.3)
        by = calc.still_there(game, run, ins["by"], "dealing damage with")
        if not by:
            return
        if targets:
            do.deal(game, dict.fromkeys(targets, amount), by[0], run.item.label, because=(run.because, "417.6.b.3"))
    elif targets or any(
        ids for _, ids in also
    ):  # the spell, or the ability and its object, deal it (417.6.a, 417.6.b.2.a)
        via = "spell" if run.item.kind == ItemKind.SPELL else "ability"
        own = (calc.amount(game, run, ins["bonus"]) or 0) if "bonus" in ins and amount > 0 else 0
        if run.item.kind == ItemKind.SPELL and run.item.card in game.objects:  # "the next spell ... deals 1" (391)
            own += game.objects[run.item.card].bonus_damage
        amounts: dict[str, int] = {}
        bonus = False
        for each, ids in ((amount, targets), *also):
            for unit in ids:
                amounts[unit] = each + bonus_damage(game, run.item.controller, unit, own) if each > 0 else each
                bonus = bonus or amounts[unit] != each
        because = (run.because, "715.2") if bonus else run.because
        killer = calc.attribution_of(game, run)  # a kill by this damage (428.5.c)
        do.deal(game, amounts, run.item.source, run.item.label, via, killer, because=because)


def bonus_damage(game: Game, controller: str, unit_id: str, own: int = 0) -> int:
    """The Bonus Damage a spell's or ability's Deal action (whose controller is `controller`) deals to one unit:
    its own (`own`: "This deals 1 Bonus Damage for each ...") and every instance the active passives grant it,
    summed and applied once (714), only when some damage is dealt (715.4), to each unit separately (715.2), never
    negative (714.1, 714.2). A unit dealing damage (417.6.b.3) and combat damage (465.2.d) are no spell's or
    ability's Deal action: none."""
    total = own
    if game.passive_sources:
        unit = game.objects[unit_id]
        for _source, passive, view in calc.passives(game):
            if not passive.bonus_damage or (passive.bonus_from == "you" and view.you != controller):
                continue
            if calc.matches_object(game, passive.to, view, unit):
                total += passive.bonus_damage
    return max(total, 0)


@instruction("next_spell_bonus")
def op_next_spell_bonus(game: Game, run, ins) -> None:
    """`{op: next_spell_bonus, n: N}`: "The next spell you play this turn deals N Bonus Damage", a delayed passive
    of the controller's next spell (391, whose example is this text), until the turn ends (317.2.c)."""
    do.promise_spell_bonus(game, run.item.controller, ins["n"], run.item.label, because=(run.because, "391"))


@procedure(
    "promise_spell_bonus",
    StepKind.EFFECT,
    defines=("390.4",),
    summary=lambda g, player, n, label: f"{label}: the next spell {player} plays this turn deals {n} Bonus Damage",
    objects=lambda g, player, n, label: [player],
    pure=True,
)
def promise_spell_bonus(game: Game, player: str, n: int, label: str) -> None:
    pool = game.players[player]
    pool.spell_bonuses = (*pool.spell_bonuses, (n, label))


@query("spell_bonus_finalized")
def spell_bonus_finalized(game: Game, card: Obj, player: str) -> None:
    """A card's play is Finalized (419.4.b: what checks cards being played checks this): a spell takes the Bonus
    Damage promised to its player's next spell this turn, using it up; any other card leaves it waiting."""
    pool = game.players[player]
    if card.bonus_damage:  # given to an earlier play of it
        card.bonus_damage = 0
    if card.kind != Kind.SPELL or not pool.spell_bonuses:
        return
    card.bonus_damage = sum(n for n, _label in pool.spell_bonuses)
    labels = ", ".join(label for _n, label in pool.spell_bonuses)
    pool.spell_bonuses = ()
    note(
        game,
        StepKind.EFFECT,
        "bonus damage",
        f"{labels}: {card.id} is the next spell {player} plays; it deals {card.bonus_damage} Bonus Damage",
        "391",
        ("419.4.b",),
        [card.id],
    )


@instruction("fight")
def op_fight(game: Game, run, ins) -> None:
    """417.6.b.3: the two units deal damage equal to their Might to each other (they are the sources)."""
    a, b = calc.refs(game, run, ins["a"]), calc.refs(game, run, ins["b"])
    if not a or not b:
        calc.impossible(game, run, "a unit is missing: nothing happens")
        return
    ua, ub = game.objects[a[0]], game.objects[b[0]]
    amounts = {ua.id: calc.might(game, ub), ub.id: calc.might(game, ua)}
    do.deal(game, amounts, None, f"{ua.id} and {ub.id}", because=(run.because, "417.6.b.3"))


@instruction("kill")
def op_kill(game: Game, run, ins) -> None:
    """Kill (428); what it killed is noted for the instructions after it ("the killed unit": those that died, not
    one whose death was replaced, 359.3.e.14.b, by an event that left it on the board or moved it elsewhere, a
    banish "instead")."""
    ids = calc.still_there(game, run, ins["what"], "killing")
    before = {i: game.objects[i].incarnation for i in ids}
    if ids:
        calc.kill_all(game, ids, False, (run.because, "428.1.a.1"), calc.attribution_of(game, run))
    run.legal["killed"] = tuple(i for i in ids if (game.objects[i].died_as or -1) > before[i])


@instruction("heal")
def op_heal(game: Game, run, ins) -> None:
    ids = calc.refs(game, run, ins["what"])
    if ids:
        do.heal(game, ids, because=run.because)


@instruction("banish")
def op_banish(game: Game, run, ins) -> None:
    """Banish (427): each card is banished by the object whose spell or ability this is, which "banished with this"
    refers to (427.3)."""
    by = run.item.source
    for object_id in calc.refs(game, run, ins["what"]):
        do.banish(game, object_id, by, run.item.controller, because=run.because)
