"""Resources added with a restriction on what they pay for: "[Add] [2 Energy]. Use only to play spells." (429.1,
166.1: added to the player's Rune Pool, which holds it apart from the rest, `Player.restricted`).

`{op: add, energy: 2, only: spells}` adds it; it pays only the costs of what it may be used for (a spell played,
`purpose` "play spell"; a gear played, "play gear"; an activated ability of a gear used, "ability gear"; anything
while a showdown is on, 308, for Energy "spent only during showdowns"). Of each kind (Energy, a domain's Power,
Power of any domain) it is spent before the pool's other resources of that kind (the resource that pays fewer
things goes first: the player keeps every other choice they had). Between kinds the pool's usual order holds (a
domain's own Power before Power of any domain, `costs.pay_resources`): a restricted [A] may so be kept over the
player's own domain Power, which the player is not asked about. It empties with the rest of the Rune Pool (167).
"""

from __future__ import annotations

from types import SimpleNamespace

from scenarios.game import Game
from scenarios.kernel import calc, procedure, query
from scenarios.trace import StepKind

# what a restriction lets its resources pay for: the purposes of the payments (`pay_resources`' `purpose`)
USES = {
    "spells": ("play spell",),
    "gear": ("play gear", "ability gear"),  # "Use only to play gear or use gear abilities"
    "units": ("play unit", "ability unit"),  # "Spend this Energy only to play units or activated abilities of units"
}


def _serves(game: Game, use: str, purpose: str | None) -> bool:
    if purpose is None:
        return False
    if use == "showdowns":  # "Spend this Energy only during showdowns": whatever it pays for, while one is on (308)
        return game.showdown is not None
    return purpose in USES.get(use, ())


def _kinds(energy: int, power: int, domain: str | None) -> dict:
    return {k: n for k, n in (("energy", energy), (domain or "any", power)) if n}


@procedure(
    "add_restricted",
    StepKind.EFFECT,
    defines=("429.1", "166.1"),
    summary=lambda g, player, energy, power, domain, use, label: (
        f"{label}: {player} adds "
        + " and ".join(
            p
            for p in (f"{energy} Energy" if energy else "", f"{power} {domain or 'any-domain'} Power" if power else "")
            if p
        )
        + f", to use only for {use}"
    ),
    objects=lambda g, player, *a: [player],
)
def add_restricted(game: Game, player: str, energy: int, power: int, domain: str | None, use: str, label: str) -> None:
    pool = game.players[player]
    pool.restricted = (*pool.restricted, (use, energy, power, domain))


def _usable(game: Game, pool, purpose: str | None) -> list[tuple[str, int, int, str | None]]:
    return [entry for entry in pool.restricted if _serves(game, entry[0], purpose)]


@query("pool_for")
def pool_for(game: Game, player: str, purpose: str | None):
    """The Rune Pool as it can pay for `purpose`: its resources and the restricted ones that may pay for it."""
    pool = game.players[player]
    usable = _usable(game, pool, purpose)
    if not usable:
        return pool
    energy, power, domains = pool.energy, pool.power, dict(pool.domain_power)
    for _, e, p, domain in usable:
        energy += e
        if domain is None:
            power += p
        else:
            domains[domain] = domains.get(domain, 0) + p
    return SimpleNamespace(energy=energy, power=power, domain_power=tuple(sorted(domains.items())))


@query("pay_restricted_first")
def pay_restricted_first(game: Game, player: str, cost, rule: str, purpose: str) -> bool:
    """Pay `cost` for `purpose` spending the restricted resources that may pay for it first; False when there are
    none (then it is the pool's to pay as usual)."""
    pool = game.players[player]
    usable = _usable(game, pool, purpose)
    if not usable:
        return False
    held: dict[
        str, int
    ] = {}  # per kind of resource ("energy", a domain, "any"): the restricted amount moved into the pool
    for _, e, p, domain in usable:
        for kind, n in _kinds(e, p, domain).items():
            held[kind] = held.get(kind, 0) + n
    before = _totals(pool)
    merged = pool_for(game, player, purpose)
    pool.energy, pool.power, pool.domain_power = merged.energy, merged.power, merged.domain_power
    calc.pay_resources(game, player, cost, rule)
    after = _totals(pool)
    # restricted first: of each kind, what was spent came out of the restricted amount before the rest
    left = {kind: max(0, n - (before.get(kind, 0) + n - after.get(kind, 0))) for kind, n in held.items()}
    pool.energy -= left.get("energy", 0)
    pool.power -= left.get("any", 0)
    domains = dict(pool.domain_power)
    for kind, n in left.items():
        if kind not in ("energy", "any"):
            domains[kind] -= n
    pool.domain_power = tuple(sorted((d, n) for d, n in domains.items() if n))
    # what is left keeps its restriction (each restriction serves purposes of its own: `USES`)
    use = usable[0][0]
    kept = [entry for entry in pool.restricted if entry not in usable]
    if left.get("energy") or left.get("any"):
        kept.append((use, left.get("energy", 0), left.get("any", 0), None))
    kept += [(use, 0, n, domain) for domain, n in left.items() if domain not in ("energy", "any") and n]
    pool.restricted = tuple(kept)
    return True


def _totals(pool) -> dict:
    totals = {"energy": pool.energy, "any": pool.power}
    totals.update(dict(pool.domain_power))
    return totals
