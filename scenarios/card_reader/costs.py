"""Costs in card text (Core Rules 1.4, 356): a card's additional cost, mandatory or optional (356.2), what paying
it does ("If you do, reduce my cost by [2]", "When you play me, if you paid the additional cost, ...", "If you
paid the additional cost, deal 5 to it instead"), and the card's discounts of itself (356.4): "This costs [2]
less if you control a Mech", "I cost [1] less for each card in your trash", "[Level 6][>] This costs [2] less".

Registered as a paragraph reader (`readers`, stage "first"): "if you paid the additional cost" is read only
on a card whose optional additional cost was said before it. The engine's side is `scenarios/rules/additional_costs.py`, `discounts.py` and `effect_plays.py`.
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import Unread, read_activated, read_trigger
from scenarios.card_reader.amounts import tags_among
from scenarios.card_reader.conditions import condition_word
from scenarios.card_reader.effects import instructions, template
from scenarios.card_reader.entering import enters_ready_if
from scenarios.card_reader.keywords import engine_keyword, keyword_prefix
from scenarios.card_reader.phrases import UNIT_TAGS, Context, icons_cost, reference, tag_list
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader
from scenarios.card_reader.text import sentences

PAID = "additional cost paid"  # the condition word (356.4.f.1)

_OPTIONAL = re.compile(
    r"(?:as you play (?:me|this), )?you may (?P<cost>.+?) as an additional cost(?: to play (?:me|this))?"
    r"|as an additional cost to play (?:me|this), you may (?P<cost2>.+)"
)
_MANDATORY = re.compile(r"as an additional cost to play (?:me|this), (?P<cost>(?!you may ).+)")
_ACTS = {
    "kill a friendly unit": {"kill": "friendly unit"},
    "kill a friendly [mighty] unit": {"kill": "friendly mighty unit"},
    "kill a friendly gear": {"kill": "friendly gear"},
    "exhaust a friendly unit": {"exhaust": "friendly unit"},
    "return a friendly gear to its owner's hand": {"bounce": "friendly gear"},
}
_ICONS = r"(?P<icons>(?:\[[^\]]+\])+)"


_ANY_NUMBER: dict[str, dict[str, Any]] = {
    "kill any number of friendly units": {"kill": "friendly unit"},
    "spend any number of buffs": {"cost": {"spend_buff": "friendly"}},
}
_PER_PAID = re.compile(r"reduce my cost by " + _ICONS + r" for each (?:killed this way|buff you spend)")
_PER_TAG = re.compile(
    r"(?:reduce my cost by " + _ICONS + r"|i cost " + _ICONS.replace("icons", "icons2") + " less)"
    r" for each (?P<what>of the following tags among .+)"
)


def _additional_cost(phrase: str) -> dict[str, Any] | None:
    """ "pay [1 energy][fury rune]", "discard 1", "spend a buff", "spend 3 xp", "kill a friendly unit", "exhaust a
    friendly unit", "return a friendly gear to its owner's hand" -> the fields of an AdditionalCost; None for any
    other cost."""
    if phrase in _ACTS:
        return dict(_ACTS[phrase])
    if phrase in _ANY_NUMBER:
        return {**_ANY_NUMBER[phrase], "any_number": True}
    paid = re.fullmatch(r"pay " + _ICONS, phrase)
    if paid:
        cost = icons_cost(paid["icons"])
        return None if cost is None else {"cost": cost}
    if phrase == "spend a buff":
        return {"cost": {"spend_buff": "friendly"}}
    counted = re.fullmatch(r"(?P<verb>discard|spend) (?P<n>\d+)(?P<xp> xp)?", phrase)
    if counted and (counted["verb"] == "spend") == bool(counted["xp"]):
        return {"cost": {"discard" if counted["verb"] == "discard" else "spend_xp": int(counted["n"])}}
    return None


def _energy(icons: str) -> int | None:
    """An amount of Energy only ("[2 energy]")."""
    cost = icons_cost(icons)
    return cost["energy"] if cost is not None and set(cost) == {"energy"} else None


def _off(icons: str, card: dict[str, Any]) -> dict[str, int] | None:
    """What a discount of the card's own cost takes off: Energy and Power ("[2 energy][calm rune] less": the Power
    of its own domain, or of any domain; `Cost.discounted`); None for Power of another domain."""
    cost = icons_cost(icons)
    if cost is None:
        return None
    domains = cost.pop("domain_power", {})
    if domains and (set(domains) != set(card.get("domains", [])) or len(domains) != 1):
        return None
    power = cost.get("power", 0) + sum(domains.values())
    return {k: v for k, v in (("energy", cost.get("energy", 0)), ("power", power)) if v}


_IF_YOU_DO = re.compile(
    r"if you do, (?:reduce my cost by "
    + _ICONS
    + r"|i cost "
    + _ICONS.replace("icons", "less")
    + r" less|(?P<ignore>ignore this spell's cost)|(?P<ready>i enter ready))"
)


def _if_you_do(sentence: str, card: dict[str, Any], used: list[str]) -> None:
    """What paying the optional cost does to the cost itself: a discount (356.4) or its base cost ignored
    (356.1.b.1)."""
    found = _IF_YOU_DO.fullmatch(sentence.rstrip("."))
    if found is None:
        raise Unread(sentence)
    if found["ready"]:  # "If you do, I enter ready" (359.2.c: else a unit enters exhausted)
        if card["type"] != "unit":
            raise Unread(sentence)
        enters_ready_if(card, PAID)
        used.append("costs: if you do, I enter ready")
        return
    if found["ignore"]:
        if card["type"] != "spell":
            raise Unread(sentence)
        card["additional_cost"]["ignore_cost"] = True
        used.append("costs: if you do, ignore this spell's cost")
        return
    off = _off(found["icons"] or found["less"], card)
    if not off:
        raise Unread(sentence)
    card.setdefault("discounts", []).append({**off, "condition": PAID})
    used.append("costs: if you do, I cost less")


def _if_you_do_otherwise(rest: list[str], card: dict[str, Any], spell: Context, used: list[str]) -> list[str]:
    """A spell's "If you do, <text>. Otherwise, <text>." after its optional additional cost: what it does when the
    cost was paid, and when it wasn't (364.3.a); the sentences left."""
    if not card["additional_cost"]["optional"]:
        raise Unread(rest[0])
    then = instructions(rest[0].removeprefix("if you do, "), spell, used)
    otherwise = rest[1].removeprefix("otherwise, ") if len(rest) > 1 and rest[1].startswith("otherwise, ") else None
    other = instructions(otherwise, spell, used) if otherwise is not None else []
    if then is None or other is None:
        raise Unread(" ".join(rest[:2]))
    effect: dict[str, Any] = {"op": "if", "condition": PAID, "then": then}
    if other:
        effect["else"] = other
    card.setdefault("effects", []).append(effect)
    used.append("costs: if you do, <text>. otherwise, <text>")
    return rest[2:] if otherwise is not None else rest[1:]


