"""Abilities: one paragraph of card text (after its keywords) -> a trigger, an activated ability, a passive,
a static word, or a spell's instructions, added to the card's definition.

Each reader returns the families of templates it used, or raises `Unread` with the words it could not read.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

from scenarios.card_reader.effects import instructions
from scenarios.card_reader.keywords import engine_keyword, keyword_prefix
from scenarios.card_reader.phrases import UNIT_TAGS, Context, ability_cost, icons_cost, signed, untagged
from scenarios.card_reader.readers import Around, read_by
from scenarios.card_reader.text import sentences


class Unread(ValueError):
    """Words of a card the reader does not understand (the card is refused, naming them)."""


_NTH = {"first": 1, "second": 2, "third": 3, "fourth": 4}
TRIGGERS: list[tuple[str, re.Pattern, Any]] = [
    (
        "when you play me",
        re.compile(r"when (?:you play me|i'm played|i am played)"),
        lambda m: [{"event": "play", "who": "self"}],
    ),
    ("when you play this", re.compile(r"when you play this"), lambda m: [{"event": "play", "who": "self"}]),
    (
        "when I <event>",
        re.compile(r"when i (?P<a>attack|defend|conquer|hold|move|die)(?: or (?P<b>attack|defend|conquer|hold))?"),
        lambda m: [{"event": e, "who": "self"} for e in (m["a"], m["b"]) if e],
    ),
    (
        "when I move to a battlefield",
        re.compile(r"when i move to a battlefield"),
        lambda m: [{"event": "move", "who": "self", "where": "battlefield"}],
    ),
    (
        "when you play me to a battlefield",
        re.compile(r"when you play me to a battlefield"),
        lambda m: [{"event": "play", "who": "self", "where": "battlefield"}],
    ),
    (
        "when you play me or when I <event>",
        re.compile(r"when you play me or when i (?P<e>attack|defend|conquer|hold|move)"),
        lambda m: [{"event": "play", "who": "self"}, {"event": m["e"], "who": "self"}],
    ),
    (
        "when you play me or another <tag>",
        re.compile(r"when you play me or another (?P<t>" + "|".join(UNIT_TAGS) + ")"),
        lambda m: [
            {"event": "play", "who": "self"},
            {"event": "play", "who": "other friendly unit", "by": "you", "tag": UNIT_TAGS[m["t"]]},
        ],
    ),
    (
        "when you play me or at the start of your beginning phase",
        re.compile(r"when you play (?:me|this) or at the start of your beginning phase"),
        lambda m: [{"event": "play", "who": "self"}, {"event": "beginning", "who": "you"}],
    ),
    (
        "when a player plays a <card type>",
        re.compile(r"when a player plays an? (?P<t>spell|unit|gear)"),
        lambda m: [{"event": "card_played", "who": "player", "card_type": m["t"]}],
    ),
    (
        "when you play another unit",
        re.compile(r"when you play another unit"),
        lambda m: [{"event": "play", "who": "other friendly unit", "by": "you"}],
    ),
    (
        "when you <event> or <event>",
        re.compile(r"when you (?P<a>conquer|hold) or (?P<b>conquer|hold)"),
        lambda m: [{"event": m["a"], "who": "you"}, {"event": m["b"], "who": "you"}],
    ),
    (
        "when I'm played and when I <event>",
        re.compile(r"when i'm played and when i (?P<e>attack|defend|conquer|hold|move)"),
        lambda m: [{"event": "play", "who": "self"}, {"event": m["e"], "who": "self"}],
    ),
    (
        "the Nth time I move in a turn",
        re.compile(r"the (?P<n>second|third|fourth) time i move in a turn"),
        lambda m: [{"event": "move", "who": "self", "nth": _NTH[m["n"]]}],
    ),
    (
        "when you play your Nth card in a turn",
        # "your first card each turn": the count of cards played this turn (419.4.a), which no token adds to (185)
        re.compile(r"when you play your (?P<n>first|second|third|fourth) card (?:in a|each) turn"),
        lambda m: [{"event": "card_played", "who": "you", "card_type": "card", "nth": _NTH[m["n"]]}],
    ),
    (
        "when an enemy unit attacks a battlefield you control",
        re.compile(r"when an enemy unit attacks a battlefield you control"),
        lambda m: [{"event": "attack", "who": "enemy unit", "where": "battlefield you control"}],
    ),
    (
        "when you play a [mighty] unit",
        re.compile(r"when you play a \[mighty\] unit"),
        lambda m: [{"event": "play", "who": "friendly unit", "by": "you", "mighty": True}],
    ),
    (
        "when you play a <card type>",
        re.compile(r"when you play an? (?P<t>spell|unit|gear)"),
        lambda m: [{"event": "card_played", "who": "you", "card_type": m["t"]}],
    ),
    (
        "when you <event> here",
        re.compile(r"when you (?P<e>conquer|hold|defend) here"),
        lambda m: [{"event": m["e"], "who": "you", "where": "here"}],
    ),
    (
        "when you <event>",
        re.compile(r"when you (?P<e>conquer|hold)"),
        lambda m: [{"event": m["e"], "who": "you"}],
    ),
    (
        "at the end of your turn",
        re.compile(r"at the end of your turn"),
        lambda m: [{"event": "end_of_turn", "who": "you"}],
    ),
    (
        "at the start of your beginning phase",
        re.compile(r"at (?:the )?start of your beginning phase"),
        lambda m: [{"event": "beginning", "who": "you"}],
    ),
    (
        "when a <side> unit <event>",
        re.compile(r"when (?P<o>another|an?) (?P<s>friendly|enemy) unit(?P<here> here)? (?P<e>dies|attacks|defends)"),
        lambda m: [
            {
                "event": {"dies": "die", "attacks": "attack", "defends": "defend"}[m["e"]],
                "who": ("other " if m["o"] == "another" else "") + f"{m['s']} unit",
                **({"where": "here"} if m["here"] else {}),
            }
        ],
    ),
    (
        "when a <side> unit attacks or defends alone",
        re.compile(r"when an? (?P<s>friendly|enemy) unit attacks or defends alone"),
        lambda m: [{"event": e, "who": f"{m['s']} unit", "alone": True} for e in ("attack", "defend")],
    ),
    (
        "when you choose a friendly unit",
        re.compile(
            r"when (?P<by>you choose|a player chooses) an? (?P<s>friendly|enemy) unit(?P<here> here)?"
            r"(?P<spell> with a spell)?"
        ),
        # "a player chooses a friendly unit": friendly to that player, who is "they" in the effects (`actor`)
        lambda m: [
            {
                "event": "choose",
                "who": f"{m['s']} unit",
                **({"by": "you"} if m["by"] == "you choose" else {"actor": True}),
                **({"where": "here"} if m["here"] else {}),
                **({"via": "spell"} if m["spell"] else {}),
            }
        ],
    ),
]
# Readers of a sentence that replaces the instructions of the sentence before it ("If it's your Beginning Phase,
# draw 2 instead"): called with the sentence, those instructions and the context; the instructions both make now,
# or None when the sentence is not one they read.
INSTEAD: list[Callable[[str, list[dict[str, Any]], Context, list[str]], list[dict[str, Any]] | None]] = []
# Readers of instructions that run past a sentence's end ("Then do this: X. Y.", `reflexive`): called with the
# text, the context, the templates used and the reader of the sentences before and after them; None: not theirs.
SPANNING: list[Callable[..., list[dict[str, Any]] | None]] = []
_ABOUT_ME = {"when I <event>", "when I move to a battlefield", "the Nth time I move in a turn"}
_YOU_MAY_COST = re.compile(
    r"you may (?P<cost>(?:exhaust (?:me|this)|banish (?:me|this)|pay (?:\[[^\]]+\])+|spend a buff|spend my buff|spend \d+ xp)"
    r"(?: and (?:exhaust (?:me|this)))?)"
    r" to (?!play me from your trash\b)(?P<rest>.+)"  # "pay [1][C] to play me ...": the play's cost (356.1.a)
)


# "When you play a spell, if you spent [4 Energy] or more, ...": the Energy paid to play the card (357.1)
_SPENT = re.compile(r"if you spent \[(?P<n>\d+) energy\] or more, ")


def _trigger_head(head: str) -> tuple[str, list[dict[str, Any]]] | None:
    for family, pattern, build in TRIGGERS:
        found = pattern.fullmatch(head)
        if found:
            return family, build(found)
    return None


def _effects(text: str, ctx: Context, used: list[str]) -> list[dict[str, Any]]:
    """The instructions of one or more sentences; Unread naming the first sentence not read. A sentence may
    rewrite the one before it ("If ..., <X> instead": `INSTEAD` readers)."""
    spanning = next((r for reader in SPANNING if (r := reader(text, ctx, used, _effects)) is not None), None)
    if spanning is not None:
        return spanning
    result: list[dict[str, Any]] = []
    last: list[dict[str, Any]] = []
    for sentence in sentences(text):
        replaced = next((r for reader in INSTEAD if (r := reader(sentence, last, ctx, used)) is not None), None)
        if replaced is not None:
            result, last = result[: len(result) - len(last)] + replaced, replaced
            continue
        read = instructions(sentence, ctx, used)
        if read is None:
            raise Unread(sentence)
        result, last = result + read, read
    if ctx.revealing or ctx.looking is not None or ctx.unfinished:  # a sentence a later one was to complete
        raise Unread(ctx.unfinished or text)
    return result


def read_trigger(
    text: str, card: dict[str, Any], used: list[str], condition: str | None = None, if_clause: bool = False
) -> bool:
    """A triggered ability; `condition` is a condition word the caller read around it, `if_clause` that condition
    was an "if" right after the Condition (the Trigger Condition's in 1.4, 383.2.a.1; the Effect's before)."""
    head, comma, body = text.partition(", ")
    if not comma:
        return False
    once = first = False
    if head == "once each turn":  # "Once each turn, when ...": performed at most once a turn (383.3.e.1)
        head, comma, body = body.partition(", ")
        once = True
    elif head.endswith(" for the first time each turn"):  # "When a player chooses ... for the first time each turn"
        printed, head, first = head, head.removesuffix(" for the first time each turn"), True
    elif head.startswith("the first time "):  # "The first time I conquer each turn": its 1st time (383.1)
        nth = re.fullmatch(
            r"the first time (?P<rest>i (?:attack|defend|conquer|hold|move|win a combat)) each turn", head
        )
        if nth is not None:  # otherwise a condition of its own (`TRIGGERS`), counted by the event
            printed, head, first = head, f"when {nth['rest']}", True
    found = _trigger_head(head) if comma else None
    if found is None:
        if head.endswith(" this turn") and card["type"] == "spell":  # a delayed ability the spell makes (390.2)
            return False
        if head.startswith(("when ", "at ", "whenever ")):
            raise Unread(head)
        return False
    family, events = found
    used.append(f"trigger: {family}")
    paid = _SPENT.match(body)
    if paid and all(event["event"] == "card_played" for event in events):  # part of the trigger condition (383.2.a.1)
        events = [{**event, "min_energy_paid": int(paid["n"])} for event in events]
        body = body[paid.end() :]
        used.append("trigger: if you spent [N] or more")
    if once:
        used.append("trigger: once each turn")
    if first:
        if events[0]["event"] == "move":  # moves are counted (the Nth time I move)
            events = [{**event, "nth": 1} for event in events]
        elif body.startswith("you may"):  # declined, the first time has passed all the same: not a limit
            raise Unread(printed)
        else:  # nothing to decline: triggering only the first time is triggering once a turn (383.3.e.1)
            once = True
        used.append("trigger: the first time")
    ctx = Context(card["type"], when=events)
    if "Equipment" in card.get("tags", []) and family in _ABOUT_ME:
        # An Equipment's effect text is the equipped unit's (136.2.c): its "I" and "me" are that unit, active
        # only while attached (136.2.b); its "this" is still the Equipment (136.2.d).
        events = [{**event, "who": "equipped unit"} for event in events]
        ctx.me = "equipped"
    if events[0]["who"] not in ("self", "you", "equipped unit"):
        ctx.it = "trigger_unit"
    trigger: dict[str, Any] = {}
    may = _YOU_MAY_COST.fullmatch(body)
    if may:
        cost = ability_cost(may["cost"])
        if cost is None:
            raise Unread(may["cost"])
        trigger.update(optional=True, cost=cost)
        body = may["rest"]
        used.append("you may <cost> to")
    elif body.startswith("you may "):
        trigger["optional"] = True
        body = body[len("you may ") :]
        used.append("you may")
    elif body.startswith("i may be "):  # "I may be moved with it": its controller chooses whether (383.3.a)
        trigger["optional"] = True
        used.append("you may")
    effects = _effects(body, ctx, used)
    if body.startswith("if ") and condition is None:
        condition, effects = _intervening_if(body, effects)
        if_clause = True
    # an ability playing its card from the trash is active there (385.2; 383.2.c.1: "when you discard me" too)
    in_trash = any(e.get("op") == "play_from" and e.get("what") == "this" for e in effects)
    for event in events:
        active_in = event.pop("active_in", "trash" if in_trash else None)
        entry = {"when": event, **trigger, "effects": effects, "label": f"{card['name']}: {text}"}
        if active_in:
            entry["active_in"] = active_in
        if once:
            entry["limit"] = "once_per_turn"
        if ctx.targets:
            entry["targets"] = ctx.targets
        if condition:
            entry["condition"] = condition
        if if_clause:
            entry["if_clause"] = True
        card.setdefault("triggers", []).append(entry)
    return True


def _intervening_if(body: str, effects: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """ "When X, if Y, Z": Y is part of the Trigger Condition, not the Effect (383.2.a.1): checked as the event
    happens, and the ability resolves even if Y stops being true in reaction. Y is a condition word, or a count
    ("if you have 7+ units here": the `if_amount` it reads as, its quantity and bounds, `selectors.Counted`)."""
    first = effects[0] if effects else {}
    if first.get("op") == "if_amount" and "else" not in first and isinstance(first["amount"], dict):
        counted = {k: first[k] for k in ("amount", "at_least", "at_most") if k in first}
        return counted, [*first["then"], *effects[1:]]
    if first.get("op") != "if" or "else" in first or "condition" not in first:
        raise Unread(body)
    return first["condition"], [*first["then"], *effects[1:]]


_USE_ONLY = re.compile(r"\.? use this ability only while i'm at a battlefield\.?$")
# "Use only if you've chosen an enemy unit this turn and only once each turn": a condition on using it (377.2.b) and
# a limit of one use a turn; the printed conditions -> the engine's condition words
_USE_ONLY_IF = re.compile(r"\.? use only if (?P<cond>.+?)(?P<once> and only once each turn)?\.?$")
_USE_CONDITIONS = {"you've chosen an enemy unit this turn": "chosen an enemy unit this turn"}
_USE_ONCE = re.compile(r"\.? use only once (?:per|each) turn\.?$")  # a limit of one use a turn (377.2.b)
_ACTIVATED = re.compile(
    r"(?:\[(?P<kw1>reaction|action)\]\[>\] )?(?P<cost>[^:]+?): "
    r"(?:\[(?P<kw2>reaction|action)\](?P<legion>, \[legion\])? — )?(?P<effect>.+)"
)


def read_activated(text: str, card: dict[str, Any], used: list[str]) -> bool:
    found = _ACTIVATED.fullmatch(text)
    if not found or re.search(r"\bdo this$", found["cost"]):  # "Then do this: ...": a reflexive trigger (387.1)
        return False
    cost = ability_cost(found["cost"])
    if cost is None:
        raise Unread(found["cost"] + ":")
    ctx = Context(card["type"], first="unit")
    ability: dict[str, Any] = {"cost": cost}
    keyword = found["kw1"] or found["kw2"]
    if keyword:
        ability["keywords"] = {engine_keyword(keyword): 1}
    effect = found["effect"]
    if found["legion"]:  # "[Reaction], [Legion] — <effect>": the ability's timing, then its Legion condition
        effect = f"[legion] — {effect}"
    only = _USE_ONLY.search(effect)
    if only:  # "Use this ability only while I'm at a battlefield": a condition on using it (377.2.b)
        ability["condition"] = "at a battlefield"
        effect = effect[: only.start()]
    once = _USE_ONCE.search(effect)
    if once:  # "Use only once per turn"
        ability["limit"] = "once_per_turn"
        effect = effect[: once.start()]
    only_if = _USE_ONLY_IF.search(effect)
    if only_if and not only:
        if only_if["cond"] not in _USE_CONDITIONS:
            raise Unread(only_if[0].strip(". "))
        ability["condition"] = _USE_CONDITIONS[only_if["cond"]]
        if only_if["once"]:
            ability["limit"] = "once_per_turn"
        effect = effect[: only_if.start()]
    ability["effects"] = _effects(effect, ctx, used)
    if ctx.targets:
        ability["targets"] = ctx.targets
    ability["label"] = f"{card['name']}: {text}"
    card.setdefault("activated", []).append(ability)
    used.append("activated: <cost>: <effect>")
    return True


_PASSIVE = re.compile(
    r"(?P<who>other friendly units|friendly units|your other units|your units|enemy units|units|other units)"
    r"(?P<where> here| at battlefields)? have (?:(?P<sign>[+-])(?P<n>\d+) might|(?P<kws>\[[a-z-]+(?: \d+)?\]"
    r"(?:(?:,| and|, and) \[[a-z-]+(?: \d+)?\])*))"
    r"(?P<where2> here)?"
)
_KEYWORD = re.compile(r"\[(?P<kw>[a-z-]+)(?: (?P<v>\d+))?\]")


def _keywords(text: str) -> dict[str, int]:
    """ "[deflect], [ganking], and [shield]" -> the engine's keywords and values; Unread if one is unknown."""
    found: dict[str, int] = {}
    for word in _KEYWORD.finditer(text):
        keyword = engine_keyword(word["kw"])
        if keyword is None:
            raise Unread(f"[{word['kw']}]")
        found[keyword] = int(word["v"] or 1)
    return found


