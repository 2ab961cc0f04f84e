"""Triggered, reflexive and delayed abilities 375-391.

`fire(event)` evaluates every trigger condition right after the event (383.2.c) and makes one trigger
instance per ability that triggered: two units with the same ability give two instances, and an ability that
triggers once per unit gives one instance per unit, each with its own source, controller and event.
`place_triggers` puts them on the Chain as pending items: each player orders their own simultaneous triggers
(383.3.d, an explicit choice when there are several), players in turn order (383.3.d.1) or, for a combat's
Initial Chain, attacker first and defender last (464.2.e.1). The controller of an instance is fixed when it
triggers (191.4.b).
"""

from __future__ import annotations

import itertools

from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import (
    Condition,
    Refusal,
    answer_kind,
    calc,
    choose,
    do,
    event_kind,
    instruction,
    log,
    note,
    procedure,
    query,
)
from scenarios.objects import BOARD, TRASH, ChainItem, DelayedAbility, Event, ItemKind, Kind, TriggerInstance, View
from scenarios.selectors import Counted, EventFilter, TargetSpec
from scenarios.trace import StepKind

event_kind("end_of_turn", "317.1.a", would="reach the end of the turn")
event_kind("beginning", "315.2.a.1", would="begin a turn")

SELF_WORDS = ("self", "me", "this", "i")
RULE_OF = {
    "play": "383.4.a",
    "attack": "383.4.e",
    "defend": "383.4.f",
    "conquer": "383.4.c",
    "hold": "383.4.d",
    "die": "808.1.c",
    "kill": "428.5",  # a kill attributed to a spell, an ability or combat, with its responsible player
    "card_played": "419.4.a",
    "combat_start": "464.2.b",
}


@query("fire")
def fire(game: Game, event: Event, leaving: frozenset = frozenset()) -> None:
    """Every ability whose condition `event` meets triggers now; `leaving` are objects leaving the board in
    the same action, whose own abilities only see their own departure (383.2.c.2, 808.1.d.2)."""
    found = []
    for source in game.listeners:
        if source.zone != BOARD and source.zone != TRASH:
            continue
        for index, trigger in enumerate(source.definition.triggers):
            where = TRASH if trigger.active_in == "trash" else BOARD
            if source.zone != where and not (where == TRASH and _to_the_trash(source, event, leaving)):
                continue  # 383.2.c.1: where it is active, or entering it as the event happens
            instance = _triggered(game, source, index, trigger, event, leaving)
            if instance is not None:
                found.append(instance)
                for giver in calc.additional_triggers(game, source, trigger, event):  # "... an additional time"
                    note(
                        game,
                        StepKind.EFFECT,
                        "again",
                        f"{giver}: {instance.label} triggers an additional time",
                        "364.1",
                    )
                    found.append(_instance(game, source, index, trigger, instance.controller, event))
    for source, ability, count in calc.keyword_triggers(game, event):
        for _ in range(count):
            instance = _triggered(game, source, None, ability.trigger_under(game), event, leaving, ability.rule)
            if instance is not None:
                found.append(instance)
    for delayed in game.delayed:
        view = View(delayed.source, delayed.controller, None, delayed.it, delayed.incarnation)
        if calc.matches_event(game, delayed.event, view, event):
            found.append(
                TriggerInstance(
                    game.new_id("trigger"),
                    delayed.source,
                    0,
                    None,
                    delayed.controller,
                    event,
                    delayed.label,
                    delayed.rule,
                    effects=delayed.effects,
                    location=event.location,
                    it=_still_the_same(game, delayed),
                    delayed=True,
                    it_incarnation=delayed.incarnation,
                )
            )
            if delayed.once:
                game.delayed = tuple(d for d in game.delayed if d is not delayed)
    if found:
        game.triggered = (*game.triggered, *found)


def _to_the_trash(source, event: Event, leaving: frozenset) -> bool:
    """Is `source` going from the board to the trash in the action `event` is part of: dying with it (a death or
    kill, `leaving` the units dying together) or leaving the board for the trash?"""
    return source.id in leaving and event.destination in (None, str(TRASH))


def _still_the_same(game: Game, delayed) -> str | None:
    """The delayed ability's object "it", unless it has changed zones since: then it is a new object (359.3.e.4)."""
    obj = game.objects.get(delayed.it) if delayed.it else None
    if obj is None or (delayed.incarnation is not None and obj.incarnation != delayed.incarnation):
        return None
    return delayed.it


