"""Amounts the engine counts as it performs them: "for each ...", "equal to ...", "double", "my Might is increased
by ...". Every wording reads into ONE expression, a quantity (`scenarios.selectors.Quantity`, performed by
`scenarios/rules/amounts.py`), which every instruction taking an amount accepts (`deal`, `might`, `draw`,
`gain_xp`) and a passive multiplies what it gives by (`per`).

    for each <objects>                 {count: <object filter>, times: N}   (135.2.b.5.a)
    for each of the following tags among your units — Bird, Cat, Dog, and Poro
                                       {tags_among: <object filter>, tags: [Bird, ...], times: N}   (133.8)
    equal to its / my Might            might_of:<reference> (the one measure said as a word, as cards.yaml does)
    equal to the damage marked on it   {damage: <reference>}
    equal to my [Assault]              {keyword: Assault, of: this}         (807.2)
    equal to that spell's Energy cost  {energy_cost: <slot>}                (206)
    equal to the number of <objects>   {count: <object filter>}
    <objects> have total Might N       {total_might: <object filter>}
    (increased by) your points         {points: you}
    double <unit>'s Might              {double: <reference>}                (432.1)
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader import effects
from scenarios.card_reader.effects import _ref, template
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.phrases import Context, group_filter, number, signed, tag_list, untagged
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

# "you or allies control": the engine plays no mode with teammates (447.2.b), so a player's allies are no one
_CONTROL = re.compile(r"(?P<noun>battlefield|unit|gear)s? you (?:or allies )?control")
_STATES = (
    ("[mighty] ", "mighty", True),
    ("buffed ", "buffed", True),
    ("damaged ", "damaged", True),
    ("stunned ", "stunned", True),
    ("ready ", "exhausted", False),
    ("exhausted ", "exhausted", True),
)


def counted(phrase: str, ctx: Context) -> dict[str, Any] | None:
    """ "each of your [Mighty] units", "friendly gear", "enemy unit there", "Equipment attached to me", "buffed
    friendly unit at my battlefield" -> the object filter of what is counted; None if not understood."""
    phrase = re.sub(r"^(?:each )?of ", "", phrase.strip())
    if phrase in ("cards in your trash", "card in your trash"):  # off the board a card's controller is its owner
        return {"who": "friendly card", "zone": "trash"}
    if phrase in ("equipment you control", "your equipment"):  # gear with the Equipment tag (133.8, 719)
        return {"who": "friendly gear", "tag": "Equipment"}
    if phrase in ("cards with this name in your trash", "card with this name in your trash") and ctx.me == "this":
        return {"who": "friendly card", "zone": "trash", "named_as": "this"}  # its own name (132.1)
    if phrase in ("equipment attached to me", "equipment attached to it"):
        # "me" is the card itself: an Equipment's "me" (the equipped unit) is not said here
        return {"who": "attached gear", "tag": "Equipment"} if ctx.me == "this" and phrase.endswith("me") else None
    where: str | None = None
    if phrase.endswith(" there"):  # where the unit chosen before is (its location)
        if ctx.it not in ctx.targets:
            return None
        phrase, where = phrase.removesuffix(" there"), f"at {ctx.it}"
    elif phrase.endswith(" at that battlefield"):  # "When you conquer, if you have 4+ units at that battlefield"
        at_battlefields = all(
            e.get("event") in ("conquer", "hold") or e.get("where") == "battlefield" for e in ctx.when
        )
        if not ctx.when or not at_battlefields:  # the battlefield of the trigger's event, noted as it triggered
            return None
        phrase, where = phrase.removesuffix(" at that battlefield"), "at trigger_location"
    elif phrase.endswith(" at my battlefield"):
        phrase, where = phrase.removesuffix(" at my battlefield"), "my battlefield"
    states: dict[str, Any] = {}
    having = re.fullmatch(r"(?P<rest>.+) with \[(?P<kw>[a-z-]+)\]", phrase)
    if having:  # "your units with [Temporary]": those that have the keyword as they are counted
        keyword = engine_keyword(having["kw"])
        if keyword is None:
            return None
        phrase, states["keyword"] = having["rest"], keyword
    phrase = re.sub(r"^an? ", "", phrase)  # "if there is a ready enemy unit here": one such unit counted
    for word, state, value in _STATES:
        for opening in ("", "your ", "friendly ", "enemy "):
            if phrase.startswith(opening + word):
                phrase = opening + phrase[len(opening + word) :]
                states[state] = value
    other = phrase.startswith("other battlefield")  # "each other battlefield you control": not the source itself
    if phrase.startswith(("token unit", "your token unit")):  # "token units you control" (185)
        phrase = phrase.replace("token unit", "unit")
        states["token"] = True
    # "other unit you control here": the units its controller controls at the source's location
    phrase = re.sub(r"^(other )?units? you (?:or allies )?control here$", r"\1friendly units here", phrase)
    control = _CONTROL.fullmatch(phrase.removeprefix("other "))
    if control:
        phrase = {"battlefield": "battlefield you control"}.get(control["noun"], f"friendly {control['noun']}")
        if phrase == "battlefield you control":
            if states or where:
                return None
            return {"who": phrase, "where": "other battlefield"} if other else {"who": phrase}
    phrase, tag = untagged(phrase)
    flt = group_filter(phrase if phrase.startswith("your ") or phrase.endswith("s") else f"each {phrase}")
    if flt is None or (where and "where" in flt):
        return None
    if where:
        flt["where"] = where
    if tag:
        flt["tag"] = tag
    return {**flt, **states}


