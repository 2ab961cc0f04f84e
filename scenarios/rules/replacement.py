"""Replacement effects 364-368: "instead".

Any event the engine models (a death, damage, a move, a draw, the combat's recall of attackers) is offered to
the replacement effects that apply to it before it happens: the static ones of cards on the board, and those
a resolving effect created ("the next time it would die this turn, ..."). When several apply, the owner of the
object being acted on chooses which (368 of 2025-12-01; its controller from Core Rules 1.4, 372; the player, when a player is
acted on, 372.1; the turn player for an uncontrolled battlefield, 372.2). The chosen effect's instructions happen instead, and the event does not;
the other effects have nothing left to replace. An effect does not apply to the events of its own replacement.

Besides (Core Rules 1.4): an effect may modify the event rather than replace it (370.1.b: damage doubled or reduced
by a Prevent Value tracked on the unit, 437.2-437.3; a token unit played with an additional copy), the modified
event offered to the other effects, each applied once (370.2); an optional effect ("you may pay [A] to ...
instead") is applied only if its player chooses to, paying its cost (371.2), and one "once each turn" only to one
event a turn (371.1); a stun, a -Might or a return to hand done by a spell or ability carries whether it chose the
unit (355.7, `unreplaced`); a point scored by Conquer or Hold is an event too (471.1).
"""

from __future__ import annotations

import dataclasses

from scenarios.cards import Replacement
from scenarios.game import Game
from scenarios.kernel import EVENT_KINDS, Condition, calc, choose, do, event_kind, instruction, procedure, query
from scenarios.objects import BATTLEFIELD, BOARD, UNIT, ChainItem, Event, ItemKind, LastingReplacement, View
from scenarios.selectors import ObjectFilter
from scenarios.trace import StepKind


def _subject(game: Game, event: Event):
    return game.objects.get(event.unit) if event.unit else event.player


def _applicable(game: Game, event: Event) -> list[tuple[str, Replacement, LastingReplacement | None]]:
    found: list[tuple[str, Replacement, LastingReplacement | None]] = []
    subject = _subject(game, event)
    busy = game.run.replacing
    for source in game.replacement_sources:
        if source.zone != BOARD:
            continue
        for replacement in source.definition.replacements:
            if replacement.would != event.kind or (source.id, id(replacement)) in busy:
                continue
            if not calc.ability_is_active(game, source, replacement.to):
                continue
            if not _conditions_met(game, source, replacement, event):
                continue
            if replacement.limit and _mark(source, replacement) in game.trigger_marks:  # applied this turn (371.1)
                continue
            if calc.matches_object(game, replacement.to, calc.view_of(game, source), subject, event.location):
                found.append((source.id, replacement, None))
    for lasting in game.lasting:
        replacement = lasting.replacement
        if replacement.would != event.kind or (lasting.id, id(replacement)) in busy:
            continue
        view = View(lasting.source, lasting.controller, None, lasting.it, lasting.incarnation)
        if replacement.source is not None and not _from_source(game, replacement, event):
            continue
        if calc.matches_object(game, replacement.to, view, subject, event.location):
            found.append((lasting.source, replacement, lasting))
    return found


def _mark(source, replacement: Replacement) -> tuple:
    """This turn's use of a replacement effect "once each turn" (371.1), kept with the turn's other uses."""
    return ("replacement", source.id, source.incarnation, source.definition.replacements.index(replacement))


def _applied(game: Game, source_id: str, replacement: Replacement, lasting) -> None:
    """Note a use of a replacement effect applied "once each turn" (371.1); one declined is not applied (371.2.b)."""
    if replacement.limit and lasting is None:
        game.trigger_marks = (*game.trigger_marks, _mark(game.objects[source_id], replacement))


def _conditions_met(game: Game, source, replacement: Replacement, event: Event) -> bool:
    """A conditional replacement effect applies while its condition holds (364.3.a); one about damage from enemy
    spells and abilities, to damage whose source (417.6.b) is a spell or an object an opponent of the unit's
    controller controls, not combat damage (465.2.d)."""
    if replacement.condition is not None:
        context = Condition(calc.ability_controller(game, source), source.id, False)
        if not calc.condition_holds(game, replacement.condition, context):
            return False
    return replacement.source is None or _from_source(game, replacement, event)