# "while I'm <state>, I have <X>": a passive ability of the card itself (365.1) applying while it is in that state
_WHILE_I = re.compile(
    r"while i'm (?P<state>\[mighty\]|buffed|attacking or defending alone|attacking alone|defending alone), i have "
    r"(?:(?:an additional )?(?P<sign>[+-])(?P<n>\d+) might|(?P<kws>\[.+\]))"
)
_STATES: dict[str, list[dict[str, Any]]] = {
    "[mighty]": [{"mighty": True}],
    "buffed": [{"buffed": True}],
    "attacking or defending alone": [{"role": "attacker", "alone": True}, {"role": "defender", "alone": True}],
    "attacking alone": [{"role": "attacker", "alone": True}],
    "defending alone": [{"role": "defender", "alone": True}],
}
_PASSIVE_WHO = {"your other units": "other friendly unit", "other units": "other unit", "your units": "friendly unit"}


_DEFENDS_ALONE = re.compile(
    r"while an? (?P<s>friendly|enemy) unit (?P<r>attacks|defends) alone, it gets (?P<sign>[+-])(?P<n>\d+) might"
)
_STUNNED = re.compile(
    r"stunned (?P<s>friendly|enemy) units(?P<where> here)? have (?P<sign>[+-])(?P<n>\d+) might(?P<min>, to a minimum of 1 might)?"
)