def _triggered(game: Game, source, index, trigger, event: Event, leaving, rule=None) -> TriggerInstance | None:
    """The instance of `trigger` (an ability of `source`) that `event` triggers, or None."""
    flt = trigger.when
    kinds = None
    if flt.event != event.kind:
        kinds = calc.event_aliases(game, source, flt.event)
        if event.kind not in kinds:
            return None
    if index is not None and trigger.active_in is None and not calc.ability_is_active(game, source, flt):
        return None
    # 383.2.c.2: leaving the board, a board ability sees only its own departure; one active in the trash, where
    # it goes, sees the event (383.2.c.1)
    if source.id in leaving and trigger.active_in is None and not (flt.who in SELF_WORDS and event.unit == source.id):
        return None
    if not calc.matches_event(game, flt, calc.view_of(game, source), event, kinds):
        return None
    controller = calc.ability_controller(game, source)
    if trigger.condition is not None and not _if_clause_resolves(game, trigger):
        because = rule or RULE_OF.get(trigger.when.event, "383.2")
        if trigger.if_clause:  # "When X, if Y": Y is part of the Trigger Condition (383.2.a.1)
            because = (because, *game.reading("if_right_after_a_trigger_condition").cited)
        if not _condition_holds(game, source, trigger, event, controller, because):
            return None
    if trigger.limit == "once_per_turn":
        # once for the object, whoever controls it now (a battlefield taken mid-turn: 383.3.e.1); a new object
        # after a zone change is another (124)
        mark = ("trigger", source.id, source.incarnation, index)
        if mark in game.trigger_marks:
            return None
        game.trigger_marks = (*game.trigger_marks, mark)
    return _instance(game, source, index, trigger, controller, event, rule)


def _condition_holds(game: Game, source, trigger, event: Event, controller: str, because) -> bool:
    """Its condition as the event happens: a condition word, or a count ("if you have 7+ units here") from its
    source's point of view, "at that battlefield" the event's."""
    if isinstance(trigger.condition, Counted):
        slots = {"trigger_location": [event.location]} if event.location else None
        view = calc.view_of(game, source, slots=slots)
        return calc.decide_count(game, view, trigger.condition, source.card, controller, because)
    own_play = trigger.when.event == "play" and event.unit == source.id
    context = Condition(controller, source.id, own_play)
    return calc.decide_condition(game, trigger.condition, context, source.card, "its ability triggers", because)


def _if_clause_resolves(game: Game, trigger) -> bool:
    """Is the trigger's condition an "if" its version reads as part of the Effect, checked as it resolves
    (376.2.b in 2025-12-01; part of the Trigger Condition from 1.4, 383.2.a.1)?"""
    return trigger.if_clause and game.reading("if_right_after_a_trigger_condition").choice == "effect"


def _effects(game: Game, source, trigger) -> tuple:
    """What the instance does as it resolves: its effects, behind its "if" when that is part of the Effect."""
    if not _if_clause_resolves(game, trigger):
        return tuple(trigger.effects)
    reading = game.reading("if_right_after_a_trigger_condition")
    counted = trigger.condition if isinstance(trigger.condition, Counted) else None
    said = counted.amount.words() if counted else trigger.condition
    note(
        game,
        StepKind.EFFECT,
        "condition",
        f"{source.card}: if {said} is part of the effect, checked as it resolves",
        reading.cited,
    )
    if counted is not None:  # the count as the if_amount it was read from (364.3.a)
        bounds = counted.model_dump(exclude_none=True, include={"at_least", "at_most"})
        amount = counted.amount.model_dump(exclude_none=True, exclude_defaults=True)
        return ({"op": "if_amount", "amount": amount, **bounds, "then": list(trigger.effects)},)
    return ({"op": "if", "condition": trigger.condition, "then": list(trigger.effects)},)


def _instance(game: Game, source, index, trigger, controller: str, event: Event, rule=None) -> TriggerInstance:
    involved = event.unit == source.id or source.id in event.units
    if source.kind == Kind.BATTLEFIELD:
        here = source.id
    else:
        here = event.location if involved and event.location else source.location
    own_play = trigger.when.event == "play" and event.unit == source.id
    return TriggerInstance(
        game.new_id("trigger"),
        source.id,
        source.incarnation,
        index,
        controller,
        event,
        trigger.label or f"{source.card}: {trigger.when.event}",
        rule or RULE_OF.get(trigger.when.event, "383.2"),
        effects=_effects(game, source, trigger),
        targets=tuple(trigger.targets.items()),
        optional=trigger.optional,
        cost=trigger.cost,
        location=here,
        hidden_at=event.hidden_at if own_play else None,
    )


