"""The Chain 326-336 and Priority 311-313: items are added pending, finalized, and resolve last in, first out.

A chain item's controller is fixed when it goes on the Chain (191.4.b): it does not follow its source's
controller. After an item goes on the Chain, the controller of the newest item gets Priority (337.4);
players then pass in turn order, and when all have passed in succession the newest item resolves (339.1).
"""

from __future__ import annotations

from typing import Final

from scenarios.actions import Pass
from scenarios.game import Game
from scenarios.kernel import Refusal, action, calc, choose, condition, do, event_kind, log, note, procedure, query
from scenarios.objects import Event, ItemKind, Kind, Targeting, Zone
from scenarios.trace import StepKind

event_kind("choose", "355.7")
event_kind("card_played", "419.4", would="play a card")

EXECUTES = {ItemKind.SPELL: "359.3.d", ItemKind.ABILITY: "406.5", ItemKind.TRIGGER: "406.5"}


@query("add_to_chain")
def add_to_chain(game: Game, item):
    game.chain = (*game.chain, item)
    game.passes = ()  # 339.1: only passes in succession with no item added since let the newest item resolve
    return item


@query("give_priority_to_newest")
def give_priority_to_newest(game: Game) -> None:
    """337.4 / 340.4: the controller of the newest item gains Priority."""
    game.priority = game.chain[-1].controller
    game.passes = ()


@query("settle_priority")
def settle_priority(game: Game) -> None:
    """Who may act after an action: the controller of the newest chain item, the player with Focus, or the
    turn player in a Neutral Open State (312.2)."""
    if game.chain:
        if game.priority is None:
            give_priority_to_newest(game)
    elif game.showdown:
        if game.priority is None:
            game.priority = game.showdown.focus
    else:
        game.priority = game.turn_player


@query("fire_choose")
def fire_choose(game: Game, player: str, unit_id: str, via: str) -> None:
    """A spell or ability chose a unit (355.7): "when you choose" abilities may trigger."""
    unit = game.objects[unit_id]
    if unit.kind == Kind.UNIT and unit.zone == Zone.BOARD:  # a unit card chosen in a trash is no unit on the board
        if unit.controller in game.opponents(player):  # "if you've chosen an enemy unit this turn"
            game.players[player].enemy_units_chosen_this_turn += 1
        calc.fire(game, Event("choose", unit=unit_id, player=player, location=unit.location, via=via))


@condition("chosen an enemy unit this turn", "355.7")
def _chosen_an_enemy_unit(game: Game, context) -> bool:
    """ "Use only if you've chosen an enemy unit this turn": its player's spells or abilities chose one (355.7)."""
    return game.players[context.player].enemy_units_chosen_this_turn > 0


@query("put_chosen_on_chain")
def put_chosen_on_chain(game: Game, item, via: str) -> None:
    """A spell or activated ability goes on the Chain with its targets (and those of its Repeat executions,
    820.2), each chosen object an event (355.7)."""
    add_to_chain(game, item)
    calc.mark_modes_chosen(game, item)
    for targets in (item.targets, *item.repeat_targets):
        for refs in targets.values():
            for ref in refs:
                if not isinstance(ref, str):
                    fire_choose(game, item.controller, ref[0], via)