_WOULD_DIE = re.compile(
    r"if (?P<who>i|a friendly unit|another unit you control here|another friendly unit) would die, "
    r"(?:(?P<less>if it has less might than me), )?(?:instead (?P<after>.+)|(?P<before>[^.]+) instead\. (?P<then>.+))"
)
_DYING = {"a friendly unit": "friendly unit", "another unit you control here": "other friendly unit"}
_DYING["another friendly unit"] = "other friendly unit"


def _read_would_die(text: str, card: dict[str, Any], used: list[str]) -> bool:
    """ "If a friendly unit would die, kill this instead. Heal that unit, exhaust it, and recall it": a
    replacement effect (369, 370) of the unit's death; "that unit", "it" and the dying "me" are the unit it
    applies to (`affected`)."""
    found = _WOULD_DIE.fullmatch(text)
    if not found:
        return False
    who = found["who"]
    equipment = "Equipment" in card.get("tags", [])
    to: dict[str, Any] = {"who": ("equipped unit" if equipment else "self") if who == "i" else _DYING[who]}
    if who == "another unit you control here":
        to["where"] = "here"
    if found["less"]:
        to["less_might_than_me"] = True
    ctx = Context(card["type"])
    ctx.it = "affected"
    instead: list[dict[str, Any]] = []
    for part in (found["before"], found["then"] or found["after"]):
        if part is None:
            continue
        part = part.replace(card["name"].lower(), "this")
        if who == "i":
            part = re.sub(r"\bme\b", "it", part)
        read = instructions(part, ctx, used)
        if read is None or ctx.targets:
            raise Unread(part)
        instead += read
    card.setdefault("replacements", []).append({"would": "die", "to": to, "instead": instead})
    used.append("static: if <unit> would die, <instead>")
    return True


