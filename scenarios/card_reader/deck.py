"""The main deck, the trash and the hand: templates of instructions about cards off the board.

- "Look at / Reveal the top N cards of your Main Deck." opens a look (`look_at_deck`, scenarios/rules/looking.py)
  that the next sentences complete: which card is taken ("Put 1 into your hand", "Draw one", "You may reveal a
  unit from among them and draw it", "If it's a gear, draw it") and where the rest go ("Recycle the rest", "Put
  the rest into your trash", "Otherwise, recycle it"). A look whose rest is never said is refused
  (`abilities._effects`): nothing half-read.
- "Return a unit from your trash to your hand": a target in the trash (355.10.a), returned (`return_from_trash`),
  or banished ("Banish a unit from your trash", `banish`);
  "Play a unit from your hand to your base, ignoring its Energy cost" (`play_from_hand`, 419.3, 356.1.b; a unit
  played from the trash is `costs`' `play_from`, a target there).
- "Put a card from your hand on the top or bottom of your Main Deck" (`put_from_hand_on_deck`).
- Triggers "When you discard one or more cards", "When you recycle one or more cards to your Main Deck", "When you
  draw your second card each turn".
- The keyword actions "[Predict N]" (436: a look, any recycled, the rest in any order) and "[Burn N]" (440).
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import TRIGGERS, _keywords
from scenarios.card_reader.effects import instructions, template
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.phrases import number, tag_list
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader
from scenarios.rules.hand_size import HAND_SIZES

_COUNT = r"(?P<n>\d+|two|three|four|five)"


@template("look at the top cards", rf"(?P<verb>look at|reveal) the top (?:{_COUNT} cards|card) of your main deck")
def _look(m, ctx):
    """Looked at: by the player alone (128.4); revealed: to every player (424.1). Both stay in the deck meanwhile
    (424.1.a.2); an empty or short deck is looked at as far as it goes (431.1.c)."""
    if ctx.looking is not None or ctx.revealing:
        return None
    ins: dict[str, Any] = {"op": "look_at_deck", "n": number(m["n"]) if m["n"] else 1}
    if m["verb"] == "reveal":
        ins["reveal"] = True
    ctx.looking = ins
    return [ins]


def _taking(ctx, take: dict[str, Any]) -> list | None:
    """The card taken among those looked at: said once, after the look and before the rest."""
    if ctx.looking is None or "take" in ctx.looking:
        return None
    ctx.looking["take"] = take
    return []


@template("look at the top cards", r"(?:put (?:1|one) into your hand|(?P<draw>draw one))")
def _take_any(m, ctx):
    """ "Put 1 into your hand", "Draw one": one of them, any card, the player's choice (424.4.a)."""
    return _taking(ctx, {"card": "card", "verb": "draw" if m["draw"] else "hand"})


@template(
    "look at the top cards",
    r"you may banish a unit from among them, then play it, reducing its cost by \[(?P<r>\d+) energy\]",
)
def _take_and_play(m, ctx):
    """ "You may banish a unit from among them, then play it, reducing its cost by [5 Energy]": any unit among
    them, banished (427), then played if it can be paid for (else it stays banished, 358.5) as the instruction resolves (419.3), its cost reduced (356.4)."""
    return _taking(ctx, {"card": "unit", "may": True, "verb": "play", "reduce": int(m["r"])})


@template(
    "look at the top cards",
    r"you may (?:reveal an? (?P<kind>unit|gear|spell)(?: with energy cost \[(?P<e>\d+) energy\] or more)?"
    r"|choose a card) from among them and draw it",
)
def _take_one(m, ctx):
    """ "You may reveal a unit from among them and draw it": one that fits, revealed as it is drawn (424.1);
    "You may choose a card from among them and draw it"."""
    take: dict[str, Any] = {"card": m["kind"] or "card", "may": True, "verb": "draw"}
    if m["kind"]:
        take["show"] = True
    if m["e"]:
        take["min_energy"] = int(m["e"])
    return _taking(ctx, take)


