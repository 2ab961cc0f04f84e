"""Riftbound cards and errata in the official exports' shape: a JSON object holding its entries.

- The card gallery (``{generatedAt, source, count, sets, ..., cards: [...]}``): one entry per printing, with
  ``id``, ``code``, ``set``/``setId``, ``type`` (null for a token), ``domains``, ``energy``/``might``/``power``/
  ``mightBonus`` as strings, ``tags``, the ability as HTML (``abilityHtml``, ``effectHtml``: what an
  Equipment gives) with the card list's ``:rb_*:`` icon tokens. Printings are grouped by name into cards as
  ``ingest.cards`` does for the older list; a printing without a type is a token ("Buff"), kept apart.
- The dated errata (``{_comment, last_verified, errata_documents: [...], entries: [...]}``): each erratum names
  the announcement it comes from (``document``), whose date and title ``errata_documents`` gives.

Every field is validated: an unknown field, a missing one or a broken entry raises ``IngestError`` naming the
file, the line where the entry starts and the entry's number.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints

from ingest import cards
from ingest.cards import (
    CardNumber,
    NonEmpty,
    ParsedCard,
    ParsedCards,
    ParsedErrata,
    ParsedErratum,
    ParsedPrinting,
    card_keywords,
    json_text,
    list_entries,
    note_printing,
    render_text,
    validated,
)
from ingest.errors import IngestError
from ingest.model import ParseIssue

# What the gallery writes for a card with no text (the basic runes).
NO_TEXT = ("[NO TEXT]",)
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
IsoDate = Annotated[str, StringConstraints(pattern=r"^\d{4}-\d{2}-\d{2}")]


def _number(value: object) -> object:
    """A number the export writes as a string ("2", "+1") read as an int; anything else left to validation."""
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,6}", value.strip()):
        return int(value)
    return value


StringNumber = Annotated[CardNumber | None, BeforeValidator(_number)]


class _GalleryCard(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    id: NonEmpty
    code: NonEmpty
    collectorNumber: CardNumber | str
    name: NonEmpty
    set: NonEmpty
    setId: NonEmpty
    type: NonEmpty | None
    rarity: str | None
    domains: list[NonEmpty]
    energy: StringNumber
    might: StringNumber
    mightBonus: StringNumber
    power: StringNumber
    tags: list[NonEmpty]
    illustrator: str | None = None
    orientation: str | None = None
    image: str | None = None
    rulesText: str | None = None
    abilityHtml: str | None
    effectHtml: str | None


class _Announcement(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    slug: NonEmpty
    label: NonEmpty
    url: str | None = None
    announced_on: IsoDate


class _DatedErratum(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    official_name: NonEmpty
    printed_set: NonEmpty
    document: NonEmpty
    card_ids: list[NonEmpty]
    old_text: NonEmpty
    new_text: NonEmpty
    verification: str | None = None
    note: str | None = None


# --------------------------------------------------------------------------- shapes


def is_export(path: str | Path) -> bool:
    """Whether the file is a JSON object (an export's shape) rather than a JSON list; its first character says."""
    with open(path, encoding="utf-8", errors="replace") as handle:
        start = handle.read(4096).lstrip("\ufeff \t\r\n")
    return start.startswith("{")


def members(text: str, data: dict) -> dict[str, int]:
    """Where each top-level member's value of the JSON object ``data`` starts in ``text`` (its offset)."""
    decoder, position, found = json.JSONDecoder(), text.index("{") + 1, {}
    for _ in data:
        while text[position].isspace() or text[position] == ",":
            position += 1
        key, position = decoder.raw_decode(text, position)
        while text[position].isspace() or text[position] == ":":
            position += 1
        found[key] = position
        _, position = decoder.raw_decode(text, position)
    return found


def _entries(path: str | Path, key: str, what: str) -> tuple[dict, list[tuple[int, object]]]:
    """The export's object and the entries of its list ``key``, each with the line it starts on."""
    text, data = json_text(path, f"an object holding a list of {what}")
    if not isinstance(data, dict):
        raise IngestError(path, 1, f"a JSON object holding a list of {what}", f"a JSON {type(data).__name__}")
    if not isinstance(data.get(key), list):
        raise IngestError(path, 1, f"a '{key}' list of {what}", repr(type(data.get(key)).__name__))
    start = members(text, data)[key]
    return data, list_entries(text, start + 1, data[key])


# --------------------------------------------------------------------------- the card gallery


def parse_cards(path: str | Path) -> ParsedCards:
    data, raw = _entries(path, "cards", "card printings")
    by_name: dict[str, ParsedCard] = {}
    tokens: dict[str, ParsedCard] = {}
    first_line: dict[str, int] = {}
    issues: list[ParseIssue] = []
    for index, (line, value) in enumerate(raw, start=1):
        entry = validated(_GalleryCard, path, index, line, value, "card")
        note_printing(path, index, line, entry.id, first_line)
        ability = ability_from_html(entry.abilityHtml, entry.effectHtml)
        group = by_name if entry.type is not None else tokens
        card = group.get(entry.name)
        if card is None:
            card = group[entry.name] = ParsedCard(
                name=entry.name,
                card_type=entry.type or "Token",
                domains=list(entry.domains),
                energy=entry.energy,
                power=entry.power,
                might=entry.might,
                ability_raw=ability,
                ability_text=render_text(ability, entry.domains),
                keywords=card_keywords(ability),
                tags=list(entry.tags),
                might_bonus=entry.mightBonus,
            )
        elif ability != card.ability_raw:
            # Alternate arts often leave the reminder text out: the card keeps the fullest wording.
            fuller = len(ability) > len(card.ability_raw)
            issues.append(
                ParseIssue(
                    "duplicate",
                    f"printing {entry.id} of {entry.name} words its text otherwise than {card.printings[0].id}; "
                    "the card keeps the longer wording, each printing its own",
                    line=line,
                    number=entry.id,
                )
            )
            if fuller:
                card.ability_raw = ability
                card.ability_text = render_text(ability, card.domains)
                card.keywords = card_keywords(ability)
        card.printings.append(
            ParsedPrinting(
                entry.id,
                entry.set,
                str(entry.collectorNumber),
                entry.rarity,
                entry.image,
                entry.name,
                ability,
                line,
                set_id=entry.setId,
                code=entry.code,
            )
        )
    generated = data.get("generatedAt")
    dated = ISO_DATE.match(generated) if isinstance(generated, str) else None
    return ParsedCards(
        list(by_name.values()),
        issues,
        len(raw),
        tokens=list(tokens.values()),
        generated_on=dated.group(0) if dated else None,
    )


class _AbilityText(HTMLParser):
    """An ability's HTML as the card list writes abilities: paragraphs and line breaks as new lines, list items
    as bulleted lines, entities decoded, any other tag dropped."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in ("br", "p", "ul"):
            self.parts.append("\n")
        elif tag == "li":
            self.parts.append("\n• ")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def text(self) -> str:
        lines = ("".join(self.parts)).split("\n")
        return "\n".join(line.strip() for line in lines if line.strip())


def ability_from_html(*fragments: str | None) -> str:
    """The text of an ability's HTML fragments (the ability, then what an Equipment gives), one line each."""
    texts = []
    for fragment in fragments:
        if fragment:
            parser = _AbilityText()
            parser.feed(fragment)
            parser.close()
            text = parser.text()
            texts.append("" if text in NO_TEXT else text)
    return "\n".join(text for text in texts if text)


# --------------------------------------------------------------------------- dated errata


def parse_errata(path: str | Path) -> ParsedErrata:
    data, raw = _entries(path, "entries", "errata")
    announcements: dict[str, _Announcement] = {}
    for index, value in enumerate(data.get("errata_documents") or [], start=1):
        announcement = validated(_Announcement, path, index, 1, value, "errata document")
        announcements[announcement.slug] = announcement
    errata = []
    for index, (line, value) in enumerate(raw, start=1):
        entry = validated(_DatedErratum, path, index, line, value, "erratum")
        announcement = announcements.get(entry.document)
        if announcement is None:
            raise IngestError(
                path,
                line,
                f"erratum entry {index} ({entry.official_name!r}) to name one of the errata_documents "
                f"({', '.join(announcements) or 'none listed'})",
                entry.document,
            )
        errata.append(
            ParsedErratum(
                entry.official_name,
                entry.old_text,
                entry.new_text,
                entry.printed_set,
                [],
                line,
                announced_on=announcement.announced_on,
                announcement=announcement.label,
                url=announcement.url,
                printing_ids=list(entry.card_ids),
                note=entry.note,
            )
        )
    return ParsedErrata(errata, [], len(raw), dated=True)


def parse_file(path: str | Path, kind: str) -> ParsedCards | ParsedErrata:
    """The build's entry point: ``kind`` is "cards" or "errata" (the manifest's kind). Each comes in two
    shapes: a JSON list of entries (``ingest.cards``) or an object holding them (an official export, read
    here); the file's own shape decides."""
    if kind in ("cards", "errata") and is_export(path):
        return parse_cards(path) if kind == "cards" else parse_errata(path)
    if kind == "cards":
        return cards.parse_cards(path)
    if kind == "errata":
        return cards.parse_errata(path)
    raise IngestError(path, None, "a card list or an errata list", f"kind {kind!r}")
