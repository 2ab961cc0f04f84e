"""Movement templates (the `move` instruction of scenarios/rules/movement.py; 446-447, 355.4): a unit moved "to
here", "up to N units" moved to base, "from here to its base", "then move your unit there", "move me to its
location and it to my original location" (`swap_locations`), and a unit that "deals damage equal to ..." itself (417.6.b.3); "Then, if there's
an enemy unit alone at that battlefield, ...": where the unit moved from (`from_as`).

A move's destination must differ from where the unit is (355.4.a): each template picks units that can go there
("to base": units at a battlefield; "to here": units elsewhere), so no choice the engine accepts is illegal.
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD
from scenarios.card_reader.amounts import measure
from scenarios.card_reader.effects import _ref, instructions, template
from scenarios.card_reader.phrases import CHOSEN_BATTLEFIELD, compares_me, target_spec
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader
from scenarios.token_kinds import UNIT_TOKENS

_UP_TO = {"2": 2, "two": 2, "3": 3, "three": 3}  # "up to N": N different units


@template("move: to here", r"move (?P<obj>an? (?:friendly |enemy )?unit) to here")
@template("move: to here", r"move (?P<obj>an? enemy unit)(?: at a different location)? to my battlefield")
def _move_to_here(m, ctx):
    """ "Move an enemy unit to here": to where the source is as it executes; the unit is one elsewhere (at a
    different location). "An enemy unit ... to my battlefield" is the same: a base holds its owner's units only,
    so an enemy unit never goes to mine (no move where I am in my base)."""
    spec = target_spec(m["obj"])
    if spec is None or ctx.card_type == "spell" or ctx.me != "this":
        return None
    spec["where"] = "not_here"
    return [{"op": "move", "what": ctx.slot(spec), "to": "here"}]


@template("move: to base", r"move up to (?P<n>2|two|3|three) (?P<side>friendly |enemy )?units to (?:their |its )?base")
def _move_up_to_to_base(m, ctx):
    """ "Move up to 2 friendly units to base": that many different units, any of them not chosen (355.13), each
    one at a battlefield (a unit in its base can't move there, 355.4.a)."""
    if _UP_TO[m["n"]] > 2:
        return None  # three or more choices differ pairwise: one `not_target` says it of two only
    spec: dict[str, Any] = {"type": "unit", "where": "battlefield", "optional": True}
    if m["side"]:
        spec["side"] = m["side"].strip()
    moved: list[dict[str, Any]] = []
    first: str | None = None
    for _ in range(_UP_TO[m["n"]]):
        slot = ctx.slot({**spec, "not_target": first} if first else dict(spec))
        first = first or slot
        moved.append({"op": "move", "what": slot, "to": "base"})
    return moved


@template(
    "move: to base", r"move (?P<obj>up to one|an?) (?P<side>friendly |enemy )?unit from here to (?:its|their) base"
)
def _move_from_here_to_base(m, ctx):
    """ "Move up to one enemy unit from here to its base": a unit here, at a battlefield (from a base, where only
    its player's units are, no enemy unit is here; a friendly one is at its base already, 355.4.a)."""
    spec: dict[str, Any] = {"type": "unit", "where": "my_battlefield"}
    if m["side"]:
        spec["side"] = m["side"].strip()
    if m["obj"] == "up to one":
        spec["optional"] = True
    return [{"op": "move", "what": ctx.slot(spec), "to": "base"}]


@template("move: there", r"deal damage equal to (?P<q>.+?) to all (?P<who>(?:enemy |friendly )?units) at a battlefield")
def _deal_equal_at_a_battlefield(m, ctx):
    """ "Deal damage equal to its Might to all enemy units at a battlefield": a battlefield chosen (355.8), every
    such unit there dealt the amount counted as it executes."""
    amount = measure(m["q"], ctx)
    if amount is None:
        return None
    where = ctx.slot({"type": "battlefield"})
    return [
        {"op": "deal", "amount": amount, "to": {"all": {"who": m["who"].removesuffix("s"), "where": f"at {where}"}}}
    ]


@template("move: there", r"(?:then )?move your unit there")
def _move_your_unit_there(m, ctx):
    """ "..., then move your unit there": the friendly unit chosen, to the battlefield chosen."""
    units = [s for s, spec in ctx.targets.items() if spec.get("type") == "unit" and spec.get("side") == "friendly"]
    places = [s for s, spec in ctx.targets.items() if spec.get("type") == "battlefield"]
    if len(units) != 1 or len(places) != 1 or ctx.targets[units[0]].get("where") != "base":
        return None  # from its base to a battlefield: never where it already is (355.4.a)
    return [{"op": "move", "what": units[0], "to": places[0]}]


@template("amount: equal to", r"(?P<who>it) deals damage equal to (?P<q>.+?) to (?P<obj>.+)")
def _it_deals(m, ctx):
    """ "It deals damage equal to its Might to an enemy unit": the unit chosen is the source of the damage
    (417.6.b.3), the amount counted as it executes."""
    by = ctx.it
    if by not in ctx.targets or ctx.targets[by].get("type") != "unit":
        return None
    amount = measure(m["q"], ctx)
    to = _ref(m["obj"], ctx) if amount is not None else None
    return None if to is None else [{"op": "deal", "amount": amount, "to": to, "by": by}]


@template(
    "move: to here",
    r"(?P<may>you may )?move (?P<obj>up to one (?:friendly |enemy )?unit|an? (?:friendly |enemy )?unit|a unit you control)"
    r" to (?:that|the same) battlefield",
)
def _move_to_that_battlefield(m, ctx):
    """ "When I move to a battlefield, you may move an enemy unit to that battlefield": the battlefield of the
    trigger, noted as it triggered (359.3.f.3), where the source is as the unit is chosen; the unit is one
    elsewhere (355.4.a). After "Choose a battlefield where you have units", that battlefield (`_to_the_chosen`)."""
    chosen = ctx.targets.get(ctx.it or "", {})
    if chosen.get("where") == "battlefield_with_your_units":
        return _to_the_chosen(m, ctx, chosen)
    if ctx.when != [{"event": "move", "who": "self", "where": "battlefield"}] or ctx.me != "this" or m["may"]:
        return None
    if m["obj"].startswith("up to one"):
        return None
    spec = target_spec(m["obj"])
    if spec is None or spec.get("another"):
        return None
    spec["where"] = "not_here"
    return [{"op": "move", "what": ctx.slot(spec), "to": "trigger_location"}]


@template("move: to base", r"move (?P<obj>an? (?:friendly |enemy )?unit) to or from its base")
def _move_to_or_from_base(m, ctx):
    """ "Move a friendly unit to or from its base": to its base from a battlefield, or from its base to a
    battlefield chosen (355.4: a destination for the move, other than where it is, 355.4.a)."""
    spec = target_spec(m["obj"])
    if spec is None or spec.get("another") or "destination" in ctx.targets:
        return None
    unit = ctx.slot(spec)
    ctx.targets["destination"] = {"type": "location", "of": unit, "where": "to_or_from_base"}
    ctx.it = unit
    return [{"op": "move", "what": unit, "to": "destination"}]


_DESTINATIONS = {
    "to a location where there's a unit with the same controller": "with_same_controller",
    "to a battlefield where you have units": "battlefield_with_your_units",
    "to a different battlefield": "battlefield",
}


@template(
    "move: to a destination",
    r"(?:you may )?move (?P<obj>an? (?:friendly |enemy )?unit(?: here)?(?: with less might than me)?) "
    r"(?P<to>to a location where there's a unit with the same controller|to a battlefield where you have units"
    r"|to a different battlefield)",
)
def _move_to_a_destination(m, ctx):
    """ "Move an enemy unit to a battlefield where you have units", "... to a location where there's a unit with the
    same controller", "... here with less Might than me to a different battlefield": a unit and a destination
    chosen (355.4), the destination restricted as it says and never where the unit is (355.4.a)."""
    spec = target_spec(m["obj"])
    if spec is None or spec.get("another") or "destination" in ctx.targets or not compares_me(spec, ctx):
        return None
    if spec.get("where") == "here" and spec.get("side") == "enemy":  # from a base no enemy unit is here
        spec["where"] = "my_battlefield"
    unit = ctx.slot(spec)
    ctx.targets["destination"] = {"type": "location", "of": unit, "where": _DESTINATIONS[m["to"]]}
    ctx.it = "destination"
    return [{"op": "move", "what": unit, "to": "destination"}]


@template(
    "move: to a destination",
    r"if you have exactly (?P<n>two|2) units there, they each get (?P<sign>\+)(?P<m>\d+) might this turn",
)
def _if_exactly_there(m, ctx):
    """ "If you have exactly two units there, they each get +1 [Might] this turn": your units at the destination
    chosen, counted as it executes (364.3.a, 359.3.f.2)."""
    if ctx.it != "destination" or ctx.targets.get("destination", {}).get("type") != "location":
        return None
    yours = {"who": "friendly unit", "where": "at destination"}
    might = {"op": "might", "amount": int(m["m"]), "to": {"all": yours}}
    return [{"op": "if_amount", "amount": {"count": yours}, "at_least": 2, "at_most": 2, "then": [might]}]


@template("move: to a destination", r"choose a battlefield where you have units")
def _choose_where_you_have_units(m, ctx):
    """ "Choose a battlefield where you have units.": a location chosen (355.8), restricted as it says; a later
    sentence says what is done there ("move ... to that battlefield", "enemy units there")."""
    ctx.slot({"type": "location", "where": "battlefield_with_your_units"})
    ctx.unfinished = CHOSEN_BATTLEFIELD
    return []


def _to_the_chosen(m, ctx, chosen: dict[str, Any]):
    """ "You may move up to one enemy unit to that battlefield": a unit chosen (optional, 355.8) moved to the
    battlefield chosen before; "there" still names that battlefield. The destination is never where the unit is
    (355.4.a): the battlefield's choice says so (`of`), after the unit's."""
    there = ctx.it
    if "of" in chosen or list(ctx.targets)[-1] != there or m["obj"] == "a unit you control":
        return None
    spec = target_spec(m["obj"])
    if spec is None or spec.get("another"):
        return None
    if m["may"]:
        spec["optional"] = True
    del ctx.targets[there]
    unit = ctx.slot(spec)
    there = ctx.slot({**chosen, "of": unit})
    if ctx.unfinished == CHOSEN_BATTLEFIELD:
        ctx.unfinished = None
    return [{"op": "move", "what": unit, "to": there}]


_CANT_MOVE = {"i can't move to base": "no_move_to_base", "units can't move to base": "units_no_move_to_base"}


@paragraph_reader("static")
def _read_cant_move(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "I can't move to base", "Units can't move to base": a restriction on moves to a base, by any means but a
    Recall, which is not a move (449.1, 054.1, 456.3). Not an Equipment's: its "I" is the equipped unit."""
    word = _CANT_MOVE.get(text)
    if word is None or card["type"] != "unit":
        return False
    card.setdefault("restrictions", []).append(word)
    used.append("move: can't move to base")
    return True


_ALONE_THERE = re.compile(
    r"then, if there's an? (?P<side>enemy|friendly) unit alone at that battlefield, (?P<rest>.+?)\.?"
)


def _alone_where_it_moved_from(sentence: str, before: list, ctx, used: list[str]) -> list | None:
    """ "Move an enemy unit from a battlefield to its base. Then, if there's an enemy unit alone at that
    battlefield, draw 1.": "that battlefield" is where the unit moved from (the move notes it, `from_as`); a unit
    is alone with no other friendly unit at its location (740.2.a): counted then (359.3.f.2, `if_amount`)."""
    found = _ALONE_THERE.fullmatch(sentence.strip())
    move = before[-1] if len(before) == 1 else {}
    if found is None or move.get("op") != "move" or move.get("to") != "base":
        return None
    if ctx.targets.get(move["what"], {}).get("where") != "battlefield":  # from a battlefield, chosen as played
        return None
    then = instructions(found["rest"], ctx, used)
    if then is None:
        return None
    used.append("then, if there's a unit alone at that battlefield")
    counted = {"count": {"who": f"{found['side']} unit", "where": "at origin", "alone": True}}
    return [{**move, "from_as": "origin"}, {"op": "if_amount", "amount": counted, "at_least": 1, "then": then}]


INSTEAD.append(_alone_where_it_moved_from)


@template("move: swap", r"move me to its location and it to my original location")
def _swap_locations(m, ctx):
    """ "Choose a unit you control at another location. Move me to its location and it to my original location":
    each moved to where the other was (`swap_locations`), both read before either moves."""
    it = ctx.it
    if it not in ctx.targets or ctx.targets[it].get("type") != "unit" or ctx.me != "this" or ctx.card_type != "unit":
        return None
    return [{"op": "swap_locations", "a": "this", "b": it}]


@template("move: swap", rf"move me and an? (?P<kind>{'|'.join(UNIT_TOKENS)}) you control to each other's locations")
def _swap_with_a_token(m, ctx):
    """ "Move me and a Shadow Clone you control to each other's locations": a unit of that token kind's name
    (187), chosen (355.8), and the two swapped (`swap_locations`)."""
    if ctx.me != "this" or ctx.card_type != "unit":
        return None
    slot = ctx.slot({"type": "unit", "side": "friendly", "name": UNIT_TOKENS[m["kind"]][0]})
    return [{"op": "swap_locations", "a": "this", "b": slot}]
