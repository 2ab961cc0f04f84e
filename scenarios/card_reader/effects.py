"""Instructions: an imperative clause of card text ("deal 3 to an enemy unit here") -> the engine's
instruction dicts (`kernel.INSTRUCTIONS`), template by template.

`TEMPLATES` is the grammar: (family, pattern, builder). A builder returns the instructions, or None when a
phrase inside (an object, an amount) is not understood. A clause no template reads is refused by the caller.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from scenarios.card_reader.conditions import condition_word
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.phrases import (
    CHOSEN_BATTLEFIELD,
    Context,
    another,
    icons_cost,
    number,
    reference,
    signed,
    target_spec,
)
from scenarios.token_kinds import UNIT_TOKENS

Instructions = list[dict[str, Any]]
Builder = Callable[[re.Match, Context], Instructions | None]
TEMPLATES: list[tuple[str, re.Pattern, Builder]] = []


def template(family: str, pattern: str):
    def decorate(fn: Builder) -> Builder:
        TEMPLATES.append((family, re.compile(pattern + r"$"), fn))
        return fn

    return decorate


def _ref(phrase: str, ctx: Context, kind: str | None = "unit") -> Any:
    """A reference that must name `kind` objects (a unit by default; None: a unit or a gear, or either)."""
    ref = reference(phrase, ctx)
    kinds = ("unit", "gear", "permanent") if kind is None else (kind,)
    if isinstance(ref, str) and ref in ctx.targets and ctx.targets[ref].get("type") not in kinds:
        return None
    return ref


def _amount(text: str) -> Any:
    if text.isdigit():
        return int(text)
    if text in ("damage equal to my might",):
        return "might_of:this"
    return None


@template("deal", r"deal (?P<n>\d+|damage equal to my might) to (?P<obj>.+)")
def _deal(m, ctx):
    amount, to = _amount(m["n"]), _ref(m["obj"], ctx)
    if amount == "might_of:this" and ctx.me != "this":  # an Equipment's "my Might" is the equipped unit's
        return None
    return None if amount is None or to is None else [{"op": "deal", "amount": amount, "to": to}]


@template(
    "might", r"(?:then )?give (?P<obj>.+?) (?P<sign>[+-])(?P<n>\d+) might this turn(?P<min>, to a minimum of 1 might)?"
)
def _might(m, ctx):
    to = _ref(m["obj"], ctx)
    if to is None:
        return None
    amount = signed(m["sign"], m["n"])
    ins: dict[str, Any] = {"op": "might", "amount": amount, "to": to}
    if m["min"]:
        ins["minimum"] = 1
    return [ins]


@template("grant", r"give (?P<obj>.+?) \[(?P<kw>[a-z-]+)(?: (?P<n>\d+))?\] this turn")
def _grant(m, ctx):

    keyword, to = engine_keyword(m["kw"]), _ref(m["obj"], ctx)
    if keyword is None or to is None:
        return None
    ins: dict[str, Any] = {"op": "grant", "keyword": keyword, "to": to}
    if m["n"]:
        ins["value"] = int(m["n"])
    return [ins]


@template(
    "grant", r"give (?P<obj>.+?) \[(?P<a>[a-z-]+)(?: (?P<n>\d+))?\] and \[(?P<b>[a-z-]+)(?: (?P<m>\d+))?\] this turn"
)
def _grant_two(m, ctx):

    first, second, to = engine_keyword(m["a"]), engine_keyword(m["b"]), _ref(m["obj"], ctx)
    if first is None or second is None or to is None:
        return None
    grants = []
    for keyword, value in ((first, m["n"]), (second, m["m"])):
        ins: dict[str, Any] = {"op": "grant", "keyword": keyword, "to": to}
        if value:
            ins["value"] = int(value)
        grants.append(ins)
    return grants


@template("buffs give more", r"buffs give an additional \+(?P<n>\d+) might to friendly units this turn")
def _buffs_give_more(m, ctx):
    """ "Buffs give an additional +1 [Might] to friendly units this turn" (703): for every friendly unit, wherever
    it is and whenever buffed this turn (811.2's example); nothing is chosen."""
    return [{"op": "buffs_give_more", "amount": int(m["n"])}]


@template("recycle a rune", r"you must recycle one of your runes")
def _must_recycle_a_rune(m, ctx):
    """ "You must recycle one of your runes": one of the controller's runes, chosen as it resolves, not a target
    (355.10.f), to the bottom of their Rune Deck (416.1.b)."""
    return [{"op": "recycle_rune"}]


@template("ready runes", r"ready (?P<n>\d+) runes")
def _ready_runes(m, ctx):
    return [{"op": "ready_runes", "n": int(m["n"])}]


@template("ready runes", r"ready your runes")
def _ready_your_runes(m, ctx):
    """ "Ready your runes": every rune its controller controls (415.1; none chosen, 355.10.d)."""
    return [{"op": "ready_runes", "all": True}]


@template("draw", r"(?:you )?draw (?P<n>\d+)")
def _draw(m, ctx):
    return [{"op": "draw", "n": int(m["n"])}]


@template("discard", r"(?:you )?discard (?P<n>\d+)")
def _discard(m, ctx):
    return [{"op": "discard", "n": int(m["n"])}]


@template("channel", r"channel (?P<n>\d+) runes?(?P<ex> exhausted)?")
def _channel(m, ctx):
    ins: dict[str, Any] = {"op": "channel", "n": int(m["n"])}
    if m["ex"]:
        ins["exhausted"] = True
    return [ins]


@template("additional turn", r"take a turn after this one")
def _additional_turn(m, ctx):
    """ "Take a turn after this one": an Additional Turn of its controller, next in the turn queue (734-738)."""
    return [{"op": "additional_turn"}]


@template("score", r"(?:you )?score (?P<n>\d+) points?")
def _score(m, ctx):
    return [{"op": "score", "n": int(m["n"])}]


@template("status", r"\[?(?P<verb>kill|stun|ready|exhaust|buff|recall|heal)\]? (?P<obj>.+)")
def _status(m, ctx):
    what = _ref(m["obj"], ctx, None if m["verb"] in ("kill", "ready", "exhaust") else "unit")
    if what is None:
        return None
    return [{"op": m["verb"], "what": what}]


@template("banish", r"banish (?P<obj>.+)")
def _banish(m, ctx):
    what = _ref(m["obj"], ctx, None)
    if what == "this" and ctx.card_type == "spell" and m["obj"] == "this":  # "Banish this.": the spell resolving
        return [{"op": "banish", "what": "this"}]  # leaves the Chain banished, not to the Trash (359.3.d, 427.1)
    return None if what is None or what == "this" else [{"op": "banish", "what": what}]


@template("return", r"return (?P<obj>.+?) to (?:its|their|my) owners?'s? hands?")
def _return(m, ctx):
    what = _ref(m["obj"], ctx, None)
    return None if what is None else [{"op": "return_to_hand", "what": what}]


@template("move", r"move (?P<obj>.+?) to (?:its |their |your )?base")
def _move_base(m, ctx):
    what = _ref(m["obj"], ctx)
    return None if what is None else [{"op": "move", "what": what, "to": "base"}]


@template("move", r"move (?P<obj>.+?)(?P<ready> and ready (?:it|them))?")
def _move(m, ctx):
    what = _ref(m["obj"], ctx)
    if not isinstance(what, str) or what not in ctx.targets:
        return None
    destination = "destination" if "destination" not in ctx.targets else None
    if destination is None:
        return None
    ctx.targets[destination] = {"type": "location", "of": what}
    ctx.it = what
    ins: dict[str, Any] = {"op": "move", "what": what, "to": destination}
    if m["ready"]:
        ins["ready"] = True
    return [ins]


@template(
    "counter",
    r"counter (?P<obj>a spell(?: that costs no more than \[(?P<e>\d+) energy\]"
    r"(?: and no more than (?P<p>(?:\[any rune\])+))?)?)(?: unless its controller pays (?P<unless>\[.+\])| if (?P<cond>.+))?",
)
def _counter(m, ctx):
    """ "Counter a spell" (425); "... unless its controller pays [2 energy]": the spell's controller chooses as it
    resolves whether to pay, and it is countered if they don't (355.17, 404.1); "... if <condition>": checked as it
    resolves (364.3.a), "another spell" in it not the spell chosen."""
    word = condition_word(m["cond"]) if m["cond"] else None
    if m["cond"] and word is None:
        return None
    spec: dict[str, Any] = {"type": "spell"}
    if m["e"]:
        spec["max_cost"] = int(m["e"])
    if m["p"]:
        spec["max_power"] = m["p"].count("[any rune]")
    spell = ctx.slot(spec)
    counter: Instructions = [{"op": "counter", "what": spell}]
    if word is not None:
        other = {"other_than": spell} if "another spell" in m["cond"] else {}
        return [{"op": "if", "condition": word, **other, "then": counter}]
    if not m["unless"]:
        return counter
    cost = icons_cost(m["unless"])
    return None if cost is None else [{"op": "pay_to", "cost": cost, "payer": spell, "else": counter}]


@template("add", r"\[add\] (?P<what>\[[^:]*\])")
def _add(m, ctx):
    """ "[Add] [1][A]": each resource the icons show added (an Add instruction per kind, 429)."""
    cost = icons_cost(m["what"])
    if not cost:
        return None
    added: Instructions = []
    if "energy" in cost:
        added.append({"op": "add", "energy": cost["energy"]})
    if "power" in cost:
        added.append({"op": "add", "power": cost["power"]})
    for domain, n in cost.get("domain_power", {}).items():
        added.append({"op": "add", "power": n, "domain": domain})
    return added


@template("choose", r"choose (?P<a>an? .+?) and (?P<b>an? .+)")
def _choose_two(m, ctx):
    """ "Choose a friendly unit and an enemy unit": two choices, in the order printed (355.8)."""
    first, second = target_spec(m["a"]), target_spec(m["b"])
    if second is None and m["b"] == "a battlefield":  # "Choose a friendly unit and a battlefield": what is done
        second = {"type": "battlefield"}  # there a later sentence says ("that battlefield")
    if m["a"] == "a battlefield" and m["b"].endswith(" there"):  # "Choose a battlefield and an enemy unit there"
        first, second = {"type": "battlefield"}, target_spec(m["b"].removesuffix(" there"))
        if second is None or second.get("another") or second.get("where") is not None:
            return None
        second["same_place_as"] = ctx.slot(first)
        ctx.slot(second)
        ctx.unfinished = CHOSEN_BATTLEFIELD  # what is done there a later sentence says
        return []
    elsewhere = m["b"].endswith(" at a different location")
    if m["a"] == "a battlefield you control" and elsewhere:  # "... and a unit you control at a different location"
        first, second = (
            {"type": "battlefield", "side": "friendly"},
            target_spec(m["b"].removesuffix(" at a different location")),
        )
    if first is None or second is None or first.get("another") or second.get("another"):
        return None
    if elsewhere:  # not where the battlefield chosen first is (its place)
        second["not_same_place_as"] = ctx.slot(first)
        ctx.slot(second)
        return []
    ctx.slot(first)
    ctx.slot(second)
    if second["type"] == "battlefield":
        ctx.unfinished = CHOSEN_BATTLEFIELD
    return []


@template("choose", r"choose a battlefield")
def _choose_a_battlefield(m, ctx):
    """ "Choose a battlefield.": a battlefield is a target (355.8), what is done there said by a later sentence
    ("Give enemy units there ..."); refused unless one does."""
    ctx.slot({"type": "battlefield"})
    ctx.unfinished = CHOSEN_BATTLEFIELD
    return []


@template("choose", r"choose two (?P<side>friendly |enemy )?units")
def _choose_two_units(m, ctx):
    """ "Choose two units": two different units (355.8)."""
    spec: dict[str, Any] = {"type": "unit"}
    if m["side"]:
        spec["side"] = m["side"].strip()
    first = ctx.slot(dict(spec))
    ctx.slot({**spec, "not_target": first})
    return []


@template("fight", r"we deal damage equal to our mights to each other")
def _fight_me(m, ctx):
    """ "We deal damage equal to our Mights to each other": I and the unit chosen (417.6.b.3)."""
    slots = [s for s, spec in ctx.targets.items() if spec.get("type") == "unit"]
    return None if len(slots) != 1 or ctx.me != "this" else [{"op": "fight", "a": "this", "b": slots[0]}]


@template("choose", r"(?:then )?choose (?P<obj>(?:an?|another) .+)")
def _choose(m, ctx):
    spec = target_spec(m["obj"])
    if spec is None or not another(spec, ctx):
        return None
    ctx.slot(spec)
    return []


@template("fight", r"they deal damage equal to their mights to each other")
def _fight(m, ctx):
    slots = [s for s, spec in ctx.targets.items() if spec.get("type") == "unit"]
    return None if len(slots) != 2 else [{"op": "fight", "a": slots[0], "b": slots[1]}]


@template("move", r"(?:then )?move (?P<obj>it|them) to a battlefield")
def _move_to_battlefield(m, ctx):
    what = _ref(m["obj"], ctx)
    if not isinstance(what, str) or "destination" in ctx.targets:
        return None
    ctx.targets["destination"] = {"type": "battlefield"}
    ctx.it = what
    return [{"op": "move", "what": what, "to": "destination"}]


@template("move", r"move (?P<obj>that unit|it) to that battlefield")
def _move_to_that_battlefield(m, ctx):
    """ "Move that unit to that battlefield": the unit chosen to the battlefield chosen with it (a move by an
    effect, 446.1), one it is not at (355.4.a: chosen at a different location)."""
    what = reference(m["obj"], ctx)
    battlefields = [slot for slot, spec in ctx.targets.items() if spec.get("type") == "battlefield"]
    spec = ctx.targets.get(what, {}) if isinstance(what, str) else {}
    if len(battlefields) != 1 or spec.get("type") != "unit" or spec.get("not_same_place_as") != battlefields[0]:
        return None
    return [{"op": "move", "what": what, "to": battlefields[0]}]


@template("move", r"(?:you may )?move (?P<obj>an? .+?) to that (?:enemy )?unit's (?:battlefield|location)")
def _move_to_its_place(m, ctx):
    there = ctx.it
    if there not in ctx.targets:
        return None
    spec = target_spec(m["obj"])
    if spec is None or spec.get("another"):
        return None
    if m[0].startswith("you may "):
        spec["optional"] = True
    slot = ctx.slot(spec)
    return [{"op": "move", "what": slot, "to": f"location_of:{there}"}]


@template("banish and play", r"banish (?P<obj>an? .+?), then its owner plays it to their base, ignoring its cost")
def _banish_and_play(m, ctx):
    what = _ref(m["obj"], ctx)
    return None if not isinstance(what, str) or what == "this" else [{"op": "banish_and_play", "what": what}]


@template("banished with this", r"play all units banished with this, ignoring their costs")
def _play_banished_with_this(m, ctx):
    """ "Play all units banished with this, ignoring their costs": the cards this object banished (427.3)."""
    return [{"op": "play_banished_by_this"}]


@template("deal", r"deal (?P<n>\d+) to up to one other unit")
def _deal_other(m, ctx):
    if ctx.it not in ctx.targets:
        return None
    first = ctx.it
    slot = ctx.slot({"type": "unit", "optional": True, "not_target": first})
    return [{"op": "deal", "amount": int(m["n"]), "to": slot}]


_CONDITIONS = {"i was [mighty]": "mighty", "i'm [mighty]": "mighty", "i died alone": "alone"}
_CONDITIONS["i didn't die alone"] = "not alone"
_CONDITIONS["i haven't been dealt damage this turn"] = "not dealt damage this turn"  # a word of its own (364.3.a)
_IF = "|".join(re.escape(c) for c in _CONDITIONS)


@template("if <condition>", rf"if (?P<c>{_IF}), (?P<rest>.+)")
def _if(m, ctx):
    then = instructions(m["rest"], ctx, [])
    if then is None:
        return None
    word = _CONDITIONS[m["c"]]
    if word == "not alone":  # "if I didn't die alone, X": nothing if alone, else X (364.3.a)
        return [{"op": "if", "condition": word[4:], "then": [], "else": then}]
    return [{"op": "if", "condition": word, "then": then}]


def _one(clause: str, ctx: Context, used: list[str]) -> Instructions | None:
    for family, pattern, build in TEMPLATES:
        found = pattern.match(clause)
        if found:
            saved = (dict(ctx.targets), ctx.it)
            result = build(found, ctx)
            if result is not None:
                used.append(family)
                return result
            ctx.targets, ctx.it = saved
    return None


_JOINS = (", then ", " then ", ", and ", " and ", ", ")


def instructions(clause: str, ctx: Context, used: list[str]) -> Instructions | None:
    """A clause's instructions; "X, then Y" and "X and Y" read as X followed by Y when both parts read."""
    clause = clause.strip().rstrip(".").strip()
    whole = _one(clause, ctx, used)
    if whole is not None:
        return whole
    for join in _JOINS:
        start = 0
        while (at := clause.find(join, start)) > 0:
            saved = (dict(ctx.targets), ctx.it, list(used))
            first = instructions(clause[:at], ctx, used)
            second = instructions(clause[at + len(join) :], ctx, used) if first is not None else None
            if first is not None and second is not None:
                return first + second
            ctx.targets, ctx.it = saved[0], saved[1]
            used[:] = saved[2]
            start = at + 1
    return None


_TOKEN_KINDS = "|".join(UNIT_TOKENS)  # 187, as cards print them
_TOKEN_PLACES = {"": None, " here": "here", " to your base": "base", " in your base": "base", " at your base": "base"}
_TOKEN_PLACES[" into your base"] = "base"


@template(
    "play a token",
    rf"play (?P<n>an?|one|two|three|four|five) (?P<ready>ready )?(?:(?P<m>\d+)|\[(?P<icon>\d+) energy\]) might "
    rf"(?P<kind>{_TOKEN_KINDS}) unit tokens?(?: from (?P<tag>[a-z]+))?"
    r"(?: with (?P<kw>\[[a-z-]+(?: \d+)?\]))?(?P<where> here| there| (?:to|in|at|into) your base)?(?P<exhausted> exhausted)?",
)
def _play_token(m, ctx):
    """ "Play two 1 might Recruit unit tokens here" (179-187): unit tokens of a kind 187 defines. "Tentacle unit
    tokens from Bilgewater" names a tag the kind has (187.10: the Bilgewater tag); any other is refused. A Might
    printed as a number icon ("two [1] [Might] Bird unit tokens", the card data giving every number icon as an
    Energy one) is that Might (377.2.b quotes Ultrasoft Poro's "two 1 [M] Bird unit tokens")."""

    might = int(m["m"] or m["icon"])
    ins: dict[str, Any] = {"op": "play_token", "token": m["kind"], "might": might, "n": number(m["n"])}
    if (m["ready"] and m["exhausted"]) or (m["tag"] and m["tag"] not in {t.lower() for t in UNIT_TOKENS[m["kind"]][1]}):
        return None
    if m["ready"]:
        ins["ready"] = True
    if m["where"] == " there":  # "When I move from a location, play ... there": where I moved from (359.3.f.3)
        if not ctx.when or any(e.get("event") != "move_from" or e.get("who") != "self" for e in ctx.when):
            return None
        ins["to"] = "trigger_location"
    elif m["where"]:
        ins["to"] = _TOKEN_PLACES[m["where"]]
    if m["kw"]:
        word, _, value = m["kw"].strip("[]").partition(" ")
        keyword = engine_keyword(word)
        if keyword is None:
            return None
        ins["keywords"] = {keyword: int(value or 1)}
    return [ins]


@template("trash from deck", r"put the top (?P<n>\d+) cards? of your main deck into your trash")
def _trash_from_deck(m, ctx):
    return [{"op": "trash_from_deck", "n": int(m["n"])}]


@template("ready runes", r"ready up to (?P<n>\d+) (?:friendly )?runes")
def _ready_up_to(m, ctx):
    """ "Ready up to N runes": as many of N exhausted runes as there are (`ready_runes`, 415.3.b)."""
    return [{"op": "ready_runes", "n": int(m["n"])}]


@template("control", r"take control of (?P<obj>.+)")
def _take_control(m, ctx):
    what = _ref(m["obj"], ctx)
    return None if not isinstance(what, str) or what == "this" else [{"op": "take_control", "what": what}]


@template("control", r"lose control of (?P<obj>it|that unit)")
def _lose_control(m, ctx):
    return None if ctx.it is None else [{"op": "return_control", "what": ctx.it}]


def _about_it(clause: str, ctx: Context) -> tuple[Instructions, str | None] | None:
    """A delayed ability's instructions: what "it" named is the object the ability is about (`it`, 390.2)."""
    outer = ctx.it
    ctx.it = "it"
    inner = instructions(clause, ctx, [])
    ctx.it = outer
    if inner is None:
        return None
    mentions = any("it" in (i.get("what"), i.get("to")) for i in inner)
    if mentions and outer not in ctx.targets:
        return None
    return inner, outer if mentions else None


@template("at the end of this turn", r"(?P<rest>.+?) at (?:the )?end of (?:this )?turn")
def _at_end_of_turn(m, ctx):
    """ "<instructions> at the end of this turn": a delayed triggered ability (390.2) on the turn's end."""
    found = _about_it(m["rest"], ctx)
    if found is None:
        return None
    inner, it = found
    ins: dict[str, Any] = {"op": "delayed", "when": {"event": "end_of_turn", "who": "player"}, "effects": inner}
    if it:
        ins["it"] = it
    return [ins]


@template("the next time it takes damage", r"(?P<rest>.+?) the next time (?:it|that unit) takes damage this turn")
def _next_time_damaged(m, ctx):
    """ "Kill it the next time it takes damage this turn": a delayed triggered ability about it (390.2)."""
    found = _about_it(m["rest"], ctx)
    if found is None or found[1] is None:
        return None
    inner, it = found
    return [{"op": "delayed", "when": {"event": "takes_damage", "who": "it"}, "it": it, "effects": inner}]


@template(
    "the next time it takes damage",
    r"when (?P<who>any unit|an? (?:friendly|enemy) unit|it) (?P<event>takes damage|dies|is played|wins a combat)"
    r" this turn, (?P<rest>.+)",
)
def _when_this_turn(m, ctx):
    """ "When any unit takes damage this turn, kill it", "When it dies this turn, ...", "When it wins a combat this
    turn, ...": a delayed triggered ability (390.2), about the unit the spell chose ("it", once) or about every such
    unit (each time). A unit's death triggers while it is still on the board (383.2.c.2), but what the ability then
    does to "it" would be done to a new object (359.3.e.4): a dying "it" its instructions name is not read."""
    event = {"takes damage": "takes_damage", "dies": "die", "is played": "play", "wins a combat": "win_combat"}
    event = event[m["event"]]
    if m["who"] == "it":
        found = _about_it(m["rest"], ctx)
        if found is None or ctx.it not in ctx.targets or (event == "die" and found[1] is not None):
            return None
        delayed = {"op": "delayed", "when": {"event": event, "who": "it"}, "it": ctx.it, "effects": found[0]}
        if event == "win_combat":  # each combat it wins this turn, while the same object (390.2, 359.3.e.4)
            delayed["once"] = False
        return [delayed]
    if event == "win_combat":  # a combat's result is its player's and their units' (466.3.c), no one unit's
        return None
    outer = ctx.it
    ctx.it = "trigger_unit"
    inner = instructions(m["rest"], ctx, [])
    ctx.it = outer
    if inner is None:
        return None
    who = "unit" if m["who"] == "any unit" else m["who"].split(" ", 1)[1]
    return [{"op": "delayed", "when": {"event": event, "who": who}, "once": False, "effects": inner}]


@template(
    "the next time it would",
    r"the next time (?:it|that unit) would be dealt damage this turn, prevent it",
)
def _prevent_next(m, ctx):
    """A delayed replacement effect (390.3): the damage the next time is replaced by nothing."""
    if ctx.it not in ctx.targets:
        return None
    return [{"op": "replace_next", "would": "takes_damage", "it": ctx.it, "instead": []}]


@template(
    "grant this combat", r"(?:give (?P<obj>.+?)|(?P<it>it|they) gains?) \[(?P<kw>[a-z-]+)(?: (?P<n>\d+))?\] this combat"
)
def _grant_this_combat(m, ctx):
    """ "It gains [Shield 2] this combat": a keyword until the combat ends (the duration it names, 801.3.a)."""

    keyword = engine_keyword(m["kw"])
    to = ctx.it if m["it"] else _ref(m["obj"], ctx)
    if keyword is None or to is None:
        return None
    ins: dict[str, Any] = {"op": "grant", "keyword": keyword, "to": to}
    if m["n"]:
        ins["value"] = int(m["n"])
    return [{**ins, "until": "combat"}]


@template("play a token", r"play (?P<n>an?|one|two|three|four|five) gold gear tokens?(?P<exhausted> exhausted)?")
def _play_gold(m, ctx):
    """ "Play a Gold gear token exhausted" (187.5): a gear token whose ability adds [A]."""

    ins: dict[str, Any] = {"op": "play_token", "token": "gold", "n": number(m["n"])}
    if m["exhausted"]:
        ins["exhausted"] = True
    return [ins]


@template("might", r"give (?P<obj>two (?:friendly |enemy )?units) each (?P<sign>[+-])(?P<n>\d+) might this turn")
def _might_two(m, ctx):
    """ "Give two friendly units each +1 [Might] this turn": two units chosen (355.8), each given the Might."""
    spec = target_spec("a " + m["obj"].split(" ", 1)[1].removesuffix("s"))
    if spec is None or spec.get("another"):
        return None
    first = ctx.slot(dict(spec))
    second = ctx.slot({**spec, "not_target": first})
    amount = signed(m["sign"], m["n"])
    return [{"op": "might", "amount": amount, "to": slot} for slot in (first, second)]


@template("deal", r"deal (?P<n>\d+) to all (?P<who>(?:enemy |friendly )?units) at a battlefield")
def _deal_at_a_battlefield(m, ctx):
    """ "Deal 2 to all enemy units at a battlefield": the battlefield is chosen (355.8), then every such unit
    there is dealt the damage (no unit is chosen, 355.10.d)."""
    where = ctx.slot({"type": "battlefield"})
    who = m["who"].removesuffix("s")
    return [{"op": "deal", "amount": int(m["n"]), "to": {"all": {"who": who, "where": f"at {where}"}}}]


@template(
    "reveal until a unit",
    r"reveal cards from the top of your main deck until you reveal a unit and banish it",
)
def _reveal_until_a_unit(m, ctx):
    """ "Reveal cards from the top of your Main Deck until you reveal a unit and banish it. Play it, ignoring its
    cost, and recycle the rest." (`reveal_play_unit`; the next sentence must say the rest of it)."""
    ctx.revealing = True
    return [{"op": "reveal_play_unit"}]


@template("reveal until a unit", r"play it, ignoring its cost, and recycle the rest")
def _play_the_revealed_unit(m, ctx):
    if not ctx.revealing:
        return None
    ctx.revealing = False
    return []


@template("xp", r"(?:you )?gain (?P<n>\d+) xp")
def _gain_xp(m, ctx):
    """ "Gain 2 XP" (730.1)."""
    return [{"op": "gain_xp", "n": int(m["n"])}]


@template("you may (later in a trigger)", r"you may (?P<rest>(?!pay ).+)")
def _you_may(m, ctx):
    """ "When you conquer here, you may ready a friendly gear. If it's an Equipment, you may detach it": a "you may"
    in a later part of a triggered ability's effect, decided as it resolves (383.3.a.3; at the start of the effect
    it is the trigger's own, `abilities.read_trigger`); in a spell or an activated ability, a choice made on
    resolution too (355.17). What it does may choose no target of its own (355.12: targets are chosen as it is
    played, apart from the decision). A template that reads the whole "you may ..." clause itself goes first."""
    for _family, pattern, build in TEMPLATES:  # tried on a copy: a builder may note more than targets in `ctx`
        found = pattern.match(m[0]) if build is not _you_may else None
        if found and build(found, copy.deepcopy(ctx)) is not None:
            return None
    saved = dict(ctx.targets)
    then = instructions(m["rest"], ctx, [])
    if not then or ctx.targets != saved:  # what it does chooses nothing of its own
        ctx.targets = saved
        return None
    return [{"op": "may", "then": then}]