def _read_while_i(text: str, card: dict[str, Any], used: list[str]) -> bool:
    found = _WHILE_I.fullmatch(text)
    if not found:
        return False
    if "Equipment" in card.get("tags", []):  # an Equipment's "I": rules or effect text, the text does not say
        raise Unread(text)
    if found["state"] == "[mighty]" and not found["kws"]:  # Might depending on Might: not said by the layers
        raise Unread(text)
    gives: dict[str, Any] = (
        {"keywords": _keywords(found["kws"])} if found["kws"] else {"might": signed(found["sign"], found["n"])}
    )
    for state in _STATES[found["state"]]:
        card.setdefault("passives", []).append({"to": {"who": "self", **state}, **gives})
    used.append("static: while I'm <state>, I have <X>")
    return True


def read_static(text: str, card: dict[str, Any], used: list[str]) -> bool:
    text = text.rstrip(".")
    if _read_while_i(text, card, used):
        return True
    if _read_would_die(text, card, used):
        return True
    if text == "units can't move from here to base":
        card.setdefault("restrictions", []).append("no_move_from_here_to_base")
        used.append("static: units can't move from here to base")
        return True
    alone = _DEFENDS_ALONE.fullmatch(text)
    if alone:
        role = {"attacks": "attacker", "defends": "defender"}[alone["r"]]
        might = signed(alone["sign"], alone["n"])
        alone_to = {"who": f"{alone['s']} unit", "role": role, "alone": True}
        card.setdefault("passives", []).append({"to": alone_to, "might": might})
        used.append("static: while a unit attacks/defends alone")
        return True
    stunned = _STUNNED.fullmatch(text)
    if stunned:
        to_stunned: dict[str, Any] = {"who": f"{stunned['s']} unit", "stunned": True}
        if stunned["where"]:
            to_stunned["where"] = "here"
        stunned_passive: dict[str, Any] = {
            "to": to_stunned,
            "might": signed(stunned["sign"], stunned["n"]),
        }
        if stunned["min"]:
            stunned_passive["minimum"] = 1
        card.setdefault("passives", []).append(stunned_passive)
        used.append("static: stunned units have might")
        return True
    if text == "my hold effects are also conquer effects, and vice versa":
        who = "equipped unit" if "Equipment" in card.get("tags", []) else "self"  # an Equipment's "my" (136.2.c)
        also = {"conquer": ["hold"], "hold": ["conquer"]}
        card.setdefault("passives", []).append({"to": {"who": who}, "triggers_also_on": also})
        used.append("static: my hold effects are also conquer effects")
        return True
    permission = re.fullmatch(
        r"you may play me to an (open|occupied enemy) battlefield|i can be played to a battlefield you're (attacking)",
        text,
    )
    if permission and card["type"] == "unit":  # a permission to play it to a location not normally valid (355.2.b)
        card.setdefault("played_to", []).append(permission.group(1) or permission.group(2))
        used.append("static: you may play me to a battlefield")
        return True
    granted = re.fullmatch(r"friendly units may be played to (open|occupied enemy) battlefields", text)
    if granted:  # the same permission for the units its controller plays, while it is on the board (355.2.b)
        card.setdefault("units_played_to", []).append(granted.group(1))
        used.append("static: friendly units may be played to battlefields")
        return True
    if text == "i must be assigned combat damage last":  # 465.2.c.2
        card.setdefault("restrictions", []).append("assigned_combat_damage_last")
        used.append("static: assigned combat damage last")
        return True
    if text in ("i enter ready", "this enters ready"):
        card["enters_ready"] = True
        used.append("static: I enter ready")
        return True
    if read_by("static", text, card, used):
        return True
    text, tag = untagged(text)
    found = _PASSIVE.fullmatch(text)
    if not found:
        return False
    who = _PASSIVE_WHO.get(found["who"], found["who"].rstrip("s"))
    to: dict[str, Any] = {"who": who}
    if tag:  # "your Mechs have +1 [Might]": the friendly units with the tag (133.8)
        to["tag"] = tag
    if " here" in (found["where"], found["where2"]):
        to["where"] = "here"
    elif found["where"]:
        to["where"] = "battlefield"
    passive: dict[str, Any] = {"to": to}
    if found["kws"]:
        passive["keywords"] = _keywords(found["kws"])
    else:
        passive["might"] = signed(found["sign"], found["n"])
    card.setdefault("passives", []).append(passive)
    used.append("static: <units> have <might|keyword>")
    return True