@template(
    "look at the top cards", r"if it's an? (?P<kind>unit|gear|spell), (?:(?P<draw>draw it)|put it in(?:to)? your hand)"
)
def _take_if(m, ctx):
    """ "Reveal the top card ... If it's a gear, draw it": the one card revealed, taken if it is one."""
    if ctx.looking is None or ctx.looking["n"] != 1:
        return None
    return _taking(ctx, {"card": m["kind"], "verb": "draw" if m["draw"] else "hand"})


def _rest(ctx, rest: str, otherwise: bool) -> dict[str, Any] | None:
    """Where the cards not taken go; "Otherwise, ..." only after "If it's a <kind>, ..." (the card not taken)."""
    looking = ctx.looking
    if looking is None or "take" not in looking:
        return None
    if otherwise != (looking["n"] == 1 and looking["take"]["card"] != "card" and not looking["take"].get("may")):
        return None
    looking["rest"] = rest
    ctx.looking = None
    return looking


@template(
    "look at the top cards",
    r"(?:then )?(?:(?P<recycle>recycle the (?:rest|other|remaining cards))|put the rest into your trash)",
)
def _the_rest(m, ctx):
    return None if _rest(ctx, "recycle" if m["recycle"] else "trash", False) is None else []


@template(
    "look at the top cards",
    r"deal (?P<n>\d+) to (?:that unit|it) for each card with \[(?P<kw>[a-z-]+)\] revealed this way, "
    r"then recycle the revealed cards",
)
def _deal_for_each_revealed(m, ctx):
    """ "Reveal the top 5 cards of your Main Deck. Deal 1 to that unit for each card with [Hidden] revealed this
    way, then recycle the revealed cards": none taken; the Deal counts them while revealed (424.1), then all are
    recycled (416.1.a). None with it: no damage, so no Bonus Damage either (715.4)."""
    looking, keyword = ctx.looking, engine_keyword(m["kw"])
    if (
        looking is None
        or not looking.get("reveal")
        or "take" in looking
        or keyword is None
        or ctx.it not in ctx.targets
    ):
        return None
    counted = {"who": "card", "zone": "deck", "keyword": keyword, "among": "looked"}
    looking["during"] = [{"op": "deal", "amount": {"count": counted, "times": int(m["n"])}, "to": ctx.it}]
    looking["rest"] = "recycle"
    ctx.looking = None
    return []


@template(
    "look at the top cards",
    r"otherwise, (?:(?P<recycle>recycle it)|put it in(?:to)? your trash)(?: and (?P<more>.+))?",
)
def _otherwise(m, ctx):
    """ "Otherwise, put it in your trash and give me +2 [Might] this turn": the rest, then what else is done when
    no card was taken (`else`)."""
    looking = ctx.looking
    if looking is None:
        return None
    more = None
    if m["more"]:
        ctx.looking = None  # the instructions of "and ..." are read on their own
        more = instructions(m["more"], ctx, [])
        ctx.looking = looking
        if more is None:  # not read: the card is refused, never read as "otherwise, <rest>" then "<more>" always
            looking["refused"] = True
            return None
    if looking.get("refused"):
        return None
    if _rest(ctx, "recycle" if m["recycle"] else "trash", True) is None:
        return None
    if more:
        looking["else"] = more
    return []


@template("look at the top cards", r"you may recycle one or both of them")
def _may_recycle_each(m, ctx):
    """ "You may recycle one or both of them": after a look at two cards, none taken, each recycled or not, the
    player's choice; the next sentence must say the order of those kept."""
    looking = ctx.looking
    if looking is None or looking["n"] != 2 or "take" in looking or "rest" in looking:
        return None
    looking["rest"] = "may_recycle"
    return []


@template("look at the top cards", r"put those you don't back in any order")
def _in_any_order(m, ctx):
    """ "Put those you don't back in any order": the cards kept go back on top, in the order the player chooses."""
    looking = ctx.looking
    if looking is None or looking.get("rest") != "may_recycle":
        return None
    looking["reorder"] = True
    ctx.looking = None
    return []


