"""Passive abilities (363-366) of two families the other readers leave: restrictions ("I don't deal combat
damage", "I can't be chosen by enemy spells and abilities") and conditional passives
("While you have another unit here, I have +1 [Might]", "I have +2 [Might] while I'm attacking with another
unit", "... unless I'm in combat"; 364.3.a). The engine performs them in `scenarios/rules/restrictions.py`.

Registered in `readers` (stage "static"); each reader returns True when it read the paragraph, False when it is not of
its shape, and raises Unread when it is of its shape but a part of it is not understood.
"""

from __future__ import annotations

import re
from typing import Any

from scenarios import kernel
from scenarios.card_reader.abilities import Unread, i_have, read_static, read_trigger
from scenarios.card_reader.effects import _ref, template
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.paragraph import read_with_condition
from scenarios.card_reader.readers import NOTHING_AROUND, Around, paragraph_reader

_UNITS = (
    r"(?P<who>your other units|your units|other friendly units|friendly units|enemy units|other units|units)"
    r"(?P<here> here)?(?P<less> with less might than me)?"
)
_WHO = {
    "your other units": "other friendly unit",
    "your units": "friendly unit",
    "other friendly units": "other friendly unit",
    "friendly units": "friendly unit",
    "enemy units": "enemy unit",
    "other units": "other unit",
    "units": "unit",
}
# What a passive forbids (cards.PASSIVE_RESTRICTIONS): "don't" and "can't" statements (364.2, 054.1)
_FORBIDS = {
    "don't deal combat damage": "no_combat_damage",  # 465.2.a-b (as a stunned unit, 423.1.b)
    "can't be chosen by enemy spells and abilities": "unchoosable_by_enemy",  # 355.9.b
    "can't be moved by enemy spells and abilities": "unmovable_by_enemy",  # 054.1
}
_RESTRICTION = re.compile(rf"(?:(?P<me>i)|{_UNITS}) (?P<what>{'|'.join(_FORBIDS)})")
_PLAYERS = {"opponents": "opponent", "you": "you", "players": "player"}
_PLAYERS_FORBIDDEN = re.compile(
    r"(?P<who>opponents|you|players) (?:(?P<points>can't gain points)|(?P<base>can only play units to their base)|"
    r"only channel 1 rune at the start of their channel phase)"
)
# "Spells and abilities can't ready enemy units and gear": the objects a spell's or ability's Ready leaves exhausted
_NOT_READIED = re.compile(r"spells and abilities can't ready (?P<side>enemy|friendly) units and gear")


def _equipment(card: dict[str, Any]) -> bool:
    return "Equipment" in card.get("tags", [])


