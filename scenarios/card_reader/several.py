"""One instruction, several objects: "buff up to two other friendly units", "deal 6 to each of up to two units",
"return a friendly unit and an enemy unit to their owners' hands", "stun a friendly unit and an enemy unit at the
same battlefield", "you may kill up to one gear".

Each object a player chooses is a target slot of its own ("up to N": any number of them may be left unchosen,
355.13), chosen in the order printed; the two are different objects (the second slot excludes the first). The
instruction is ONE instruction on all of them (its reference a list of the slots): they are killed, returned or
dealt damage simultaneously, by one game action (370.1.a.2); a slot whose object became invalid is skipped
(359.3.e.8).

    <verb> up to two <units>                 two optional slots, the second not the first
    <verb> two <units> / 2 gear              the same, both chosen (355.8)
    deal N to each of up to two <units>      the same, a `deal` to each
    deal N to up to three units at the same location   three optional slots, each not the others, where the first is
    <verb> <one object> and <another>        two slots in the order printed, "at the same battlefield":
                                             the second where the first is (`same_place_as`)
    you may <verb> up to one <object>        "up to one" is already the choice to choose none (355.13)
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.effects import _ref, instructions, template
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.phrases import another, target_spec, untagged
from scenarios.card_reader.players import _their_part

# the verbs whose instruction is about one object: the op each performs (as `effects._status` and `_return` do)
_VERBS = {
    "buff": "buff",
    "kill": "kill",
    "stun": "stun",
    "ready": "ready",
    "exhaust": "exhaust",
    "return": "return_to_hand",
}
_KINDS_FOR = {"kill": None, "ready": None, "exhaust": None, "return": None}  # a unit or a gear; otherwise a unit


def _op(verb: str, slots: list[str]) -> dict[str, Any]:
    return {"op": _VERBS[verb], "what": slots if len(slots) > 1 else slots[0]}


def _spec(phrase: str, ctx, verb: str) -> dict[str, Any] | None:
    """One object of a plural or paired phrase, as a target spec; None if not understood or of the wrong kind."""
    phrase, tag = untagged(phrase)
    spec = target_spec(phrase)
    if spec is None or not another(spec, ctx):
        return None
    if spec["type"] not in (("unit", "gear") if _KINDS_FOR.get(verb, "unit") is None else ("unit",)):
        return None
    if tag:
        spec["tag"] = tag
    return spec


def _up_to_two(plural: str, ctx, verb: str, optional: bool = True, n: int = 2) -> list[str] | None:
    """ "up to two other friendly units" -> two optional slots (355.13), the second not the first; "2 gear"
    (`optional` False) -> two slots both chosen (355.8); "up to four": four slots, each not the ones before."""
    plural = plural.strip()
    single = re.sub(r"units$", "unit", plural)
    if single == plural and not re.search(r"\bgear$", plural):  # "gear" is its own plural
        return None
    opening = "another" if single.startswith("other ") else "a"
    spec = _spec(f"{opening} {single.removeprefix('other ')}", ctx, verb)
    if spec is None or spec.get("optional"):
        return None
    if optional:
        spec["optional"] = True
    slots = [ctx.slot(dict(spec))]
    for _ in range(n - 1):
        slots.append(ctx.slot({**spec, "not_target": slots[0] if len(slots) == 1 else list(slots)}))
    return slots


_RETURN_TAIL = r" to (?:their|its) owners?'s? hands?"


_HOW_MANY = {"two": 2, "2": 2, "three": 3, "four": 4}


@template(
    "several objects",
    r"(?P<verb>buff|kill|stun|ready|exhaust) (?P<up>up to )?(?P<n>two|2|(?<=up to )(?:three|four)) (?P<obj>.+)",
)
def _verb_up_to_two(m, ctx):
    """ "Stun up to two enemy units", "Ready 2 gear", "Buff up to four friendly units": that many different objects
    (355.9), one instruction on all."""
    slots = _up_to_two(m["obj"], ctx, m["verb"], optional=bool(m["up"]), n=_HOW_MANY[m["n"]])
    return None if slots is None else [_op(m["verb"], slots)]


@template("several objects", r"deal (?P<n>\d+) to each of up to (?P<k>two) (?P<obj>.+)")
def _deal_up_to_two(m, ctx):
    slots = _up_to_two(m["obj"], ctx, "deal")
    return None if slots is None else [{"op": "deal", "amount": int(m["n"]), "to": slots}]


@template("several objects", r"deal (?P<n>\d+) to up to (?P<k>two|three) units at the same location")
def _deal_up_to_n_together(m, ctx):
    """ "Deal 1 to up to three units at the same location": as many optional slots (355.13), each a different unit
    (355.9) where the first chosen is (`same_place_as`: a battlefield or a base), one Deal to all (417.1.d)."""
    first = ctx.slot({"type": "unit", "optional": True})
    slots = [first]
    for _ in range({"two": 2, "three": 3}[m["k"]] - 1):
        slots.append(ctx.slot({"type": "unit", "optional": True, "not_target": list(slots), "same_place_as": first}))
    return [{"op": "deal", "amount": int(m["n"]), "to": slots}]


@template(
    "several objects",
    r"(?P<verb>buff|kill|stun|ready|exhaust|return) (?P<a>(?:an?|another) .+?) and (?P<b>an? .+?)"
    r"(?P<same> at the same battlefield)?(?P<tail>" + _RETURN_TAIL + ")?",
)
def _verb_two_objects(m, ctx):
    """ "Return a friendly unit and an enemy unit to their owners' hands": two choices in the order printed,
    one instruction on both (370.1.a.2)."""
    if (m["verb"] == "return") != bool(m["tail"]):
        return None
    first_spec = _spec(m["a"], ctx, m["verb"])
    second_spec = _spec(m["b"], ctx, m["verb"])
    if first_spec is None or second_spec is None:
        return None
    if m["same"]:  # "at the same battlefield": both at a battlefield, the second where the first is
        if any(s.get("where") not in (None, "battlefield") for s in (first_spec, second_spec)):
            return None
        first_spec["where"] = second_spec["where"] = "battlefield"
    first = ctx.slot(first_spec)
    second_spec["not_target"] = first
    if m["same"]:
        second_spec["same_place_as"] = first
    second = ctx.slot(second_spec)
    return [_op(m["verb"], [first, second])]


@template("several objects", r"you may (?P<verb>kill|stun|ready|exhaust|buff) (?P<obj>up to one .+)")
def _may_up_to_one(m, ctx):
    """ "You may kill up to one gear": choosing none is the "may" (355.13); the one chosen is killed."""
    what = _ref(m["obj"], ctx, _KINDS_FOR.get(m["verb"], "unit"))
    if not isinstance(what, str) or what not in ctx.targets or not ctx.targets[what].get("optional"):
        return None
    return [_op(m["verb"], [what])]


@template("its owner ...", r"its owner (?P<rest>.+)")
def _its_owner(m, ctx):
    """ "Return a friendly unit to its owner's hand. Its owner channels 1 rune exhausted.": the player who owns the
    object "it" names (127.1) performs the instructions as themself (`each_player` with `{owner_of: it}`, 411.1)."""
    if ctx.it not in ctx.targets:
        return None
    read = _their_part(m["rest"], ctx)
    return None if read is None else [{"op": "each_player", "players": {"owner_of": ctx.it}, "effects": read}]


@template(
    "several objects",
    r"give (?P<a>an? .+?) (?P<s1>[+-])(?P<n1>\d+) might this turn and (?P<b>another .+?) (?P<s2>[+-])(?P<n2>\d+) might"
    r" this turn",
)
def _give_two(m, ctx):
    """ "Give a unit +2 [Might] this turn and another unit -2 [Might] this turn": two choices, the second not the
    first, each given its own Might (two instructions: two different changes)."""
    first = _ref(m["a"], ctx)
    if not isinstance(first, str) or first not in ctx.targets:
        return None
    second = _ref(m["b"], ctx)
    if not isinstance(second, str) or ctx.targets.get(second, {}).get("not_target") != first:
        return None  # "another unit" of a spell: not the one chosen first (`phrases.another`)
    return [
        {"op": "might", "amount": int(m["n1"]) * (-1 if m["s1"] == "-" else 1), "to": first},
        {"op": "might", "amount": int(m["n2"]) * (-1 if m["s2"] == "-" else 1), "to": second},
    ]


@template(
    "several objects",
    r"give (?P<a>(?!an? ).+?) (?P<s1>[+-])(?P<n1>\d+) might this turn and (?P<b>(?!an? ).+?) (?P<s2>[+-])(?P<n2>\d+) might"
    r" this turn(?P<min>, to a minimum of 1 might)?",
)
def _give_two_groups(m, ctx):
    """ "Give friendly units there +1 [Might] this turn and enemy units there -1 [Might] this turn, to a minimum of
    1 [Might]": two groups, each given its own Might (no unit chosen, 355.10.d); the minimum bounds what lowers it."""
    first, second = _ref(m["a"], ctx), _ref(m["b"], ctx)
    if not isinstance(first, dict) or not isinstance(second, dict):
        return None
    given = []
    for to, sign, n in ((first, m["s1"], m["n1"]), (second, m["s2"], m["n2"])):
        ins: dict[str, Any] = {"op": "might", "amount": int(n) * (-1 if sign == "-" else 1), "to": to}
        if m["min"] and sign == "-":
            ins["minimum"] = 1
        given.append(ins)
    return given