@template(
    "return from the trash",
    r"return an? (?P<kind>unit or gear|unit|gear|spell|[a-z, ]+ or [a-z]+) from your trash to your hand",
)
def _return_from_trash(m, ctx):
    """A card of your trash is a target (355.10.a: the trash is public), returned to your hand; "a unit or gear":
    a permanent card (either kind); "a Bird, Cat, Dog, or Poro": a unit with one of those tags (133.8)."""
    spec: dict[str, Any] = {"type": "permanent" if m["kind"] == "unit or gear" else m["kind"], "zone": "trash"}
    if m["kind"] not in ("unit or gear", "unit", "gear", "spell"):
        listed = tag_list(m["kind"])
        if listed is None or listed[1] != "or":
            return None
        spec = {"type": "unit", "zone": "trash", "tag": listed[0]}
    return [{"op": "return_from_trash", "what": ctx.slot(spec)}]


@template("return from the trash", r"return up to two cards with \[(?P<kw>[a-z]+)\] from your trash to your hand")
def _return_two_with(m, ctx):
    """ "Return up to two cards with [Hidden] from your trash to your hand": two optional targets there (355.13;
    355.10.a), cards of any type with that keyword printed, the second not the first; returned together."""
    keyword = engine_keyword(m["kw"])
    if keyword is None:
        return None
    spec = {"type": "card", "zone": "trash", "keyword": keyword, "optional": True}
    first = ctx.slot(dict(spec))
    second = ctx.slot({**spec, "not_target": first})
    return [{"op": "return_from_trash", "what": [first, second]}]


@template("hide ignoring costs", r"you can hide cards ignoring costs this turn")
def _hide_free(m, ctx):
    """ "You can hide cards ignoring costs this turn": the [A] of hiding (811.1.b) not paid until the turn ends."""
    return [{"op": "hide_ignoring_costs"}]


@template("banish from the trash", r"banish an? (?P<kind>unit|gear|spell) from your trash")
def _banish_from_trash(m, ctx):
    """ "You may banish a unit from your trash": a card of your trash, a target as there (355.10.a), put into
    banishment (427, `banish`), an instruction whose performance "if you do" sees (359.3.e.14.b)."""
    return [{"op": "banish", "what": ctx.slot({"type": m["kind"], "zone": "trash"})}]


@template("hand to the main deck", r"put a card from your hand on the top or bottom of your main deck")
def _hand_to_deck(m, ctx):
    """A card of the hand, the player's choice and not a target (the hand is private, 355.10.a), to the top or
    the bottom of the Main Deck, the player's choice."""
    return [{"op": "put_from_hand_on_deck"}]


@template(
    "play from the hand",
    r"(?P<may>you may )?play a unit from (?:your )?hand to (?P<to>your base|a battlefield you control)"
    r"(?:, (?:ignoring its (?P<energy>energy cost)|reducing its cost by \[(?P<r>\d+) energy\]))?",
)
def _play_from_hand(m, ctx):
    """ "Play a unit from your hand to your base, ignoring its Energy cost": a play as the instruction resolves
    (419.3) of a unit of the hand, the player's choice and not a target (the hand is private, 355.10.a); its
    Energy cost set to zero (356.1.b.2) or reduced (356.4); "you may": the player may play none."""
    ins: dict[str, Any] = {"op": "play_from_hand", "to": "base" if m["to"] == "your base" else "battlefield"}
    if m["energy"]:
        ins["ignoring"] = "energy"
    if m["r"]:
        ins["reduce"] = int(m["r"])
    if m["may"]:
        ins["optional"] = True
    return [ins]


@template("its controller draws", r"its controller draws (?P<n>\d+)")
def _controller_draws(m, ctx):
    """ "Kill a gear. Its controller draws 2.": the controller of the object the spell chose (as it left the board,
    when it did) draws (413)."""
    if ctx.it not in ctx.targets:
        return None
    return [{"op": "controller_draws", "of": ctx.it, "n": int(m["n"])}]


@template("hand to the main deck", r"its owner places it on the top or bottom of their main deck")
def _owner_puts_on_deck(m, ctx):
    """ "Choose an enemy unit at a battlefield. Its owner places it on the top or bottom of their Main Deck": the
    owner's choice of place."""
    if ctx.it not in ctx.targets:
        return None
    return [{"op": "owner_puts_on_deck", "what": ctx.it}]


