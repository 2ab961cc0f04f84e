"""Cards an effect plays from a trash (419.3), beyond `costs`' "play a unit from your trash, ignoring its cost":

- "You may pay [1][C] to play me from your trash" (a trigger of a unit in the trash; 385.2: an ability that plays
  its card from the trash describes the trash as where it is active, so its trigger is `active_in: trash`,
  383.2.c.1): `effect_plays.play_from` the card itself, for the cost named in place of its own (356.1.a), that
  cost paid as it is played (357.1, so changes to it still apply, 356.3-356.4).

A spell or gear an effect plays is not read here: the engine plays units and gear tokens by effect, not a spell
from a trash (its targets chosen as it is played) nor a gear card.
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import INSTEAD, SPANNING
from scenarios.card_reader.deck import _rest, _taking
from scenarios.card_reader.effects import template
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.phrases import icons_cost
from scenarios.card_reader.players import _chosen_player
from scenarios.card_reader.readers import Around, paragraph_reader

_ICONS = r"(?P<icons>(?:\[[^\]]+\])+)"


@template(
    "play me from your trash for a cost",
    r"(?:pay " + _ICONS + r" to play me|play (?P<this>this|me)) from your trash(?: for (?P<icons2>(?:\[[^\]]+\])+))?",
)
def _play_me_for(m, ctx):
    """ "Pay [1][C] to play me from your trash" (a unit's), "Play this from your trash for [A]" (a spell's, in a
    reflexive trigger of its own resolution, when it is in its trash): the card itself, from its owner's trash, its
    base cost replaced by the one named (356.1.a), paid as it is played; a spell's targets are chosen then
    (`effect_plays.play_spell_by_effect`)."""
    cost = icons_cost(m["icons"] or m["icons2"] or "")
    if cost is None or ctx.me != "this" or ctx.card_type not in ("unit", "spell"):
        return None
    if (ctx.card_type == "spell") != bool(m["this"]):  # a unit pays to play itself; a spell is played for a cost
        return None
    return [{"op": "play_from", "what": "this", "for": cost}]


# "Choose a unit in your trash with Energy cost no more than [3] and Power cost no more than [A]": a target there
# (355.9.a), which a later "Play it ..., ignoring its cost" plays; said alone, the choice is for nothing (refused)
_IN_TRASH = (
    r"choose a unit in (?P<whose>your|their) trash(?: with energy cost no more than \[(?P<e>\d+) energy\]"
    r"(?: and power cost no more than (?P<p>(?:\[any rune\])+))?)?"
)
_PLAY_IT = r"play it(?P<base> to your base)?, ignoring its (?P<energy>energy )?cost"
_CHOSEN_TO_PLAY = "choose a unit in a trash"


def _play_it(m, slot: str) -> list[dict[str, Any]]:
    ins: dict[str, Any] = {"op": "play_from", "what": slot, "ignoring": "energy" if m["energy"] else "cost"}
    if m["base"]:
        ins["to"] = "base"
    return [ins]


@template("choose a unit in a trash and play it", _IN_TRASH + rf"(?P<and> and {_PLAY_IT})?")
def _choose_in_trash(m, ctx):
    """ "Choose a unit in your trash ... [and play it, ignoring its cost]": the unit, a target in its owner's trash
    chosen as the ability is finalized (355.9.a, 355.5), played by this ability's controller (`play_from`); "in
    their trash": the trash of the player chosen before (`zone_of` that slot)."""
    spec: dict[str, Any] = {"type": "unit", "zone": "trash"}
    if m["whose"] == "their":  # the player chosen before ("choose an opponent. They [Burn 3]. ...")
        player = _chosen_player(ctx)
        if player is None or player == "actor":
            return None
        spec["zone_of"] = player
    if m["e"]:
        spec["max_cost"] = int(m["e"])
    if m["p"]:
        spec["max_power"] = m["p"].count("[")
    slot = ctx.slot(spec)
    if m["and"]:
        return _play_it(m, slot)
    ctx.unfinished = _CHOSEN_TO_PLAY
    return []


@template("choose a unit in a trash and play it", _PLAY_IT)
def _then_play_it(m, ctx):
    """ "... Play it to your base, ignoring its cost.": the unit the sentence before chose in a trash."""
    if ctx.unfinished != _CHOSEN_TO_PLAY or ctx.it is None:
        return None
    ctx.unfinished = None
    return _play_it(m, ctx.it)


_PLAY_ME_FOR = re.compile(r"(?P<legion>\[legion\](?: —|\[>\]) )?you may play me from your trash for " + _ICONS + r"\.?")


