"""Activated abilities 369-374 and 386-394, and costs: of abilities, and inside instructions ("X to Y").

Timing (381): an activated ability is used on its controller's turn, in an Open State, with Priority; with
Action it may also be used in a showdown on any player's turn (308.1.a, 806.1.c.2), with Reaction also in a
Closed State (309.1.a, 813.1.c). A cost must be payable to be paid (404.1): exhausting an exhausted object
(414.4), discarding from an empty hand (422.3), spending a buff no unit has (702.2.b.1) cannot be done.
"""

from __future__ import annotations

from scenarios.actions import Activate
from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import (
    CONDITIONS,
    Condition,
    Refusal,
    action,
    calc,
    choose,
    do,
    event_kind,
    instruction,
    procedure,
    query,
)
from scenarios.objects import ChainItem, Event, ItemKind, Kind, Targeting, Zone
from scenarios.trace import StepKind

# a player used an activated ability of an object (its `card`), once its cost is paid (377.3): "When you use an
# activated ability of a gear"; the object may be gone by then, its cost having killed it (Gold, 187.5)
event_kind("activate", "377.3")


@query("cost_problem")
def cost_problem(game: Game, cost, player: str, source_id: str | None, purpose: str | None = None) -> Refusal | None:
    """Why `player` can't pay `cost` now (a Refusal naming the rule), or None when it can be paid; `purpose`: what
    its resources pay for ("ability gear": using a gear's ability), for resources restricted to some uses."""
    source = game.objects.get(source_id) if source_id else None
    problem = calc.resource_problem(game, player, cost, "404.1", purpose)
    if problem is not None:
        return problem
    if cost.exhaust and (source is None or source.zone != Zone.BOARD or source.exhausted):
        return Refusal("414.4", f"{source_id} is already exhausted: exhausting it can't be paid")
    if cost.banish and (source is None or source.zone != Zone.BOARD):
        return Refusal("427.2", f"{source_id} is not on the board to be banished")
    if cost.recycle and (source is None or source.zone not in (Zone.BOARD, Zone.TRASH)):
        # "[Deathknell] — Recycle me to ...": recycled from the trash it died to (383.3.b's example)
        return Refusal("416.3", f"{source_id} is neither on the board nor in the trash to be recycled")
    if cost.kill and (source is None or source.zone != Zone.BOARD):
        return Refusal("428.1", f"{source_id} is not on the board to be killed")
    if cost.spend_buff and not calc.buffs_to_spend(game, cost, player, source_id):
        whose = f"{source_id} has no buff" if cost.spend_buff == "this" else f"no unit {player} controls has a buff"
        return Refusal("702.2.b.1", f"{whose} to spend")
    if cost.discard and len(_discardable(game, player, cost)) < cost.discard:
        what = f"{cost.discard_kind} cards" if cost.discard_kind else "cards"
        return Refusal("422.3", f"{player} has fewer than {cost.discard} {what} in hand to discard")
    if cost.recycle_from_trash and len(calc.trash_of(game, player, cost.recycle_kind)) < cost.recycle_from_trash:
        return Refusal("416.3", f"{player} has fewer than {cost.recycle_from_trash} cards in the trash to recycle")
    if cost.spend_xp and game.players[player].xp < cost.spend_xp:
        return Refusal("730.2", f"{player} has {game.players[player].xp} XP, fewer than {cost.spend_xp} to spend")
    if cost.disempower and (source is None or source.zone != Zone.BOARD or not source.empowered):
        # disempowering affects only an Empowered object (442.1.a): a cost that can't be done can't be paid (203.3)
        return Refusal("203.3", f"{source_id} is not Empowered: disempowering it can't be paid (442.1.a)")
    if cost.kill_friendly and not game.units(controller=player):
        return Refusal("203.3", f"{player} controls no unit to kill: the cost can't be paid")
    return None