def option_labels(instances) -> list[str]:
    """How a player names each instance when ordering them: label and source, and the event's subject when
    two instances would otherwise read alike."""
    short = [f"{t.label} ({t.source})" for t in instances]
    labels = [t.describe() if short.count(s) > 1 else s for t, s in zip(instances, short)]
    return [label if labels.count(label) == 1 else f"{label} #{i + 1}" for i, label in enumerate(labels)]


@query("place_triggers")
def place_triggers(game: Game, first=(), last=(), because: tuple[str, str] = ("383.3", "383.3.d.1")) -> None:
    """Put the abilities that triggered on the Chain. Each is put there because of the rule that orders it in
    this context: `because` is (the rule for triggers of one player, the rule for several players' simultaneous
    triggers): by default a triggered ability is placed on the Chain (383.3), several players' in turn order
    (383.3.d.1); a player's own several triggers in the order they choose (383.3.d)."""
    found = game.triggered
    if not found:
        return
    game.triggered = ()
    controllers = {t.controller for t in found}
    placed = because[1] if len(controllers) > 1 else because[0]
    middle = [p for p in game.in_turn_order(controllers) if p not in first and p not in last]
    for player in [*first, *middle, *last]:
        own = [t for t in found if t.controller == player]
        if len(own) > 1:
            labels = option_labels(own)
            order = choose(
                game,
                "order",
                player,
                f"order of simultaneous triggers: {'; '.join(labels)}",
                labels,
                "383.3.d",
                forced_ok=False,
            )
            own = [own[labels.index(label)] for label in order]
        for instance in own:
            do.put_trigger_on_chain(game, instance, because=(placed, "383.3.d") if len(own) > 1 else placed)


@procedure(
    "put_trigger_on_chain",
    StepKind.TRIGGER,
    defines=("383.3",),
    summary=lambda g, t: f"{t.label} triggers (controller {t.controller}): pending on the Chain",
    objects=lambda g, t: [t.source],
    cite=lambda g, t: [t.rule],
)
def put_trigger_on_chain(game: Game, instance: TriggerInstance) -> None:
    log(game, "triggered", instance.label, instance.rule)
    item = ChainItem(
        game.new_id("item"),
        instance.label,
        ItemKind.TRIGGER,
        instance.source,
        instance.controller,
        effects=instance.effects,
        source_incarnation=None if instance.delayed else instance.incarnation,
        target_specs=instance.targets,
        targets=None,
        optional=instance.optional,
        cost=instance.cost,
        trigger=instance,
        location=instance.location,
        hidden_at=instance.hidden_at,
        it=instance.it,
        it_incarnation=instance.it_incarnation,
    )
    calc.add_to_chain(game, item)


def check_order(game: Game, choice, answer) -> list:
    if not isinstance(answer, list) or sorted(answer) != sorted(choice.options):
        raise Refusal(choice.rule, f"an order must list exactly {choice.options}")
    return list(answer)


answer_kind("order", check_order, lambda game, choice: (list(p) for p in itertools.permutations(choice.options)))


# -- delayed abilities ---------------------------------------------------------------------------------------


@procedure(
    "create_delayed",
    StepKind.EFFECT,
    defines=("390", "391"),
    summary=lambda g, d: f"{d.label}: a delayed ability waits for {d.event.event}" + (f" of {d.it}" if d.it else ""),
    objects=lambda g, d: [d.it],
)
def create_delayed(game: Game, delayed: DelayedAbility) -> None:
    game.delayed = (*game.delayed, delayed)


@instruction("delayed")
def op_delayed(game: Game, run, ins) -> None:
    """A delayed triggered ability (390.2): `when` is its event filter, `it` the object it is about."""
    flt = EventFilter.model_validate(ins["when"])
    subjects = calc.refs(game, run, ins["it"]) if ins.get("it") else [None]
    for subject in subjects:
        do.create_delayed(
            game,
            DelayedAbility(
                game.new_id("delayed"),
                flt,
                run.item.source,
                run.item.controller,
                ins.get("label", f"{run.item.label} (delayed)"),
                tuple(ins["effects"]),
                it=subject,
                incarnation=game.objects[subject].incarnation if subject else None,
                once=ins.get("once", True),
            ),
            because=run.because,
        )


# -- reflexive triggers ------------------------------------------------------------------------------------


