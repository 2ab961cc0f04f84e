"""The card-text reader: a card's printed text (errata applied) -> the declarative definition
`scenarios/cards.py` accepts, or a refusal naming the words it could not read.

Nothing is half-read: a card with any sentence not understood is `unread` and offered to no one. Reminder text
(in parentheses) is dropped only from a paragraph read in full that opens with, or holds, a bracketed keyword
the reader understood: it restates that keyword. The grammar is in `effects.TEMPLATES` (instructions),
`abilities.TRIGGERS` (trigger conditions), the general readers of `abilities` (activated abilities, passives,
Legion, Level, Deathknell), `keywords` (keyword lines, Equip, Repeat) and, in one registry, the paragraph readers
each family registers (`readers.READERS`: `statics`' passives, `players`' per-player paragraphs, `costs`'
additional costs and discounts, ...; one signature, tried in one order);
`text.template_of` is the template a sentence follows, which `benchmarks/card_templates.py` counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

# each registers its templates: amounts, additional costs and discounts, moves, the main deck, trash and hand,
# players, statics; entering the board, trigger conditions (two modules), "instead"; one instruction on several
# objects, a condition with what happens otherwise; modes, "X or Y" and "if you do"; Empower, XP and Equipment;
# reflexive triggers ("then do this:")
from scenarios.card_reader import (  # noqa: F401
    amounts,
    costs,
    damage,
    deck,
    entering,
    instead,
    modal,
    movement,
    otherwise,
    players,
    plays,
    powers,
    reflexive,
    several,
    statics,
    trigger_conditions,
    triggers,
)
from scenarios.card_reader.abilities import Unread
from scenarios.card_reader.keywords import engine_keyword
from scenarios.card_reader.paragraph import read_paragraph
from scenarios.card_reader.phrases import DOMAIN_WORDS, Context
from scenarios.card_reader.text import normalise, paragraphs

CARD_TYPES = {"unit", "spell", "gear", "legend", "battlefield"}


@dataclass(frozen=True)
class CardText:
    """What the database holds of a card: its name, type, printed numbers and text in force."""

    name: str
    card_type: str
    text: str
    energy: int | None = None
    power: int | None = None
    might: int | None = None
    domains: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    might_bonus: int | None = None


@dataclass
class Reading:
    status: str  # "read" or "unread"
    definition: dict[str, Any] | None
    unread: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)


def _frame(card: CardText) -> dict[str, Any]:
    kind = card.card_type.lower()
    frame: dict[str, Any] = {"name": card.name, "real": card.name, "type": kind, "text": card.text}
    domains = [d for d in card.domains if d.lower() in DOMAIN_WORDS]
    if domains:
        frame["domains"] = domains
    if card.tags:
        frame["tags"] = list(card.tags)
    if card.might is not None and kind == "unit":
        frame["might"] = card.might
    if card.energy:
        frame["energy"] = card.energy
    if card.power:
        frame["power"] = card.power
    if card.might_bonus:
        frame["might_bonus"] = card.might_bonus
    return frame


def read_card(card: CardText) -> Reading:
    """Read `card`'s text; a definition checked by `scenarios.cards` (its vocabulary, its model) or the
    phrases that could not be read."""
    from scenarios.cards import Card, check_vocabulary

    kind = card.card_type.lower()
    if kind not in CARD_TYPES:
        return Reading("unread", None, [f"a {kind} card (tokens and runes are not read)"])
    definition = _frame(card)
    unread: list[str] = []
    used: list[str] = []
    spell = Context(kind) if kind == "spell" else None
    for paragraph in paragraphs(card.text):
        before = {key: len(definition.get(key, [])) for key in ("triggers", "activated", "passives")}
        try:
            read_paragraph(normalise(paragraph.text), definition, spell, used)
            _label(definition, before, f"{card.name}: {paragraph.text}")
        except Unread as refused:
            unread.append(str(refused))
            continue
        reminders = [r for r in paragraph.reminders if not _restates_keyword(paragraph.text, r)]
        if "Equipment" in card.tags and _unattached_only(definition, before["activated"], reminders):
            used.append("use only if unattached")
        if "Equipment" in card.tags and _ATTACHED in reminders:
            reminders.remove(_ATTACHED)
            _effect_text(definition, before["passives"])
        unread.extend(f"({r})" for r in reminders)
    if spell is not None and spell.targets:
        definition["targets"] = spell.targets
    if "Equipment" in card.tags:
        unread += _equipment(definition)
    if unread:
        return Reading("unread", None, unread, used)
    try:
        check_vocabulary(Card.model_validate(definition))
    except ValueError as error:
        return Reading("unread", None, [f"not a definition the engine accepts: {error}"], used)
    return Reading("read", definition, [], used)


# an Equipment's own keywords (Temporary: "if this is unattached, kill it", inactive while attached, 135.4);
# any other it prints it gives the equipped unit (136.2.c)
_GEAR_KEYWORDS = {"Equip", "Quick-Draw", "Hidden", "Reaction", "Action", "Accelerate", "Temporary"}


def _equipment(definition: dict[str, Any]) -> list[str]:
    """An Equipment's text other than its Equip and its own keywords is what it gives the equipped unit (its
    keywords: a passive to the equipped unit; "When I ..." a trigger of the equipped unit, read by
    `abilities.read_trigger`; 136.2.c). An activated ability reminded "(Use only if unattached.)" is its own rules
    text (`_unattached_only`). Its other abilities are refused: which box of the card (rules text,
    inactive while attached, or effect text) holds them is not in the text the reader gets."""
    given = {k: v for k, v in definition.get("keywords", {}).items() if k not in _GEAR_KEYWORDS}
    if given:
        definition["keywords"] = {k: v for k, v in definition["keywords"].items() if k not in given}
        definition.setdefault("passives", []).append({"to": {"who": "equipped unit"}, "keywords": given})
    effect_text = [t for t in definition.get("triggers", []) if t["when"]["who"] == "equipped unit"]
    # "When you play this": rules text, as Quick-Draw's is (819.1.d): a card played enters the board unattached
    # (only an effect attaches it, 434.2.a), so effect text, inactive while unattached (136.2.b), never could
    played = [t for t in definition.get("triggers", []) if t["when"]["event"] == "play" and t["when"]["who"] == "self"]
    refused = [
        a["label"]
        for a in definition.get("triggers", []) + definition.get("activated", [])
        if not a.get("equip") and not a.get("only_unattached") and not any(a is t for t in effect_text + played)
    ]
    refused += [
        f"{definition['name']}: a passive of {p['to']['who']}s"
        for p in definition.get("passives", [])
        if p["to"]["who"] != "equipped unit" and not p.get("effect_text")
    ]
    return [f"{label} (an Equipment's ability for the equipped unit)" for label in refused]


# "Your spells and abilities deal 3 Bonus Damage (while this is attached)": the reminder that says which box of an
# Equipment holds the paragraph, its effect text (136.2.b)
_ATTACHED = "while this is attached"


def _effect_text(definition: dict[str, Any], had: int) -> None:
    """The passives a paragraph of an Equipment made, said to be its effect text: active only while it is attached
    (136.2.b), its "you" the equipped unit's controller (136.2.c). Those about "me" are the equipped unit's already."""
    for passive in definition.get("passives", [])[had:]:
        if passive["to"]["who"] not in ("self", "equipped unit"):
            passive["effect_text"] = True


def _unattached_only(definition: dict[str, Any], before: int, reminders: list[str]) -> bool:
    """An Equipment's activated ability reminded "(Use only if unattached.)": rules text, inactive while the
    Equipment is attached (434.1.e), not effect text for the equipped unit; the reminder is taken off `reminders`."""
    made = definition.get("activated", [])[before:]
    said = [r for r in reminders if normalise(r) == "use only if unattached."]
    if not said or len(made) != 1 or made[0].get("equip"):
        return False
    made[0]["only_unattached"] = True
    reminders.remove(said[0])
    return True


def _label(definition: dict[str, Any], before: dict[str, int], label: str) -> None:
    """The abilities a paragraph made are labelled with its words as printed: a step they make cites them."""
    for key, count in before.items():
        if key == "passives":
            continue
        for ability in definition.get(key, [])[count:]:
            if not ability.get("equip"):
                ability["label"] = label


_ICON = re.compile(r"\d|(fury|calm|mind|body|chaos|order|any) rune|exhaust|>")
# keyword actions (glossary) and instructions, and the words of the reminder that restates what the rules make of
# them (reminder text has no effect on the game, 135.2.d.3): "stun ... (It doesn't deal combat damage this turn.)"
# (423.1.b), "recall it (Send it to base. This isn't a move.)" (455, 456), "take control of ... (Start a combat if
# other enemies are there. Otherwise, conquer.)" (a battlefield's contest, 190.3), "play ..., ignoring its Energy
# cost (You must still pay its Power cost.)" (356.1.b.2), "at the start of ... Beginning Phase ... (This happens
# before scoring.)" (its Beginning Step comes before its Scoring Step, 315.2.a, 315.2.b)
_KEYWORD_ACTIONS = {
    "stun": ("stun", "combat damage"),
    "buff": ("buff",),
    "recall": ("base. this isn't a move", "send it to their base"),  # 455: to its controller's base
    "take control": ("start a combat if other enemies are there",),
    "ignoring its energy cost": ("must still pay its power cost",),  # 356.1.b.2
    "without paying its energy cost": ("must still pay its power cost",),  # 356.1.b.2
    "beginning phase": ("this happens before scoring",),
    "win a combat": ("remain after combat",),  # "(You win if only your units remain after combat.)" (466.3.a)
    "gold gear token": ("kill this, [exhaust]: [add] [any rune]",),  # the Gold token's ability (187.5)
    "empower": ("empowered if",),  # "(I become Empowered if I'm not already.)" (441.1.c)
    "banished with this": ("you must pay its costs",),  # a card played is paid for unless a cost is ignored (357.1)
    "from your trash": ("you still pay its costs",),  # "play a unit from your trash": its cost paid (357.1)
    # "(Each instance of damage the spell deals is increased by 1.)": Bonus Damage per target (715.2)
    "bonus damage": ("instance of damage the spell deals",),
    "energy cost as damage": ("ignore its power cost",),  # "(Ignore its Power cost.)": the Energy cost alone (206)
    "battlefield other than": ("bases are not battlefield",),  # "(Bases are not battlefield.)": bases 107.1, 107.2
    # "(Opponents can assign it extra combat damage to kill it.)": lethal counts the Prevent Value (437.5.a)
    "prevent the next": ("assign it extra combat damage",),
    "play me only to": ("you can't play me anywhere else",),  # "only": under no other circumstances (054.2)
}


def _restates_keyword(text: str, reminder: str) -> bool:
    """Does a reminder of a read paragraph restate a keyword it holds: a bracketed keyword (not an icon) or a
    keyword printed bare, or a keyword action the reminder names ("stun ... (A stunned unit ...)"), or the icon
    of a Domain it names?"""
    bracketed = [w for w in re.findall(r"\[([^\]]+)\]", text) if not _ICON.match(w.lower())]
    if bracketed or engine_keyword(text.split(" ")[0]) or text.lower().startswith("equip ["):  # "Equip [cost]"
        return True
    lowered, said = f" {text.lower()}", reminder.lower()
    icon = re.fullmatch(r"\[(fury|calm|mind|body|chaos|order) rune\]", said)
    if icon and f" {icon.group(1)} " in lowered:  # "an enemy Chaos ([Chaos rune]) unit": the Domain's icon (134.2)
        return True
    return any(
        f" {action}" in lowered and any(word in said for word in words) for action, words in _KEYWORD_ACTIONS.items()
    )