@template(
    "several objects",
    r"(?P<a>.+) and \[?(?P<verb>stun|kill|buff|ready|exhaust)\]? (?P<obj>an? .+?) at (?:its|that unit's) location",
)
def _and_at_its_location(m, ctx):
    """ "Give a friendly unit +1 [Might] this turn and [Stun] an enemy unit at its location": the second choice
    where the first chosen is (`same_place_as`), not that unit."""
    first = instructions(m["a"], ctx, [])
    it = ctx.it
    if first is None or it not in ctx.targets:
        return None
    spec = _spec(m["obj"], ctx, m["verb"])
    if spec is None or spec.get("where") is not None:
        return None
    slot = ctx.slot({**spec, "not_target": it, "same_place_as": it})
    return [*first, _op(m["verb"], [slot])]


@template("ready your legend", r"(?P<verb>ready|exhaust) your legend")
def _your_legend(m, ctx):
    """ "Ready your legend": the legend in its controller's Legend Zone (355.9.a.4); a player has one (103)."""
    return [{"op": m["verb"], "what": {"all": {"who": "friendly legend"}}}]


@template(
    "several objects",
    r"give (?P<obj>.+?) (?P<sign>[+-])(?P<n>\d+) might and \[(?P<kw>[a-z-]+)(?: (?P<v>\d+))?\] this turn",
)
def _might_and_keyword(m, ctx):
    """ "Give me +2 [Might] and [Ganking] this turn", "give one of your other units here +3 [Might] and [Tank] this
    turn": one object given both, the Might and the keyword, for the turn (two instructions on the same object)."""
    keyword = engine_keyword(m["kw"])
    phrase = re.sub(r"^one of your other units\b", "another friendly unit", m["obj"])
    to = _ref(phrase, ctx)
    if keyword is None or to is None:
        return None
    grant: dict[str, Any] = {"op": "grant", "keyword": keyword, "to": to}
    if m["v"]:
        grant["value"] = int(m["v"])
    return [{"op": "might", "amount": int(m["n"]) * (-1 if m["sign"] == "-" else 1), "to": to}, grant]