def read_legion(text: str, card: dict[str, Any], used: list[str]) -> bool:
    found = re.fullmatch(r"\[legion\](?: —|\[>\]) (?P<rest>.+)", text)  # [>]: the keyword's ability (135.2.e.7)
    if not found:
        return False
    rest = found["rest"]
    cheaper = re.fullmatch(r"i cost (?P<cost>(?:\[[^\]]+\])+) less\.?", rest)
    if cheaper:
        cost = icons_cost(cheaper["cost"])
        if cost is None or set(cost) - {"energy", "power"}:
            raise Unread(rest)
        card.setdefault("discounts", []).append({**cost, "condition": "legion"})
        used.append("legion: I cost less")
        return True
    if read_trigger(rest, card, used, condition="legion"):
        used.append("legion: trigger")
        return True
    raise Unread(text)


_LEVEL = re.compile(r"\[(?:level (?P<n>\d+)|(?P<empowered>empowered))\](?: —|\[>\]) (?P<rest>.+)")
_I_HAVE = re.compile(
    r"i have (?:an additional )?(?:(?P<sign>[+-])(?P<n>\d+) might)?(?: and )?(?P<kws>\[[a-z-]+(?: \d+)?\]"
    r"(?:(?:,| and|, and) \[[a-z-]+(?: \d+)?\])*)?\.?"
)