@instruction("reflexive")
def op_reflexive(game: Game, run, ins) -> None:
    """ "Then do this: ..." (387.1): a reflexive trigger. Reached as its item executes (a condition, 387.2-387.3:
    `kills`, or an instruction that wraps it), it makes a new triggered ability, pending like any trigger (388.1),
    put on the Chain once the item has finished executing ("do this N times", 387.1.a, is not read). The new
    ability chooses its own `targets` as it is finalized (402.2); `a_unit_among`: made only if a card that slot names
    is a unit ("when you burn a unit this way"); `keep` are the slots of the item that made it
    which its text still names ("it", "its destination", the token it played), the same objects unless they
    changed zones since (359.3.e.4); `optional`: "you may do this", `cost`: "you may pay [X] to" (383.3.a-b)."""
    item = run.item
    if "kills" in ins:
        _when_this_kills(game, run, ins)
        return
    named = [game.objects[i] for i in run.legal.get(ins.get("a_unit_among", ""), ()) if i in game.objects]
    if "a_unit_among" in ins and not any(card.kind == Kind.UNIT for card in named):  # "when you burn a unit"
        said = ", ".join(card.id for card in named) or "nothing"
        note(
            game, StepKind.EFFECT, "condition", f"{item.label}: no unit among {said}: nothing", run.because, ("387.2",)
        )
        return
    if "had_might_at_most" in ins and not _had_might_at_most(game, run, ins["had_might_at_most"]):
        return
    source = game.objects.get(item.source)
    kept = tuple(
        (slot, tuple(r if r not in game.objects else calc.ref(game, r) for r in run.legal.get(slot, ())))
        for slot in ins.get("keep", ())
    )
    event = item.trigger.event if item.trigger is not None else Event("reflexive", player=item.controller)
    targets = tuple((slot, TargetSpec.model_validate(spec)) for slot, spec in ins.get("targets", {}).items())
    label = ins.get("label", f"{item.label}: do this")
    instance = TriggerInstance(
        game.new_id("trigger"),
        item.source,
        item.source_incarnation if item.source_incarnation is not None else (source.incarnation if source else 0),
        None,
        item.controller,
        event,
        label,
        "388.1",
        effects=tuple(ins["effects"]),
        targets=targets,
        optional=ins.get("optional", False),
        cost=Cost.model_validate(ins["cost"]) if "cost" in ins else None,
        location=calc.targeting_of(game, item).here,
        kept=kept,
    )
    note(game, StepKind.EFFECT, "reflexive", f"{label}: a reflexive trigger, pending", run.because, ("387.1",))
    game.triggered = (*game.triggered, instance)


def _had_might_at_most(game: Game, run, had) -> bool:
    """ "Kill a unit. Then, if it had 3 [Might] or less, do this:" (387.2): its Might as it was killed (359.3.e.13),
    or as it is when it was not killed; the condition not met, no reflexive trigger is made."""
    killed = [game.objects[i] for i in run.legal.get("killed", ()) if i in run.legal.get(had["of"], ())]
    there = [game.objects[i] for i in run.legal.get(had["of"], ()) if game.objects[i].zone == BOARD]
    might = killed[0].might_as_it_died if killed else calc.might(game, there[0]) if there else None
    met = might is not None and might <= had["n"]
    said = f"it had {might} Might" if might is not None else "it has no Might to check"
    note(
        game,
        StepKind.EFFECT,
        "condition",
        f"{run.item.label}: {said}: " + ("do this" if met else "nothing"),
        run.because,
        ("387.2",),
    )
    return met


def _when_this_kills(game: Game, run, ins) -> None:
    """ "If this kills it, do this: ..." (387.3: its condition in a trigger's format): the unit dies in the Cleanup
    right after this item resolves, a kill attributed to the item that dealt it damage (428.5.c); so a delayed
    ability waits for that unit's death until that Cleanup is over (`end_delayed_of`), then is gone."""
    for subject in calc.refs(game, run, ins["kills"]):
        do.create_delayed(
            game,
            DelayedAbility(
                game.new_id("delayed"),
                EventFilter(event="die", who="it"),
                run.item.source,
                run.item.controller,
                ins.get("label", f"{run.item.label}: do this"),
                tuple(ins["effects"]),
                it=subject,
                incarnation=game.objects[subject].incarnation,
                until=run.item.id,
                rule="428.5.c",
            ),
            because=(run.because, "387.3"),
        )


@query("end_delayed_of")
def end_delayed_of(game: Game, item: ChainItem) -> None:
    """The Cleanup after `item` resolved is over: what it waited for until then did not happen (428.5.c)."""
    game.delayed = tuple(d for d in game.delayed if d.until != item.id)
