"""Damage read from card text. Bonus Damage (712-715): a property of a Deal action that increases the damage it
deals to each unit (715.2), summed with any other (714), only when some is dealt (715.4; `rules/damage.py` adds it).

    Your spells and abilities deal N Bonus Damage           a passive {to: {who: unit}, bonus_damage: N}
    Spells and abilities deal N Bonus Damage to units here  ... {to: {who: unit, where: here}, bonus_from: any}
    <Deal ...>. This deals N Bonus Damage for each <objects> the Deal's `bonus`: {count: <filter>, times: N}
    The next spell you play this turn deals N Bonus Damage  {op: next_spell_bonus, n: N} (a delayed passive, 391)

Amounts and choices of a Deal: "Discard 1. Deal its Energy cost as damage to ...", the discarded card's printed
cost (206); "Deal 6 to it unless its controller has you draw 2", an `either` the chosen unit's controller chooses
as the spell resolves (355.17); "Pay any amount of [A] to deal that much damage to ...", a cost within the
instruction (204.3.b).
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD
from scenarios.card_reader.amounts import counted
from scenarios.card_reader.effects import _ref, instructions, template
from scenarios.card_reader.phrases import Context
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

_BONUS = re.compile(r"(?P<your>your )?spells and abilities deal (?P<n>\d+) bonus damage(?P<here> to units here)?")


@paragraph_reader("static")
def _read_bonus_damage(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Your spells and abilities deal 1 Bonus Damage", "Spells and abilities deal 1 Bonus Damage to units here": a
    passive granting Bonus Damage to the Deal actions of spells and abilities (417.4, 713), its controller's or
    anyone's, to any unit or to the units at the card's place (a battlefield's "here" is itself, 053.3)."""
    found = _BONUS.fullmatch(text)
    if not found or int(found["n"]) < 1:  # 714.1: only ever positive (an Equipment's: `card_reader._effect_text`)
        return False
    to: dict[str, Any] = {"who": "unit", "where": "here"} if found["here"] else {"who": "unit"}
    passive = {"to": to, "bonus_damage": int(found["n"]), "bonus_from": "you" if found["your"] else "any"}
    card.setdefault("passives", []).append(passive)
    used.append("static: <your> spells and abilities deal N bonus damage <to units here>")
    return True


_OWN_BONUS = re.compile(r"this deals (?P<n>\d+) bonus damage for each (?P<what>.+?)\.?")


def _read_own_bonus(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    """ "Deal 2 to a unit at a battlefield. This deals 1 Bonus Damage for each card with this name in your trash":
    Bonus Damage of the Deal action before (417.4, 713), counted as it is dealt and summed with any other (714)."""
    found = _OWN_BONUS.fullmatch(sentence.strip())
    if not found or len(before) != 1 or before[0].get("op") != "deal" or "by" in before[0] or "bonus" in before[0]:
        return None
    flt = counted(found["what"], ctx)
    if flt is None:
        return None
    used.append("amount: this deals N bonus damage for each")
    return [{**before[0], "bonus": {"count": flt, "times": int(found["n"])}}]


@template("bonus damage", r"the next spell you play this turn deals (?P<n>\d+) bonus damage")
def _next_spell_bonus(m, ctx):
    """ "The next spell you play this turn deals 1 Bonus Damage" (Ravenborn Tome; 391's example): a delayed passive
    of the next spell its controller plays this turn."""
    n = int(m["n"])
    return [{"op": "next_spell_bonus", "n": n}] if n > 0 else None


@template("unless its controller", r"(?P<then>deal \d+ to it) unless its controller has you (?P<alt>.+)")
def _unless_its_controller(m, ctx):
    """ "Choose an enemy unit. Deal 6 to it unless its controller has you draw 2": the chosen unit's controller
    chooses as the spell resolves (355.17) between the damage and what they have you do (which chooses nothing)."""
    if ctx.it not in ctx.targets:
        return None
    before = dict(ctx.targets)
    deal, alt = instructions(m["then"], ctx, []), instructions(m["alt"], ctx, [])
    if deal is None or alt is None or ctx.targets != before:
        return None
    labels = [m["then"], f"have you {m['alt']}"]  # as printed: "you" is the spell's controller
    return [{"op": "either", "options": [deal, alt], "labels": labels, "chooser": ctx.it}]


_DISCARDED_COST = re.compile(r"deal its energy cost as damage to (?P<obj>.+?)\.?")


def _read_discarded_cost(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    """ "Discard 1. Deal its Energy cost as damage to a unit at a battlefield": "its" is the card discarded (the
    instructions are linked, 359.3.e.14), its printed Energy cost (206; "Ignore its Power cost"). Nothing discarded,
    the amount is null and no damage is dealt (359.3.e.12)."""
    found = _DISCARDED_COST.fullmatch(sentence.strip())
    if not found or before != [{"op": "discard", "n": 1}]:
        return None
    to = _ref(found["obj"], ctx)
    if to is None:
        return None
    used.append("deal the discarded card's energy cost")
    discard = {"op": "discard", "n": 1, "noted": "discarded"}
    return [discard, {"op": "deal", "amount": {"energy_cost": "discarded"}, "to": to}]


@template("pay any amount", r"pay any amount of \[any rune\] to deal that much damage to (?P<rest>.+)")
def _pay_any_to_deal(m, ctx):
    """ "Pay any amount of [A] to deal that much damage to all enemy units at a battlefield": a cost within the
    instruction paid as it resolves (204.3.b), the Deal after it of the amount paid."""
    deal = instructions(f"deal 1 to {m['rest']}", ctx, [])
    if deal is None or len(deal) != 1 or deal[0].get("op") != "deal" or deal[0]["amount"] != 1:
        return None
    return [{"op": "pay_any", "then": [{**deal[0], "amount": "that much"}]}]


INSTEAD.extend((_read_own_bonus, _read_discarded_cost))
