"""Trigger conditions of the events a unit's state changes make (`abilities.TRIGGERS`, added to): "When you stun an
enemy unit", "When you buff me", "When you ready a friendly unit", "When I become ready", "When you choose me with a
spell", "When you attach an Equipment to me", "When I move from a battlefield", "When a unit moves from here".

A unit is stunned, buffed or readied only when it was not already (423.1.a.1, 426.1.c, 415.1.b): the events
`stun`, `buff`, `ready` of `scenarios/rules/status.py` happen only then, by the player whose effect did it, and
the turn player readies their units in the Awaken Phase (415.3.a). `move_from` is a move seen from where the unit
left (446.1), `attach_equipment` an Equipment attached to a unit it was not attached to (434.1.g), `win_combat`
the result of a combat (466.3).
"""

from __future__ import annotations

import re

from scenarios.card_reader.abilities import TRIGGERS
from scenarios.card_reader.effects import template

_SIDE = r"(?:an? (?P<side>friendly |enemy )?unit)"


def _unit(m) -> str:
    return f"{(m['side'] or '').strip()} unit".strip()


ADDED: list = [
    (
        "when you choose me with a spell",
        re.compile(r"when you choose me with an? (?P<via>spell|ability)"),
        lambda m: [{"event": "choose", "who": "self", "by": "you", "via": m["via"]}],
    ),
    (
        "when you choose or ready me",
        re.compile(r"when you choose or ready me"),
        lambda m: [{"event": "choose", "who": "self", "by": "you"}, {"event": "ready", "who": "self", "by": "you"}],
    ),
    (
        "when you stun / buff / ready a unit",
        re.compile(rf"when you \[?(?P<verb>stun|buff|ready)\]? {_SIDE}"),
        lambda m: [{"event": m["verb"], "who": _unit(m), "by": "you"}],
    ),
    (
        "when you buff / ready me",
        re.compile(r"when you (?P<verb>buff|ready) me"),
        lambda m: [{"event": m["verb"], "who": "self", "by": "you"}],
    ),
    ("when I become ready", re.compile(r"when i become ready"), lambda m: [{"event": "ready", "who": "self"}]),
    (
        "when you attach an equipment to me",
        re.compile(r"when you attach an equipment to me"),
        lambda m: [{"event": "attach_equipment", "who": "self", "by": "you"}],
    ),
    (
        "when I move from a battlefield",
        re.compile(r"when i move from a (?P<where>battlefield|location)"),
        lambda m: [
            {"event": "move_from", "who": "self", **({"where": "battlefield"} if m["where"] == "battlefield" else {})}
        ],
    ),
    (
        "when a unit moves from here",
        re.compile(rf"when {_SIDE} moves from (?:here|my location)"),
        lambda m: [{"event": "move_from", "who": _unit(m), "where": "here"}],
    ),
]
TRIGGERS.extend(ADDED)

# "When you play me from face down": its own play from its Facedown Zone (811.1.d.2), a Play Effect (383.4.a)
MORE_OWN: list = [
    (
        "when you play me from face down",
        re.compile(r"when you play (?:me|this) from face down"),
        lambda m: [{"event": "play", "who": "self", "from_hidden": True}],
    )
]
ADDED += MORE_OWN
TRIGGERS.extend(MORE_OWN)

_PLAYED = r"when you play an? (?P<t>card|spell|unit|gear)"
MORE: list = [
    (
        "when you play a card from face down",
        re.compile(_PLAYED + r" from (?:face down|\[hidden\])"),
        lambda m: [_played(m, from_hidden=True)],
    ),
    (
        "when you play a card from anywhere other than your hand",  # its play's zone, noted as it began (419.4.a)
        re.compile(_PLAYED + r" from anywhere other than your hand"),
        lambda m: [_played(m, from_hand=False)],
    ),
    (
        "when you play a spell that costs N or more",
        re.compile(_PLAYED + r" that costs \[(?P<e>\d+) energy\] or more"),
        lambda m: [_played(m, min_energy=int(m["e"]))],
    ),
    (
        "when you play a spell that costs N or more",
        re.compile(_PLAYED + r" with power cost (?P<p>(?:\[any rune\])+) or more"),
        lambda m: [_played(m, min_power=m["p"].count("[any rune]"))],
    ),
]


def _played(m, **more) -> dict:
    """ "When you play a card ...": a card, never a token (185); a spell, a unit or a gear, of that type."""
    return {"event": "card_played", "who": "you", "card_type": m["t"], **more}


# "When you stun one or more enemy units": once for the units one effect stuns (423.1: one or more units)
MORE.append(
    (
        "when you stun one or more units",
        re.compile(r"when you \[?stun\]? one or more (?P<side>friendly |enemy )?units"),
        lambda m: [{"event": "stun_some", "who": _unit(m), "by": "you"}],
    )
)
# "When you recycle a rune": each rune its owner recycles (416.1.b, 416.1.c); "When one or more enemy units die": once
# for the units killed together (428.1), as "stun one or more" is once for the units one effect stuns
MORE += [
    (
        "when you recycle a rune",
        re.compile(r"when you recycle a rune"),
        lambda m: [{"event": "recycle_rune", "who": "you"}],
    ),
    (
        "when one or more units die",
        re.compile(r"when one or more (?P<side>friendly |enemy )?units die"),
        lambda m: [{"event": "die_some", "who": _unit(m)}],
    ),
]


@template("move: with it", r"i (?:may )?be moved with it")
def _moved_with_it(m, ctx):
    """ "When a friendly unit moves from my location, I may be moved with it": moved by this ability (446.1) to where
    that unit went, noted as it triggered (359.3.f.3); only after a move seen from where it left. Its "may" is the
    trigger's (`read_trigger`: optional, 383.3.a)."""
    if ctx.me != "this" or not ctx.when or any(e.get("event") != "move_from" for e in ctx.when):
        return None
    return [{"op": "move", "what": "this", "to": "trigger_destination"}]


# "When you spend a buff": a buff of a unit you control removed (702.2.b, 702.2.b.2), as a cost or an instruction
MORE.append(
    ("when you spend a buff", re.compile(r"when you spend a buff"), lambda m: [{"event": "spend_buff", "who": "you"}])
)
# "When you move an enemy unit": a unit's move (446.1) by your Standard Move or your spell or ability (the move's player)
MORE.append(
    (
        "when you move a unit",
        re.compile(rf"when you move {_SIDE}"),
        lambda m: [{"event": "move", "who": _unit(m), "by": "you"}],
    )
)
# "When you hide a card" (421.1: a player hides a card facedown at a battlefield they control)
MORE.append(("when you hide a card", re.compile(r"when you hide a card"), lambda m: [{"event": "hide", "who": "you"}]))
# "When I win a combat" / "When you win a combat" (466.3.a; the units there share the result, 466.3.c)
MORE += [
    ("when I win a combat", re.compile(r"when i win a combat"), lambda m: [{"event": "win_combat", "who": "self"}]),
    ("when you win a combat", re.compile(r"when you win a combat"), lambda m: [{"event": "win_combat", "who": "you"}]),
]
ADDED += MORE
TRIGGERS.extend(MORE)
