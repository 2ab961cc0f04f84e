"""The card names that rulings use, resolved against the card list.

Rulings name cards loosely: by champion ("Ahri"), by nickname ("GA"), by a
misspelling ("Stupify"), or by the champion for a Legend printed under a title
("Ahri Legend" is Nine-Tailed Fox). What can be derived from the card list is
derived here; the rest is curated data in ``ingest/data/card_aliases.yaml``.
A name that stays ambiguous or uncertain is reported, never guessed.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import NamedTuple

import yaml

from ingest.cards import ParsedCard, ParsedCards, name_key, without_product_label
from ingest.errors import IngestError
from ingest.lemmas import LemmaMatcher
from ingest.model import ParsedRuling
from ingest.source import load_yaml

ALIASES_FILE = Path(str(resources.files("ingest") / "data" / "card_aliases.yaml"))
_SIGNED_NUMBER = re.compile(r"(?<!\w)[+\-\u2212]\d+")  # +2, -1: a ruling's numbers point at the card printing them


class UnmatchedName(NamedTuple):
    name: str
    reason: str


@dataclass(frozen=True)
class CardAliases:
    """The curated part of card naming (see ingest/data/card_aliases.yaml)."""

    legends: dict[str, str]  # champion -> Legend card name
    champion_names: dict[str, list[str]]  # champion -> other names for the champion
    aliases: dict[str, list[str]]  # card name -> other names
    uncertain: dict[str, str]  # name -> why it is not linked


def load_aliases(path: str | Path = ALIASES_FILE) -> CardAliases:
    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as error:
        mark = getattr(error, "problem_mark", None)
        raise IngestError(path, mark.line + 1 if mark else None, "a readable YAML alias file", str(error)) from None

    def mapping(section: str, value_type: type) -> dict:
        value = data.get(section) or {}
        if not isinstance(value, dict) or not all(
            isinstance(key, str) and isinstance(item, value_type) for key, item in value.items()
        ):
            raise IngestError(path, None, f"'{section}' as a mapping of names to {value_type.__name__}", repr(value))
        return value

    return CardAliases(
        mapping("legends", str), mapping("champion_names", list), mapping("aliases", list), mapping("uncertain", str)
    )


@dataclass
class CardNameIndex:
    """Every name a card goes by: surface -> the card names it may stand for."""

    surfaces: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    how: dict[str, str] = field(default_factory=dict)  # surface -> name, derived, alias, legend, champion
    uncertain: dict[str, str] = field(default_factory=dict)
    not_in_card_list: set[str] = field(default_factory=set)  # alias targets the card list lacks
    problems: list[UnmatchedName] = field(default_factory=list)

    def add(self, surface: str, card_names: Iterable[str], how: str) -> None:
        surface = surface.strip()
        if surface:
            self.surfaces[surface].update(card_names)
            self.how.setdefault(surface, how)

    def aliases_of(self) -> dict[str, list[tuple[str, str]]]:
        """card name -> [(alias, how)], the card's own name left out."""
        result: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for surface, names in self.surfaces.items():
            for name in names:
                if surface != name:
                    result[name].append((surface, self.how[surface]))
        return result


def card_name_index(cards: Iterable[ParsedCard], aliases: CardAliases) -> CardNameIndex:
    cards = list(cards)
    index = CardNameIndex()
    by_key = {name_key(card.name): card.name for card in cards}
    for card in cards:
        index.add(card.name, [card.name], "name")
        for variant in _derived_names(card.name):
            index.add(variant, [card.name], "derived")
    _add_champions(index, cards, aliases, by_key)
    for target, others in aliases.aliases.items():
        card_name = by_key.get(name_key(target))
        if card_name is None:
            card_name = target
            index.not_in_card_list.add(target)
            index.add(target, [target], "alias")
            index.problems.append(UnmatchedName(target, "curated alias target is not in the card list"))
        for other in others:
            index.add(str(other), [card_name], "alias")
    index.uncertain.update(aliases.uncertain)
    return index


def _derived_names(name: str) -> set[str]:
    """Spellings people use for a printed name, derived from its shape."""
    variants = {without_product_label(name)}
    for variant in list(variants):
        variants.add(variant.replace(", ", " "))  # "Darius, Executioner" -> "Darius Executioner"
    for variant in list(variants):
        if variant.startswith("The ") and " " in variant[4:]:
            variants.add(variant[4:])  # "The Zero Drive" -> "Zero Drive" (not "The Boss" -> "Boss")
        if "'s " in variant:
            variants.add(variant.replace("'s ", " "))  # "Dragon's Rage" -> "Dragon Rage"
            variants.add(variant.replace("'s ", "s "))  # "Zhonya's Hourglass" -> "Zhonyas Hourglass"
    variants.discard(name)
    return variants