def _from_source(game: Game, replacement: Replacement, event: Event) -> bool:
    """Is the event's damage from the source the replacement names: a spell or ability (417.6.a, 417.6.b.2.a), an
    enemy's or anyone's? Combat damage is the units' (465.2.d), and so is the damage a spell or ability has a unit
    deal (a fight, "it deals damage equal to its Might", 417.6.b.3)."""
    if replacement.source == "spell or ability that chooses it":
        return event.chosen and event.via in ("spell", "ability")
    dealer = game.objects.get(event.source) if event.source else None
    if dealer is None or event.via not in ("spell", "ability"):
        return False
    return replacement.source == "spell or ability" or (event.player is not None and dealer.controller != event.player)


@query("prevents_all_damage")
def prevents_all_damage(game: Game, unit) -> bool:
    """Would the replacement effects applying to `unit`'s next damage prevent all of it (each replaces it with
    nothing, as "prevent it" does)?"""
    event = Event("takes_damage", unit=unit.id, player=unit.controller, location=unit.location)
    options = _applicable(game, event)
    return bool(options) and all(not r.instead and r.modify is None for _, r, _ in options)


def _chooser(game: Game, event: Event) -> tuple[str, str]:
    """Who chooses among the replacement effects, and the rule that says so. For a permanent the versions
    disagree (`replacements_ordered_by`): its owner up to 2025-12-01 (its 368), its controller from Core Rules 1.4
    (372)."""
    if event.unit:
        obj = game.objects[event.unit]
        if obj.kind == BATTLEFIELD and obj.battlefield_controller is None:
            return game.turn_player, "372.2"
        reading = game.reading("replacements_ordered_by")
        return (obj.controller if reading.choice == "controller" else obj.owner), reading.cited[0]
    return event.player or game.turn_player, "372.1"


def _describe(event: Event) -> str:
    """The event in words, as its kind's registration says it: "sentry would die", "d1 would take damage"."""
    return f"{event.unit or event.player} would {EVENT_KINDS[event.kind].would}"


def _key(source: str, replacement: Replacement, lasting) -> tuple[str, int]:
    return (lasting.id if lasting else source), id(replacement)


def _offer(
    game: Game, event: Event, applied: set
) -> tuple[tuple[str, Replacement, LastingReplacement | None], bool] | None:
    """The replacement effect that applies to `event` (its chooser choosing among several, 372), and whether there
    were several; an optional one whose player declines it is not applied, and the others are offered (371.2.b)."""
    options = [o for o in _applicable(game, event) if _key(*o) not in applied and _payable(game, event, *o)]
    several = len(options) > 1
    while options:
        names = [source for source, _, _ in options]
        names = [name if names.count(name) == 1 else f"{name} #{i + 1}" for i, name in enumerate(names)]
        chooser, rule = _chooser(game, event)
        chosen = choose(
            game, "replacement", chooser, f"which replacement effect applies as {_describe(event)}", names, rule
        )
        option = options.pop(names.index(chosen))
        if option[1].may is not None and not _accepted(game, event, *option):
            continue
        return option, several
    return None


@query("would")
def would(game: Game, event: Event) -> bool:
    """Offer `event` to the replacement effects; True when one replaced it (the event does not happen)."""
    return replaced(game, event) is None


@query("replaced")
def replaced(game: Game, event: Event) -> Event | None:
    """Offer `event` to the replacement effects before it happens (370.1.c): None when one replaced it with its
    instructions (the event does not happen); else the event as the effects modifying it left it (370.1.b: its
    amount doubled or reduced), each effect applied once to it (370.2)."""
    applied: set = set()
    while (offered := _offer(game, event, applied)) is not None:
        (source, replacement, lasting), several = offered
        _applied(game, source, replacement, lasting)
        if replacement.modify is None:
            do.apply_replacement(game, source, replacement, lasting, event, several, because="369")
            return None
        applied.add(_key(source, replacement, lasting))
        amount = _modified_amount(replacement, lasting, event.amount)
        do.modify_event(game, source, replacement, lasting, event, amount, several, because="370.1.b")
        event = dataclasses.replace(event, amount=amount)
    return event


