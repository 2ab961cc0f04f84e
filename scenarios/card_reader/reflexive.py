"""Reflexive triggers 386-388: "Move an enemy unit. Then do this: Choose another enemy unit at its destination.
They deal damage ...": everything after "do this:" to the end of the ability is a new triggered ability, made as
the instructions before it are done and put on the Chain as a pending item once its item has finished (388.1,
`{op: reflexive}` in scenarios/rules/triggers.py); it chooses its own targets as it is finalized (402.2) and still
names what the instructions before it named ("it", "its destination"). "Then you may do this:" makes it optional
(383.3.a). A condition before "do this" (387.2-387.3) is read only where a template below says it: "If this kills
it" (a death in the Cleanup after, 428.5.c); "Then, if it had 3 [Might] or less" after a kill (the unit's Might as it
was killed, 359.3.e.13); any other ("for each unit this kills") is refused.
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import _YOU_MAY_COST, SPANNING, Unread
from scenarios.card_reader.effects import template
from scenarios.card_reader.phrases import Context, ability_cost, reference, target_spec

_MARK = re.compile(
    r"(?:^|(?<=[.!] ))(?:then,? (?P<may>you may )?|(?P<kills>if this kills it, )|(?P<burn>when you burn a unit this way, )"
    r"|(?P<had>then, if it had (?P<n>\d+) might or less, ))do this: "
)


def _reflexive(text: str, ctx: Context, used: list[str], read) -> list[dict[str, Any]] | None:
    found = _MARK.search(text)
    if found is None:
        return None
    if re.search(r"\bdo (?:this|one of the following|the following)\b", text[found.end() :]):
        raise Unread(text[found.start() :])  # a reflexive trigger inside one: not read
    before = read(text[: found.start()], ctx, used) if found.start() else []
    inner = Context(ctx.card_type, dict(ctx.targets), ctx.it, ctx.subject, ctx.first, me=ctx.me, when=ctx.when)
    keep = list(ctx.targets)  # what its text may still name, as the item that made it named it (388.1)
    last = before[-1] if before else {}
    played = _one_played(last)  # "Play a ... token. Then do this: ready it"; "... and play it. Then ...: Empower it"
    if played is not None:
        played["as"] = inner.it = "played"
        keep.append("played")
    if found["burn"]:  # "[Burn 1]. When you burn a unit this way, do this: ...": the card burned (440.1)
        if last.get("op") != "trash_from_deck" or last.get("n") != 1:
            raise Unread(text[found.start() :])
        last["as"] = "burned"
        inner.named = ("burned",)
        keep.append("burned")
    body = text[found.end() :]
    reflexive: dict[str, Any] = {"op": "reflexive"}
    may = _YOU_MAY_COST.fullmatch(body.rstrip("."))
    if may:  # "you may pay [X] to ...": the new ability's cost, decided and paid as it is finalized (383.3.b)
        cost = ability_cost(may["cost"])
        if cost is None:
            raise Unread(may["cost"])
        reflexive.update(optional=True, cost=cost)
        body = may["rest"]
    elif found["had"] and body.startswith("you may "):  # "..., do this: You may play this ...": optional (383.3.a)
        reflexive["optional"] = True
        body = body[len("you may ") :]
    reflexive["effects"] = read(body, inner, used)
    if played is not None and "played" not in _words(reflexive["effects"]):
        del played["as"]
        keep.remove("played")
    if keep:
        reflexive["keep"] = keep
    own = {slot: spec for slot, spec in inner.targets.items() if slot not in ctx.targets}
    if own:
        reflexive["targets"] = own
    if found["may"]:
        if "cost" in reflexive:  # "you may do this: you may pay ...": not a form cards print
            raise Unread(text[found.start() :])
        reflexive["optional"] = True
    if found["kills"]:
        return _if_this_kills_it(before, reflexive, ctx, used)
    if found["had"]:  # "Kill a unit ... Then, if it had 3 [Might] or less, do this:": its Might as it was killed
        if last.get("op") != "kill" or last.get("what") != ctx.it or ctx.it not in ctx.targets:
            raise Unread(text[found.start() :])
        reflexive["had_might_at_most"] = {"of": ctx.it, "n": int(found["n"])}
        used.append("then, if it had N might or less, do this")
        return [*before, reflexive]
    if found["burn"]:
        reflexive["a_unit_among"] = "burned"
        used.append("when you burn a unit this way, do this")
        return [*before, reflexive]
    used.append("then do this" if not found["may"] else "then you may do this")
    if last.get("op") == "move":  # made only if the unit moved (Origins FAQ q55: `if_done`)
        return [*before[:-1], {"op": "if_done", "do": [last], "then": [reflexive]}]
    return [*before, reflexive]


def _one_played(last: dict[str, Any]) -> dict[str, Any] | None:
    """The instruction (or the take of a look) that plays one object later text may name "it": a token played, or
    a card banished from among those looked at and played (`as` names it for the reflexive trigger)."""
    if last.get("op") == "play_token" and last.get("n") == 1:
        return last
    take = last.get("take") if last.get("op") == "look_at_deck" else None
    return take if isinstance(take, dict) and take.get("verb") == "play" else None


def _if_this_kills_it(before: list, reflexive: dict[str, Any], ctx: Context, used: list[str]) -> list:
    """ "Deal 3 to a unit at a battlefield. If this kills it, do this: draw 1.": the unit the damage was dealt to
    dies in the Cleanup after this resolves, a kill attributed to this (428.5.c): the reflexive trigger waits for
    that death (`kills`). Read only right after damage dealt to the unit chosen, and only for instructions that
    name nothing chosen before (the ability made then keeps no choices)."""
    last = before[-1] if before else {}
    if last.get("op") != "deal" or last.get("to") != ctx.it or ctx.it not in ctx.targets:
        raise Unread("if this kills it, do this:")
    if "targets" in reflexive or any(slot in _words(reflexive["effects"]) for slot in ctx.targets):
        raise Unread("if this kills it, do this:")
    used.append("if this kills it, do this")
    return [*before, {"op": "reflexive", "kills": ctx.it, "effects": reflexive["effects"]}]


def _words(node: Any) -> set[str]:
    if isinstance(node, dict):
        return {w for value in node.values() for w in _words(value)}
    if isinstance(node, list):
        return {w for value in node for w in _words(value)}
    return {node.split(":")[-1]} if isinstance(node, str) else set()


SPANNING.append(_reflexive)


@template("choose", r"choose (?P<obj>(?:an?|another) .+?) at its destination")
def _choose_at_destination(m, ctx):
    """ "Choose another enemy unit at its destination": where the unit moved before was moved to (a `same_place_as`
    the move's destination slot); "another": not that unit."""
    moved = ctx.it
    destination = next((s for s, spec in ctx.targets.items() if spec.get("of") == moved), None)
    spec = target_spec(m["obj"])
    if destination is None or spec is None:
        return None
    if spec.pop("another", False):
        spec["not_target"] = moved
    spec["same_place_as"] = destination
    ctx.slot(spec)
    return []


@template("amount: equal to", r"give (?P<obj>.+?) \+might equal to the burned card's might this turn")
def _might_of_the_burned_card(m, ctx):
    """ "Give a friendly unit +[Might] equal to the burned card's Might this turn": the printed Might of the card
    the burn put into the trash (a card off the board has its printed Might), named by the instruction before."""
    to = reference(m["obj"], ctx) if "burned" in ctx.named else None
    return None if to is None else [{"op": "might", "amount": {"printed_might": "burned"}, "to": to}]