@procedure(
    "finalize_pending", StepKind.CHAIN_ITEM, defines=("337.1", "402.2"), summary="finalize pending items on the Chain"
)
def finalize_pending(game: Game) -> None:
    """Pending triggered abilities get their targets (402.2), in the order they were added (337.1.b); with no
    legal target they leave the Chain (402.4), and so do those whose controller declines a cost their choices
    incur (404.2)."""
    for item in [i for i in game.chain if i.pending]:
        kept = dict(item.trigger.kept) if item.trigger is not None else {}  # a reflexive trigger's (388.1)
        chosen: dict = dict(kept)
        here = calc.targeting_of(game, item).here
        for slot, spec in item.target_specs:
            if calc.mode_unchosen(game, spec, chosen):  # a slot of a mode not chosen: no choice (355.3)
                chosen[slot] = ()
                continue
            places = calc.trigger_places(game, item)
            context = Targeting(item.label, item.controller, item.source, here, item.hidden_at, chosen, places)
            options = calc.legal_targets(game, spec, context)
            if spec.any_number:  # a group, one object at a time, zero or more (355.11.a, 355.13)
                chosen[slot] = calc.choose_group(game, item, slot, spec, options)
                for ref in chosen[slot]:
                    fire_choose(game, item.controller, ref[0], "ability")
                continue
            if not options:
                if spec.optional:
                    chosen[slot] = ()
                    continue
                game.chain = tuple(i for i in game.chain if i is not item)
                note(
                    game,
                    StepKind.CHAIN_ITEM,
                    "removed",
                    f"{item.label} has no legal target for {slot}: removed",
                    "402.4",
                    objects=[item.source],
                )
                break
            rule = "811.1.d.2" if item.hidden_at else "355.3" if spec.type == "mode" else "402.2"
            if spec.optional:  # "you may ... a unit", "up to one": choosing none is a legal choice too
                options = [*options, "none"]
            kind = "mode" if spec.type == "mode" else "target"  # a mode: one of its bulleted list (355.3)
            pick = choose(game, kind, item.controller, f"{kind} for {item.label} ({slot})", options, rule)
            if pick == "none" and spec.optional:
                chosen[slot] = ()
            elif pick in game.objects and spec.type != "location":  # a destination is a place, not an object chosen
                chosen[slot] = (calc.ref(game, pick),)
                fire_choose(game, item.controller, pick, "ability")
            else:
                chosen[slot] = (pick,)
        else:
            own = {slot: refs for slot, refs in chosen.items() if slot not in kept}
            if calc.pays_for_its_choices(game, item, own) and _decided_as_finalized(game, item):
                item.targets = chosen
                calc.mark_modes_chosen(game, item)
            else:
                game.chain = tuple(i for i in game.chain if i is not item)


def _decided_as_finalized(game: Game, item) -> bool:
    """A triggered ability whose effect begins with "you may" or a cost within instructions: from Core Rules 1.4
    its controller decides, and pays that cost as its base cost, while finalizing it (383.3.a, 383.3.b.1,
    204.3.a); declined, it leaves the Chain as if it had not triggered (383.3.a.2). Earlier versions decide as
    it resolves (`optional_trigger_decided`). False when the item leaves the Chain."""
    if item.kind != ItemKind.TRIGGER or not (item.optional or item.cost is not None):
        return True
    reading = game.reading("optional_trigger_decided")
    if reading.choice != "finalized":
        return True
    if _accepts(game, item, reading.cited[0]):
        if item.cost is not None:
            do.pay_cost(game, item.cost, item.controller, item.source, item.label, because=reading.cited)
        item.optional, item.cost = False, None  # decided: nothing is left to ask as it resolves
        return True
    note(
        game,
        StepKind.CHAIN_ITEM,
        "removed",
        f"{item.label}: declined as it is finalized: removed, as if it had not triggered",
        reading.cited,
        objects=[item.source],
    )
    return False


def _resolving(game: Game) -> str:
    item = game.chain[-1]
    return f"resolve {item.label} (controller {item.controller})"


@procedure(
    "resolve", StepKind.CHAIN_ITEM, defines=("340.1",), summary=_resolving, objects=lambda g: [g.chain[-1].source]
)
def resolve_top(game: Game) -> None:
    item = game.chain[-1]
    executes = EXECUTES[item.kind]
    if item.optional or item.cost is not None:
        note(
            game,
            StepKind.CHOICE,
            "decided_as_it_resolves",
            f'{item.label}: its "you may" (and the cost within it) is part of its effect, decided as it resolves',
            game.reading("optional_trigger_decided").cited,  # the versions before Core Rules 1.4
            objects=[item.source],
        )
        if _accepts(game, item):
            if item.cost is not None:
                do.pay_cost(game, item.cost, item.controller, item.source, item.label, because="404.1")
            _execute(game, item, executes)
    else:
        _execute(game, item, executes)
    if item in game.chain:
        game.chain = tuple(i for i in game.chain if i is not item)
    log(game, "resolved", f"{item.label} [{item.controller}]", "340.1")
    if item.card is not None:
        card = game.objects[item.card]
        if card.zone == Zone.CHAIN:  # 359.3.d: then placed in its owner's Trash
            calc.off_the_chain(game, card, item.controller, item.label)
        calc.card_played(game, card, item.controller, item.hidden_at)
    showdown = game.showdown
    emptied = not game.chain and showdown is not None
    if emptied and _focus_passes_per_chain(game):
        do.after_chain_emptied(game, because=game.reading(FOCUS).cited)  # as the last item resolves (343)
    calc.cleanup(game, "a chain item was removed", "319.5")
    calc.end_delayed_of(game, item)
    if emptied and game.chain and game.showdown is showdown:
        showdown.reopened = True  # the Cleanup's triggers went on the Chain: the Focus reading decides