def _modified_amount(replacement: Replacement, lasting, amount: int) -> int:
    """The amount as the effect modifies it: doubled, or less the Prevent Value still tracked (437.2, 437.2.a)."""
    if replacement.modify == "double":
        return amount * 2
    if replacement.modify == "additional copy":
        return amount + 1
    left = lasting.left if lasting is not None and lasting.left is not None else replacement.prevent
    return max(0, amount - left)


@procedure(
    "modify_event",
    StepKind.REPLACEMENT,
    defines=("370.1.b",),
    summary=lambda g, source, r, lasting, event, amount, chosen: (
        f"{r.label or g.objects[source].card} modifies the event: {_describe(event)} ({event.amount}): {amount} instead"
    ),
    objects=lambda g, source, r, lasting, event, amount, chosen: [source, event.unit or event.player],
    cite=lambda g, source, r, lasting, event, amount, chosen: (
        (["437.2", "437.3"] if r.modify == "prevent" else []) + (["372"] if chosen else [])
    ),
)
def modify_event(game: Game, source: str, r: Replacement, lasting, event: Event, amount: int, chosen: bool) -> None:
    """A Prevent's value tracked on the unit is reduced by what it prevented, and it expires at 0 (437.3, 437.3.a)."""
    if r.modify != "prevent" or lasting is None:
        return
    left = (lasting.left if lasting.left is not None else r.prevent) - (event.amount - amount)
    kept = (dataclasses.replace(x, left=left) if x is lasting else x for x in game.lasting)
    game.lasting = tuple(x for x in kept if x.left is None or x.left > 0)


event_kind("lose_might", "477.3", would="be given -Might")
event_kind("return_to_hand", "108.7.a", would="be returned to its owner's hand")


@query("unreplaced")
def unreplaced(game: Game, run, kind: str, ids) -> list[str]:
    """The units among `ids` a spell's or ability's instruction still acts on: each offered to the replacement
    effects as `kind` would happen to it (a stun, -Might, a return to hand), with whether that spell or ability chose
    it (355.7); those replaced are not acted on (369)."""
    item = run.item
    chosen = {
        ref[0]
        for targets in (item.targets, *item.repeat_targets)
        for refs in targets.values()
        for ref in refs
        if not isinstance(ref, str)
    }
    via = calc.attribution_of(game, run)[1]
    kept = []
    for unit_id in ids:
        unit = game.objects[unit_id]
        event = Event(
            kind,
            unit=unit_id,
            player=unit.controller,
            location=unit.location,
            source=item.source,
            via=via,
            chosen=unit_id in chosen,
        )
        if unit.kind != UNIT or not calc.would(game, event):
            kept.append(unit_id)
    return kept


@query("assigned_for_lethal")
def assigned_for_lethal(game: Game, unit, needed: int, most: int) -> int | None:
    """The least combat damage assigned to `unit` that the replacement effects modifying its damage would make at
    least `needed` (465.2.c.4.a, 465.2.c.5, 437.5.a), or None if no amount up to `most` would; `needed` when none
    modifies it. They are applied in the order they were made (its controller orders them as the damage is dealt,
    372)."""
    event = Event("takes_damage", unit=unit.id, player=unit.controller, location=unit.location, source="combat")
    modifying = [(r, lasting) for _, r, lasting in _applicable(game, event) if r.modify is not None]
    if not modifying:
        return needed
    for n in range(1, most + 1):
        amount = n
        for replacement, lasting in modifying:
            amount = _modified_amount(replacement, lasting, amount)
        if amount >= needed:
            return n
    return None


def _decider(game: Game, event: Event, source: str, replacement: Replacement, lasting) -> str:
    """Who may apply an optional replacement effect: its controller (371.2.a, 374), or the controller of the object
    acted on when its text says "its controller may"."""
    if replacement.may == "its controller" and event.unit in game.objects:
        return game.objects[event.unit].controller
    return lasting.controller if lasting else calc.ability_controller(game, game.objects[source])


