"""Replacement effects said with "instead". A sentence that replaces the one before it: "Draw 1. If it's your Beginning Phase, draw 2 instead", "[Add] [1
Energy]. If this is [Empowered], [Add] [2 Energy] instead", "Deal 2 to a unit at a battlefield. If you control a
facedown card, deal 4 to it instead": if the condition holds the second sentence's instructions, else the first's
(364.3.a), one `if` instruction (`abilities.INSTEAD`, added to). And a passive replacing a step of the combat
cleanup: "If a combat where you are the attacker ends in a tie, recall all units instead" (`readers`, stage "static").

The other replacement effects cards print (367-375; the engine's `scenarios/rules/replacement.py`): a death replaced
("If it would die this turn, banish it instead", "you may pay [A], exhaust me, and spend its buff to heal it, ...
instead", "If a unit here would die during combat, its controller may pay ..."), a counter's placement ("Return it
to its owner's hand instead of putting it in their trash"), damage modified ("Double all damage that would be dealt
to it this turn", "Prevent the next 7 damage ..."), a token unit's play ("play that token and an additional copy of
it instead"), a point scored ("If a player would score 1 point from conquering or holding ..., they draw 1
instead"), what a spell choosing the card does ("If a spell or ability that chooses me would stun me, ...") and a
paid additional cost's exception ("If you paid my additional cost, you don't kill a unit this way").
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD, Unread
from scenarios.card_reader.conditions import condition_word
from scenarios.card_reader.costs import PAID
from scenarios.card_reader.effects import instructions, template
from scenarios.card_reader.phrases import Context, ability_cost
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

_INSTEAD = re.compile(r"if (?P<c>.+?), (?P<then>.+) instead\.?")
_EMPOWERED = re.compile(r"(?:this is|i'm) \[empowered\]")


def _condition(text: str, ctx: Context) -> str | None:
    """The condition word of "if <text>": of the source itself ("if I'm [Empowered]", only where "I" is the card,
    rules of empower) or one of the board's (`conditions`)."""
    if _EMPOWERED.fullmatch(text):
        return "empowered" if ctx.me == "this" else None
    return condition_word(text)


_ITS_STATE = re.compile(r"it's (?:already )?(?P<s>attacking|defending|\[empowered\]|stunned|buffed|\[mighty\])")