@paragraph_reader("first")
def read_play_me_from_trash(text: str, card: dict[str, Any], used: list[str], around: Around) -> bool:
    """ "[Legion][>] You may play me from your trash for [3][C]": a passive of the card in its trash (366.1), its
    owner may play it from there as they would from the hand, its base cost replaced by the one named (356.1.a),
    while they have played another card this turn ([Legion], 812.1)."""
    found = _PLAY_ME_FOR.fullmatch(text)
    if found is None:
        return False
    cost = icons_cost(found["icons"])
    if cost is None or card["type"] not in ("unit", "gear", "spell") or "trash_play" in card:
        return False
    card["trash_play"] = cost
    if found["legion"]:
        card["trash_play_condition"] = "legion"
    used.append("you may play me from your trash for [cost]")
    return True


@template(
    "play a spell from your trash",
    r"play a spell from your trash with energy cost (?:no more than \[(?P<e>\d+) energy\]|(?P<points>less than your "
    r"points))(?:, ignoring its (?P<energy>energy )?cost| without paying its (?P<paying>energy )?cost)",
)
def _play_spell_from_trash(m, ctx):
    """ "Play a spell from your trash with Energy cost no more than [3], ignoring its Energy cost" (or "... less
    than your points without paying its Energy cost"): the spell, a target in the trash (355.9.a) chosen as the
    ability is finalized, is played as the instruction resolves (`effect_plays.play_spell_by_effect`: its own
    targets chosen then), its base Energy cost set to zero (356.1.b.2; not paying a cost is ignoring it)."""
    spec: dict[str, Any] = {"type": "spell", "zone": "trash"}
    if m["points"]:
        spec["cost_below"] = {"points": "you"}  # counted as it is chosen (355.9.a)
    else:
        spec["max_cost"] = int(m["e"])
    slot = ctx.slot(spec)
    return [{"op": "play_from", "what": slot, "ignoring": "energy" if m["energy"] or m["paying"] else "cost"}]


def _then_recycle_it(sentence: str, last: list[dict[str, Any]], ctx, used: list[str]) -> list[dict[str, Any]] | None:
    """ "... play a spell from your trash .... Then recycle it.": a delayed replacement made as the spell is
    played, recycling it as it leaves the Chain, resolved or countered (390.3.a; the Fizz, Trickster FAQ)."""
    if sentence.rstrip(".") != "then recycle it" or len(last) != 1:
        return None
    play = last[0]
    spec = ctx.targets.get(play.get("what", ""), {})
    if play.get("op") != "play_from" or spec.get("type") != "spell" or play["what"] != ctx.it:
        return None
    used.append("then recycle it (a spell played)")
    return [{**play, "then": "recycle"}]


INSTEAD.append(_then_recycle_it)


# -- "Reveal the top 2 cards of your Main Deck. You may banish one, then play it." -------------------------------


@template(
    "look at the top cards",
    r"you may banish one, then play it(?:, reducing its cost by \[(?P<r>\d+) energy\])?",
)
def _banish_one_then_play_it(m, ctx):
    """ "You may banish one, then play it[, reducing its cost by [2]]": any card among those looked at, banished
    (427), then played if it can be (`effect_plays.effect_playable`: a unit or gear it can pay for and place, a
    spell it can pay for with its choices to make; else it stays banished, 358.5), played as the instruction resolves (419.3), its cost paid (357.1) less
    the reduction (356.4); a spell's targets are chosen then (`play_spell_by_effect`)."""
    take: dict[str, Any] = {"card": "card", "may": True, "verb": "play"}
    if m["r"]:
        take["reduce"] = int(m["r"])
    return _taking(ctx, take)


@template("look at the top cards", r"if it is a unit, you may play it here")
def _a_unit_may_be_played_here(m, ctx):
    """ "... then play it. If it is a unit, you may play it here.": a permission to play it to this battlefield
    (355.2.b) besides the locations it may be played to."""
    take = ctx.looking.get("take") if ctx.looking is not None else None
    if not take or take.get("verb") != "play" or take.get("card") != "card" or "here" in take:
        return None
    take["here"] = True
    return []


@template("look at the top cards", r"draw any you didn't banish")
def _draw_the_rest(m, ctx):
    """ "Draw any you didn't banish": the cards not taken are drawn (413.1)."""
    return None if _rest(ctx, "draw", False) is None else []


# -- "Kill a friendly unit. Look at the top 5 ... a unit ... that has Might up to 1 more than the killed unit" ----

