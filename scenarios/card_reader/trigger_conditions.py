"""More trigger conditions (`abilities.TRIGGERS`, added to) and paragraphs holding several triggered abilities.

- "When a buffed friendly unit dies": a unit's death triggers while it is still on the board (383.2.c.2), with
  the buffs it had (702.2.a), before it leaves and loses them (705).
- "The first time a friendly unit dies each turn": the first death this turn of a unit its controller controlled
  (the `die` event's count, `scenarios/rules/damage.py`), not once a turn: a unit that died before this source
  came to the board was the first (383.1).
- "When another non-Recruit unit you control dies": a friendly unit without the tag (133.8); the source dying
  with it in the same action does not see it (383.2.c.2, with this very card as its example).
- "When you use an activated ability of a gear": the `activate` event, once its cost is paid (377.3), of the
  player who used it and the object whose ability it was, even one its cost killed (Gold, 187.5).
- "When you play a token unit": a unit token played (185.2.a), which enters the board as any unit played does.
- "When you play me or I attack": both events of its own.
- "When you conquer here with one or more [Mighty] units": the conquer event's units (469.1), one of them Mighty
  (708) as it happens.
- "When you defend at a battlefield, you may move me there": the player's defend event of a combat (464.2.c.1)
  at that battlefield, where "there" is, noted as it triggered (359.3.f.3).
- "When I attack or defend one on one": its attack or defend event while it and the one enemy unit there are each
  alone (740.2.b), checked as it gains the designation (383.4.e.2.b).
- "When a combat that I was in ends": the `combat_end` event of each unit still on the board that was an attacker
  or a defender in that combat, after control is established (466.5, then 466.7.b).
- "When I conquer a battlefield that was uncontrolled": a conquer event whose battlefield had no controller before
  it (190.4.c), noted as control is established (469.1).
- "When you or an ally hold": allies are teammates (489.2), in a mode the engine does not play: "when you hold".
- "When you play me or when I score": its play, and its player's Conquer or Hold with it there (469, 383.4.c-d).
- "When you banish a card you own": the `banish` event of the player who banished it (427.1), the card theirs.
- "When combat starts here": the `combat_start` event as a combat opens at this battlefield (464.2.b).
- "When a player plays a unit here": any unit's play at this battlefield, "they" its player (`actor`).
- "When a unit here is returned to a player's hand": its `leave_board` event for a hand; "that player" its owner.
- "When an opponent moves to a battlefield other than mine": one or more enemy units moved there at once.
- "... or the first time you play a non-token gear each turn": the first card of that type its player played.
- "When this leaves the board": the `leave_board` event of the object itself, whatever zone it goes to
  (383.2.c.2: its own departure is seen).
- "When an enemy unit dies while I'm at a battlefield": the trigger's condition, its source at a battlefield as
  the event happens (383.2.c).
- "When I win a combat, <X>. When I attack or defend, <Y>.": one paragraph printing two triggered abilities
  (375), each read as its own.
"""

from __future__ import annotations

import re
from typing import Any

from scenarios.card_reader.abilities import TRIGGERS, Unread, _trigger_head, read_trigger
from scenarios.card_reader.effects import template
from scenarios.card_reader.phrases import UNIT_TAGS
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader
from scenarios.card_reader.text import sentences
from scenarios.rules.board_conditions import TAG_SETS, tags_word
from scenarios.token_kinds import UNIT_TOKENS

# the tags a "non-<tag>" names: of the tokens (187) and the unit tags the reader knows
_TAGS = {t.lower(): t for _, tags, _, _ in UNIT_TOKENS.values() for t in tags} | {k: v for k, v in UNIT_TAGS.items()}


def _dies(m) -> dict[str, Any]:
    """ "When another non-Recruit unit you control dies": a unit of yours (friendly) without the tag (133.8)."""
    event: dict[str, Any] = {"event": "die", "who": ("other " if m["o"] == "another" else "") + "friendly unit"}
    if m["tag"]:
        if m["tag"] not in _TAGS:
            raise Unread(f"non-{m['tag']}")
        event["not_tag"] = _TAGS[m["tag"]]
    return event