def i_have(text: str, condition: str | None = None) -> dict[str, Any] | None:
    """ "I have +1 [Might] and [Ganking]": a passive of the card itself (365.1), active while `condition` holds
    (None: always); None when the text says no Might and no keyword."""
    have = _I_HAVE.fullmatch(text)
    if have is None or not (have["n"] or have["kws"]):
        return None
    passive: dict[str, Any] = {"to": {"who": "self"}}
    if condition is not None:
        passive["condition"] = condition
    if have["n"]:
        passive["might"] = signed(have["sign"], have["n"])
    if have["kws"]:
        passive["keywords"] = _keywords(have["kws"])
    return passive


def read_level(text: str, card: dict[str, Any], used: list[str]) -> bool:
    """ "[Level 6][>] I have +1 [Might] and [Ganking]" / "[Level 6][>] When you play me, draw 1": an ability active
    while its controller has 6 or more XP (824.1.b.1), the condition word "level 6" on a passive or a trigger;
    "[Empowered][>] ..." likewise, active while the card is Empowered (828.1.b.1)."""
    found = _LEVEL.fullmatch(text)
    if not found:
        return False
    word, rest = ("empowered" if found["empowered"] else f"level {found['n']}"), found["rest"]
    passive = i_have(rest, word)
    if passive is not None:
        if "Equipment" in card.get("tags", []):  # an Equipment's "I": rules or effect text, the text does not say
            raise Unread(text)
        card.setdefault("passives", []).append(passive)
        used.append("level: I have <X>")
        return True
    if read_trigger(rest, card, used, condition=word):
        used.append("level: trigger")
        return True
    if read_activated(rest, card, used):  # usable only while the condition holds
        card["activated"][-1]["condition"] = word
        used.append("level: activated")
        return True
    if read_by("last", rest, card, used, Around(condition=word)):
        used.append("level: static")
        return True
    if read_with_condition(rest, card, used, word):  # "[Empowered][>] Your units that are [Empowered] have ..."
        used.append("level: passive")
        return True
    raise Unread(text)