def _add_champions(index: CardNameIndex, cards: list[ParsedCard], aliases: CardAliases, by_key: dict[str, str]) -> None:
    """A champion's name stands for all of its cards; "<champion> Legend" for its Legend alone."""
    cards_of: dict[str, set[str]] = defaultdict(set)
    for card in cards:
        champion, comma, _ = card.name.partition(", ")
        if comma and card.card_type != "Legend":
            cards_of[champion].add(card.name)
    legend_of: dict[str, str] = {}
    for champion, title in aliases.legends.items():
        legend = by_key.get(name_key(title))
        if legend is None:
            index.problems.append(UnmatchedName(title, f"the Legend curated for {champion} is not in the card list"))
            continue
        legend_of[champion] = legend
        cards_of[champion].add(legend)
    # A card list that tags cards (the gallery: a Legend tagged "Ahri", "Ionia") says whose Legend it is: a tag
    # that is a champion's name. The curated champion keeps its Legend; one with several tagged Legends has each
    # (a name for both stays ambiguous, and is reported where it is used).
    curated = set(legend_of) | {name for champion in legend_of for name in aliases.champion_names.get(champion, [])}
    tagged: dict[str, set[str]] = defaultdict(set)
    for card in cards:
        if card.card_type == "Legend":
            for tag in card.tags:
                if tag in cards_of and tag not in curated:
                    tagged[tag].add(card.name)
    legends_of = {champion: {legend} for champion, legend in legend_of.items()} | dict(tagged)
    for champion, legends in tagged.items():
        cards_of[champion] |= legends
    for champion, names in cards_of.items():
        for spoken in [champion, *aliases.champion_names.get(champion, [])]:
            index.add(spoken, names, "champion")
            for legend in legends_of.get(champion, ()):
                # "Master Yi, Wuju Bladesman": the champion's name before the Legend's title, as a ban list writes it
                index.add(f"{spoken}, {without_product_label(legend)}", [legend], "legend")
            if champion in legends_of:
                for form in (f"{spoken} Legend", f"{spoken} legend", f"{spoken}'s Legend", f"{spoken}'s legend"):
                    index.add(form, legends_of[champion], "legend")


class CardMention(NamedTuple):
    ruling_position: int
    card_name: str
    surface: str
    how: str  # name, derived, alias, legend, champion, or "context: ..." for a disambiguated name


class UnresolvedName(NamedTuple):
    surface: str
    rulings: tuple[int, ...]
    reason: str


class CardMentions(NamedTuple):
    mentions: list[CardMention]
    unresolved: list[UnresolvedName]


def ruling_text(ruling: ParsedRuling) -> str:
    branches = dict.fromkeys(step.branch for step in ruling.steps if step.branch)
    return "\n".join(
        [ruling.question, ruling.ruling, *branches, *(step.text for step in ruling.steps), *ruling.nuances]
    )


def find_card_mentions(
    rulings: list[ParsedRuling], cards: ParsedCards | Iterable[ParsedCard], aliases: CardAliases | None = None
) -> CardMentions:
    """The cards each ruling names, and the names that could not be resolved (with why).

    Matching is case-sensitive on whole words ("Charm" is the card, "charmed"
    is not). A name that stands for several cards (a bare champion name)
    resolves only on evidence in the same ruling: one of its cards named
    outright there, or a signed number ("-1 might") that only one of them
    prints. Otherwise it is reported.
    """
    cards = list(cards.cards if isinstance(cards, ParsedCards) else cards)
    index = card_name_index(cards, aliases or load_aliases())
    abilities = {card.name: card.ability_text for card in cards}
    surfaces = {**{surface: [surface] for surface in index.surfaces}, **{name: [name] for name in index.uncertain}}
    matcher = LemmaMatcher(surfaces, attr="ORTH")
    texts = [ruling_text(ruling) for ruling in rulings]
    mentions: dict[tuple[int, str, str], CardMention] = {}
    unresolved: dict[tuple[str, str], list[int]] = defaultdict(list)
    for ruling, text, matches in zip(rulings, texts, matcher.find_many(_straight_quotes(text) for text in texts)):
        named = {
            next(iter(index.surfaces[m.key]))
            for m in matches
            if m.key in index.surfaces and len(index.surfaces[m.key]) == 1
        }
        for match in matches:
            surface = text[match.start : match.end]
            if match.key in index.uncertain:
                unresolved[(match.key, index.uncertain[match.key])].append(ruling.position)
                continue
            card_name, how = _resolve(match.key, index, named, text, abilities)
            if card_name is None:
                unresolved[(match.key, how)].append(ruling.position)
            else:
                mentions.setdefault(
                    (ruling.position, card_name, surface), CardMention(ruling.position, card_name, surface, how)
                )
    return CardMentions(
        list(mentions.values()),
        [
            UnresolvedName(surface, tuple(dict.fromkeys(positions)), reason)
            for (surface, reason), positions in unresolved.items()
        ],
    )


def _straight_quotes(text: str) -> str:
    return text.replace("\u2019", "'")  # same length, so match offsets hold for the original text


def _resolve(
    surface: str, index: CardNameIndex, named: set[str], text: str, abilities: dict[str, str]
) -> tuple[str | None, str]:
    candidates = index.surfaces[surface]
    if len(candidates) == 1:
        return next(iter(candidates)), index.how[surface]
    named_here = candidates & named
    if len(named_here) == 1:
        return next(iter(named_here)), "context: the card is named outright in the same ruling"
    numbers = set(_SIGNED_NUMBER.findall(text.replace("\u2212", "-")))
    printing_them = {name for name in candidates if numbers & set(_SIGNED_NUMBER.findall(abilities.get(name, "")))}
    if len(printing_them) == 1:
        return next(iter(printing_them)), "context: the only one of its cards printing a number the ruling uses"
    return None, f"names {len(candidates)} cards ({', '.join(sorted(candidates))}) and the ruling does not say which"