_GROUP = re.compile(
    r"(?P<side>your |friendly |enemy )?(?P<token>token )?(?P<domain>(?:fury|calm|mind|body|chaos|order) )?units"
    r"(?P<rest>(?: at a battlefield)?)(?: with (?P<same>the same controller and )?(?:a )?total might (?:of )?"
    r"(?P<total>\d+) or less)?"
)
_GROUP_TAILS = {
    "return": (_RETURN_TAIL,),
    "kill": ("",),
    "move": (" to (?:their|its) base", " to this battlefield", " to a single location"),
}


@template(
    "any number of objects",
    r"(?P<verb>kill|return|move) any number of (?P<obj>.+?)(?P<tail>" + _RETURN_TAIL + "| to (?:their|its) base"
    r"| to this battlefield| to a single location)?",
)
def _any_number(m, ctx):
    """ "Kill any number of units at a battlefield with total Might 4 or less", "Return any number of enemy Order
    units with total Might 5 or less to their owners' hands", "Move any number of friendly units at a battlefield
    to their base", "Move any number of enemy units with the same controller and a total Might of 8 or less to a
    single location" (one destination chosen for all, 355.4): ONE target slot holding a group of different units, zero or more (355.13), each one as the
    plural says and the group as a whole within its requirements (355.11.a): its total Might, one controller, and "at a
    battlefield", all at one battlefield (355.11.b's example reads Fox-Fire so). As the item resolves, a group no
    longer within them is cut down to a subset its controller chooses (355.11.b); one instruction on all of them
    (370.1.a.2)."""
    found = _GROUP.fullmatch(m["obj"])
    tail = m["tail"] or ""
    if found is None or not any(re.fullmatch(t, tail) for t in _GROUP_TAILS[m["verb"]]):
        return None
    side = found["side"] or ""
    phrase = (
        f"a {'' if side == 'your ' else side}{found['domain'] or ''}unit{' you control' if side == 'your ' else ''}"
    )
    spec = target_spec(phrase + found["rest"])
    if spec is None:
        return None
    spec["any_number"] = True
    if found["token"]:
        spec["token"] = True
    if found["rest"]:
        spec["together"] = True
    if found["total"]:
        spec["total_might"] = int(found["total"])
    if found["same"]:
        spec["same_controller"] = True
    if m["verb"] != "move":
        return [_op(m["verb"], [ctx.slot(spec)])]
    if tail == " to this battlefield":  # where I am as it executes; the units elsewhere (355.4.a)
        if ctx.card_type == "spell" or ctx.me != "this" or spec.get("where") is not None:
            return None
        spec["where"] = "not_here"
        return [{"op": "move", "what": ctx.slot(spec), "to": "here"}]
    if tail == " to a single location":  # one destination for all, where none of them is (355.4, 355.4.a)
        if "destination" in ctx.targets:
            return None
        group = ctx.slot(spec)
        ctx.targets["destination"] = {"type": "location", "of": group}
        return [{"op": "move", "what": group, "to": "destination"}]
    if spec.get("where") != "battlefield":  # to base: units at a battlefield only (355.4.a)
        return None
    return [{"op": "move", "what": ctx.slot(spec), "to": "base"}]


@template("any number of objects", r"(?P<verb>ready|exhaust) up to (?P<n>\d+) units, gear, and/or runes")
def _up_to_n_of_kinds(m, ctx):
    """ "Ready up to 4 units, gear, and/or runes": ONE group of at most N different objects on the board, each a
    unit, a gear or a rune (160: runes are Game Objects, chosen as the others are), zero or more (355.13); one
    instruction on all of them (370.1.a.2)."""
    n = int(m["n"])
    if n < 2:
        return None
    spec = {"type": "permanent", "or_rune": True, "any_number": True, "max_count": n}
    return [_op(m["verb"], [ctx.slot(spec)])]


@template("something else", r"(?P<verb>ready|exhaust) something (?:else|besides me) that's (?P<state>exhausted|ready)")
def _something_else(m, ctx):
    """ "Ready something else (besides me) that's exhausted": one object chosen, any that can be exhausted or ready (414): a unit,
    a gear, a rune or a legend on the board, other than this ability's source."""
    if ctx.me != "this" or ctx.card_type == "spell":
        return None
    spec = {"type": "permanent", "or_rune": True, "or_legend": True, "other": True}
    spec["exhausted"] = m["state"] == "exhausted"
    return [_op(m["verb"], [ctx.slot(spec)])]