_CONDITIONAL = ("passives", "replacements")  # what a condition may be put on (364.3.a, 368.1)


def read_with_condition(text: str, card: dict[str, Any], used: list[str], word: str, readers=()) -> bool:
    """Read `text` by `readers` or as a static ability (`read_static`) into passives or replacement effects active
    only while the condition `word` holds (364.3.a); False when it is none of these, Unread when it read as
    something else (a condition can't be put on it) or already had a condition."""
    before = copy.deepcopy(card)
    if not any(reader(text, card, used) for reader in (*readers, read_static)):
        return False
    added = [a for key in _CONDITIONAL for a in card.get(key, [])[len(before.get(key, [])) :]]
    kept = {k: v for k, v in card.items() if k not in _CONDITIONAL} == {
        k: v for k, v in before.items() if k not in _CONDITIONAL
    }
    if not added or not kept or any("condition" in ability for ability in added):
        raise Unread(text)
    for ability in added:
        ability["condition"] = word
    return True


def read_deathknell(text: str, card: dict[str, Any], used: list[str]) -> bool:
    found = re.fullmatch(r"\[deathknell\](?: —|\[>\]) (?P<rest>.+)", text)  # [>]: its trigger effect (135.2.e.7.b)
    if not found:
        return False
    ctx = Context(card["type"])
    who = "self"
    if "Equipment" in card.get("tags", []):  # the equipped unit's (136.2.c): "me" is the unit that died
        who, ctx.me = "equipped unit", "trigger_unit"
    effects = _effects(found["rest"], ctx, used)
    trigger: dict[str, Any] = {"when": {"event": "die", "who": who}, "effects": effects}
    if ctx.targets:
        trigger["targets"] = ctx.targets
    trigger["label"] = f"{card['name']}: Deathknell"
    card.setdefault("keywords", {})["Deathknell"] = 1
    card.setdefault("triggers", []).append(trigger)
    used.append("deathknell: <effect>")
    return True