_OFFERED_IF = {"you've played a spell this turn": "you've played a spell this turn"}
_PAID_TRIGGER = re.compile(r"when you play me, if you paid (?:the |my )?additional cost, (?P<rest>.+)")


def read_additional_cost(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    """A paragraph declaring the card's additional cost (356.2.a.1, 356.2.b.1), with what paying it does."""
    parts = sentences(text)
    first = parts[0].rstrip(".")
    offered_if = re.fullmatch(r"if (?P<cond>[^,]+), (?P<rest>you may .+)", first)  # "If <condition>, you may pay"
    if offered_if:
        first = offered_if["rest"]
    optional, mandatory = _OPTIONAL.fullmatch(first), _MANDATORY.fullmatch(first)
    if optional is None and mandatory is None:
        return False
    if "additional_cost" in card or (offered_if and offered_if["cond"] not in _OFFERED_IF):
        raise Unread(text)
    phrase = optional["cost"] or optional["cost2"] if optional else mandatory["cost"]  # type: ignore[index]
    fields = _additional_cost(phrase)
    if fields is None:
        raise Unread(parts[0])
    card["additional_cost"] = {**fields, "optional": optional is not None}
    if offered_if:
        card["additional_cost"]["condition"] = _OFFERED_IF[offered_if["cond"]]
    used.append("costs: " + ("you may <cost> as an additional cost" if optional else "as an additional cost, <cost>"))
    rest = parts[1:]
    per_paid = _PER_PAID.fullmatch(rest[0].rstrip(".")) if rest else None
    if per_paid and card["additional_cost"].get("any_number"):  # "Reduce my cost by [C] for each killed this way"
        off = _off(per_paid["icons"], card)
        if not off:
            raise Unread(rest[0])
        card.setdefault("discounts", []).append({**off, "for_each": "time the additional cost was paid"})
        used.append("costs: reduce my cost for each paid")
        rest = rest[1:]
    if (
        rest
        and rest[0].startswith("if you do, ")
        and spell is not None
        and _IF_YOU_DO.fullmatch(rest[0].rstrip(".")) is None
    ):
        rest = _if_you_do_otherwise(rest, card, spell, used)  # "If you do, draw 2. Otherwise, draw 1."
    elif rest and rest[0].startswith("if you do, "):
        if optional is None:
            raise Unread(rest[0])
        _if_you_do(rest[0], card, used)
        rest = rest[1:]
    # "... as an additional cost to play me. When you play me, if you paid additional cost, draw 1."
    if rest and not _read_paid_trigger(" ".join(rest), card, used):
        raise Unread(" ".join(rest))
    return True


def _read_paid_trigger(text: str, card: dict[str, Any], used: list[str]) -> bool:
    """ "When you play me, if you paid the additional cost, <effect>": a play effect that triggers only when the
    optional additional cost was paid."""
    found = _PAID_TRIGGER.fullmatch(text)
    if found is None or not card.get("additional_cost", {}).get("optional"):
        return False
    if not read_trigger(f"when you play me, {found['rest']}", card, used, condition=PAID, if_clause=True):
        raise Unread(text)
    used.append("costs: when you play me, if you paid the additional cost")
    return True


_PAID = re.compile(r"if you paid (?:the |my )?additional cost, (?P<rest>.+?)(?P<instead> instead)?")


def _read_paid_spell(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    """A spell's text holding "If you paid the additional cost, <text>" (its own optional cost said before):
    <text> only when it was paid (364.3.a); "... <text> instead": <text> replaces the sentence before it when it
    was paid, which applies otherwise."""
    if spell is None or not card.get("additional_cost", {}).get("optional") or "if you paid" not in text:
        return False
    said: list[list[dict[str, Any]]] = []
    for sentence in sentences(text):
        paid = _PAID.fullmatch(sentence.rstrip("."))
        if paid is None:
            read = instructions(sentence, spell, used)
            if read is None:
                raise Unread(sentence)
            said.append(read)
            continue
        then = instructions(paid["rest"], spell, used)
        if then is None or (paid["instead"] and not said):
            raise Unread(sentence)
        if paid["instead"]:
            said[-1] = [{"op": "if", "condition": PAID, "then": then, "else": said[-1]}]
        else:
            said.append([{"op": "if", "condition": PAID, "then": then}])
        used.append("costs: if you paid the additional cost, <text>" + (" instead" if paid["instead"] else ""))
    if spell.revealing:
        raise Unread(text)
    card.setdefault("effects", []).extend(i for group in said for i in group)
    return True


# -- discounts of the card itself (356.4) ---------------------------------------------------------------------

_IF_CHOSEN = re.compile(r"this costs " + _ICONS + r" less if you choose an? (?P<tags>.+)")
_LESS_IF = re.compile(
    r"(?:this|i) costs? "
    + _ICONS
    + r" less if (?P<cond>.+)|if (?P<cond2>.+), (?:this|i) costs? "
    + _ICONS.replace("icons", "icons2")
    + r" less(?P<ready> and enter ready)?"
)
_ELSEWHERE = re.compile(r"(?:this|i) costs? " + _ICONS + r" less to play from anywhere other than your hand")
_LEVEL_LESS = re.compile(
    r"\[level (?P<n>\d+)\](?: —|\[>\]) (?:this|i) costs? " + _ICONS + r" less(?P<instead> instead)?"
)
_COUNTS = {
    "card in your trash": "card in your trash",
    "card with my name in your trash": "card with my name in your trash",
    "gear you control": "gear you control",
    "of your [mighty] units": "mighty unit you control",
    "card you've played this turn": "card you played this turn",
}
_BY_MIGHT = re.compile(r"this spell's energy cost is reduced by the highest might among units you control")
_FOR_EACH = re.compile(
    r"i cost " + _ICONS + r" less for each (?P<what>.+?)(?:, to a minimum of \[(?P<min>\d+) energy\])?"
)


def read_discount(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    text = text.rstrip(".")
    chosen = _IF_CHOSEN.fullmatch(text)
    if chosen and card["type"] == "spell":  # "This costs [2] less if you choose a Bird, Cat, Dog, or Poro"
        listed, off = tag_list(chosen["tags"]), _off(chosen["icons"], card)
        if listed is None or listed[1] != "or" or not off:
            raise Unread(text)
        card.setdefault("discounts", []).append({**off, "chosen_tag": listed[0]})
        used.append("costs: this costs less if you choose a <tag>")
        return True
    conditional = _LESS_IF.fullmatch(text)
    if conditional:
        cond = conditional["cond"] or conditional["cond2"]
        word = condition_word(cond)  # as a unit's "if ..., I enter ready" says it
        if word is None:  # a condition another family says (`players`: about opponents), or none
            return False
        off = _off(conditional["icons"] or conditional["icons2"], card)
        if not off:
            raise Unread(text)
        card.setdefault("discounts", []).append({**off, "condition": word})
        if conditional["ready"]:  # "If <condition>, I cost [2] less and enter ready"
            if card["type"] != "unit":
                raise Unread(text)
            enters_ready_if(card, word)
        used.append("costs: this costs less if <condition>")
        return True
    elsewhere = _ELSEWHERE.fullmatch(text)
    if elsewhere:
        off = _off(elsewhere["icons"], card)
        if not off:
            raise Unread(text)
        card.setdefault("discounts", []).append({**off, "condition": "played from anywhere other than your hand"})
        used.append("costs: I cost less to play from anywhere other than your hand")
        return True
    if _BY_MIGHT.fullmatch(text) and card["type"] == "spell":  # [1] off for each Might of the mightiest (356.4.b)
        card.setdefault("discounts", []).append({"energy": 1, "for_each": "might of your mightiest unit"})
        used.append("costs: reduced by the highest might among your units")
        return True
    level = _LEVEL_LESS.fullmatch(text)
    if level:
        return _level_discount(text, level, card, used)
    per_tag = _PER_TAG.fullmatch(text)
    if per_tag:  # "Reduce my cost by [1] for each of the following tags among your units — Bird, ...": counted (133.8)
        among, off = (
            tags_among(per_tag["what"], Context(card["type"])),
            _off(per_tag["icons"] or per_tag["icons2"], card),
        )
        if among is None or not off:
            raise Unread(text)
        card.setdefault("discounts", []).append({**off, "for_each": among})
        used.append("costs: I cost less for each tag among your units")
        return True
    counted = _FOR_EACH.fullmatch(text)
    if counted:
        what, off = _COUNTS.get(counted["what"]), _off(counted["icons"], card)
        if what is None or not off:
            raise Unread(text)
        discount: dict[str, Any] = {**off, "for_each": what}
        if counted["min"]:
            discount["minimum"] = int(counted["min"])
        card.setdefault("discounts", []).append(discount)
        used.append("costs: I cost less for each <thing>")
        return True
    return False


def _level_discount(text: str, level: re.Match, card: dict[str, Any], used: list[str]) -> bool:
    """ "[Level 6][>] This costs [2] less" (824.1.b.1): a discount while its controller has 6 XP; "[Level 11][>]
    This costs [4] less instead": [4] in all at level 11, the level-6 discount's [2] and [2] more (a player with
    11 XP has 6)."""
    off = _off(level["icons"], card)
    if not off:
        raise Unread(text)
    n = int(level["n"])
    if level["instead"]:
        lower = [d for d in card.get("discounts", []) if str(d.get("condition", "")).startswith("level ")]
        if not lower or any(int(d["condition"].split()[1]) >= n for d in lower):
            raise Unread(text)
        off = {key: off.get(key, 0) - sum(d.get(key, 0) for d in lower) for key in ("energy", "power")}
        if min(off.values()) < 0:
            raise Unread(text)
        off = {k: v for k, v in off.items() if v}
    card.setdefault("discounts", []).append({**off, "condition": f"level {n}"})
    used.append("costs: [level N] this costs less")
    return True


# -- plays ignoring a cost (356.1.b) ------------------------------------------------------------------------


@template(
    "play from the trash, ignoring its cost",
    r"(?P<may>you may )?play a unit (?:(?:costing|with cost) no more than \[(?P<e>\d+) energy\]"
    r"(?: and no more than (?P<p>(?:\[any rune\])+))? )?from your (?P<zone>trash)(?P<base> to your base)?"
    r"(?P<ignoring>, ignoring its (?P<energy>energy )?cost)?",
)
def _play_from(m, ctx):
    """ "Play a unit from your trash, ignoring its Energy cost" (356.1.b.2), "... costing no more than [3] and no
    more than [A] ..., ignoring its cost" (356.1.b.1): the unit, a target in the trash (355.10.a), is chosen as the
    spell or ability is finalized (355.5), then played (`effect_plays.play_from`); with no cost ignored ("You may
    play a unit from your trash. (You still pay its costs.)") its whole cost is paid (357.1). A unit played from the
    hand, which is private (not a target), is `deck`'s `play_from_hand`."""
    spec: dict[str, Any] = {"type": "unit", "zone": m["zone"]}
    if m["e"]:
        spec["max_cost"] = int(m["e"])
    if m["p"]:
        spec["max_power"] = m["p"].count("[")
    if m["may"]:
        spec["optional"] = True
    ins: dict[str, Any] = {"op": "play_from", "what": ctx.slot(spec)}
    if m["ignoring"]:
        ins["ignoring"] = "energy" if m["energy"] else "cost"
    if m["base"]:
        ins["to"] = "base"
    return [ins]


_THIS_TURN_KINDS = {"spell": "spell", "unit": "unit", "gear": "gear", "card": "card"}


@template(
    "cards cost more or less this turn",
    r"(?:the next (?P<next>spell|unit|gear|card) you play this turn costs "
    + _ICONS
    + r" less|your (?:non-token )?(?P<all>spell|unit|gear|card)s? cost "
    + _ICONS.replace("icons", "icons2")
    + r" (?P<dir>more|less) to play this turn)",
)
def _cost_this_turn(m, ctx):
    """ "The next spell you play this turn costs [5] less", "Your non-token units cost [1] more to play this turn":
    `discounts.cost_change` (356.3, 356.4; until the turn ends, 317.2.c). A token is not played as a card
    here (no token is "non-token")."""
    cost = icons_cost(m["icons"] or m["icons2"])
    if cost is None or set(cost) - {"energy", "power"}:
        return None
    sign = 1 if m["dir"] == "more" else -1
    ins: dict[str, Any] = {"op": "cost_change", "cards": _THIS_TURN_KINDS[m["next"] or m["all"]]}
    ins.update({k: sign * v for k, v in cost.items()})
    if m["next"]:
        ins["once"] = True
    return [ins]


_TO = {"": "choose", " to any battlefield": "any battlefield", " to the same location": "same"}


@template(
    "banish and play",
    r"banish (?P<obj>an? .+?), then its owner plays it(?P<to>| to any battlefield| to the same location), "
    r"ignoring its cost",
)
def _banish_and_play_to(m, ctx):
    """ "Banish a friendly unit, then its owner plays it (to any battlefield / to the same location), ignoring its
    cost": `playing.banish_and_play`, where it enters `effect_plays.play_location`."""
    what = reference(m["obj"], ctx)
    if not isinstance(what, str) or what == "this" or ctx.targets.get(what, {}).get("type") != "unit":
        return None
    return [{"op": "banish_and_play", "what": what, "to": _TO[m["to"]]}]


# -- what other cards cost: a passive of a card on the board (356.3 increases, 356.4.a discounts) ---------------

_WHOSE = {"your": "you", "friendly": "you", "opponents'": "opponent", "enemy": "opponent"}
_WHAT = {"spells": "spell", "units": "unit", "cards": "card"}
_MINIMUM = r"(?:,? to a minimum of \[(?P<min>\d+) energy\])?"
_CLASS_COSTS = re.compile(
    r"(?P<whose>your|opponents'|friendly|enemy) (?:(?P<what>spells|units|cards)|(?P<tag>[a-z]+)s') "
    r"(?:cost "
    + _ICONS
    + r" (?P<dir>less|more)|energy costs are reduced by "
    + _ICONS.replace("icons", "by")
    + ")"
    + _MINIMUM
)
_SPELLS_YOU_PLAY = re.compile(
    r"the energy costs for spells you play (?:is|are) reduced by " + _ICONS.replace("icons", "by") + _MINIMUM
)
_WHILE = {"while i'm at a battlefield": "at a battlefield", "while i'm in combat": "in combat"}
_INSTEAD_IF = re.compile(r"if this is \[empowered\], they cost " + _ICONS + r" more instead")


def _modifier(found: re.Match, text: str) -> dict[str, Any]:
    """A sentence saying what a class of cards costs -> a CostModifier's fields; Unread for Power of one domain
    (only [A], Power of any domain, is read: a discount takes it off any Power, `Cost.discounted`)."""
    groups = found.groupdict()
    less = groups.get("dir") != "more"
    cost = icons_cost(groups.get("icons") or groups["by"])
    if cost is None or set(cost) - {"energy", "power"}:  # [A]: Power of any domain; a domain's: not read
        raise Unread(text)
    sign = -1 if less else 1
    modifier: dict[str, Any] = {"whose": _WHOSE.get(groups.get("whose") or "your", "you")}
    modifier["cards"] = _WHAT.get(groups.get("what") or "", "spell" if groups.get("whose") is None else "card")
    if groups.get("tag"):
        if groups["tag"] not in UNIT_TAGS:
            raise Unread(text)
        modifier.update(cards="card", tag=UNIT_TAGS[groups["tag"]])
    modifier.update({k: sign * v for k, v in cost.items()})
    if groups.get("min"):
        if not less:
            raise Unread(text)
        modifier["minimum"] = int(groups["min"])
    return modifier


def _both(sentence: str) -> list[str]:
    """ "friendly spells cost [1] less, and enemy spells cost [1] more": its two clauses; else the sentence."""
    head, joined, tail = sentence.partition(", and ")
    return [head, tail] if joined and _CLASS_COSTS.fullmatch(tail) else [sentence]


def read_class_costs(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    """ "Your spells cost [1] less", "Opponents' spells cost [1] more. If this is [Empowered], they cost [1][A] more
    instead", "While I'm at a battlefield, the Energy costs for spells you play is reduced by [1], to a minimum of
    [1]", "Your Dragons' Energy costs are reduced by [2], to a minimum of [1]": what the cards a player plays cost
    while this card is on the board."""
    if spell is not None or "Equipment" in card.get("tags", []):  # a spell's text, or an Equipment's: not passives
        return False
    condition = None
    if text.startswith("[empowered][>] "):  # "While I have the Empowered status, this card gains ..." (828.1.b.1)
        text, condition = text.removeprefix("[empowered][>] "), "empowered"
    first, *rest = sentences(text)
    first = first.rstrip(".")
    word, comma, clause = first.partition(", ")
    if comma and word in _WHILE and condition is None:
        first, condition = clause, _WHILE[word]
    clauses = _both(first)
    found = [_CLASS_COSTS.fullmatch(c) or _SPELLS_YOU_PLAY.fullmatch(c) for c in clauses]
    if not all(found):  # not said of a class of cards: another reader's ("[Empowered][>] I have +3 [Might]")
        return False
    modifiers = [_modifier(f, first) for f in found if f is not None]
    if condition:
        for modifier in modifiers:
            modifier["condition"] = condition
    modifier = modifiers[0]
    if rest:  # "If this is [Empowered], they cost [1][A] more instead" (828.1)
        instead = _INSTEAD_IF.fullmatch(" ".join(rest).rstrip("."))
        if instead is None or len(modifiers) > 1 or modifier.get("condition") or modifier["energy"] < 0:
            raise Unread(" ".join(rest))
        cost = icons_cost(instead["icons"])
        if cost is None or set(cost) - {"energy", "power"}:
            raise Unread(" ".join(rest))
        modifier["condition"] = "not empowered"
        modifiers.append({**{k: v for k, v in modifier.items() if k not in ("energy", "power")}, **cost})
        modifiers[-1]["condition"] = "empowered"
    card.setdefault("cost_modifiers", []).extend({k: v for k, v in m.items() if v is not None} for m in modifiers)
    used.append("costs: <cards> cost more or less")
    return True


_ABILITY_LESS = re.compile(
    r"(?P<head>.+?)\.? this ability costs " + _ICONS + r" less (?:if (?P<cond>.+)|for each (?P<what>.+))"
)
_ABILITY_COUNTS = {
    "rune you control": "rune you control",
    "friendly unit with [temporary]": "friendly unit with Temporary",
}


def read_ability_discount(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    """ "[Empower] [12 Energy]. This ability costs [1 Energy] less for each rune you control", "[4 Energy],
    [Exhaust]: <effect>. This ability costs [1 Energy] less for each friendly unit with [Temporary]": the
    activated ability the paragraph says, with a discount of its cost (356.4.a, 356.4.b)."""
    found = _ABILITY_LESS.fullmatch(text.rstrip("."))
    if found is None:
        return False
    before = len(card.get("activated", []))
    rest = keyword_prefix(found["head"].strip(), card)
    if rest and not read_activated(rest, card, used):
        raise Unread(text)
    word = condition_word(found["cond"]) if found["cond"] else None
    what = _ABILITY_COUNTS.get(found["what"] or "")
    energy = _energy(found["icons"])
    if len(card.get("activated", [])) != before + 1 or energy is None or (word or what) is None:
        raise Unread(text)
    discount: dict[str, Any] = {"energy": energy, **({"condition": word} if word else {"for_each": what})}
    card["activated"][-1].setdefault("discounts", []).append(discount)
    used.append("costs: this ability costs less")
    return True


_FIRST_EACH_TURN = re.compile(
    r"while you control this battlefield, the first friendly (?:non-token )?(?P<what>gear|unit|spell) played each "
    r"turn costs " + _ICONS + r" less"
)
_REPEAT_COSTS = re.compile(r"while you control this battlefield, friendly \[repeat\] costs cost " + _ICONS + r" less")
_CHOOSING_HERE = re.compile(
    r"each spell that chooses one or more units here that are friendly to it costs " + _ICONS + r" less"
)
_FROM_TRASH = re.compile(r"spells with \[flow\] you play from your trash cost " + _ICONS + r" less" + _MINIMUM)
_DURING_SHOWDOWNS = re.compile(
    r"during showdowns here, cards with \[(?P<kw>[a-z-]+)\] cost " + _ICONS + r" (?P<dir>more|less) to play"
)


def read_battlefield_costs(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    """What cards cost while a battlefield or a unit is on the board, said of some of them: "While you control
    this battlefield, the first friendly gear played each turn costs [1] less" (a gear token is not played as a
    card here: none is non-token), "Spells with [Flow] you play from your trash cost [2] less, to a minimum of [1]"
    (a spell is played from the trash for its Flow cost, 829.1.b), "During showdowns here, cards with [Reaction]
    cost [A] more to play" (a hidden card has [Reaction], 811.6)."""
    text = text.rstrip(".")
    first, trash, during, repeat, here = (
        p.fullmatch(text) for p in (_FIRST_EACH_TURN, _FROM_TRASH, _DURING_SHOWDOWNS, _REPEAT_COSTS, _CHOOSING_HERE)
    )
    found = first or trash or during or repeat or here
    if found is None or spell is not None:
        return False
    cost = icons_cost(found["icons"])
    if cost is None or set(cost) - {"energy", "power"}:
        raise Unread(text)
    sign = 1 if during and during["dir"] == "more" else -1
    modifier: dict[str, Any] = {k: sign * v for k, v in cost.items()}
    if here:  # any player's spell choosing a unit of its own here (355.7: chosen as it is played)
        if card["type"] != "battlefield":
            raise Unread(text)
        modifier.update(cards="spell", whose="any", chooses="friendly unit here")
    elif repeat:  # each [Repeat] cost of a friendly spell, as it is added (356.4.c)
        if card["type"] != "battlefield":
            raise Unread(text)
        modifier.update(cards="spell", component="repeat", condition="you control this battlefield")
    elif first:
        if card["type"] != "battlefield":
            raise Unread(text)
        modifier.update(cards=first["what"], first_each_turn=True, condition="you control this battlefield")
    elif trash:
        modifier.update(cards="spell", from_trash=True)
        if trash["min"]:
            modifier["minimum"] = int(trash["min"])
    else:
        keyword = engine_keyword(during["kw"])  # type: ignore[index]
        if keyword is None or card["type"] != "battlefield":
            raise Unread(text)
        modifier.update(whose="any", keyword=keyword, condition="during a showdown here")
    card.setdefault("cost_modifiers", []).append(modifier)
    used.append("costs: <some cards> cost more or less")
    return True


def read_ignore_deflect(text: str, card: dict[str, Any], spell: Context | None, used: list[str]) -> bool:
    """ "Ignore [Deflect] while paying this spell's cost": its cost has no Deflect cost added for the permanents
    it chooses (809.1.c, an additional cost, 356.2.a.2), whatever their Deflect."""
    if text.rstrip(".") != "ignore [deflect] while paying this spell's cost":
        return False
    if spell is None:
        raise Unread(text)
    card["ignores_deflect"] = True
    used.append("costs: ignore [deflect] while paying")
    return True


@paragraph_reader("first")
def read_costs(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """The paragraph reader of this family (`readers`, stage "first")."""
    spell = around.spell
    return (
        read_additional_cost(text, card, spell, used)
        or _read_paid_trigger(text.rstrip("."), card, used)
        or _read_paid_spell(text, card, spell, used)
        or read_discount(text, card, spell, used)
        or read_class_costs(text, card, spell, used)
        or read_ability_discount(text, card, spell, used)
        or read_battlefield_costs(text, card, spell, used)
        or read_ignore_deflect(text, card, spell, used)
    )
