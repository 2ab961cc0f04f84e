"""Empower, XP and Equipment: the templates of card text about the Empowered status and its costs (441, 442, 827,
828), added to `abilities.TRIGGERS` and to the cost words of `phrases`.

"When I become [Empowered], ..." and "When you empower something else, ...": becoming Empowered is an event
(441.2.a, 827.2.a; 828.1.d), the event `empower` of `rules/empower.py`, its player the controller of the effect
that empowered the object. "Disempower this, [Exhaust]: ..." / "Disempower me, ...": a cost that removes the
source's Empowered status (442.1), payable only while it is Empowered (442.1.a, 203.3: `Cost.disempower`).
"Empower me", "Empower another gear", "Disempower it": the instructions `empower` / `disempower` (441.1, 442.1).
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD, TRIGGERS, Unread, i_have, read_deathknell, read_static
from scenarios.card_reader.effects import template
from scenarios.card_reader.keywords import add_equip, engine_keyword
from scenarios.card_reader.phrases import COST_WORDS, UNIT_TAGS, ability_cost, reference, signed
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

ADDED: list = [
    (
        "when I become [Empowered]",
        re.compile(r"when i become \[empowered\]"),
        lambda m: [{"event": "empower", "who": "self"}],
    ),
    (
        "when you empower something else",
        # "something else": any other object on the board (only objects on the board can be Empowered, 441.2)
        re.compile(r"when you empower something else"),
        lambda m: [{"event": "empower", "who": "other card", "by": "you"}],
    ),
]
TRIGGERS.extend(ADDED)

# "Disempower this/me" before an ability's colon: its source is disempowered as the cost is paid (442.1, 357.2)
COST_WORDS.update({"disempower this": {"disempower": "this"}, "disempower me": {"disempower": "this"}})
# "[Empower] — Kill a friendly unit": a unit its payer controls, chosen as the cost is paid (357.2)
COST_WORDS["kill a friendly unit"] = {"kill_friendly": "unit"}


@template("empower: empower / disempower <objects>", r"(?P<verb>empower|disempower) (?P<what>.+?)\.?")
def _empower(m, ctx):
    """ "Empower me", "Empower another gear", "Disempower it" (441.1, 442.1): only objects on the board have the
    status (441.2), so a unit or a gear there, or the card itself."""
    what = reference(m["what"], ctx)
    if (
        what is None
        or isinstance(what, dict)
        or (what in ctx.targets and ctx.targets[what].get("type") not in ("unit", "gear"))
    ):
        return None
    return [{"op": m["verb"], "what": what}]


_EMPOWERED_DEATHKNELL = re.compile(r"\[empowered\]\[>\]\[>>\]\[deathknell\]\[>\] (?P<rest>.+)")


@paragraph_reader("first")
def read_empowered_deathknell(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "[Empowered][>][>>][Deathknell][>] Channel 2 runes exhausted.": a Deathknell that is the dependent ability of
    Empowered (828.1.b.1: "While I have the Empowered status, this card gains '[Deathknell] ...'"), so it triggers
    when the card dies while Empowered (808.1.c): the trigger's condition `empowered`, asked as it dies, of the
    status it had (a card leaving the board keeps it until it is a new object, `playing.enter_board`)."""
    found = _EMPOWERED_DEATHKNELL.fullmatch(text)
    if not found:
        return False
    if not read_deathknell(f"[deathknell][>] {found['rest']}", card, used):
        raise Unread(text)
    card["triggers"][-1]["condition"] = "empowered"
    used.append("empower: [Empowered][>] [Deathknell]")
    return True


_EITHER_EMPOWER = re.compile(r"\[empower\] — (?P<first>.+?) or (?P<second>.+)")