_LEGION_INSTEAD = re.compile(r"\[(?P<word>legion|level \d+)\](?: —|\[>\]) (?P<then>.+) instead\.?")


def read_paragraph(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> None:
    """Read one paragraph (normalised) into `card`; a spell's instructions go to `spell`'s context and the card's
    effects. Unread when any of it is not understood."""
    before = dict(card.get("keywords", {}))
    rest = keyword_prefix(text, card)
    if card.get("keywords", {}) != before or rest != text:
        used.append("keywords")
    if not rest:
        return
    if read_by("first", rest, card, used, Around(spell=spell)):  # tried before the general readers
        return
    instead = _LEGION_INSTEAD.fullmatch(rest)
    if spell is not None and instead and card.get("effects"):
        # "[Legion] — Kill it now instead": with Legion's condition (812), these instructions replace the ones
        # the spell said before (364.3.a: if <condition>, <then>, else what it says otherwise)
        # "[Level 6][>] Give it +3 [Might] this turn instead" likewise, while its controller has 6 XP (824.1.b.1)
        then = _effects(instead["then"].replace(" now", ""), spell, used)
        card["effects"] = [{"op": "if", "condition": instead["word"], "then": then, "else": card["effects"]}]
        used.append(f"{instead['word'].split()[0]}: instead")
        return
    readers = (read_deathknell, read_legion, read_level, read_activated, read_trigger, read_static)
    if any(reader(rest, card, used) for reader in readers):
        return
    if read_by("last", rest, card, used, Around(spell=spell)):
        return
    if spell is None:
        raise Unread(rest)
    card.setdefault("effects", []).extend(_effects(rest, spell, used))