@procedure(
    "pay_cost",
    StepKind.EFFECT,
    defines=("404.1",),
    summary=lambda g, cost, player, source, label, purpose=None: f"{label}: {player} pays {cost.describe()}",
    objects=lambda g, cost, player, source, label, purpose=None: [player, source],
)
def pay_cost(game: Game, cost, player: str, source_id: str | None, label: str, purpose: str | None = None) -> None:
    problem = cost_problem(game, cost, player, source_id, purpose)
    if problem is not None:
        raise problem
    calc.pay_resources(game, player, cost, "404.1", purpose)
    if cost.exhaust:
        assert source_id is not None, "a cost that exhausts names its source"
        game.objects[source_id].exhausted = True
    if cost.spend_buff:
        buffed = calc.buffs_to_spend(game, cost, player, source_id)
        pick = choose(game, "spend_buff", player, "unit whose buff to spend (one you control)", buffed, "355.17")
        do.spend_buff(game, pick, label, because="357.2")
    for _ in range(cost.discard):
        pick = choose(game, "discard", player, "card to discard (a cost)", _discardable(game, player, cost), "422.1.a")
        do.discard(game, player, pick, because="357.2")
    calc.discarded_cards(game, player, cost.discard)
    if cost.banish:
        assert source_id is not None, "a cost that banishes names its source"
        do.banish(game, source_id, None, player, because="357.2")
    if cost.kill:
        calc.kill_all(game, [source_id], False, ("357.2", "428.1.a.1"))
    if cost.spend_xp:
        game.players[player].xp -= cost.spend_xp  # 730.2
    if cost.disempower:
        assert source_id is not None, "a cost that disempowers names its source"
        do.set_empowered(game, source_id, False, label, because=("357.2", "442.1"))
    if cost.kill_friendly:
        units = sorted(u.id for u in game.units(controller=player))
        pick = choose(game, "kill", player, "friendly unit to kill (a cost)", units, "355.17")
        calc.kill_all(game, [pick], False, ("357.2", "428.1.a.1"))
    if cost.recycle:
        do.recycle(game, [source_id], label, because="357.2")
    if cost.recycle_from_trash:
        calc.recycle_from_trash(game, player, cost.recycle_from_trash, label, "357.2", kind=cost.recycle_kind)
    if cost.burn:  # a player must burn when a cost says so (440.3.a); a short deck burns them out (440.4)
        do.trash_from_deck(game, player, cost.burn, label, because=("357.2", "440.3.a"))


def _discardable(game: Game, player: str, cost) -> list[str]:
    """The cards of the hand a discard cost may take: any, or those of its kind ("Discard a gear")."""
    return [c.id for c in game.hand(player) if cost.discard_kind in (None, c.kind)]


@query("buffs_to_spend")
def buffs_to_spend(game: Game, cost, player: str, source_id: str | None) -> list[str]:
    """The units whose buff the cost may spend: its source's own ("spend my buff"), or any unit the player controls
    (702.2.b.2)."""
    units = game.units(controller=player)
    return [u.id for u in units if u.buffs and (cost.spend_buff != "this" or u.id == source_id)]


def activate_candidates(game: Game, player: str):
    for source in game.objects.values():
        if source.zone != Zone.BOARD or source.controller != player or source.definition is None:
            continue
        for index, ability in enumerate(source.definition.activated):
            context = Targeting(ability.label or source.card, player, source.id, _here(source))
            for targets in calc.target_choices(game, ability.targets, context):
                yield Activate(by=player, source=source.id, ability=index, targets=targets)


def _here(source) -> str | None:
    return source.id if source.kind == Kind.BATTLEFIELD else source.location


@query("ability_timing")
def check_timing(game: Game, player: str, ability) -> None:
    """381, with the permissions of Action (308.1.a, 806.1.c.2) and Reaction (309.1.a, 813.1.c)."""
    if game.priority != player:
        raise Refusal("312.1", f"{player} does not have Priority")
    reaction = "Reaction" in ability.keywords
    action_word = "Action" in ability.keywords or reaction  # 813.1.b
    if game.chain and not reaction:
        raise Refusal(
            "309.1.a", "only abilities with Reaction can be activated while the Chain exists (a Closed State)"
        )
    if game.showdown and not action_word:
        raise Refusal("308.1.a", "only abilities with Action or Reaction can be activated during a showdown")
    if player != game.turn_player and not action_word:
        raise Refusal("381", "an activated ability without Action or Reaction is activated on its controller's turn")


def _activate_because(game: Game, act: Activate) -> tuple[str, ...]:
    """Why this activation happens here: its timing in this state of the turn (`timing_rules`), and that
    Activated Abilities use the Chain (377.3)."""
    source = game.objects.get(act.source)
    abilities = source.definition.activated if source is not None and source.definition else []
    if not 0 <= act.ability < len(abilities):
        return ("377.3",)
    return (*calc.timing_rules(game, abilities[act.ability].keywords, "ability"), "377.3")