def measure(phrase: str, ctx: Context) -> dict[str, Any] | str | None:
    """What "equal to ..." names, as a quantity ("might_of:<reference>" for a Might); None if not understood."""
    phrase = phrase.strip()
    found = re.fullmatch(r"(?P<whose>its|my|that unit's|their) might", phrase)
    if found:
        whose = ctx.me if found["whose"] == "my" else ctx.it
        if whose == "equipped":  # an Equipment's "my Might" (the equipped unit's): not said yet, as `_deal` holds
            return None
        return f"might_of:{whose}" if whose else None  # the Might of one object: the form cards.yaml says it in
    if phrase in ("the damage marked on it", "the damage on it"):
        return {"damage": ctx.it} if ctx.it in ctx.targets else None
    found = re.fullmatch(r"my \[(?P<kw>[a-z-]+)\]", phrase)
    if found:
        keyword = engine_keyword(found["kw"])
        return {"keyword": keyword, "of": ctx.me} if keyword and ctx.me == "this" else None
    if phrase in ("that spell's energy cost", "its energy cost"):
        spell = next((s for s, spec in ctx.targets.items() if spec.get("type") == "spell"), None)
        return {"energy_cost": spell} if spell else None
    if phrase == "your points":
        return {"points": "you"}
    found = re.fullmatch(r"the number of (?P<what>.+)", phrase)
    if found:
        flt = counted(found["what"], ctx)
        return {"count": flt} if flt else None
    return None


_TAGS_AMONG = re.compile(r"of the following tags among (?P<whose>.+?) \u2014 (?P<tags>.+)")


def tags_among(phrase: str, ctx: Context) -> dict[str, Any] | None:
    """ "of the following tags among your units — Bird, Cat, Dog, and Poro": how many of those tags the objects
    have among them (133.8), each tag once (`tags_among`)."""
    found = _TAGS_AMONG.fullmatch(phrase.strip())
    listed = tag_list(found["tags"]) if found else None
    flt = counted(found["whose"], ctx) if found else None
    if listed is None or listed[1] != "and" or flt is None:
        return None
    return {"tags_among": flt, "tags": listed[0]}


def _per(n: str, what: str, ctx: Context) -> dict[str, Any] | None:
    among = tags_among(what, ctx)
    if among is not None:
        return {**among, "times": int(n)}
    flt = counted(what, ctx)
    return None if flt is None else {"count": flt, "times": int(n)}


# -- instructions ----------------------------------------------------------------------------------------------


@template("amount: for each", r"deal (?P<n>\d+) to (?P<obj>.+?) for each (?P<what>.+)")
def _deal_for_each(m, ctx):
    to = _ref(m["obj"], ctx)
    amount = _per(m["n"], m["what"], ctx) if to is not None else None
    return None if amount is None else [{"op": "deal", "amount": amount, "to": to}]


@template("amount: for each", r"(?:you )?draw (?P<n>\d+) for each (?P<what>.+)")
def _draw_for_each(m, ctx):
    amount = _per(m["n"], m["what"], ctx)
    return None if amount is None else [{"op": "draw", "n": amount}]


@template("amount: for each", r"(?:you )?gain (?P<n>\d+) xp for each (?P<what>.+)")
def _xp_for_each(m, ctx):
    amount = _per(m["n"], m["what"], ctx)
    return None if amount is None else [{"op": "gain_xp", "n": amount}]


@template("amount: for each", r"give (?P<obj>.+?) (?P<sign>\+)(?P<n>\d+) might this turn for each (?P<what>.+)")
def _might_for_each(m, ctx):
    to = _ref(m["obj"], ctx)
    amount = _per(m["n"], m["what"], ctx) if to is not None else None
    return None if amount is None else [{"op": "might", "amount": amount, "to": to}]