def read_instead(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    found = _INSTEAD.fullmatch(sentence.strip())
    if found is None or not before:
        return None
    state = _ITS_STATE.fullmatch(found["c"])
    if state and ctx.it in ctx.targets:  # "If it's attacking": the state of the object chosen (`if_it`)
        return _if_its_state(state["s"].strip("[]"), found["then"], before, ctx, used)
    word = _condition(found["c"], ctx)
    if word is None:
        return None
    saved = (dict(ctx.targets), ctx.it)
    elided = re.fullmatch(r"deal (?P<n>\d+)", found["then"])
    if elided and len(before) == 1 and before[0].get("op") == "deal":  # "If I'm [Empowered], deal 2 instead": to
        then: list[dict[str, Any]] | None = [{**before[0], "amount": int(elided["n"])}]  # the same objects
    else:
        then = instructions(found["then"], ctx, used)
    if then is None or ctx.targets != saved[0]:  # the second sentence chooses nothing of its own
        ctx.targets, ctx.it = saved
        return None
    used.append("if <condition>, <instructions> instead")
    return [{"op": "if", "condition": word, "then": then, "else": before}]


def _if_its_state(state: str, text: str, before: list, ctx: Context, used: list[str]) -> list | None:
    it, saved = ctx.it, dict(ctx.targets)
    then = instructions(text, ctx, used)
    if then is None or ctx.targets != saved:
        ctx.targets, ctx.it = saved, it
        return None
    used.append("if it's <state>, <instructions> instead")
    return [{"op": "if_it", "it": it, "state": state, "then": then, "else": before}]


INSTEAD.append(read_instead)

_NOT_YOU = re.compile(r"if you paid (?:the |my )?additional cost, you don't (?P<verb>kill) (?:a|an|one) .+ this way\.?")
_VERBS = {"kill": "kill_one"}


def read_not_you(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    """ "Each player must kill one of their units. If you paid my additional cost, you don't kill a unit this way":
    when the optional additional cost was paid (356.4.f.1), the instruction before is performed by each player but
    you (the other players, 303.2.a), else by each player (364.3.a)."""
    found = _NOT_YOU.fullmatch(sentence.strip())
    if found is None or len(before) != 1:
        return None
    each = before[0]
    if each.get("op") != "each_player" or each.get("players", "each") != "each" or each.get("optional"):
        return None
    if [effect.get("op") for effect in each["effects"]] != [_VERBS[found["verb"]]]:
        return None
    used.append("if you paid the additional cost, you don't <do it> this way")
    return [{"op": "if", "condition": PAID, "then": [{**each, "players": "others"}], "else": before}]


INSTEAD.append(read_not_you)


def read_countered_to_hand(sentence: str, before: list[dict[str, Any]], ctx: Context, used: list[str]) -> list | None:
    """ "Counter a spell. Return it to its owner's hand instead of putting it in their trash": the countered card's
    placement in the trash (425.1.a.1) replaced by its owner's hand (369, 370.1.b), one `counter` instruction."""
    said = sentence.strip().rstrip(".")
    if said != "return it to its owner's hand instead of putting it in their trash":
        return None
    if len(before) != 1 or before[0].get("op") != "counter" or "to" in before[0]:
        return None
    used.append("counter: return it to its owner's hand instead of the trash")
    return [{**before[0], "to": "hand"}]


INSTEAD.append(read_countered_to_hand)


@template("legion: instructions", r"\[legion\] — (?P<rest>.+)")
def _legion_instructions(m, ctx):
    """ "[Exhaust]: [Legion] — The next unit you play this turn enters ready": the instructions happen only if its
    controller has played a card this turn (812.1.b: another card than this one; an ability is no card played)."""
    then = instructions(m["rest"], ctx, [])
    return None if then is None else [{"op": "if", "condition": "legion", "then": then}]


_TIE = re.compile(
    r"if a combat where you are the attacker ends in a tie(?: that would recall any of your units)?, "
    r"(?P<then>.+) instead"
)


@paragraph_reader("static")
def _read_tie(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If a combat where you are the attacker ends in a tie, recall all units instead": a replacement effect (369,
    370) of the combat cleanup's step 3d, which recalls the attackers when units of both players remain at the
    battlefield (466.1.a.2; that is a tie, 740.3.a), in a combat its controller attacks in. "All units" are the
    units of that tie, at that battlefield (the Origins FAQ's erratum: "recall all units at that battlefield")."""
    found = _TIE.fullmatch(text)
    if not found:
        return False
    then = re.sub(r"\ball units(?: at that battlefield)?\b", "all units in combat", found["then"])
    ctx = Context(card["type"])
    instead = instructions(then, ctx, used)
    if instead is None or ctx.targets:
        raise Unread(found["then"])
    card.setdefault("replacements", []).append({"would": "recall_attackers", "to": {"who": "you"}, "instead": instead})
    used.append("static: if a combat you attack in ends in a tie, <instead>")
    return True


# -- a unit's death replaced ------------------------------------------------------------------------------------

_MAY_PAY = re.compile(r"(?P<payer>you|its controller) may pay (?P<cost>.+?) to (?P<then>.+)")
_ITS_BUFF = re.compile(r"(?P<rest>.+?),? and spend its buff")


def _instead_of_dying(text: str, ctx: Context, used: list[str]) -> dict[str, Any] | None:
    """What replaces a unit's death, "it" the unit acted on (`affected`): "heal it, exhaust it, and recall it", or
    "you may pay [X], exhaust me, and spend its buff to heal it, ...": an optional replacement effect (371.2) its
    player applies only by paying that cost (`may`, `cost`: rules/replacement.py), the buff spent the dying unit's."""
    it, ctx.it = ctx.it, "affected"
    try:
        may = _MAY_PAY.fullmatch(text)
        if may is None:
            inner = instructions(text, ctx, used)
            return None if inner is None else {"instead": inner}
        said, spend = may["cost"], []
        buff = _ITS_BUFF.fullmatch(said)
        if buff:  # "spend its buff": the dying unit's (a buffed one: its filter says so)
            said, spend = buff["rest"], [{"op": "spend_buff", "what": "affected"}]
        cost = ability_cost(said)
        inner = instructions(may["then"], ctx, used)
        if cost is None or inner is None:
            return None
        return {"may": "you" if may["payer"] == "you" else "its controller", "cost": cost, "instead": spend + inner}
    finally:
        ctx.it = it


@template(
    "the next time it would", r"(?P<when>the next time|if) (?:it|that unit) would die this turn, (?P<rest>.+) instead"
)
def _instead_of_dying_next(m, ctx):
    """ "The next time it would die this turn, heal it, exhaust it, and recall it instead" (390.3): once; "If it would
    die this turn, banish it instead": each time it would die this turn (369, 370.1), while the same object (if its
    death is replaced by another effect, 372, this one still waits). "..., you may pay [Fury] to heal it, ...
    instead": its controller chooses, paying, as it would die (371.2)."""
    it = ctx.it
    if it not in ctx.targets:
        return None
    replaced = _instead_of_dying(m["rest"], ctx, [])
    if replaced is None or replaced.get("may") == "its controller":
        return None
    lasting = {"once": False} if m["when"] == "if" else {}
    return [{"op": "replace_next", "would": "die", "it": it, **replaced, **lasting}]


_WOULD_DIE_MAY = re.compile(r"if (?P<who>.+?) would die(?P<combat> during combat)?, (?P<rest>.+ may pay .+) instead")
_DYING: dict[str, dict[str, Any]] = {
    "a buffed unit you control": {"who": "friendly unit", "buffed": True},
    "a unit here": {"who": "unit", "where": "here"},
    "a friendly unit": {"who": "friendly unit"},
}


@paragraph_reader("static")
def _read_would_die_may_pay(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If a buffed unit you control would die, you may pay [A], exhaust me, and spend its buff to heal it, exhaust
    it, and recall it instead", "If a unit here would die during combat, its controller may pay [A][A][A] to ...
    instead": a passive replacement effect (368.1) of the unit's death that its player may apply, paying (371.2);
    "during combat": only while a combat is under way (459)."""
    found = _WOULD_DIE_MAY.fullmatch(text.rstrip("."))
    if not found or found["who"] not in _DYING:
        return False
    ctx = Context(card["type"])
    replaced = _instead_of_dying(found["rest"].replace(card["name"].lower(), "this"), ctx, used)
    if replaced is None or ctx.targets:
        raise Unread(found["rest"])
    entry: dict[str, Any] = {"would": "die", "to": dict(_DYING[found["who"]]), **replaced}
    if found["combat"]:
        entry["condition"] = "during combat"
    card.setdefault("replacements", []).append(entry)
    used.append("static: if <unit> would die, <player> may pay <cost> to <instead>")
    return True


# -- damage modified --------------------------------------------------------------------------------------------


@template(
    "damage that would be dealt to it",
    r"(?:(?P<double>double all)|prevent the next (?P<n>\d+)) damage that would be dealt to (?:it|that unit) this turn",
)
def _damage_modified(m, ctx):
    """ "Double all damage that would be dealt to it this turn": a delayed replacement effect (390.3) modifying each
    time it would be dealt damage this turn (370.1.b, 465.2.c.4.a's own example); "Prevent the next 7 damage that
    would be dealt to it this turn": a Prevent (437), a delayed replacement effect (437.7) reducing the next damage
    by its Prevent Value, tracked on the unit until it reaches 0 (437.2-437.3)."""
    if ctx.it not in ctx.targets:
        return None
    ins: dict[str, Any] = {"op": "replace_next", "would": "takes_damage", "it": ctx.it, "instead": [], "once": False}
    if m["double"]:
        return [{**ins, "modify": "double"}]
    return [{**ins, "modify": "prevent", "prevent": int(m["n"])}]


# -- a token's play modified ------------------------------------------------------------------------------------

_TOKEN_COPY = re.compile(
    r"(?P<once>once each turn, )?if you would play a token unit(?P<here> while i'm at a battlefield)?, "
    r"(?P<may>you may )?play that token and an additional copy of it instead"
)


@paragraph_reader("static")
def _read_token_copy(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Once each turn, if you would play a token unit while I'm at a battlefield, you may play that token and an
    additional copy of it instead": a passive replacement effect (368.1) modifying the play of a token unit, one
    more of it played (370.1.b); "may": its controller chooses whether to apply it (371.2.a); "once each turn":
    applied to one such play a turn, a declined one not counted (371.1, 371.2.b; 371.2.b's own example)."""
    found = _TOKEN_COPY.fullmatch(text.rstrip("."))
    if not found:
        return False
    entry: dict[str, Any] = {
        "would": "play_token_unit",
        "to": {"who": "you"},
        "instead": [],
        "modify": "additional copy",
    }
    if found["here"]:
        entry["condition"] = "at a battlefield"
    if found["may"]:
        entry["may"] = "you"
    if found["once"]:
        entry["limit"] = "once_per_turn"
    card.setdefault("replacements", []).append(entry)
    used.append("static: if you would play a token unit, play it and an additional copy instead")
    return True


# -- a point scored replaced ------------------------------------------------------------------------------------

_SCORE_INSTEAD = re.compile(
    r"if a player would score 1 point from conquering or holding during their first or second turn, "
    r"they (?P<then>.+) instead"
)


@paragraph_reader("static")
def _read_score_instead(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If a player would score 1 point from conquering or holding during their first or second turn, they draw 1
    instead": a passive replacement effect (368.1) of a point scored by Conquer or Hold (471.1), the player's own
    instructions ("they": the player acted on, performing them, 411.1) done instead; the Conquer or Hold itself
    happens (its abilities trigger, as when the Final Point is replaced, 471.1.b.1)."""
    found = _SCORE_INSTEAD.fullmatch(text.rstrip("."))
    if not found:
        return False
    ctx = Context(card["type"])
    then = instructions(found["then"], ctx, used)
    if then is None or ctx.targets:
        raise Unread(found["then"])
    card.setdefault("replacements", []).append(
        {
            "would": "score_point",
            "to": {"who": "player", "own_turn_at_most": 2},
            "instead": [{"op": "each_player", "players": "affected", "effects": then}],
        }
    )
    used.append("static: if a player would score from conquering or holding early, they <instead>")
    return True


# -- what a spell or ability that chooses me would do -----------------------------------------------------------

_DONE_TO_ME = {"stun me": "stun", "give me -might": "lose_might", "return me to hand": "return_to_hand"}
_ONE_DONE = "(?:" + "|".join(re.escape(done) for done in _DONE_TO_ME) + ")"
_CHOOSES_ME = re.compile(
    rf"if a spell or ability that chooses me would (?P<done>{_ONE_DONE}(?:,? (?:or )?{_ONE_DONE})*), "
    r"(?P<then>.+) instead"
)


@paragraph_reader("static")
def _read_chooses_me(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If a spell or ability that chooses me would stun me, give me -[Might], or return me to hand, give me +3
    [Might] this turn instead": a passive replacement effect (368.1) of each of those events (a stun, 423.1; a Might
    decrease, 477.3; a return to hand) done to the card by a spell or ability that chose it (355.7); each event
    replaced separately (373)."""
    found = _CHOOSES_ME.fullmatch(text.rstrip("."))
    if not found or card["type"] != "unit":
        return False
    ctx = Context(card["type"])
    ctx.it = "affected"
    then = instructions(re.sub(r"\bme\b", "it", found["then"]), ctx, used)
    if then is None or ctx.targets:
        raise Unread(found["then"])
    for done in re.findall(_ONE_DONE, found["done"]):
        card.setdefault("replacements", []).append(
            {
                "would": _DONE_TO_ME[done],
                "to": {"who": "self"},
                "source": "spell or ability that chooses it",
                "instead": then,
            }
        )
    used.append("static: if a spell or ability that chooses me would <do X to me>, <instead>")
    return True
