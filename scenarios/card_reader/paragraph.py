"""A paragraph of card text, whole: its keywords, then the ability it is, by the reader of its kind. Abilities a
keyword opens ("[Legion] —", "[Level 6][>]", "[Empowered][>]", "[Deathknell] —") are read here, their rest by the
readers of `abilities` under the keyword's condition; everything else by `abilities` and the families' readers
(`readers.read_by`).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from scenarios.card_reader.abilities import (
    Unread,
    _cost_first,
    _effects,
    i_have,
    read_activated,
    read_static,
    read_trigger,
)
from scenarios.card_reader.keywords import keyword_prefix
from scenarios.card_reader.phrases import Context, icons_cost
from scenarios.card_reader.readers import Around, read_by


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
    trigger: dict[str, Any] = {"when": {"event": "die", "who": who}}
    body = found["rest"]
    cost_first = _cost_first(body, used) if who == "self" else None  # an Equipment's: the unit is not "me"
    if cost_first is not None:
        fields, body = cost_first
        trigger.update(fields)
    trigger["effects"] = _effects(body, ctx, used)
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
