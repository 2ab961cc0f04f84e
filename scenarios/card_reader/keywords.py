"""Keyword words of card text: those the engine implements (`kernel.KEYWORDS`, in any case) and the keyword
lines a card opens with ("[Tank] [Deflect 2]", "[Equip] [calm rune]", "[Repeat] [2 energy]")."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from scenarios import kernel
from scenarios.card_reader.phrases import ability_cost, icons_cost


@cache
def _engine_keywords() -> dict[str, str]:
    kernel.load_rules()
    return {name.lower(): name for name in kernel.KEYWORDS}


def engine_keyword(word: str) -> str | None:
    return _engine_keywords().get(word.strip().lower())


# Keywords that are deck construction constraints only, short for no rules text (Unique: 825.1, 825.3): read as
# nothing the game does.
_DECK_CONSTRAINTS = {"unique"}

_TOKEN = re.compile(r"\[(?P<kw>[a-z-]+)(?: (?P<n>\d+))?\]\s*")


def keyword_prefix(text: str, card: dict[str, Any]) -> str:
    """Read the plain keywords a paragraph opens with into `card` (keywords, Equip, Repeat); return the rest."""
    if engine_keyword(text) and not text.startswith("["):  # a keyword printed without its brackets
        card.setdefault("keywords", {})[engine_keyword(text)] = 1
        return ""
    if re.match(r"equip (?=\[)", text) and "Equipment" in card.get("tags", []):  # "Equip [Body rune]", unbracketed
        text = f"[equip] {text[len('equip ') :]}"
    rest = text
    while True:
        found = _TOKEN.match(rest)
        if not found:
            return rest
        word = found["kw"]
        after = rest[found.end() :]
        if word in _DECK_CONSTRAINTS and not found["n"]:
            rest = after
            continue
        if word == "empower" and not found["n"]:  # "[Cost]: Empower this. Play only if not Empowered." (827.1.c.1)
            cost_text = re.match(r"(?:— )?((?:\[[^\]]+\])+|[^.(]+?)\s*(?=\(|$)", after)
            cost = ability_cost(cost_text.group(1)) if cost_text else None
            if cost is None or cost_text is None:
                return rest
            card.setdefault("activated", []).append(
                {
                    "cost": cost,
                    "condition": "not empowered",
                    "effects": [{"op": "empower", "what": "this"}],
                    "label": f"{card['name']}: Empower",
                }
            )
            rest = after[cost_text.end() :]
            continue
        if word == "hunt":  # short for "When I conquer or hold, my controller gains X XP" (823.1.c.1, .c.2)
            gains = [{"op": "gain_xp", "n": int(found["n"] or 1)}]
            # an Equipment's Hunt is given to the equipped unit (136.2.c): its "I" is that unit's
            me = "equipped unit" if "Equipment" in card.get("tags", []) else "self"
            for event in ("conquer", "hold"):
                card.setdefault("triggers", []).append(
                    {"when": {"event": event, "who": me}, "effects": gains, "label": f"{card['name']}: Hunt"}
                )
            rest = after
            continue
        listed = re.match(r"— ((?:\[[^\]]+\])+(?: / (?:\[[^\]]+\])+)+)\s*", after) if word == "repeat" else None
        if listed and not found["n"]:  # "[Repeat] — [1] / [A] / [1][A]": several Repeats, each paid or not (820.1.c.2)
            costs = [icons_cost(part) for part in listed.group(1).split(" / ")]
            if not all(costs):
                return rest
            card.setdefault("repeat", []).extend(costs)
            rest = after[listed.end() :]
            continue
        if word in ("equip", "repeat", "flow"):
            cost_text = re.match(r"((?:\[[^\]]+\])+)\s*", after)
            cost = icons_cost(cost_text.group(1)) if cost_text and not found["n"] else None
            if cost is None or cost_text is None or (word == "flow" and card["type"] != "spell"):  # Flow: spells
                return rest
            if word == "equip":
                add_equip(card, cost)
            else:  # Repeat (820), Flow (829.1.c: an alternate cost to play the spell from the trash)
                card.setdefault(word, []).append(cost)
            rest = after[cost_text.end() :]
            continue
        keyword = engine_keyword(word)
        if keyword is None or after.startswith(("—", "[>]")):  # "[Reaction][>] cost: ..." is an ability's
            return rest
        card.setdefault("keywords", {})[keyword] = int(found["n"]) if found["n"] else 1
        rest = after
        listed_next = re.match(r",\s*(?=\[)", rest)  # "[Assault 2], [Shield 2]": a list of keywords (comma-separated)
        if listed_next and (following := _TOKEN.match(rest[listed_next.end() :])) and engine_keyword(following["kw"]):
            rest = rest[listed_next.end() :]


def add_equip(card: dict[str, Any], cost: dict[str, Any]) -> None:
    """ "[Equip] [Cost]": the keyword and the ability it is short for, "[Cost]: Attach this to a unit you control"
    (818)."""
    card.setdefault("keywords", {})["Equip"] = 1
    card.setdefault("activated", []).append(
        {
            "equip": True,
            "cost": cost,
            "targets": {"unit": {"type": "unit", "side": "friendly"}},
            "effects": [{"op": "attach", "what": "this", "to": "unit"}],
            "label": f"{card['name']}: Equip",
        }
    )