def _payable(game: Game, event: Event, source: str, replacement: Replacement, lasting) -> bool:
    """An optional replacement effect with a cost is offered only when its player can pay that cost now (404.1)."""
    if replacement.may is None or replacement.cost is None:
        return True
    return (
        calc.cost_problem(game, replacement.cost, _decider(game, event, source, replacement, lasting), source) is None
    )


def _accepted(game: Game, event: Event, source: str, replacement: Replacement, lasting) -> bool:
    """The player chooses whether to apply it (371.2.a), paying its cost if they do; if not, it is not applied."""
    player = _decider(game, event, source, replacement, lasting)
    label = replacement.label or game.objects[source].card
    paying = f" paying {replacement.cost.describe()}" if replacement.cost is not None else ""
    question = f"{label}: apply it{paying} as {_describe(event)}?"
    if choose(game, "may", player, question, ["yes", "no"], "371.2.a") != "yes":
        return False
    if replacement.cost is not None:
        do.pay_cost(game, replacement.cost, player, source, label, because="371.2")
    return True


@procedure(
    "apply_replacement",
    StepKind.REPLACEMENT,
    defines=("369.1",),
    summary=lambda g, source, r, lasting, event, chosen: (
        f"{r.label or g.objects[source].card} replaces the event: {_describe(event)}"
    ),
    objects=lambda g, source, r, lasting, event, chosen: [source, event.unit or event.player],
    cite=lambda g, source, r, lasting, event, chosen: ["372"] if chosen else [],
    pure=True,  # the summary reads the source's card, which never changes
)
def apply_replacement(
    game: Game, source_id: str, replacement: Replacement, lasting, event: Event, chosen: bool
) -> None:
    source = game.objects[source_id]
    controller = lasting.controller if lasting else calc.ability_controller(game, source)
    item = ChainItem(
        f"replacement:{source_id}",
        replacement.label or source.card,
        ItemKind.ABILITY,
        source_id,
        controller,
        effects=tuple(replacement.instead),
        targets={},
        location=event.location,
        affected=event.unit or event.player,
        it=lasting.it if lasting else None,
    )
    if lasting is not None and lasting.once:
        game.lasting = tuple(x for x in game.lasting if x is not lasting)
    key = ((lasting.id if lasting else source_id), id(replacement))
    busy = game.run.replacing
    busy.add(key)
    try:
        calc.execute(game, calc.resolution(game, item, "369"), replacement.instead)
    finally:
        busy.discard(key)


@procedure(
    "create_lasting_replacement",
    StepKind.EFFECT,
    defines=("390.3", "391"),
    summary=lambda g, lasting: (
        f"{lasting.replacement.label}: the next time {lasting.it or 'it'} would {EVENT_KINDS[lasting.replacement.would].would}, instead ..."
    ),
    objects=lambda g, lasting: [lasting.it],
)
def create_lasting_replacement(game: Game, lasting: LastingReplacement) -> None:
    game.lasting = (*game.lasting, lasting)


@instruction("replace_next")
def op_replace_next(game: Game, run, ins) -> None:
    """A delayed replacement effect (390.3): "the next time <it> would <event> this turn, <instead>"."""
    subjects = calc.refs(game, run, ins["it"]) if ins.get("it") else [None]
    flt = ObjectFilter.model_validate(ins.get("to", {"who": "it" if ins.get("it") else "unit"}))
    replacement = Replacement(
        would=ins["would"],
        to=flt,
        instead=ins["instead"],
        label=ins.get("label", run.item.label),
        source=ins.get("source"),
        may=ins.get("may"),
        cost=ins.get("cost"),
        modify=ins.get("modify"),
        prevent=ins.get("prevent", 0),
    )
    for subject in subjects:
        lasting = LastingReplacement(
            game.new_id("replacement"),
            replacement,
            run.item.source,
            run.item.controller,
            it=subject,
            incarnation=game.objects[subject].incarnation if subject else None,
            once=ins.get("once", True),
            left=ins.get("prevent"),
        )
        do.create_lasting_replacement(game, lasting, because=run.because)