@paragraph_reader("static")
def _read_restriction(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "I don't deal combat damage", "Enemy units here with less Might than me don't deal combat damage": a
    passive of the objects named, putting the restriction on them while the card is on the board (365.1)."""
    found = _RESTRICTION.fullmatch(text)
    if not found:
        return False
    if _equipment(card) and found["less"]:  # an Equipment's "me": rules or effect text, unsaid
        raise Unread(text)
    # an Equipment's "I" is the equipped unit's, its effect text (136.2.c, with the examples of 136.2.d)
    me = "equipped unit" if _equipment(card) else "self"
    to: dict[str, Any] = {"who": me} if found["me"] else {"who": _WHO[found["who"]]}
    if found["here"]:
        to["where"] = "here"
    if found["less"]:
        to["less_might_than_me"] = True
    card.setdefault("passives", []).append({"to": to, "restrictions": [_FORBIDS[found["what"]]]})
    used.append("static: <I|units> can't/don't <restriction>")
    return True


# Words of a passive's subject that qualify the units it gives something to (an object filter's states), and the
# phrase `abilities` reads without them: "other buffed friendly units at my battlefield" -> "other friendly units
# here", buffed; "your token units" -> "your units", tokens; "your units that are [empowered]" -> empowered
_QUALIFIED = re.compile(
    r"(?P<other>other )?(?P<buffed>buffed )?(?P<side>friendly |your |enemy )?(?P<token>token )?units"
    r"(?P<empowered> that are \[empowered\])?(?P<mine> at my battlefield)?(?P<rest> have .+)"
)


@paragraph_reader("static")
def _read_qualified(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Other buffed friendly units at my battlefield have +2 [Might]", "Your token units have +1 [Might]": the
    passive of the plain phrase (`abilities`), over the units in those states (702.2.a buffed, 185 tokens, 828
    Empowered; "at my battlefield": where I am, if that is a battlefield)."""
    found = _QUALIFIED.fullmatch(text)
    if not found or not (found["buffed"] or found["token"] or found["empowered"] or found["mine"]):
        return False
    plain = f"{found['other'] or ''}{found['side'] or ''}units{' here' if found['mine'] else ''}{found['rest']}"
    if found["mine"] and " here" in found["rest"]:  # "at my battlefield ... here": two places
        raise Unread(text)
    had = len(card.get("passives", []))
    if not read_static(plain, card, used):
        raise Unread(text)
    added = card["passives"][had:]
    if len(added) != 1:
        raise Unread(text)
    states = {"buffed": found["buffed"], "token": found["token"], "empowered": found["empowered"]}
    added[0]["to"].update({state: True for state, said in states.items() if said})
    if found["mine"]:  # where I am, a battlefield: none while I am in my base
        added[0]["to"]["where"] = "my battlefield"
    used.append("static: <qualified units> have <X>")
    return True


@paragraph_reader("static")
def _read_hide_additional(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "You may hide an additional card here", a battlefield's: its Facedown Zone holds one more card (107.3.b.1)."""
    if text != "you may hide an additional card here" or card["type"] != "battlefield":
        return False
    card.setdefault("passives", []).append({"to": {"who": "self"}, "restrictions": ["hide_an_additional_card"]})
    used.append("static: you may hide an additional card here")
    return True


@paragraph_reader("static")
def _read_not_played_here(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Units can't be played here", a battlefield's: a passive of the battlefield itself (053.3: its "here")."""
    if text != "units can't be played here" or card["type"] != "battlefield":
        return False
    card.setdefault("passives", []).append({"to": {"who": "self"}, "restrictions": ["no_units_played_here"]})
    used.append("static: units can't be played here")
    return True


@paragraph_reader("static")
def _read_any_number_of_buffs(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "I can have any number of buffs", a unit's: a passive of the unit itself permitting it to be buffed
    multiple times, which ignores 426.1.b.1 (426.1.b.2)."""
    if text != "i can have any number of buffs" or card["type"] != "unit":
        return False
    card.setdefault("passives", []).append({"to": {"who": "self"}, "restrictions": ["any_number_of_buffs"]})
    used.append("static: I can have any number of buffs")
    return True


@paragraph_reader("static")
def _read_uncounterable(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "This can't be countered", a spell's: a statement of fact about the spell itself (364.2), the card's own
    restriction; a counter instruction that names it does nothing to it ("can't beats can", 054.1)."""
    if text != "this can't be countered" or card["type"] != "spell":
        return False
    card.setdefault("restrictions", []).append("uncounterable")
    used.append("static: this can't be countered")
    return True


@paragraph_reader("static")
def _read_use_my_abilities_only(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "Use my abilities only while I'm at a battlefield", after the card's activated abilities: the condition on
    using each of them (377.2.b; "only": under no other circumstances, 054.2), as "Use this ability only while I'm
    at a battlefield" is on one. Unread before them, or over an ability with a condition of its own."""
    if text != "use my abilities only while i'm at a battlefield":
        return False
    activated = card.get("activated", [])
    if not activated or any("condition" in ability for ability in activated):
        raise Unread(text)
    for ability in activated:
        ability["condition"] = "at a battlefield"
    used.append("static: use my abilities only while I'm at a battlefield")
    return True


_FIRST_TURNS = {"first": 1, "first or second": 2, "first, second, or third": 3, "first, second or third": 3}
_NOT_PLAYED_ON = re.compile(
    r"i can't be played on your (?P<turns>first(?:,? second)?(?:,? or (?:second|third))?) turns?"
)
_NO_SCORE_UNTIL = re.compile(r"players can't score here until their (?P<nth>second|third) turn")


@paragraph_reader("static")
def _read_not_played_on_first_turns(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "I can't be played on your first, second, or third turns": the card's own restriction on its play, on
    those turns of its player's ("can't beats can", 054.1); a turn of theirs is one they have begun (315)."""
    found = _NOT_PLAYED_ON.fullmatch(text)
    if not found or found["turns"] not in _FIRST_TURNS:
        return False
    card.setdefault("restrictions", []).append(f"not_played_on_your_first_{_FIRST_TURNS[found['turns']]}_turns")
    used.append("static: I can't be played on your first N turns")
    return True


@paragraph_reader("static")
def _read_if_not_already(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Friendly buffed units have [Deflect] if they didn't already": a passive giving the keyword only to the units
    without it otherwise, so never summed with another instance (809.2); buffed: a buff on it (702.2.a)."""
    found = re.fullmatch(r"friendly (?P<buffed>buffed )?units have \[(?P<kw>[a-z-]+)\] if they didn't already", text)
    keyword = engine_keyword(found["kw"]) if found else None
    if keyword is None or _equipment(card):
        return False
    to: dict[str, Any] = {"who": "friendly unit", **({"buffed": True} if found and found["buffed"] else {})}
    card.setdefault("passives", []).append({"to": to, "keywords": {keyword: 1}, "if_not_already": True})
    used.append("static: <units> have <keyword> if they didn't already")
    return True


@paragraph_reader("static")
def _read_only_to_conquered(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Play me only to a battlefield you conquered this turn. (You can't play me anywhere else.)", a unit's: its
    own restriction, played nowhere else, its base included (054.2); no permission to play it where 355.2.a
    wouldn't."""
    if text != "play me only to a battlefield you conquered this turn" or card["type"] != "unit":
        return False
    card.setdefault("restrictions", []).append("only_to_conquered_battlefield")
    used.append("static: play me only to a battlefield you conquered this turn")
    return True


@paragraph_reader("static")
def _read_victory_score(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Increase the points needed to win the game by 1", a battlefield's: a passive adding to the Victory Score
    while the battlefield is on the board, as card effects may (194.3.a)."""
    found = re.fullmatch(r"increase the points needed to win the game by (?P<n>\d+)", text)
    if not found or card["type"] != "battlefield":
        return False
    card.setdefault("passives", []).append({"to": {"who": "self"}, "victory_score": int(found["n"])})
    used.append("static: increase the points needed to win")
    return True


@paragraph_reader("static")
def _read_no_score_until(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Players can't score here until their third turn", a battlefield's: a passive on every player at the
    battlefield itself (053.3: its "here"), forbidding them to score it (469, 054.1) before their Nth turn."""
    found = _NO_SCORE_UNTIL.fullmatch(text)
    if not found or card["type"] != "battlefield":
        return False
    n = {"second": 2, "third": 3}[found["nth"]]
    passive = {"to": {"who": "player", "where": "here"}, "restrictions": [f"no_score_here_before_turn_{n}"]}
    card.setdefault("passives", []).append(passive)
    used.append("static: players can't score here until their Nth turn")
    return True


@paragraph_reader("static")
def _read_ignore_tank(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "You ignore [Tank] while assigning combat damage here": a passive of its controller's, at the card's place,
    freeing the assignment from Tank's order (815.1.b)."""
    if text != "you ignore [tank] while assigning combat damage here" or _equipment(card):
        return False
    card.setdefault("passives", []).append({"to": {"who": "you", "where": "here"}, "restrictions": ["ignore_tank"]})
    used.append("static: you ignore [Tank] here")
    return True


@template("prevent this turn", r"prevent all spell and ability damage this turn")
def _prevent_spell_and_ability_damage(m, ctx):
    """A delayed replacement effect (390.3) of every damage a spell or ability (417.6.b) would deal this turn, by
    nothing (437.1): not combat damage (465.2.d)."""
    instead: list[dict[str, Any]] = []
    return [
        {
            "op": "replace_next",
            "would": "takes_damage",
            "to": {"who": "unit"},
            "instead": instead,
            "once": False,
            "source": "spell or ability",
        }
    ]


@paragraph_reader("static")
def _read_players_restriction(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "Opponents can't gain points", "Players only channel 1 rune at the start of their Channel Phase": a passive
    of the players named (their point of view is the card's, 190.6.d
    for a battlefield), read only behind a condition or on its own."""
    found = _PLAYERS_FORBIDDEN.fullmatch(text)
    if not found:
        return False
    word = "no_points" if found["points"] else "units_only_to_base" if found["base"] else "channel_one_rune"
    card.setdefault("passives", []).append({"to": {"who": _PLAYERS[found["who"]]}, "restrictions": [word]})
    used.append("static: <players> can't gain points / can only play units to base / only channel 1 rune")
    return True


@paragraph_reader("static")
def _read_not_readied(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Spells and abilities can't ready enemy units and gear": a passive on those units and on that gear, whose
    Ready by a spell or ability (415.3) is not done ("can't beats can", 054.1); not the Awaken Phase's (315.1.b)."""
    found = _NOT_READIED.fullmatch(text)
    if not found:
        return False
    for noun in ("unit", "gear"):
        to = {"who": f"{found['side']} {noun}"}
        card.setdefault("passives", []).append({"to": to, "restrictions": ["no_ready_by_effects"]})
    used.append("static: spells and abilities can't ready <side> units and gear")
    return True


_AGAIN = re.compile(
    r"your (?:\[(?P<kw>deathknell)\]|(?P<e>conquer|hold)) effects(?: for (?P<ing>conquering|holding) here)? "
    r"trigger an additional time"
)


@paragraph_reader("static")
def _read_additional_time(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Your [Deathknell] effects trigger an additional time" (808.1.c.1), "Your conquer effects for conquering
    here trigger an additional time" (383.4.c.3): a passive over the abilities of the cards its controller
    controls (`rules/retrigger.py`)."""
    found = _AGAIN.fullmatch(text)
    if not found:
        return False
    if found["e"] and found["ing"] != {"conquer": "conquering", "hold": "holding"}[found["e"]]:
        raise Unread(text)  # "conquer effects for holding here": no such kind
    if found["e"] and not found["ing"]:
        raise Unread(text)  # everywhere: not a kind the engine names yet
    kind = "deathknell" if found["kw"] else f"{found['e']} here"
    card.setdefault("passives", []).append({"to": {"who": "friendly card"}, "retriggers": [kind]})
    used.append("static: your <kind> effects trigger an additional time")
    return True


_WITH_KEYWORD = re.compile(r"(?P<units>.*units(?: here)?) with \[(?P<kw>[a-z-]+)\] (?P<rest>have .+)")


@paragraph_reader("static")
def _read_with_keyword(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "Units here with [Temporary] have [Shield]": the passive of "units here have [Shield]" (`abilities`), over
    the units that have the keyword now."""
    found = _WITH_KEYWORD.fullmatch(text)
    if not found:
        return False
    keyword = engine_keyword(found["kw"])
    had = len(card.get("passives", []))
    if keyword is None or not read_static(f"{found['units']} {found['rest']}", card, used):
        raise Unread(text)
    added = card["passives"][had:]
    if len(added) != 1 or keyword in added[0].get("keywords", {}) or "keyword" in added[0]["to"]:
        raise Unread(text)  # a keyword given to the units with it would depend on itself
    added[0]["to"]["keyword"] = keyword
    used.append("static: <units> with [keyword] have <X>")
    return True


_NO_DAMAGE = re.compile(
    r"i don't take damage|prevent all damage that (?P<enemy>enemy spells and abilities )?would (?:deal|be dealt) to me"
)


@paragraph_reader("static")
def _read_no_damage(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "I don't take damage", "Prevent all damage that enemy spells and abilities would deal to me": a replacement
    effect (369.1) of its damage by nothing, all of it prevented (437.1, 437.3.c)."""
    found = _NO_DAMAGE.fullmatch(text)
    if not found:
        return False
    if _equipment(card):
        raise Unread(text)
    replacement: dict[str, Any] = {"would": "takes_damage", "to": {"who": "self"}, "instead": []}
    if found["enemy"]:
        replacement["source"] = "enemy spell or ability"
    card.setdefault("replacements", []).append(replacement)
    used.append("static: I don't take damage")
    return True


def _read_i_have(text: str, card: dict[str, Any], used: list[str]) -> bool:
    """ "I have +4 [Might]", "I have [Shield 3]": a passive of the card itself (365.1), or of an Equipment's equipped
    unit; with no condition it is always on, so this reader is met only inside a condition (`_read_conditional`)."""
    passive = i_have(text)
    if passive is None:
        return False
    if _equipment(card):  # an Equipment's "I" is the equipped unit's, its effect text (136.2.c, 136.2.d's examples)
        passive["to"] = {"who": "equipped unit"}
    card.setdefault("passives", []).append(passive)
    used.append("static: I have <X>")
    return True


# The conditions a passive may depend on (364.3.a), as printed -> the condition word (scenarios/rules)
_CONDITIONS: list[tuple[re.Pattern, Any]] = [
    (re.compile(r"i'm at a battlefield"), "at a battlefield"),
    (re.compile(r"you have another unit here"), "another friendly unit here"),
    (re.compile(r"i'm attacking with another unit"), "attacking with another unit"),
    (
        re.compile(r"i'm at a battlefield with exactly one other unit you control"),
        "exactly one other friendly unit at a battlefield",
    ),
    (re.compile(r"i'm in combat"), "in combat"),
    (re.compile(r"i have moved twice this turn"), "moved twice this turn"),
    (re.compile(r"there's a stunned enemy unit here"), "stunned enemy unit here"),
    (re.compile(r"you (?:have (?P<a>\d+)\+|control (?P<b>\d+) or more) runes"), "runes"),
    # what its controller has paid this turn (357.1): Energy to play one spell, Power for anything
    (
        re.compile(r"you've spent \[(?P<n>\d+) energy\] or more to play a spell this turn"),
        lambda found: f"spent {found['n']} energy to play a spell this turn",
    ),
    (
        re.compile(r"you've spent at least (?P<icons>(?:\[any rune\])+) this turn"),
        lambda found: f"spent {found['icons'].count('[')} power this turn",
    ),
]
_BEFORE = re.compile(r"(?:while|if) (?P<cond>[^,]+), (?P<rest>.+)")
_AFTER = re.compile(r"(?P<rest>.+?) (?P<how>while|unless) (?P<cond>.+)")


def _condition(printed: str, negated: bool) -> str:
    for pattern, word in _CONDITIONS:
        found = pattern.fullmatch(printed)
        if found:
            if word == "runes":
                word = f"{found['a'] or found['b']} or more runes"
            elif callable(word):
                word = word(found)
            word = f"not {word}" if negated else word
            kernel.load_rules()
            if word not in kernel.CONDITIONS:
                raise Unread(printed)
            return word
    raise Unread(printed)


@paragraph_reader("static")
def _read_conditional(text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND) -> bool:
    """ "While <condition>, <passive>", "<passive> while <condition>": the passive is active exactly while the
    condition holds (364.3.a); "<passive> unless <condition>": while it does not. Only passives and replacement
    effects (368.1) may be conditional this way: anything else the rest reads into is refused."""
    found = _BEFORE.fullmatch(text)
    negated = False
    if found is None:
        found = _AFTER.fullmatch(text)
        if found is None:
            return False
        negated = found["how"] == "unless"
    if not any(pattern.fullmatch(found["cond"]) for pattern, _ in _CONDITIONS):
        return False
    word = _condition(found["cond"], negated)
    if not read_with_condition(found["rest"], card, used, word, (_read_i_have,)):
        raise Unread(found["rest"])
    used.append("static: while/unless <condition>, <passive>")
    return True


@template("grant for good", r"give (?P<obj>.+?) \[(?P<kw>[a-z-]+)(?: (?P<n>\d+))?\]")
def _grant_for_good(m, ctx):
    """ "Give a gear [Temporary]": a keyword given with no duration lasts while the object stays on the board (a
    new object after it leaves, 359.3.e.4), as any keyword an effect gives (801.3.a)."""
    keyword, to = engine_keyword(m["kw"]), _ref(m["obj"], ctx, None)
    if keyword is None or to is None:
        return None
    ins: dict[str, Any] = {"op": "grant", "keyword": keyword, "to": to, "until": "permanent"}
    if m["n"]:
        ins["value"] = int(m["n"])
    return [ins]


@template("can't this turn", r"its controller can't play (?P<what>cards|spells) this turn")
def _its_controller_cant_play(m, ctx):
    """ "Counter a spell. Its controller can't play spells this turn": the player controlling the object chosen
    before (the countered spell's, who played it)."""
    if ctx.it not in ctx.targets:
        return None
    word = {"cards": "no_play_cards", "spells": "no_play_spells"}[m["what"]]
    return [{"op": "restrict", "players": "controller", "what": ctx.it, "restriction": word}]


@template("can't this turn", r"they can't move (?P<obj>it|them) this turn")
def _they_cant_move(m, ctx):
    """ "When an opponent plays a unit ..., [Stun] it. They can't move it this turn": "they", the player who played
    the unit the event was about, controls it (a unit played is its player's, 184.1); until the turn ends they move
    it neither by a Standard Move nor by their spells and abilities (054.1). Said of another object, not read."""
    what = _ref(m["obj"], ctx)
    if what != "trigger_unit":
        return None
    return [{"op": "restrict", "players": "controller", "what": what, "restriction": "no_move_it"}]


@template("can't this turn", r"(?P<obj>.+?) can't be chosen by enemy spells and abilities this turn")
def _unchoosable_this_turn(m, ctx):
    """ "It can't be chosen by enemy spells and abilities this turn" (355.9.b) until the turn ends."""
    what = _ref(m["obj"], ctx)
    return None if what is None else [{"op": "restrict", "what": what, "restriction": "unchoosable_by_enemy"}]


@paragraph_reader("static")
def _read_while_you_control_here(
    text: str, card: dict[str, Any], used: list[str], around: Around = NOTHING_AROUND
) -> bool:
    """ "While you control this battlefield, when you play a spell, ...": a battlefield's triggered ability that
    triggers only while its controller controls it (the condition word of rules/discounts.py, 188); "you" is that
    player (190.6.d)."""
    found = re.fullmatch(r"while you control this battlefield, (?P<rest>(?:when|at) .+)", text)
    if not found or card["type"] != "battlefield":
        return False
    if not read_trigger(found["rest"], card, used, condition="you control this battlefield"):
        raise Unread(found["rest"])
    used.append("static: while you control this battlefield, <trigger>")
    return True