@template("recycle from the trash", r"recycle (?P<up>up to )?(?P<n>\d+)(?: cards?)? from (?P<whose>your trash|trashes)")
def _recycle_from_trash(m, ctx):
    """ "Recycle 3 from your trash", "Recycle up to 4 cards from trashes": cards of the player's choice, not
    targets (416.6), as many as there are (416.4), each to its owner's Main Deck (416.1.c)."""
    ins: dict[str, Any] = {
        "op": "recycle_from_trash",
        "n": int(m["n"]),
        "from": "your" if m["whose"] == "your trash" else "all",
    }
    if m["up"]:
        ins["up_to"] = True
    return [ins]


# Triggers on the hand and the main deck: once per discard, or per recycle, of one or more cards (422.1.b, 416.1.c)
TRIGGERS.extend(
    [
        (
            "when you discard one or more cards",
            re.compile(r"when you discard one or more cards"),
            lambda m: [{"event": "discard_cards", "who": "you"}],
        ),
        (
            "when you draw your Nth card each turn",
            re.compile(r"when you draw your (?P<n>second|third|fourth) card each turn"),
            lambda m: [{"event": "draw", "who": "you", "nth": {"second": 2, "third": 3, "fourth": 4}[m["n"]]}],
        ),
        (
            "when you recycle one or more cards to your main deck",
            re.compile(r"when you recycle one or more cards to your main deck"),
            lambda m: [{"event": "recycle_cards", "who": "you"}],
        ),
    ]
)


_FEWER = r"if you have (?P<n>\d+|one|two|three|four|five) or fewer cards in your hand"


@template("if <hand size>", rf"(?P<rest>.+) {_FEWER}")
def _if_hand_size(m, ctx):
    """ "Draw 1 if you have one or fewer cards in your hand": the instructions only while the hand is that small,
    counted as the ability resolves (364.3.a; the number of cards in a hand is public, 108.7.e)."""
    then = instructions(m["rest"], ctx, [])
    n = number(m["n"])
    if then is None or n is None or n not in HAND_SIZES:
        return None
    return [{"op": "if", "condition": f"{n} or fewer cards in hand", "then": then}]


@template("predict", r"\[predict(?: (?P<n>\d+))?\]")
def _predict(m, ctx):
    """ "[Predict 2]": look at the top 2 cards of your Main Deck, recycle any number of them and put the rest back
    on top in any order (436.1.a; "[Predict]" is 1, 436.3.a); a short deck is looked at as far as it goes, with no
    Burn Out (436.4)."""
    return [{"op": "look_at_deck", "n": int(m["n"] or 1), "rest": "may_recycle", "reorder": True}]


@template("burn", r"\[burn (?P<n>\d+)\]")
def _burn(m, ctx):
    """ "[Burn 3]": the top 3 cards of your Main Deck go to your trash, burning out on the way when it runs out
    (440.1, 440.4)."""
    return [{"op": "trash_from_deck", "n": int(m["n"])}]


@paragraph_reader("static")
def _read_discarded_passive(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If you've discarded a card this turn, I have [keywords]": a passive of its own while it holds (365.1)."""
    discarded = re.fullmatch(r"if you've discarded a card this turn, i have (?P<kws>\[.+\])", text)
    if not discarded or "Equipment" in card.get("tags", []):
        return False
    passive = {"to": {"who": "self"}, "condition": "discarded this turn", "keywords": _keywords(discarded["kws"])}
    card.setdefault("passives", []).append(passive)
    used.append("static: if you've discarded a card this turn, I have <keywords>")
    return True


@template("banished with this", r"banish all units from your trash")
def _banish_trash_units(m, ctx):
    """ "Banish all units from your trash": each unit card there (off the board a card's controller is its owner),
    banished by this object (427.3), which "banished with this" later names."""
    return [{"op": "banish", "what": {"all": {"who": "friendly unit", "zone": "trash"}}}]


@template("banished with this", r"play a unit banished with this")
def _play_one_banished(m, ctx):
    """ "Play a unit banished with this": one of them, its costs paid (357.1; `play_banished_by_this`, `one`)."""
    return [{"op": "play_banished_by_this", "one": True}]
