"""Additional costs 356.2 and 357.2, and a card entering ready on a condition.

An additional cost is a passive ability of the card being played (356.2.a.1, 356.2.b.1): "As an additional cost
to play me, kill a friendly unit" must be paid to play it; "You may pay [C] as an additional cost to play me" is
paid only if its player chose so as they made the play's choices (355.1.a: the Play's `additional`, a count for
"any number"). Its Energy and Power join the total cost (356.2) and are paid with it (357.1); its other parts
(discard, spend a buff, spend XP, kill, exhaust or return a friendly object) are paid after them (357.2, 356.7). A
cost ignored by the play ("ignoring its cost", 356.1.b) leaves the additional cost to pay (356.1.b.3). Whether
the optional cost was paid is the condition word "additional cost paid" (356.4.f.1: paid if the player chose to
pay it, however much it came to), which a discount ("If you do, reduce my cost by [2]"), a play effect ("When you
play me, if you paid the additional cost, buff me"), a spell's text ("If you paid the additional cost, deal 5 to
it instead") or entering ready ("If you do, I enter ready") reads. Discounts and increases: `discounts.py`.
"""

from __future__ import annotations

from scenarios.cards import AdditionalCost, Cost
from scenarios.game import Game
from scenarios.kernel import Condition, Refusal, calc, choose, condition, do, procedure, query
from scenarios.objects import Kind, Zone
from scenarios.trace import StepKind


@condition("additional cost paid", "356.4.f.1")
def _paid(game: Game, context) -> bool:
    source = game.objects.get(context.source) if context.source else None
    return source is not None and source.paid_additional > 0


@query("additional_cost")
def additional_cost(game: Game, card) -> AdditionalCost | None:
    """The additional cost this play of `card` adds: a mandatory one always (356.2.a), an optional one when its
    player chose to pay it (356.2.b.1, `paid_additional` set as the play's choices were made)."""
    additional = card.definition.additional_cost
    if additional is None or (additional.optional and not card.paid_additional):
        return None
    return additional


def _standard(cost: Cost) -> Cost:
    """The Energy and Power of a cost, which join the total cost (356.2, 357.1)."""
    return Cost(
        energy=cost.energy, power=cost.power, domain_power=cost.domain_power, power_of_domains=cost.power_of_domains
    )


def _non_standard(cost: Cost) -> Cost:
    """The parts of a cost that are neither Energy nor Power, paid after them (357.2)."""
    return cost.model_copy(update={"energy": 0, "power": 0, "domain_power": {}, "power_of_domains": ()})


def _times(card, additional) -> int:
    """How many times the additional cost is paid: once, or as many as declared ("any number", 355.1.a)."""
    return card.paid_additional if additional.any_number and additional.optional else 1


@query("additional_resources")
def additional_resources(game: Game, card) -> Cost | None:
    additional = calc.additional_cost(game, card)
    if additional is None:
        return None
    standard, n = _standard(additional.cost), _times(card, additional)
    if n == 1:
        return standard
    return Cost(
        energy=standard.energy * n,
        power=standard.power * n,
        domain_power={d: v * n for d, v in standard.domain_power.items()},
        power_of_domains=tuple((g, v * n) for g, v in standard.power_of_domains),
    )


@query("additional_most")
def additional_most(game: Game, card, player: str) -> int:
    """The most times its player may declare paying the card's optional additional cost: once, or for "any number"
    as many times as there are objects to pay it with (friendly units to kill, buffs to spend)."""
    additional = card.definition.additional_cost
    if not additional.any_number:
        return 1
    acts = [_payable_with(game, player, act, getattr(additional, act), card.id) for act, _ in _ACTS]
    objects = [len(found) for found in acts if found] or [0]
    if additional.cost.spend_buff:
        objects.append(len(calc.buffs_to_spend(game, additional.cost, player, None)))
    return min(objects)


_ACTS = (("kill", "356.7"), ("exhaust", "414.4"), ("bounce", "356.7"))  # what an additional cost does to an object
_VERBS = {"kill": "kill", "exhaust": "exhaust", "bounce": "return to its owner's hand"}


def _payable_with(game: Game, player: str, act: str, what: str | None, playing: str) -> list[str]:
    """The objects `player` may kill, exhaust or return to pay an additional cost ("a friendly unit")."""
    if what is None:
        return []
    kind = Kind.GEAR if what == "friendly gear" else Kind.UNIT
    found = [
        o
        for o in game.objects.values()
        if o.zone == Zone.BOARD and o.kind == kind and o.controller == player and o.id != playing
    ]
    if what == "friendly mighty unit":
        found = [o for o in found if calc.is_mighty(game, o)]
    if act == "exhaust":  # 414.4: an exhausted object can't be exhausted to pay a cost
        found = [o for o in found if not o.exhausted]
    return sorted(o.id for o in found)