_KILLED = "killed"
_UP_TO_KILLED = re.compile(
    r"you may banish a unit from among them that has might up to (?P<n>\d+) more than the killed unit and play it, "
    r"ignoring its cost"
)


def _the_killed_unit(text: str, ctx, used: list[str], read) -> list[dict[str, Any]] | None:
    """ "Kill a friendly unit. Look at the top 5 cards ... You may banish a unit from among them that has Might up to
    1 more than the killed unit and play it, ignoring its cost. ...": "the killed unit" names what the kill of the
    first sentence killed, linked to it (359.3.e.14), its Might as it died (359.3.e.13; null when nothing died,
    359.3.e.12). Read only when the first sentence is that one kill."""
    if _KILLED in ctx.named or "the killed unit" not in text:
        return None
    first, dot, rest = text.partition(". ")
    if not dot or not rest:
        return None
    killing = read(first, ctx, used)
    if len(killing) != 1 or killing[0].get("op") != "kill" or killing[0].get("what") not in ctx.targets:
        return None
    ctx.named = (*ctx.named, _KILLED)
    return [*killing, *read(rest, ctx, used)]


@template("look at the top cards", _UP_TO_KILLED.pattern)
def _up_to_the_killed_unit(m, ctx):
    if _KILLED not in ctx.named:
        return None
    used_take = {"card": "unit", "may": True, "verb": "play", "ignoring": "cost", "more_than_killed": int(m["n"])}
    return _taking(ctx, used_take)


SPANNING.append(_the_killed_unit)


# -- "Play a card with [Hidden] from your hand, ignoring its cost. If it's a unit, play it here." -------------------


@template("play a card from the hand", r"play a card with \[(?P<kw>[a-z]+)\] from your hand, ignoring its cost")
def _play_a_card_from_hand(m, ctx):
    """ "Play a card with [Hidden] from your hand, ignoring its cost": a card of any type with that keyword, the
    player's choice as it resolves (the hand is private, not a target: 355.10.a), played (419.3) with its base cost
    set to zero (356.1.b.1); with none to play, nothing happens (419.3.c)."""
    keyword = engine_keyword(m["kw"])
    if keyword is None:
        return None
    return [{"op": "play_from_hand", "card": "card", "keyword": keyword, "ignoring": "cost"}]


def _a_unit_here(sentence: str, last: list[dict[str, Any]], ctx, used: list[str]) -> list[dict[str, Any]] | None:
    """ "... from your hand, ignoring its cost. If it's a unit, play it here.": where a unit among them is played,
    this battlefield, a permission to play it there (355.2.b)."""
    if sentence.rstrip(".") != "if it's a unit, play it here" or len(last) != 1:
        return None
    play = last[0]
    if play.get("op") != "play_from_hand" or play.get("card") != "card":
        return None
    used.append("if it's a unit, play it here")
    return [{**play, "unit_to": "here"}]


INSTEAD.append(_a_unit_here)


@template(
    "look at the top cards",
    r"you may banish a (?P<kind>unit or gear|unit|gear) from among them and play it, "
    r"reducing its (?:energy )?cost by \[(?P<r>\d+) energy\]",
)
def _banish_a_permanent_and_play_it(m, ctx):
    """ "You may banish a unit or gear from among them and play it, reducing its Energy cost by [5]": one of them,
    banished (427), then played (419.3) if it can be paid for and placed (`effect_plays.effect_playable`), its cost paid
    less the reduction (356.4)."""
    kind = "permanent" if m["kind"] == "unit or gear" else m["kind"]
    return _taking(ctx, {"card": kind, "may": True, "verb": "play", "reduce": int(m["r"])})


@template(
    "play from the trash, ignoring its cost",
    r"play a unit from your trash that costs no more energy and no more power than the killed unit, ignoring its cost",
)
def _play_no_more_than_the_killed_unit(m, ctx):
    """ "Play a unit from your trash that costs no more Energy and no more Power than the killed unit, ignoring its
    cost" (a spell whose additional cost kills a friendly unit): the unit, a target in the trash chosen as the spell
    is played, before the cost is paid (355.5, 357.2; the Heedless Resurrection FAQ), so its costs are compared
    with the killed unit's as the spell resolves (`no_more_than: killed`; printed costs, 356.1.c)."""
    if ctx.card_type != "spell":
        return None
    return [
        {
            "op": "play_from",
            "what": ctx.slot({"type": "unit", "zone": "trash"}),
            "ignoring": "cost",
            "no_more_than": "killed",
        }
    ]