@template("amount: for each", r"(?P<play>play an? .+? unit token.*?) for each (?P<what>.+)")
def _token_for_each(m, ctx):
    """ "Play a 2 [Might] Sand Soldier unit token for each Equipment you control": one token per thing counted
    as it executes (359.3.f.2), the token as `effects` reads one."""
    read = effects.instructions(m["play"], ctx, [])
    amount = _per("1", m["what"], ctx)
    if read is None or amount is None or len(read) != 1 or read[0]["op"] != "play_token" or read[0]["n"] != 1:
        return None
    return [{**read[0], "n": amount}]


@template("amount: equal to", r"deal damage equal to (?P<q>.+?) to (?P<obj>.+)")
def _deal_equal(m, ctx):
    amount = measure(m["q"], ctx)  # read before the object: "its" names the unit chosen before
    to = _ref(m["obj"], ctx) if amount is not None else None
    return None if to is None else [{"op": "deal", "amount": amount, "to": to}]


@template("amount: equal to", r"deal damage to (?P<obj>.+?) equal to (?P<q>.+)")
def _deal_to_equal(m, ctx):
    to = _ref(m["obj"], ctx)
    amount = measure(m["q"], ctx) if to is not None else None
    return None if amount is None else [{"op": "deal", "amount": amount, "to": to}]


def _that(kind: str, ctx: Context) -> str | None:
    """ "that unit" / "that spell" after "choose a unit and a spell": the one slot of that kind chosen."""
    slots = [s for s, spec in ctx.targets.items() if spec.get("type") == kind]
    return slots[0] if len(slots) == 1 else None


@template("amount: equal to", r"counter that spell")
def _counter_that_spell(m, ctx):
    """ "Choose a friendly unit and a spell. Counter that spell ...": the spell chosen (its cost read after)."""
    spell = _that("spell", ctx)
    return None if spell is None else [{"op": "counter", "what": spell}]


@template("amount: equal to", r"give (?P<obj>.+?) \+might equal to (?P<q>.+?) this turn")
def _might_equal(m, ctx):
    to = _that("unit", ctx) if m["obj"] == "that unit" else _ref(m["obj"], ctx)
    amount = measure(m["q"], ctx) if to is not None else None
    return None if amount is None else [{"op": "might", "amount": amount, "to": to}]


@template("amount: double", r"this turn, increase its might to the might of another friendly unit")
def _increase_to(m, ctx):
    """ "Choose a friendly unit. This turn, increase its Might to the Might of another friendly unit": +the
    difference, when the other has more (an increase never lowers it), as it executes (359.3.f.2)."""
    it = ctx.it
    if it not in ctx.targets or ctx.targets[it].get("type") != "unit" or ctx.card_type != "spell":
        return None
    other = ctx.slot({"type": "unit", "side": "friendly", "not_target": it})
    ctx.it = it
    return [{"op": "might", "amount": {"raise_to": other, "of": it}, "to": it}]


@template("amount: double", r"swap the might of two units at the same battlefield this turn")
def _swap(m, ctx):
    """ "Swap the Might of two units at the same battlefield this turn": two different units, the second where
    the first is (355.8), their Mights swapped as it executes (433.1)."""
    if ctx.card_type != "spell":
        return None
    first = ctx.slot({"type": "unit", "where": "battlefield"})
    second = ctx.slot({"type": "unit", "where": "battlefield", "not_target": first, "same_place_as": first})
    return [{"op": "swap_might", "a": first, "b": second}]


@template("amount: double", r"double (?P<obj>.+?)(?:'s)? might this (?P<until>turn|combat)")
def _double(m, ctx):
    """ "Double a friendly unit's Might this turn": +Might equal to its Might now, for the turn (432.1, 432.1.a);
    "this combat": until the combat ends (466.7.c)."""
    to = ctx.me if m["obj"] == "my" else _ref(m["obj"], ctx)
    if to is None or not isinstance(to, str):
        return None
    until = {"until": "combat"} if m["until"] == "combat" else {}
    return [{"op": "might", "amount": {"double": to}, "to": to, **until}]


@template("amount: if there is", r"(?P<rest>.+?) if there is (?P<what>an? .+)")
def _if_there_is(m, ctx):
    """ "Give me +2 [Might] this turn if there is a ready enemy unit here": the instructions, if at least one such
    object is there as it executes (364.3.a, 359.3.f.2)."""
    flt = counted(m["what"], ctx)
    then = effects.instructions(m["rest"], ctx, []) if flt is not None else None
    if then is None:
        return None
    return [{"op": "if_amount", "amount": {"count": flt}, "at_least": 1, "then": then}]