# "When this is played, discarded, or killed": its own play (383.4.a), its own discard, seen from the trash where
# it goes (422.1, 383.2.c.1), and its own death (428.1; seen as it leaves, 383.2.c.2)
_EVENTS: dict[str, dict[str, Any]] = {
    "played": {"event": "play", "who": "self"},
    "discarded": {"event": "discard", "who": "self", "by": "you", "active_in": "trash"},
    "killed": {"event": "die", "who": "self"},
}
_VERB = "(?:" + "|".join(_EVENTS) + ")"
_LISTED = re.compile(rf"when (?:this|i) (?:is|am) (?P<list>{_VERB}(?:, {_VERB})*,? or {_VERB}), (?P<body>.+)")


@paragraph_reader("first")
def read_played_discarded_or_killed(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "When this is played, discarded, or killed, draw 1": one triggered ability of three events (375), its
    commas those of the list."""
    spell = around.spell
    found = _LISTED.fullmatch(text) if spell is None else None
    if found is None:
        return False
    verbs = re.split(r",? or |, ", found["list"])
    if not read_trigger(f"when this is {' or '.join(verbs)}, {found['body']}", card, used):
        raise Unread(text)
    return True


def _kills(m) -> dict[str, Any]:
    """ "When you kill a [stunned] [enemy] unit [with a spell]": a kill you are responsible for (411.5.a), by a
    kill instruction (428.5.b), damage a spell or ability dealt just before a Cleanup (428.5.c) or combat damage
    (428.5.c.2); "with a spell": attributed to a spell (or to an ability it made, 428.5.d). The unit is seen as it
    dies, stunned or not."""
    event: dict[str, Any] = {"event": "kill", "who": f"{(m['s'] or '').strip()} unit".strip(), "by": "you"}
    if m["st"]:
        event["stunned"] = True
    if m["spell"]:
        event["via"] = "spell"
    return event


_SCORES = [{"event": "conquer", "who": "self"}, {"event": "hold", "who": "self"}]

ADDED: list = [
    (
        "when you kill a stunned enemy unit",  # a kill attributed to you (428.5: `kill` events), as the unit dies
        re.compile(r"when you kill an? (?P<st>stunned )?(?P<s>friendly |enemy )?unit(?P<spell> with a spell)?"),
        lambda m: [_kills(m)],
    ),
    (
        "when a buffed friendly unit dies",
        re.compile(r"when an? buffed (?P<s>friendly|enemy) unit dies"),
        lambda m: [{"event": "die", "who": f"{m['s']} unit", "buffed": True}],
    ),
    (
        "the first time a friendly unit dies each turn",
        re.compile(r"the first time an? friendly unit dies each turn"),
        lambda m: [{"event": "die", "who": "friendly unit", "nth": 1}],
    ),
    (
        "when another non-<tag> unit you control dies",
        re.compile(r"when (?P<o>another|an?) (?:non-(?P<tag>[a-z]+) )?unit you control dies"),
        lambda m: [_dies(m)],
    ),
    (
        "when you use an activated ability of a gear",
        re.compile(r"when you use an activated ability of an? (?P<t>gear|unit)"),
        lambda m: [{"event": "activate", "who": "you", "card_type": m["t"]}],
    ),
    (
        "when you play a token unit",
        re.compile(r"when you play an? token unit"),
        lambda m: [{"event": "play", "who": "friendly unit", "by": "you", "token": True}],
    ),
    (
        "when you play me or I <event>",
        re.compile(r"when you play me or i (?P<e>attack|defend|conquer|hold|move)"),
        lambda m: [{"event": "play", "who": "self"}, {"event": m["e"], "who": "self"}],
    ),
    (
        "when you conquer here with one or more [mighty] units",
        re.compile(r"when you (?P<e>conquer|hold) here with one or more \[mighty\] units"),
        lambda m: [{"event": m["e"], "who": "friendly unit", "mighty": True, "where": "here"}],
    ),
    (
        "when you attack or defend at a battlefield",
        re.compile(r"when you (?P<e>attack|defend) at a battlefield"),
        lambda m: [{"event": m["e"], "who": "you", "where": "battlefield"}],
    ),
    (
        "when you stun an enemy unit at a battlefield",
        re.compile(r"when you \[?stun\]? an? (?P<s>friendly |enemy )?unit at a battlefield"),
        lambda m: [
            {"event": "stun", "who": f"{(m['s'] or '').strip()} unit".strip(), "by": "you", "where": "battlefield"}
        ],
    ),
    (
        "when I attack or defend one on one",  # 740.2.b: it and the enemy unit there both alone, as it happens
        re.compile(r"when i attack or defend one on one"),
        lambda m: [{"event": e, "who": "self", "one_on_one": True} for e in ("attack", "defend")],
    ),
    (
        "when a combat that I was in ends",  # 466.7.b: at the end of the combat, a unit that was in it
        re.compile(r"when a combat that i was in ends"),
        lambda m: [{"event": "combat_end", "who": "self"}],
    ),
    (
        "when I conquer a battlefield that was uncontrolled",  # no controller before (190.4.c), then a Conquer (469.1)
        re.compile(r"when i conquer a battlefield that was uncontrolled"),
        lambda m: [{"event": "conquer", "who": "self", "uncontrolled": True}],
    ),
    (
        "when you discard me",  # in the trash as it is discarded (422.1), its ability active there (383.2.c.1)
        re.compile(r"when you discard (?:me|this)"),
        lambda m: [{"event": "discard", "who": "self", "by": "you", "active_in": "trash"}],
    ),
    (
        "when this is played, discarded, or killed",  # each its own event (`read_played_discarded_or_killed`)
        re.compile(rf"when this is (?P<all>{_VERB}(?: or {_VERB})+)"),
        lambda m: [dict(_EVENTS[e]) for e in m["all"].split(" or ")],
    ),
    (
        # "When you or an ally hold": allies are teammates, who exist only in modes with teams (489.2, 489.8); the
        # engine plays no such mode (the same reading as "you or allies control", `amounts`), so it is "you"
        "when you or an ally hold",
        re.compile(r"when you or an ally (?P<e>conquer|hold)"),
        lambda m: [{"event": m["e"], "who": "you"}],
    ),
    (
        # "When I score": its player scores (469) by Conquer or Hold with it there (383.4.c.2.a, 383.4.d.2.a), the
        # same two events as "when an opponent scores" (`players`)
        "when you play me or when I score",
        re.compile(r"when (?P<play>you play me or when )?i score"),
        lambda m: [*([{"event": "play", "who": "self"}] if m["play"] else []), *_SCORES],
    ),
    (
        # "When you banish a card you own": a card put into Banishment (427.1) by you, an effect's or a cost's, or a
        # spell with Flow as it leaves the Chain (829.1.b); your own card (127.1), never a token (185)
        "when you banish a card you own",
        re.compile(r"when you banish a card you own"),
        lambda m: [{"event": "banish", "who": "you", "own_card": True}],
    ),
    (
        # "When combat starts here": start of combat effects (464.2.b), once a combat at this battlefield
        "when combat starts here",
        re.compile(r"when (?:a )?combat (?:starts|begins) here"),
        lambda m: [{"event": "combat_start", "who": "player", "where": "here"}],
    ),
    (
        # "When a player plays a unit here": a unit played (383.4.a) to this battlefield by any player, who is "they"
        "when a player plays a unit here",
        re.compile(r"when a player plays a unit here"),
        lambda m: [{"event": "play", "who": "unit", "where": "here", "actor": True}],
    ),
    (
        # "When a unit here is returned to a player's hand": a unit here leaving the board for a hand (its owner's)
        "when a unit here is returned to a player's hand",
        re.compile(r"when a unit here is returned to a player's hand"),
        lambda m: [{"event": "leave_board", "who": "unit", "where": "here", "to_zone": "hand"}],
    ),
    (
        # "When an opponent moves to a battlefield other than mine": "whenever one or more enemy units move to a
        # battlefield" (Q&A rulings, Volibear, Imposing), whoever moves them, once for the units moved together
        "when an opponent moves to a battlefield other than mine",
        re.compile(r"when an opponent moves to a battlefield other than mine"),
        lambda m: [{"event": "move_some", "who": "enemy unit", "where": "other battlefield"}],
    ),
    (
        # "... or the first time you play a non-token gear each turn": the first card of that type played this turn
        # (419.4.a), however many others were played; declined, it has passed all the same
        "when you play me or the first time you play a non-token <type> each turn",
        re.compile(r"when you play me or the first time you play a non-token (?P<t>gear|unit|spell) each turn"),
        lambda m: [
            {"event": "play", "who": "self"},
            {"event": "card_played", "who": "you", "card_type": m["t"], "nth_of_type": 1},
        ],
    ),
    (
        "when this leaves the board",
        re.compile(r"when (?:this|i) leaves? the board"),
        lambda m: [{"event": "leave_board", "who": "self"}],
    ),
]
TRIGGERS.extend(ADDED)


@template("move: there", r"move me (?:there|to that battlefield)")
def _move_me_there(m, ctx):
    """ "When you defend at a battlefield, you may move me there", "When you [Stun] an enemy unit at a battlefield,
    you may move me to that battlefield": to the battlefield of the trigger's event, noted as it triggered
    (359.3.f.3); only when every event of the trigger is at a battlefield."""
    if ctx.me != "this" or not ctx.when or any(e.get("where") != "battlefield" for e in ctx.when):
        return None
    return [{"op": "move", "what": "this", "to": "trigger_location"}]


def _starts_a_trigger(sentence: str) -> bool:
    """Does the sentence open with a trigger condition the reader knows (not a spell's delayed "this turn")?"""
    head, comma, _ = sentence.partition(", ")
    return bool(comma) and _trigger_head(head) is not None


@paragraph_reader("first")
def read_several_triggers(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """A paragraph of a permanent with two or more triggered abilities, each sentence opening with its own known
    condition beginning a new one (375: each is its own ability); the sentences between belong to the one
    before. False when the paragraph holds one trigger only."""
    spell = around.spell
    if spell is not None:
        return False
    parts: list[list[str]] = []
    for sentence in sentences(text):
        if _starts_a_trigger(sentence):
            parts.append([sentence])
        elif parts:
            parts[-1].append(sentence)
        else:
            return False
    if len(parts) < 2:
        return False
    for part in parts:
        ability = " ".join(part)
        if not read_trigger(ability, card, used):
            raise Unread(ability)
    used.append("trigger: several in one paragraph")
    return True


# a trigger condition's last words that say when it holds, and the condition word they are
_WHILE = {"while i'm at a battlefield": "at a battlefield", "during a showdown": "during a showdown"}
_WHILE["on your turn"] = "your turn"  # its controller the Turn Player (304)
_WHILE["in combat"] = "in combat"  # "when I die in combat": an attacker or defender where combat is (740.2.c)
_WHILE_AT = re.compile(
    r"(?P<once>once each turn, )?(?P<head>when .+?) (?P<while>" + "|".join(_WHILE) + r"), (?P<body>.+)"
)


_ALL_TAGS = re.compile(r"(?P<head>when .+?) while your units have all (?P<n>\d+) tags, (?P<body>.+)")


def _tags_said(card: dict[str, Any]) -> list[list[str]]:
    """The tag lists the card's text has said so far ("for each of the following tags among your units — ...")."""
    found: list[list[str]] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("tags"), list) and "tags_among" in value and value["tags"] not in found:
                found.append(value["tags"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(card)
    return found


def _while_word(text: str, card: dict[str, Any]) -> tuple[re.Match, str] | None:
    """The trigger's "while ..." and its condition word; "while your units have all 4 tags": of the one list of
    4 tags the card said before (`board_conditions.TAG_SETS`, 133.8)."""
    found = _WHILE_AT.fullmatch(text)
    if found is not None:
        return found, _WHILE[found["while"]]
    found = _ALL_TAGS.fullmatch(text)
    said = _tags_said(card) if found else []
    if found is None or len(said) != 1 or len(said[0]) != int(found["n"]) or tuple(said[0]) not in TAG_SETS:
        return None
    return found, tags_word(said[0])


@paragraph_reader("first")
def read_while_at_a_battlefield(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "Once each turn, when an enemy unit dies while I'm at a battlefield, ...", "When you play a unit during a
    showdown, ...", "When I attack while your units have all 4 tags, ...": a trigger condition that holds only
    while its source is at a battlefield, while a showdown is under way, or while its player's units have the tags
    the card listed (383.2.c: evaluated as the event happens), the condition word on the trigger."""
    spell = around.spell
    reading = _while_word(text, card) if spell is None else None
    if reading is None:
        return False
    found, word = reading
    once = found.groupdict().get("once") or ""
    if not read_trigger(f"{once}{found['head']}, {found['body']}", card, used, word):
        raise Unread(text)
    used.append(f"trigger: {found.groupdict().get('while') or 'while your units have all N tags'}")
    return True
