"""Costs 131 and 356-357, domains 134 and 163, and the Rune Pool 165-167: the total cost of playing a card,
and paying Energy and Power from the pool.

A card's printed cost is Energy and Power of the card's domain (131, 134.1; written [C], of any domain when
the card has no domain, 135.2.e.6.b; of a card of several, as the version judged under reads it, 135.2.e.6.c).
Playing it from hidden or "ignoring its cost" sets the base cost to zero (356.1.b, 811.1.b); additional costs
are added (356.2: Accelerate 805, Repeat 820, Deflect 809); discounts are taken off (356.4, Legion 812); no cost
goes below zero (356.6).

Power has a domain (163.2.a): Power of one domain pays that domain's costs, and Power of any domain ([A],
163.2.b) pays any. A domain cost is paid from that domain's Power first, then from Power of any domain (so
the more flexible Power is spent only when needed); a cost of any domain ([A], 135.2.e.5.a) is paid from
the Power the player chooses when the pool holds more than one kind. Pools empty as the Draw Phase ends and
as each turn's Expiration Step ends (167, 316.3, 317.2.d).
"""

from __future__ import annotations

from scenarios.cards import Cost
from scenarios.game import Game
from scenarios.kernel import Refusal, calc, choose, condition, note, procedure, query
from scenarios.trace import StepKind

ANY = "any domain"


def domain_pool(player) -> dict[str, int]:
    return dict(player.domain_power)


def set_domain_pool(player, pool: dict[str, int]) -> None:
    player.domain_power = tuple(sorted((domain, n) for domain, n in pool.items() if n))


@query("total_cost")
def total_cost(game: Game, card, player: str, base: Cost | None, accelerate: bool, repeat: int, choices: list) -> Cost:
    """356: the base cost (printed when ``base`` is None; else an alternate one in its place: ``Cost()`` when it is
    ignored, 356.1.b, a Flow cost, 829.1.c.1), plus additional costs (356.2) and increases (356.3), less discounts
    (356.4; `discounts.changed_cost`)."""
    definition = card.definition
    additional = calc.additional_cost(game, card) if definition.additional_cost else None
    if additional is not None and additional.ignore_cost:
        base = Cost()  # "If you do, ignore this spell's cost" (356.1.b.1)
    cost = printed_cost(game, definition) if base is None else base
    if accelerate:
        cost = cost.plus(accelerate_cost(game, definition))
    for paid in definition.repeat[:repeat]:
        cost = cost.plus(calc.component_cost(game, card, player, paid, "repeat"))  # 356.4.c: discounted as added
    if additional is not None:
        cost = cost.plus(calc.additional_resources(game, card))  # 356.2
    deflect = 0 if definition.ignores_deflect else calc.deflect_cost(game, player, choices)  # "Ignore [Deflect]"
    if deflect:
        cost = cost.plus(Cost(power=deflect))  # 809.1.c.1: Power of any domain
    return calc.changed_cost(game, card, player, cost, choices)  # 356.3 increases, 356.4 discounts


@query("printed_cost")
def printed_cost(game: Game, definition) -> Cost:
    """The printed cost (131): Energy, and Power of the card's domain ([C], 134.1); of any domain ([A]) when the
    card has none; on a card of several domains, as the version judged under reads it (`multi_domain_power`)."""
    if len(definition.domains) > 1 and definition.power:
        return Cost(energy=definition.energy).plus(multi_domain_power(game, definition, definition.power))
    return definition.cost


def accelerate_cost(game: Game, definition) -> Cost:
    """805.1: [1] and one Power of the unit's domain ([A] when it has none, 805.1.a.2); of a unit of several
    domains, as the version judged under reads it (`multi_domain_power`)."""
    if len(definition.domains) == 1:
        return Cost(energy=1, domain_power={definition.domains[0]: 1})
    if definition.domains:
        return Cost(energy=1).plus(multi_domain_power(game, definition, 1))
    return Cost(energy=1, power=1)


def multi_domain_power(game: Game, definition, amount: int) -> Cost:
    """[C] on a card of several domains: Power of any one of its domains, or of any domain at all ([A]), as the
    version judged under reads it (a step says which, citing that version's rules)."""
    reading = game.reading("multi_domain_power")
    domains = tuple(sorted(definition.domains))
    any_domain = reading.choice == "any_domain"
    note(
        game,
        StepKind.EFFECT,
        "domain power",
        f"{definition.name} is {' and '.join(domains)}: its [C] is "
        + ("Power of any domain" if any_domain else f"Power of {' or '.join(domains)}"),
        reading.cited,
        reading.cited,
    )
    if any_domain:
        return Cost(power=amount)
    return Cost(power_of_domains=((domains, amount),))