@paragraph_reader("first")
def read_empower_either(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "[Empower] — [1 Energy] or [Body rune]" ("Pay either cost: Empower me. Use only if not Empowered."): each cost
    the ability may be paid with is an Empower ability of its own (827.1.c.1: "[Cost]: Empower this. Play only if
    not Empowered."; 827.3: instances of Empower are activated separately, each for its cost)."""
    found = _EITHER_EMPOWER.fullmatch(text)
    if not found:
        return False
    costs = [ability_cost(found[part]) for part in ("first", "second")]
    if not all(costs):
        raise Unread(text)
    for cost in costs:
        card.setdefault("activated", []).append(
            {
                "cost": cost,
                "condition": "not empowered",
                "effects": [{"op": "empower", "what": "this"}],
                "label": f"{card['name']}: Empower",
            }
        )
    used.append("empower: [Empower] — <cost> or <cost>")
    return True


_GAINED_XP = re.compile(r"if you've gained xp this turn, (?P<rest>i have .+)")


@paragraph_reader("static")
def read_gained_xp_passive(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If you've gained XP this turn, I have +1 [Might] and [Ganking]": a passive of its own active while its
    controller has gained XP this turn (730.1; 364.3.a), the condition word "gained xp this turn"."""
    found = _GAINED_XP.fullmatch(text.rstrip("."))
    if not found or "Equipment" in card.get("tags", []):  # an Equipment's "I": rules or effect text, unsaid
        return False
    passive = i_have(found["rest"], "gained xp this turn")
    if passive is None:
        raise Unread(text)
    card.setdefault("passives", []).append(passive)
    used.append("xp: if you've gained XP this turn, I have <X>")
    return True


_EMPOWERED_INSTEAD = re.compile(
    r"(?P<first>.+ have [+-]\d+ might)\. if (?:i'm|this is) \[empowered\], they have (?P<sign>[+-])(?P<n>\d+) might"
    r" instead\.?"
)


@paragraph_reader("first")
def read_empowered_instead_passive(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "Your units have +1 [Might]. If I'm [Empowered], they have +2 [Might] instead.": one passive while the card
    is not Empowered and, while it is, the same passive giving the other amount (364.3.a; 828.1.b.1: the Empowered
    status of the card with the passive)."""
    spell = around.spell
    found = _EMPOWERED_INSTEAD.fullmatch(text)
    if not found or spell is not None:
        return False
    before = len(card.get("passives", []))
    if not read_static(found["first"], card, used):
        raise Unread(text)
    added = card.get("passives", [])[before:]
    if len(added) != 1 or set(added[0]) != {"to", "might"}:
        raise Unread(text)
    first = added[0]
    first["condition"] = "not empowered"
    card["passives"].append({**first, "might": signed(found["sign"], found["n"]), "condition": "empowered"})
    used.append("empower: <passive>. If I'm [Empowered], <amount> instead")
    return True


_EQUIP_COST = re.compile(r"\[equip\] — (?P<cost>[^(]+?)")


@paragraph_reader("first")
def read_equip_cost(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "[Equip] — [Order rune], Kill a friendly unit" / "[Equip] — Spend 1 XP": Equip with a cost of words, which may
    hold non-resource costs (818.1.c.3); short for "[Cost]: Attach this gear to a unit you control" (818.1.c.2).
    Equip with only icons is `keywords.keyword_prefix`'s."""
    found = _EQUIP_COST.fullmatch(text)
    if not found or "Equipment" not in card.get("tags", []):
        return False
    cost = ability_cost(found["cost"])
    if cost is None:
        raise Unread(text)
    add_equip(card, cost)
    used.append("equip: [Equip] — <cost>")
    return True


# "[Add] [2 Energy]. Use only to play spells.": the resources the Add puts in the pool pay only for those
# (`rules/restricted_resources.py`, its USES)
_USE_ONLY = {
    "use only to play spells": "spells",
    "use only to play gear or use gear abilities": "gear",
    "spend this energy only to play units or activated abilities of units": "units",
    "spend this energy only during showdowns": "showdowns",
}


def _use_only(sentence: str, before: list[dict[str, Any]], ctx, used: list[str]) -> list[dict[str, Any]] | None:
    use = _USE_ONLY.get(sentence.rstrip("."))
    if use is None or not before or any(i.get("op") != "add" or i.get("only") for i in before):
        return None
    used.append("add: use only to play <cards>")
    return [{**i, "only": use} for i in before]


INSTEAD.append(_use_only)


@template("equipment: attach it to <a unit>", r"attach (?P<what>it|this) to (?P<to>a unit you control)\.?")
def _attach_this(m, ctx):
    """ "When you play this from face down, attach it to a unit you control": Attach (434), the card itself attached
    to a unit its controller chooses as the ability is put on the chain (as Quick-Draw's, 819.1.d, and Equip's,
    818.1.b.1). "It" is the card when the ability is about the card alone (its trigger event is its own, nothing
    chosen before names another object)."""
    about_me = bool(ctx.when) and all(event.get("who") == "self" for event in ctx.when)
    what = "this" if m["what"] == "this" or (ctx.it is None and about_me and not ctx.targets) else None
    to = reference(m["to"], ctx) if what and ctx.me == "this" else None
    return None if to is None else [{"op": "attach", "what": what, "to": to}]


@template("equipment: detach an Equipment from <a unit>", r"(?:then )?detach an equipment from (?P<unit>.+?)\.?")
def _detach_from(m, ctx):
    """ "Then detach an Equipment from it": Detach (435.1), one of the Equipment attached to the unit, chosen as the
    instruction resolves (435.3: detaching chooses no target). "It" is the unit said to be equipped when one was
    ("Choose an equipped friendly unit. It deals damage ... to an enemy unit. Then detach an Equipment from it"), as
    only an equipped unit has an Equipment to detach (818.3.b)."""
    equipped = [slot for slot, spec in ctx.targets.items() if spec.get("equipped")]
    unit = equipped[-1] if m["unit"] == "it" and equipped else reference(m["unit"], ctx)
    return None if not isinstance(unit, str) or unit == "this" else [{"op": "detach", "from": unit}]


@template("equipment: detach it / unattach this", r"(?:detach|unattach) (?P<what>it|this)\.?")
def _detach(m, ctx):
    """ "If it's an Equipment, you may detach it" / "unattach this": Detach (435.1) of the gear named; nothing if it
    is not attached (435.1.a.1)."""
    what = reference(m["what"], ctx)
    gear = what == "this" and ctx.me == "this" or (what in ctx.targets and ctx.targets[what].get("type") == "gear")
    return [{"op": "detach", "what": what}] if gear else None


@template(
    "equipment: attach an Equipment to <a unit>",
    r"attach an? (?P<state>detached |attached )?equipment you control to (?P<to>a unit you control)\.?",
)
def _attach_an_equipment(m, ctx):
    """ "Attach a detached Equipment you control to a unit you control": both chosen as the ability is played (a gear
    with the Equipment tag, 133.8, attached to a unit or not, 434.1, 435.1.b), then attached (434.1; to the unit
    it is attached to already, nothing happens, 434.1.g)."""
    spec: dict[str, Any] = {"type": "gear", "side": "friendly", "tag": "Equipment"}
    if m["state"]:
        spec["attached"] = m["state"].strip() == "attached"
    gear = ctx.slot(spec)
    to = reference(m["to"], ctx)
    return None if not isinstance(to, str) or to not in ctx.targets else [{"op": "attach", "what": gear, "to": to}]


@template("equipment: choose a unit and an Equipment", r"choose a unit and an equipment with the same controller")
def _choose_unit_and_equipment(m, ctx):
    """ "Choose a unit and an Equipment with the same controller": two targets (355.9), the Equipment (a gear with
    the tag, 133.8) controlled by the unit's controller; what follows names them "that unit", "that Equipment"."""
    unit = ctx.slot({"type": "unit"})
    ctx.slot({"type": "gear", "tag": "Equipment", "controller_as": unit})
    return []


def _that(ctx, noun: str) -> str | None:
    """ "That unit" / "that Equipment": the last target of that kind chosen before."""
    kinds = [s for s, spec in ctx.targets.items() if spec.get("type") == ("gear" if noun == "equipment" else "unit")]
    kinds = [s for s in kinds if noun != "equipment" or ctx.targets[s].get("tag") == "Equipment"]
    return kinds[-1] if kinds else None


@template("equipment: that Equipment and that unit", r"(?P<verb>attach|detach) that equipment (?:to|from) that unit")
def _attach_that(m, ctx):
    """ "Attach that Equipment to that unit" (434.1; to the unit it is on, nothing happens, 434.1.g) / "detach that
    Equipment from that unit" (435.1; if it is not attached to that unit, nothing, 435.1.a.1)."""
    gear, unit = _that(ctx, "equipment"), _that(ctx, "unit")
    if gear is None or unit is None:
        return None
    if m["verb"] == "attach":
        return [{"op": "attach", "what": gear, "to": unit}]
    return [{"op": "detach", "what": gear, "from_unit": unit}]


_ATTACHED_THIS_TURN = re.compile(r"if this was attached to me this turn, (?P<rest>i have .+)")


@paragraph_reader("static")
def read_attached_this_turn(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If this was attached to me this turn, I have an additional +2 [Might]" (136.2.d's Brutalizer example): an
    Equipment's effect text, "me" the equipped unit and "this" the Equipment, a passive of that unit while the
    Equipment was attached to it this turn (`attached_this_turn`)."""
    found = _ATTACHED_THIS_TURN.fullmatch(text.rstrip("."))
    if not found or "Equipment" not in card.get("tags", []):
        return False
    passive = i_have(found["rest"])
    if passive is None:
        raise Unread(text)
    passive["to"] = {"who": "equipped unit", "attached_this_turn": True}
    card.setdefault("passives", []).append(passive)
    used.append("equipment: if this was attached to me this turn, I have <X>")
    return True


@template("equipment: attach one of its Equipment to me", r"attach one of its equipment to (?P<to>me|this)\.?")
def _attach_one_of_its(m, ctx):
    """ "If it's equipped, you may attach one of its Equipment to me": one of the Equipment attached to the unit named
    ("it"), chosen as it resolves (355.17), attached to the card itself (434.1; 434.1.f: detached from that unit)."""
    unit = reference("it", ctx)
    if not isinstance(unit, str) or unit not in ctx.targets or ctx.me != "this":
        return None
    return [{"op": "attach", "from": unit, "to": "this"}]


_EVERYWHERE = re.compile(r"your equipment everywhere have (?P<kw>\[[a-z-]+\])\.?")


@paragraph_reader("static")
def read_equipment_everywhere(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "Your Equipment everywhere have [Quick-Draw]": a passive (365.1) giving the keyword to the cards with the
    Equipment tag (133.8) its controller has in any zone, the hand included, where Quick-Draw lets them be played
    with Reaction and attached as they are (819.1.c, 819.1.d)."""
    found = _EVERYWHERE.fullmatch(text)
    if not found or around.spell is not None:
        return False
    keyword = engine_keyword(found["kw"].strip("[]"))
    if keyword is None or "Equipment" in card.get("tags", []):
        raise Unread(text)
    to = {"who": "friendly gear", "tag": "Equipment", "zone": "anywhere"}
    card.setdefault("passives", []).append({"to": to, "keywords": {keyword: 1}})
    used.append("equipment: your Equipment everywhere have [keyword]")
    return True


_EACH_GIVE = re.compile(r"your equipment each give (?P<kw>\[[a-z-]+\])\.?")


@paragraph_reader("static")
def read_equipment_each_give(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Your Equipment each give [Assault]": each Equipment its controller controls gives the keyword to the unit it
    is attached to, as its own effect text would (136.2.c): a unit with two has [Assault 2] (807.2: the values of
    its instances summed). A passive over those Equipment (`via_equipment`), while the card is on the board."""
    found = _EACH_GIVE.fullmatch(text)
    if not found or around.spell is not None:
        return False
    keyword = engine_keyword(found["kw"].strip("[]"))
    if keyword is None or "Equipment" in card.get("tags", []):
        raise Unread(text)
    to = {"who": "friendly gear", "tag": "Equipment"}
    card.setdefault("passives", []).append({"to": to, "keywords": {keyword: 1}, "via_equipment": True})
    used.append("equipment: your Equipment each give [keyword]")
    return True


@paragraph_reader("static")
def read_i_am_a(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "I am a Mech." on an Equipment: its effect text, so the equipped unit has the tag (133.8; 136.2.c, its "I"
    the unit, 136.2.d's examples) while it is attached (136.2.b): a passive giving the tag."""
    found = re.fullmatch(r"i am an? (?P<tag>[a-z]+)\.?", text)
    if not found or "Equipment" not in card.get("tags", []):
        return False
    tag = UNIT_TAGS.get(found["tag"]) or UNIT_TAGS.get(f"{found['tag']}s")
    if tag is None:
        raise Unread(text)
    card.setdefault("passives", []).append({"to": {"who": "equipped unit"}, "tags": [tag]})
    used.append("equipment: I am a <tag>")
    return True