@template("amount: if total might", r"(?P<rest>.+?) if (?P<what>.+?) have total might (?P<n>\d+) or more")
def _if_total_might(m, ctx):
    """ "Draw 1 if your other units have total Might 5 or more": the instructions, if the Might of those units,
    summed as it executes, is at least N (364.3.a)."""
    flt = counted(m["what"], ctx)
    then = effects.instructions(m["rest"], ctx, []) if flt is not None and "unit" in flt["who"] else None
    if then is None:
        return None
    return [{"op": "if_amount", "amount": {"total_might": flt}, "at_least": int(m["n"]), "then": then}]


@template(
    "amount: if there is exactly N",
    r"(?:then, )?if there (?:is|are) exactly (?P<n>\d+|one|two|three|four) (?P<what>.+?), (?P<then>.+)",
)
def _if_there_are_exactly(m, ctx):
    """ "If there is exactly one other unit you control here, draw 1": the instructions if that many such objects
    are there as it executes, no more and no fewer (364.3.a)."""
    flt, saved = counted(m["what"], ctx), dict(ctx.targets)
    then = effects.instructions(m["then"], ctx, []) if flt is not None else None
    if not then or ctx.targets != saved:  # what it does chooses nothing of its own, before the condition is known
        ctx.targets = saved
        return None
    n = number(m["n"])
    return [{"op": "if_amount", "amount": {"count": flt}, "at_least": n, "at_most": n, "then": then}]


@template(
    "amount: if there is",
    r"an additional (?P<sign>[+-])(?P<n>\d+) might this turn if it is the only unit you control there",
)
def _additional_if_alone(m, ctx):
    """ "Give a friendly unit +1 [Might] this turn, then an additional +1 [Might] this turn if it is the only unit
    you control there": +1 more if it is the one unit its controller has at its location (364.3.a)."""
    it = ctx.it
    if it not in ctx.targets or ctx.targets[it].get("type") != "unit" or ctx.targets[it].get("side") != "friendly":
        return None
    might = {"op": "might", "amount": signed(m["sign"], m["n"]), "to": it}
    alone = {"count": {"who": "friendly unit", "where": f"at {it}"}}
    return [{"op": "if_amount", "amount": alone, "at_least": 1, "at_most": 1, "then": [might]}]


# -- passives --------------------------------------------------------------------------------------------------

_DOUBLE_BONUS = "each equipment attached to me gives double its base might bonus"
_GETS = re.compile(r"i (?:have|get) \+(?P<n>\d+) might for each (?P<what>.+)")
_INCREASED = re.compile(r"my might is increased by (?P<q>.+)")
_KEYWORD_EQUAL = re.compile(r"i have \[(?P<kw>[a-z-]+)\] equal to (?P<q>.+)")


@paragraph_reader("static")
def _read_counted_passive(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "I have +1 [Might] for each friendly gear", "My Might is increased by your points", "I have [Assault]
    equal to the number of enemy units here": a passive of the card itself (365.1) whose Might or keyword is
    counted whenever its Might is worked out (477.3)."""
    ctx = Context(card["type"])
    gives: dict[str, Any]
    per: dict[str, Any] | str | None
    if text == _DOUBLE_BONUS:  # its Might bonus once more: double its base bonus (137.3, 432.1)
        per, gives = {"bonus": {"who": "attached gear", "tag": "Equipment"}}, {"might": 1}
    elif found := _GETS.fullmatch(text):
        flt = counted(found["what"], ctx)
        per = {"count": flt} if flt else None
        gives = {"might": int(found["n"])}
    elif found := _INCREASED.fullmatch(text):
        per, gives = measure(found["q"], ctx), {"might": 1}
    elif found := _KEYWORD_EQUAL.fullmatch(text):
        keyword = engine_keyword(found["kw"])
        per = measure(found["q"], ctx) if keyword else None
        gives = {"keywords": {keyword: 1}}
    else:
        return False
    if not isinstance(per, dict) or ctx.targets or per.get("count", {}).get("mighty"):
        return False  # a passive's Might never counts Might
    card.setdefault("passives", []).append({"to": {"who": "self"}, **gives, "per": per})
    used.append("amount: passive counted")
    return True


@paragraph_reader("static")
def _read_token_units_have(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Your token units have +1 [Might]": a passive of the friendly units made as tokens (185)."""
    found = re.fullmatch(r"your token units have (?P<sign>[+-])(?P<n>\d+) might", text)
    if found is None or "Equipment" in card.get("tags", []):
        return False
    to = {"who": "friendly unit", "token": True}
    card.setdefault("passives", []).append({"to": to, "might": signed(found["sign"], found["n"])})
    used.append("amount: token units have might")
    return True