@action("activate", Activate, because=_activate_because, candidates=activate_candidates)
@procedure(
    "activate",
    StepKind.ACTION,
    defines=("377", "377.3.a"),
    summary=lambda g, a: f"{a.by} activates {a.source}" + (f" (ability {a.ability})" if a.ability else ""),
    objects=lambda g, a: [a.source],
)
def activate(game: Game, act: Activate) -> None:
    player, source = act.by, game.obj(act.source)
    abilities = source.definition.activated if source.definition else []
    if not 0 <= act.ability < len(abilities):
        raise Refusal("377.1", f"{source.card} has no activated ability number {act.ability}")
    ability = abilities[act.ability]
    if source.controller != player or source.zone != Zone.BOARD:
        raise Refusal("378", f"{player} does not control {source.id} on the board")
    if ability.only_unattached and source.attached_to:
        raise Refusal("434.1.e", f"{source.card}'s ability is rules text, inactive while it is attached")
    if ability.condition and not calc.condition_holds(game, ability.condition, Condition(player, source.id, False)):
        rule = CONDITIONS[ability.condition][1]
        raise Refusal(rule, f"{source.card}'s ability is usable only while {ability.condition} holds")
    mark = ("activated", source.id, source.incarnation, act.ability)  # this turn's uses (trigger_marks)
    if ability.limit == "once_per_turn" and mark in game.trigger_marks:
        raise Refusal("377.2.b", f"{source.card}'s ability is usable only once each turn, and was used this turn")
    calc.ability_timing(game, player, ability)
    label = ability.label or f"{source.card} ability"
    here = _here(source)
    chosen = calc.choose_targets(
        game, tuple(ability.targets.items()), dict(act.targets), Targeting(label, player, source.id, here)
    )
    cost = ability.cost.plus(Cost(power=calc.deflect_cost(game, player, [chosen])))  # 809.1.c
    if ability.discounts:
        cost = calc.ability_discounts(game, source, ability, player, cost)
    purpose = f"ability {source.kind}"  # using an ability of a unit, a gear, a legend (restricted resources)
    problem = cost_problem(game, cost, player, source.id, purpose)
    if problem is not None:
        raise problem
    do.pay_cost(game, cost, player, source.id, label, purpose, because="404.1")
    if ability.limit == "once_per_turn":
        game.trigger_marks = (*game.trigger_marks, mark)
    calc.fire(game, Event("activate", player=player, card=source.id, location=here))
    item = ChainItem(
        game.new_id("item"),
        label,
        ItemKind.ABILITY,
        source.id,
        player,
        effects=tuple(ability.effects),
        target_specs=tuple(ability.targets.items()),
        targets=chosen,
        location=here,
        source_incarnation=source.incarnation,
    )
    if ability.adds:  # 400.2, 429.2: it resolves at once, like a unit or gear, and Priority does not pass
        calc.execute(game, calc.resolution(game, item, "400.2"), item.effects)
        calc.cleanup(game, "an ability added resources", "319.7")
        return
    calc.put_chosen_on_chain(game, item, "ability")
    calc.cleanup(game, "an ability was activated", "319.4")
    if item in game.chain:
        calc.give_priority_to_newest(game)
    calc.settle_priority(game)


@instruction("pay_any")
def op_pay_any(game: Game, run, ins) -> None:
    """`{op: pay_any, then: [...]}`: "Pay any amount of [A] to deal that much damage ...": a cost within the
    instruction, paid as the spell or ability resolves (204.3.b, whose example is this text): its controller chooses
    how much Power of any domain to pay, up to what they can pay now, then its instructions are done with that
    amount as their "that much" (none paid: no damage, 417.1.e)."""
    player = run.item.controller
    most = 0
    while most < _MOST_PAID and cost_problem(game, Cost(power=most + 1), player, run.item.source) is None:
        most += 1
    options = [str(n) for n in range(most + 1)]
    paid = int(
        choose(game, "amount", player, f"{run.item.label}: how much power of any domain to pay", options, "204.3.b")
    )
    if paid:
        do.pay_cost(game, Cost(power=paid), player, run.item.source, run.item.label, because=run.because)
    calc.execute(game, run, [{**i, "amount": paid} if i.get("amount") == "that much" else i for i in ins["then"]])


_MOST_PAID = 99  # "any amount": no more than a Rune Pool can hold in a replay (a player's 99 by default)


@instruction("pay_to")
def op_pay_to(game: Game, run, ins) -> None:
    """ "You may pay X to Y" inside an instruction (355.10.c.1): offered only when X can be paid now. With `payer:
    <reference>` the controller of the object named chooses and pays instead, as the item resolves (355.17), and
    `else: [...]` is done when they don't: "Counter a spell unless its controller pays [2]" (the spell's
    controller, 355.10.d: not a target; they can't pay what they can't afford, 404.1)."""
    cost = Cost.model_validate(ins["cost"])
    player = run.item.controller
    if "payer" in ins:
        named = [i for i in calc.refs(game, run, ins["payer"]) if i in game.objects]
        if not named:  # its controller is information no longer available (359.3.e.12)
            calc.impossible(game, run, "the object whose controller pays is gone: nothing is done", "359.3.e.12")
            return
        player = game.objects[named[0]].controller or game.objects[named[0]].owner
    problem = cost_problem(game, cost, player, run.item.source)
    options = ["yes", "no"] if problem is None else ["no"]
    if problem is not None:
        calc.impossible(game, run, f"the cost ({cost.describe()}) can't be paid: {problem.message} ({problem.rule})")
    if choose(game, "may", player, f"{run.item.label}: pay {cost.describe()}?", options, "404.1") == "yes":
        do.pay_cost(game, cost, player, run.item.source, run.item.label, because=run.because)
        calc.execute(game, run, ins.get("then", []))
    else:
        calc.execute(game, run, ins.get("else", []))