@query("additional_cost_problem")
def additional_cost_problem(game: Game, card, player: str) -> Refusal | None:
    """Why the additional cost this play adds can't be paid (its non-standard parts; its Energy and Power are
    checked with the total cost), or None."""
    additional = calc.additional_cost(game, card)
    if additional is None:
        return None
    if additional.condition and not calc.condition_holds(game, additional.condition, Condition(player, card.id, True)):
        return Refusal("356.2.b.1", f"{card.card}'s optional additional cost is offered only if {additional.condition}")
    n = _times(card, additional)
    for act, rule in _ACTS:
        what = getattr(additional, act)
        if what and len(_payable_with(game, player, act, what, card.id)) < n:
            return Refusal("357.2", f"{player} controls no {what.removeprefix('friendly ')} to {_VERBS[act]} ({rule})")
    if n > 1 and additional.cost.spend_buff and len(calc.buffs_to_spend(game, additional.cost, player, None)) < n:
        return Refusal("702.2.b.1", f"{player}'s units have fewer than {n} buffs to spend")
    return calc.cost_problem(game, _non_standard(additional.cost), player, None)


@procedure(
    "pay_additional_cost",
    StepKind.EFFECT,
    defines=("357.2",),
    summary=lambda g, card, player: f"{player} pays the additional cost of {card.id} ({card.card})",
    objects=lambda g, card, player: [card.id],
)
def pay_additional_cost(game: Game, card, player: str) -> None:
    """357.2: the non-standard parts of the additional cost, after the Energy and Power (paid with the total)."""
    additional = calc.additional_cost(game, card)
    if additional is None:
        return
    problem = additional_cost_problem(game, card, player)
    if problem is not None:
        raise problem
    rest, n = _non_standard(additional.cost), _times(card, additional)
    card.killed_to_play = ()  # this play's, not an earlier one's
    for _ in range(n if rest != Cost() else 0):
        do.pay_cost(game, rest, player, None, f"{card.card}: additional cost", because="357.2")
    for act, rule in [(act, rule) for act, rule in _ACTS if getattr(additional, act)] * n:
        what = getattr(additional, act)
        options = _payable_with(game, player, act, what, card.id)
        pick = choose(game, act, player, f"{what} to {_VERBS[act]} (an additional cost)", options, "356.7")
        label = f"{card.card}: additional cost"
        if act == "kill":
            calc.kill_all(game, [pick], False, ("357.2", rule))
            if game.objects[pick].zone != Zone.BOARD:  # died (not replaced): "the killed unit" its text names
                card.killed_to_play = (*card.killed_to_play, pick)
        elif act == "exhaust":
            do.exhaust(game, [pick], label, because="357.2")
        else:
            do.return_to_hand(game, [pick], label, because="357.2")


@query("decide_additional")
def decide_additional(game: Game, unit, player: str) -> None:
    """A card played by an effect ignoring its cost still has its additional costs (356.1.b.3): an optional one is
    offered (355.1.a) when it can be paid; paid with the rest of the total cost (`playing.play_by_effect`)."""
    additional = unit.definition.additional_cost
    unit.paid_additional = 0
    if additional is None or not additional.optional:
        return
    if additional.any_number:  # how many times, as many as there are objects to pay it with
        most = calc.additional_most(game, unit, player)
        prompt = f"times to pay the optional additional cost of {unit.id} (any number)"
        counts = [str(n) for n in range(most + 1)]
        unit.paid_additional = int(choose(game, "additional", player, prompt, counts, "355.1.a", forced_ok=False))
        return
    unit.paid_additional = 1
    payable = calc.additional_cost_problem(game, unit, player) is None and (
        calc.resource_problem(game, player, _standard(additional.cost)) is None
    )
    prompt = f"pay the optional additional cost of {unit.id} ({additional.cost.describe()})"
    options = ["pay", "decline"] if payable else ["decline"]
    unit.paid_additional = int(choose(game, "additional", player, prompt, options, "355.1.a", forced_ok=False) == "pay")


@condition("you've played a spell this turn", "356.2.b.1", reads="cards_played_as_checked")
def _played_a_spell(game: Game, context) -> bool:
    played = calc.plays_checked(game, context.player)[1]
    return any(game.objects[i].definition.type == "spell" for i in played if i in game.objects)