FOCUS: Final = "focus_after_a_reopened_chain"


def _focus_passes_per_chain(game: Game) -> bool:
    """Up to 2025-12-01 Focus passes each time the last item on the Chain resolves (343), before the Cleanup's
    triggers open another chain; from Core Rules 1.4 once, as the turn returns to an Open State (346, 346.1)."""
    return game.reading(FOCUS).choice == "each_chain"


def _accepts(game: Game, item, rule: str | None = None) -> bool:
    """An optional ability ("you may ..."), with the cost inside its instruction ("pay X to Y"): offered only
    if the cost can be paid (414.4, 404.1); the controller may decline (404.2)."""
    options = ["yes", "no"]
    if item.cost is not None:
        problem = calc.cost_problem(game, item.cost, item.controller, item.source)
        if problem is not None:
            note(
                game,
                StepKind.CHOICE,
                "cost",
                f"{item.label}: the cost ({item.cost.describe()}) can't be paid: {problem.message}",
                problem.rule,
            )
            options = ["no"]
    prompt = f"use optional {item.label}?" + (f" (pay {item.cost.describe()})" if item.cost is not None else "")
    rule = rule or ("404.2" if item.cost is not None else "402.2")
    return choose(game, "may", item.controller, prompt, options, rule) == "yes"


def _execute(game: Game, item, because: str) -> None:
    calc.execute(game, calc.resolution(game, item, because), item.effects)
    for number, targets in enumerate(item.repeat_targets, start=1):
        calc.repeat_execution(game, item, because, number, targets)


# -- passing ----------------------------------------------------------------------------------------------------


@action(
    "pass",
    Pass,
    because=lambda game, act: ("338.1.b.1",) if game.chain else ("347.2",),
    candidates=lambda game, player: [Pass(by=player)],
)
@procedure(
    "pass",
    StepKind.ACTION,
    summary=lambda g, a: f"{a.by} passes " + ("Priority" if g.chain else "Focus"),
    objects=lambda g, a: [a.by],
    cite=lambda g, a: ["338.1.b.1", "339.2"] if g.chain else ["347.2", "347.2.b"],
)
def pass_priority(game: Game, act: Pass) -> None:
    player = act.by
    if game.priority != player:
        raise Refusal("312.1", f"{player} does not have Priority ({game.priority} has it)")
    if game.chain:
        _pass_on_chain(game, player)
    elif game.showdown:
        calc.pass_focus(game, player)
    else:
        raise Refusal(
            "316.9", "in a Neutral Open State the turn player acts or ends the turn; there is nothing to pass"
        )
    settle_priority(game)


def _pass_on_chain(game: Game, player: str) -> None:
    game.passes = (*game.passes, player)
    if set(game.passes) < set(game.turn_order):
        game.priority = game.next_player(player)  # 339.2
        return
    showdown_before = game.showdown
    game.priority = None
    do.resolve(game, because="339.1")
    if game.chain:
        give_priority_to_newest(game)  # 340.4
    elif game.showdown is not None and game.showdown is showdown_before:
        if not _focus_passes_per_chain(game):  # else it passed as the last item resolved
            do.after_chain_emptied(game, because="346")
    elif game.continuation:
        calc.resume_turn(game)
