"""Layers 450-457: a unit's current Might.

Layer 3 (arithmetic, 454.3): increases apply first, then decreases (454.3.d), each
group in timestamp order (457). Two kinds of modifier meet here:

* continuous passives ("while" effects, battlefield passives, Assault/Shield, attached
  gear's Might bonus, buffs) are recomputed every time Might is read;
* modifiers created by a resolving spell or ability ("give a unit -4 Might this turn,
  to a minimum of 1") are limited once, when they apply, and remembered at that level
  (snapshotting, 454.3.b); `snapshot_modifier` computes that fixed amount.

A passive decrease with a minimum (Leona, Zealot) is limited each time the layer is
applied, against the running value after all increases.
"""

from __future__ import annotations

SELECTORS = {
    "units_here": lambda game, src, unit: src.kind == "battlefield" and unit.location == src.id,
    "other_friendly_units_here": lambda game, src, unit: (
        unit.id != src.id and unit.controller == src.controller and unit.location == src.location
    ),
    "friendly_unit_defending_alone": lambda game, src, unit: (
        unit.controller == src.controller
        and unit.designation == "defender"
        and [u.id for u in game.units(unit.location, unit.controller) if u.designation == "defender"] == [unit.id]
    ),
    "stunned_enemy_units_here": lambda game, src, unit: (
        unit.controller != src.controller and unit.stunned and unit.location == src.location
    ),
}


def keyword_value(game, unit, keyword: str) -> int:
    """Summed value of a keyword from the card, grants, and attached gear (733.2, 740.2)."""
    total = unit.definition.keywords.get(keyword, 0)
    total += sum(g["value"] for g in unit.granted if g["keyword"] == keyword)
    return total


def has_keyword(game, unit, keyword: str) -> bool:
    return keyword_value(game, unit, keyword) > 0 or keyword in unit.definition.keywords


def _passive_sources(game):
    for src in game.objects.values():
        if src.zone != "board" or src.attached_to:
            continue  # passives of permanents are active on the board only (362.1); attached text is inactive
        for passive in src.definition.passives:
            yield src, passive


def might_parts(game, unit):
    """(base, increases, decreases): each modifier as (label, amount, minimum, timestamp)."""
    increases, decreases = [], []
    if unit.buffs:
        increases.append(("buff", unit.buffs, None, 0))
    for gear in game.attached(unit.id):
        if gear.definition.might_bonus:
            increases.append((f"{gear.card} (attached)", gear.definition.might_bonus, None, gear.timestamp))
    if unit.designation == "attacker" and keyword_value(game, unit, "Assault"):
        increases.append(("Assault", keyword_value(game, unit, "Assault"), None, 0))
    if unit.designation == "defender" and keyword_value(game, unit, "Shield"):
        increases.append(("Shield", keyword_value(game, unit, "Shield"), None, 0))
    for src, passive in _passive_sources(game):
        if passive.might and SELECTORS[passive.selector](game, src, unit):
            entry = (src.card, abs(passive.might), passive.minimum, src.timestamp)
            (increases if passive.might > 0 else decreases).append(entry)
    for modifier in unit.modifiers:
        entry = (modifier["source"], abs(modifier["amount"]), None, modifier["timestamp"])
        if modifier["amount"] > 0:
            increases.append(entry)
        elif modifier["amount"] < 0:
            decreases.append(entry)
    return unit.might_base or 0, sorted(increases, key=lambda e: e[3]), sorted(decreases, key=lambda e: e[3])


def might(game, unit) -> int:
    value, _ = _apply(game, unit)
    return value


def explain(game, unit) -> str:
    _, text = _apply(game, unit)
    return text


def _apply(game, unit):
    base, increases, decreases = might_parts(game, unit)
    value, text = base, [f"base {base}"]
    for label, amount, _, _ in increases:
        value += amount
        text.append(f"+{amount} {label}")
    for label, amount, minimum, _ in decreases:
        applied = amount if minimum is None else min(amount, max(0, value - minimum))
        value -= applied
        text.append(f"-{applied} {label}" + (f" (of -{amount}, minimum {minimum})" if minimum is not None else ""))
    return value, " ".join(text) + f" = {value}"


def snapshot_modifier(game, unit, amount: int, minimum: int | None) -> int:
    """The fixed amount a resolving might modifier applies (454.3.b): limited now, remembered."""
    if minimum is None or amount >= 0:
        return amount
    current = might(game, unit)
    return -min(-amount, max(0, current - minimum))
