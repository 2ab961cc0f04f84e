"""Per-player and per-opponent text: "each player kills one of their units", "each player discards their hand,
then draws 4", "each player channels 1 rune exhausted" (`each_player`, performed by each player in Turn Order,
303.2.a); conditions about an opponent ("if an opponent's score is within 3 points of the Victory Score", "if an
opponent controls a battlefield" / "a stunned unit") on an instruction (their words are `conditions`', which also
reads them on a discount or entering ready); and triggers on an opponent's turn ("when you play a spell on an
opponent's turn").

Registered through the shared grammar: `effects.template` (instructions), `readers` (whole paragraphs, stage
"first": a trigger with a condition on whose turn it is).
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader import conditions
from scenarios.card_reader.abilities import INSTEAD, TRIGGERS, Unread, read_trigger
from scenarios.card_reader.effects import instructions, template
from scenarios.card_reader.phrases import Context, icons_cost
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

_WHO = {"each player": "each", "each opponent": "opponents", "each other player": "others"}

# What one player does for their part, said in the third person: the verb as "you" would say it. Only instructions
# about the player themself (no object named by the card) are read per player: what they draw, discard, channel.
_VERBS = {"draws": "draw", "discards": "discard", "channels": "channel"}
_PER_PLAYER_OPS = {"draw", "discard", "channel", "discard_hand", "kill_one"}
_KILL_ONE = re.compile(r"(?:must )?kills? one of (?:their|your) (?P<kind>units|gear)")


def _their_part(clause: str, ctx) -> list[dict[str, Any]] | None:
    """One instruction of a player's part: "kills one of their units" (355.10.e: each chooses, not a target),
    "discards their hand", or a verb of `_VERBS` read as that player's own instruction."""
    clause = clause.strip()
    kill = _KILL_ONE.fullmatch(clause)
    if kill:
        return [{"op": "kill_one", "kind": "unit" if kill["kind"] == "units" else "gear"}]
    if clause == "discards their hand":
        return [{"op": "discard_hand"}]
    verb, _, rest = clause.partition(" ")
    if verb not in _VERBS or "their" in rest or not rest:
        return None
    read = instructions(f"{_VERBS[verb]} {rest}", ctx, [])
    if read is None or any(i.get("op") not in _PER_PLAYER_OPS for i in read):
        return None
    return read


@template("each player", r"(?P<who>each player|each opponent|each other player) (?P<rest>.+)")
def _each_player(m, ctx):
    """ "Each player discards their hand, then draws 4": each part read per player, in the order printed."""
    parts = re.split(r", then |, and | and |, ", m["rest"])
    effects: list[dict[str, Any]] = []
    for part in parts:
        read = _their_part(part, ctx)
        if read is None:
            return None
        effects += read
    return [{"op": "each_player", "players": _WHO[m["who"]], "effects": effects}]


@template("each player", r"the attacker and (?:the )?defender each (?P<rest>.+)")
def _combatants_each(m, ctx):
    """ "The attacker and defender each [Add] [1 Energy]": the two players of the combat (464.2.c.1-2), each
    performing it as themself (411.1)."""
    read = instructions(m["rest"], ctx, [])
    if read is None or any(i.get("op") not in _PER_PLAYER_OPS | {"add"} for i in read):
        return None
    return [{"op": "each_player", "players": "combatants", "effects": read}]


@template("each player", r"you and each opponent may (?P<rest>play .+)")
def _each_may(m, ctx):
    """ "You and each opponent may play a Gold gear token exhausted": every player, each choosing whether to do
    their part (411.1), in Turn Order (303.2.a); a token they play is theirs (182, 183)."""
    read = instructions(m["rest"], ctx, [])
    if read is None or any(i.get("op") != "play_token" or "to" in i for i in read):
        return None
    return [{"op": "each_player", "players": "each", "optional": True, "effects": read}]


_WHO_DID = re.compile(r"for each opponent who did, you (?P<rest>.+?)\.?")


def read_each_who_did(sentence: str, before: list, ctx: Context, used: list[str]) -> list | None:
    """ "For each opponent who did, you play a Gold gear token exhausted": after "you and each opponent may ...",
    the controller's instructions once per opponent who did their part (`each_opponent_who_did`)."""
    found = _WHO_DID.fullmatch(sentence.strip())
    if found is None or len(before) != 1 or not before[0].get("optional") or before[0]["op"] != "each_player":
        return None
    then = instructions(found["rest"], ctx, used)
    if then is None:
        return None
    used.append("each player: for each opponent who did")
    return [{**before[0], "each_opponent_who_did": then}]


INSTEAD.append(read_each_who_did)


@template(
    "each player chooses",
    r"starting with the next player, each player may return a unit to its owner's hand",
)
def _each_may_return(m, ctx):
    """ "Starting with the next player, each player may return a unit to its owner's hand": each in turn, from the
    player after the controller, may choose any unit (not a target, 355.10.e) and returns it before the next one
    chooses."""
    return [
        {"op": "each_chooses", "players": "each", "start": "next", "whose": "any", "optional": True, "then": "return"}
    ]


