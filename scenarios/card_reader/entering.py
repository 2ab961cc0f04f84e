"""How a permanent enters the board: "This enters exhausted", "I enter ready if you control another Mech", "If an
opponent controls a battlefield, I enter ready", "Other friendly units enter ready", "[Level 3][>] I enter ready",
and a spell's "Units you play this turn enter ready" / "The next unit you play this turn enters ready"; "As you
play me, choose Bird, Cat, Dog, or Poro. I gain that tag." (a tag chosen as it is played, `choose_tag`).

Each is a replacement effect of the way a permanent enters (369.3), conditional when it says "if" (364.3.a): the
card data `replacements: [{would: enter_exhausted, to: {who: ...}, condition: <word>, instead: []}]` that
`scenarios/rules/entering.py` applies; a spell's is a delayed replacement for the turn (390.3, `replace_next`).
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import Unread, i_have, read_static
from scenarios.card_reader.conditions import condition_word
from scenarios.card_reader.effects import template
from scenarios.card_reader.phrases import tag_list
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

_READY_IF = re.compile(r"i enter ready if (?P<c>.+)|if (?P<c2>.+), i enter ready")
_GROUP = {
    "other friendly units": "other friendly unit",
    "your other units": "other friendly unit",
    "friendly units": "friendly unit",
    "your units": "friendly unit",
    "your tokens": "friendly token",
}
_GROUP_READY = re.compile(r"(?P<who>" + "|".join(_GROUP) + ") enter ready")
_HAVE_AND_READY = re.compile(r"(?P<have>i have .+?) and enter ready")


def enters_ready_if(card: dict[str, Any], word: str) -> None:
    """ "If <condition>, I enter ready" said by another family's sentence ("If you do, I enter ready", "... I cost
    [2] less and enter ready"): the one reading of it, a conditional replacement of entering exhausted (369.3)."""
    _replacement(card, "self", word)


def _replacement(card: dict[str, Any], who: str, word: str | None, would: str = "enter_exhausted") -> None:
    entry: dict[str, Any] = {"would": would, "to": {"who": who}, "instead": []}
    if word:
        entry["condition"] = word
    entry["label"] = card["name"]
    card.setdefault("replacements", []).append(entry)


@paragraph_reader("last")
def read_entering(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """A paragraph saying how a permanent enters the board, or how this one does (369.3), read into `card`."""
    condition = around.condition
    text = text.rstrip(".")
    permanent = card["type"] in ("unit", "gear", "legend")  # on the board, a legend's passives apply (365.1)
    if text in ("this enters exhausted", "i enter exhausted") and card["type"] == "gear" and condition is None:
        _replacement(card, "self", None, would="enter_ready")  # a gear enters ready otherwise (359.2.d)
        used.append("enters: this enters exhausted")
        return True
    if text == "i enter ready" and condition is not None and card["type"] == "unit":
        _replacement(card, "self", condition)  # "[Level 3][>] I enter ready" (824.1.b.1)
        used.append("enters: I enter ready")
        return True
    ready_if = _READY_IF.fullmatch(text)
    if ready_if and card["type"] == "unit":
        word = condition_word(ready_if["c"] or ready_if["c2"])
        if word is None or condition is not None:
            raise Unread(text)
        _replacement(card, "self", word)
        used.append("enters: I enter ready if <condition>")
        return True
    have = _HAVE_AND_READY.fullmatch(text)
    if have and condition is not None and card["type"] == "unit":
        # "[Level 3][>] I have +1 [Might] and enter ready": a passive and the way I enter, both while it holds
        passive = i_have(have["have"], condition)
        if passive is None:
            raise Unread(text)
        card.setdefault("passives", []).append(passive)
        _replacement(card, "self", condition)
        used.append("enters: I have <X> and enter ready")
        return True
    group = _GROUP_READY.fullmatch(text)
    if group and permanent and "Equipment" not in card.get("tags", []):
        _replacement(card, _GROUP[group["who"]], condition)
        used.append("enters: <units> enter ready")
        return True
    return False


@paragraph_reader("last")
def read_conditional_passive(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "[Level 6][>] Your units have +1 [Might]": a passive of other units, active while the condition holds
    (824.1.b.1, 727.1.b.2), as `read_static` reads it without the condition; a replacement effect likewise
    ("[Empowered][>] If a spell ... would stun me, ... instead", 368.1)."""
    condition = around.condition
    if condition is None:
        return False
    before = {key: len(card.get(key, [])) for key in ("passives", "replacements", "restrictions", "played_to")}
    ready = card.get("enters_ready")
    if not read_static(text, card, used):
        return False
    added = {key: len(card.get(key, [])) - n for key, n in before.items()}
    if any(added[key] for key in ("restrictions", "played_to")) or card.get("enters_ready") != ready:
        raise Unread(text)  # only a passive or a replacement effect can say the condition it depends on
    for replacement in card.get("replacements", [])[before["replacements"] :]:
        if replacement.get("condition"):  # a replacement effect with a condition already: not said
            raise Unread(text)
        replacement["condition"] = condition  # active only while it holds (364.3.a, 368.1)
    for passive in card.get("passives", [])[before["passives"] :]:
        gives_me = passive["to"].get("who") == "self" and set(passive) - {"to", "restrictions"}
        if passive.get("condition") or gives_me:  # "I can't be chosen ...": a restriction on me, read here
            raise Unread(text)  # "I have ..." is read_level's; a passive with a condition already: not said
        passive["condition"] = condition
    used.append("level: <units> have <X>")
    return True


@template(
    "enter ready this turn",
    r"(?:units you play this turn enter ready|friendly units enter ready this turn|"
    r"(?P<next>the next unit you play this turn) enters ready)",
)
def _enter_ready_this_turn(m, ctx):
    """ "Units you play this turn enter ready": a delayed replacement effect for the rest of the turn (390.3) of
    the way the units you play enter (369.3), once for "the next unit". A unit you play enters under your
    control, so both say the friendly units entering."""
    return [
        {
            "op": "replace_next",
            "would": "enter_exhausted",
            "to": {"who": "friendly unit"},
            "once": bool(m["next"]),
            "instead": [],
        }
    ]


_CHOOSE_TAG = re.compile(r"as you play me, choose (?P<tags>.+)\. i gain that tag\.?")


@paragraph_reader("first")
def read_choose_tag(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "As you play me, choose Bird, Cat, Dog, or Poro. I gain that tag.": a choice its player makes as it is
    played (135.2.b.3), the tag the unit has while on the board (`choose_tag`, scenarios/rules/playing.py)."""
    spell = around.spell
    found = _CHOOSE_TAG.fullmatch(text) if spell is None and card["type"] == "unit" else None
    listed = tag_list(found["tags"]) if found else None
    if listed is None or listed[1] != "or" or card.get("choose_tag"):
        return False
    card["choose_tag"] = listed[0]
    used.append("entering: as you play me, choose a tag")
    return True