@query("resource_problem")
def resource_problem(
    game: Game, player: str, cost: Cost, rule: str = "357.1", purpose: str | None = None
) -> Refusal | None:
    """Why the pool can't pay the Energy and Power of `cost` (a Refusal citing `rule`), or None; `purpose`: what it
    pays for ("play spell"), which resources restricted to it may pay too (`restricted_resources`)."""
    pool = calc.pool_for(game, player, purpose) if purpose else game.players[player]
    if pool.energy < cost.energy:
        return Refusal(rule, f"{player} can't pay {cost.energy} energy (has {pool.energy})")
    domains = domain_pool(pool)
    flexible = pool.power
    for domain, amount in cost.domain_power.items():
        short = max(0, amount - domains.get(domain, 0))
        if short > flexible:
            return Refusal(
                rule,
                f"{player} can't pay {amount} {domain} power (has {domains.get(domain, 0)} {domain} "
                f"and {flexible} of any domain; Power pays costs of its own domain)",
            )
        domains[domain] = max(0, domains.get(domain, 0) - amount)
        flexible -= short
    for group, amount in cost.power_of_domains:  # 135.2.e.6.c (1.4): Power of any of the card's domains
        own = sum(domains.get(domain, 0) for domain in group)
        if amount > own + flexible:
            return Refusal(
                rule,
                f"{player} can't pay {amount} power of {' or '.join(group)} (has {own} of those domains and "
                f"{flexible} of any domain)",
            )
        for domain in group:
            taken = min(amount, domains.get(domain, 0))
            domains[domain] = domains.get(domain, 0) - taken
            amount -= taken
        flexible -= amount
    if cost.power > flexible + sum(domains.values()):
        return Refusal(
            rule, f"{player} can't pay {cost.power} power of any domain (has {flexible + sum(domains.values())})"
        )
    return None


@query("pay_resources")
def pay_resources(game: Game, player: str, cost: Cost, rule: str = "357.1", purpose: str | None = None) -> None:
    """Pay the Energy and Power of `cost` from the player's pool (357.1), or refuse citing `rule`; for `purpose`,
    with the resources restricted to it first (`restricted_resources.pay_restricted_first`)."""
    problem = resource_problem(game, player, cost, rule, purpose)
    if problem is not None:
        raise problem
    spent = cost.power + sum(cost.domain_power.values()) + sum(n for _, n in cost.power_of_domains)
    if spent:
        game.players[player].power_spent_this_turn += spent  # "if you've spent at least [A][A] this turn"
    if purpose and calc.pay_restricted_first(game, player, cost, rule, purpose):
        return
    pool = game.players[player]
    pool.energy -= cost.energy
    domains = domain_pool(pool)
    for domain, amount in cost.domain_power.items():
        own = min(amount, domains.get(domain, 0))
        domains[domain] = domains.get(domain, 0) - own
        pool.power -= amount - own  # 163.2.b: Power of any domain pays what the domain's own Power can't
    for group, amount in cost.power_of_domains:  # 135.2.e.6.c (1.4): Power of any of the card's domains
        for _ in range(amount):
            kinds: list[str] = [domain for domain in group if domains.get(domain, 0)] or [ANY]  # [A] only when needed
            pick = (
                kinds[0]
                if len(kinds) == 1
                else choose(game, "power", player, f"which Power pays 1 of {' or '.join(group)}", kinds, "357.3")
            )
            if pick == ANY:
                pool.power -= 1
            else:
                domains[pick] -= 1
    for _ in range(cost.power):  # 135.2.e.5.a: Power of any domain pays [A]; which is the payer's choice
        kinds = sorted(domain for domain, n in domains.items() if n) + ([ANY] if pool.power else [])
        pick = (
            kinds[0]
            if len(kinds) == 1
            else choose(game, "power", player, f"which Power pays 1 of any domain ({cost.describe()})", kinds, "357.3")
        )
        if pick == ANY:
            pool.power -= 1
        else:
            domains[pick] -= 1
    set_domain_pool(pool, domains)


@query("add_to_pool")
def add_to_pool(game: Game, player: str, energy: int = 0, power: int = 0, domain: str | None = None) -> None:
    """429.1, 166.1: resources go to the controlling player's Rune Pool."""
    pool = game.players[player]
    pool.energy += energy
    if domain is None:
        pool.power += power
    else:
        domains = domain_pool(pool)
        domains[domain] = domains.get(domain, 0) + power
        set_domain_pool(pool, domains)


@procedure(
    "empty_rune_pools",
    StepKind.TURN,
    defines=("167", "167.1"),
    summary="every player's Rune Pool empties: unspent Energy and Power are lost",
)
def empty_rune_pools(game: Game) -> None:
    for pool in game.players.values():
        if pool.energy or pool.power or pool.domain_power:  # most pools are empty already: no write to make
            pool.energy, pool.power, pool.domain_power = 0, 0, ()
        if pool.restricted:  # resources held apart for some costs empty with the rest (167)
            pool.restricted = ()


def _power_spent(n: int):
    return lambda game, context: game.players[context.player].power_spent_this_turn >= n


def _spell_energy(n: int):
    return lambda game, context: game.players[context.player].spell_energy_this_turn >= n


# "If you've spent at least [A][A] this turn": the Power its player has paid this turn, for any cost (357.1);
# "If you've spent [4] or more to play a spell this turn": the Energy paid to play one spell (357.1, 356.1), the
# most of this turn's spells (`playing.play`); checked as the text is (364.3.a)
for _n in range(1, 13):
    condition(f"spent {_n} power this turn", "357.1")(_power_spent(_n))
    condition(f"spent {_n} energy to play a spell this turn", "357.1")(_spell_energy(_n))