# Paragraphs of a spell in which each player chooses units, then the spell does something with those chosen (or
# the rest): the choosing sentence says nothing alone, so the paragraph is read whole
_CHOOSING: dict[str, dict[str, Any]] = {
    "each player chooses a unit they control. kill the rest": {"players": "each", "whose": "own", "then": "kill_rest"},
    "starting with the next player, each other player chooses a unit you don't control that hasn't been chosen for "
    "this spell. kill those units": {
        "players": "others",
        "start": "next",
        "whose": "not the controller's",
        "distinct": True,
        "then": "kill",
    },
}


@paragraph_reader("first")
def read_each_chooses(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Each player chooses a unit they control. Kill the rest.": `each_chooses`, then what it says of them."""
    said = _CHOOSING.get(text.rstrip("."))
    if said is None or card["type"] != "spell":
        return False
    card.setdefault("effects", []).append({"op": "each_chooses", **said})
    used.append("each player chooses")
    return True


# -- "choose an opponent. They ..." ---------------------------------------------------------------------------------


@template("opponents can't", r"opponents can't (?P<what>play cards) this turn")
def _opponents_cant(m, ctx):
    """ "Opponents can't play cards this turn": each opponent is forbidden it until the turn ends (054.1; the
    `restrict` instruction of rules/restrictions.py)."""
    return [{"op": "restrict", "players": "opponents", "restriction": "no_play_cards"}]


_CHOSEN = "choose an opponent"


@template("choose an opponent", r"(?:then )?choose (?P<who>an opponent|a player)")
def _choose_an_opponent(m, ctx):
    """ "Choose an opponent", "Choose a player": a player mentioned is a target (355.10), chosen as the spell or
    ability is put on the Chain (355.8); "a player" any player, its controller too (355.9)."""
    ctx.slot({"type": "player", "side": "enemy"} if m["who"] == "an opponent" else {"type": "player"})
    ctx.unfinished = _CHOSEN  # a target chosen for nothing: read only if a later sentence says what "they" do
    return []


def _chosen_player(ctx) -> str | None:
    """The slot of the player chosen before: what "they" and "their" name (the choice now has a use); with none,
    in a trigger "When a player <acts>", the player acting ("actor", 190.6.c)."""
    slots = [slot for slot, spec in ctx.targets.items() if spec.get("type") == "player"]
    if slots and ctx.unfinished == _CHOSEN:
        ctx.unfinished = None
    if not slots and ctx.when and all(event.get("actor") for event in ctx.when):
        return "actor"
    return slots[-1] if slots else None


# What a chosen player does, said with "they": instructions about themself, or a token they play
_THEIR_OPS = _PER_PLAYER_OPS | {"play_token", "gain_xp", "trash_from_deck", "score"}


@template("they ...", r"they (?P<rest>(?!reveal |gain control of |may pay ).+)")
def _they(m, ctx):
    """ "They play a 1 [Might] Bird unit token with [Deflect]": performed by the player chosen (`each_player` with
    that slot), as that player ("you" in it is them)."""
    slot = _chosen_player(ctx)
    if slot is None:
        return None
    read = instructions(m["rest"], ctx, [])
    if (
        read is None
        or any(i.get("op") not in _THEIR_OPS for i in read)
        or any("to" in i and i["to"] not in (None, "base") for i in read)
    ):
        # Not read as theirs: nor may a part of it be read as the controller's once "they" is split off ("they draw
        # 1 and kill a unit"), so the ability is refused with these words
        ctx.unfinished = m[0]
        return None
    return [{"op": "each_player", "players": slot, "effects": read}]


def _to_hand(event: dict[str, Any]) -> bool:
    return event.get("event") == "leave_board" and event.get("to_zone") == "hand"


@template("they may pay", r"(?:they|that player) may pay (?P<cost>(?:\[[^\]]+\])+) to (?P<rest>.+)")
def _they_may_pay(m, ctx):
    """ "When a player plays a unit here, they may pay [1 Energy] to [Buff] it": the player acting (190.6.c) chooses
    whether to pay, as the ability resolves, if they can (`pay_to`, 355.10.c.1); what it buys is done as that player.
    "When a unit here is returned to a player's hand, that player may pay ...": the hand is its owner's (127.1)."""
    slot: Any = _chosen_player(ctx)
    if slot is None and m[0].startswith("that player") and ctx.when and all(_to_hand(e) for e in ctx.when):
        slot = {"owner_of": "trigger_unit"}  # "returned to a player's hand ..., that player": the card's owner (127.1)
    cost = icons_cost(m["cost"])
    if slot is None or slot not in ("actor", {"owner_of": "trigger_unit"}) or not cost:
        return None
    read = instructions(m["rest"], ctx, [])
    if read is None:
        ctx.unfinished = m[0]
        return None
    return [{"op": "each_player", "players": slot, "effects": [{"op": "pay_to", "cost": cost, "then": read}]}]


@template("they gain control of this", r"they gain control of (?:this|me) and recall it")
def _they_gain_control(m, ctx):
    """ "Choose a player. They gain control of this and recall it": the chosen player takes control of the card
    (189) and sends it to their base (455), performing both (`each_player` with that slot, 411.1)."""
    slot = _chosen_player(ctx)
    if slot is None or slot == "actor" or ctx.me != "this":
        return None
    return [
        {
            "op": "each_player",
            "players": slot,
            "effects": [{"op": "take_control", "what": "this"}, {"op": "recall", "what": "this"}],
        }
    ]


@template("they reveal their hand", r"they reveal their hand")
def _they_reveal(m, ctx):
    slot = _chosen_player(ctx)
    return None if slot is None else [{"op": "reveal_hand", "of": slot}]


@template(
    "choose a card from their hand",
    r"choose an? (?P<kind>non-unit )?card from it, and (?:they )?(?P<then>discard|recycle) that card",
)
def _choose_from_their_hand(m, ctx):
    """ "Choose a card from it, and they discard that card": from the hand the chosen player revealed (said in the
    sentence before), the controller chooses; not a target (355.10.a)."""
    slot = _chosen_player(ctx)
    if slot is None:
        return None
    card = "non-unit" if m["kind"] else "any"
    return [{"op": "choose_from_hand", "of": slot, "card": card, "then": m["then"]}]


@template("if <an opponent ...>", rf"if {conditions.OPPONENT}, (?P<rest>.+)")
def _if_opponent(m, ctx):
    """ "If an opponent's score is within 3 points of the Victory Score, ready me and gain 3 XP" (364.3.a)."""
    then = instructions(m["rest"], ctx, [])
    return None if then is None else [{"op": "if", "condition": conditions.opponent_condition(m), "then": then}]


_ON_AN_OPPONENTS_TURN = re.compile(r"when you play an? (?P<t>spell|unit|gear|card) on an opponent's turn, (?P<body>.+)")


@paragraph_reader("first")
def read_on_an_opponents_turn(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "When you play a spell on an opponent's turn, ...": a trigger on playing it whose condition is that the
    Turn Player is an opponent (304), checked as the event happens."""
    found = _ON_AN_OPPONENTS_TURN.fullmatch(text)
    if not found:
        return False
    if not read_trigger(f"when you play a {found['t']}, {found['body']}", card, used, condition="an opponent's turn"):
        raise Unread(text)
    if found["t"] == "card":  # "a card": a Main Deck card (052), not a token
        for trigger in card["triggers"][-1:]:
            trigger["when"]["card_type"] = "card"
    used.append("trigger: on an opponent's turn")
    return True


_IF_AT_THE_START = re.compile(
    r"if (?P<c>you control fewer runes than an opponent) at the start of your beginning phase, (?P<body>.+)"
)


@paragraph_reader("first")
def read_if_at_the_start(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "If you control fewer runes than an opponent at the start of your Beginning Phase, give me +1 [Might] this
    turn": a trigger at the start of the Beginning Phase (315.2.a.1) whose condition is checked as it triggers."""
    found = _IF_AT_THE_START.fullmatch(text)
    if not found:
        return False
    if not read_trigger(f"at the start of your beginning phase, {found['body']}", card, used, condition=found["c"]):
        raise Unread(text)
    used.append("trigger: if <an opponent ...> at the start of your beginning phase")
    return True


TRIGGERS.extend(
    [
        (
            # A player Scores by Conquer or Hold (469): "when an opponent scores" is either, by an opponent
            "when an opponent scores",
            re.compile(r"when an opponent scores"),
            lambda m: [{"event": "conquer", "who": "opponent"}, {"event": "hold", "who": "opponent"}],
        ),
        (
            "at the start of each player's beginning phase",  # whoever's turn it is (315.2.a.1)
            re.compile(r"at the start of each player's beginning phase"),
            lambda m: [{"event": "beginning", "who": "player"}],
        ),
        (
            "when an opponent plays a <card type>",
            re.compile(r"when an opponent plays an? (?P<t>spell|unit|gear)"),
            lambda m: [{"event": "card_played", "who": "opponent", "card_type": m["t"]}],
        ),
        (
            "when you play a card",  # a Main Deck card (052), not a token
            re.compile(r"when you play a card"),
            lambda m: [{"event": "card_played", "who": "you", "card_type": "card"}],
        ),
        (
            "when an opponent <scores>",
            re.compile(r"when an opponent (?P<e>conquers|holds)"),
            lambda m: [{"event": m["e"].removesuffix("s"), "who": "opponent"}],
        ),
    ]
)
