"""Riftbound cards: the card list and the errata list (both JSON).

The card list has one entry per printing; cards are grouped by name, each
with its printings. Ability text is kept as received (``ability_raw``) and
rendered for reading: icon tokens such as ``:rb_might:`` and the rules'
shorthand such as ``[C]`` become words (``[Might]``, ``[Order rune]``).
Bracketed keywords (``[Tank]``, ``[Deflect 2]``) are extracted with their
values; bracketed icons (``[C]``, ``[2]``) are not keywords.

Which card a ruling names is ``ingest.card_names``.

Bad input raises ``IngestError`` naming the file, the line where the entry
starts and the entry's number.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, model_validator

from ingest.errors import IngestError
from ingest.limits import check_json_nesting
from ingest.model import ParseIssue
from ingest.source import read_lines

# Icon tokens of the card list (``:rb_might:``) and how they read.
ICONS: dict[str, str] = {
    "rb_might": "[Might]",
    "rb_exhaust": "[Exhaust]",
    "rb_rune_rainbow": "[Any rune]",
    "rb_rune_body": "[Body rune]",
    "rb_rune_calm": "[Calm rune]",
    "rb_rune_chaos": "[Chaos rune]",
    "rb_rune_fury": "[Fury rune]",
    "rb_rune_mind": "[Mind rune]",
    "rb_rune_order": "[Order rune]",
}
_ENERGY_ICON = re.compile(r"rb_energy_(\d+)")
_ICON_TOKEN = re.compile(r":(rb_[a-z0-9_]+):")

# The rules' one-character shorthand, used by the errata (core rules 134.2.e):
# [M] (formerly [S]) Might, [E] exhaust, [A] power of any domain, [C] power of
# the card's own domain, [N] N energy.
SHORTHAND: dict[str, str] = {"M": "[Might]", "S": "[Might]", "E": "[Exhaust]", "A": "[Any rune]"}
_SHORTHAND_TOKEN = re.compile(r"\[([A-Z]|\d+)\]")

# A bracketed keyword: a capitalised word or words, then an optional number.
_BRACKETED = re.compile(r"\[([^\[\]]+)\]")
_UNBRACKETED_LEAD = re.compile(r"^([A-Z][A-Za-z'\-]+(?: \d+)?) (?=\()")
_KEYWORD = re.compile(r"^(?P<term>[A-Z][A-Za-z'\-]+(?: [A-Z][A-Za-z'\-]+)*)(?: (?P<value>\d+))?$")

# A printing's name may carry the product it came in ("Dark Child - Starter").
PRODUCT_LABELS = ("Starter",)
# ("Dark Child, Starter" in an errata list).
_PRODUCT_SUFFIX = re.compile(r"(?<!\s)(?:\s+-\s+|,\s+)(?:" + "|".join(map(re.escape, PRODUCT_LABELS)) + r")\s*$")

NonEmpty = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
# A card's numbers (energy, power, might, collector number): SQLite stores at most 64-bit integers, and no card
# comes near this bound.
CARD_NUMBER_BOUND = 999_999
CardNumber = Annotated[int, Field(ge=-CARD_NUMBER_BOUND, le=CARD_NUMBER_BOUND)]


# --------------------------------------------------------------------------- parsed data


@dataclass
class ParsedPrinting:
    id: str
    card_set: str
    collector_number: str
    rarity: str | None
    image_url: str | None
    printed_name: str
    ability_raw: str
    line: int
    set_id: str | None = None  # the set's code ("OGN"): the export's, else the printing id's prefix
    code: str | None = None  # the collector code printed on the card ("UNL-131/219"), where the export gives it


@dataclass
class ParsedCardKeyword:
    term: str
    value: int | None
    raw_text: str  # "[Deflect 2]"


@dataclass
class ParsedCard:
    name: str
    card_type: str
    domains: list[str]
    energy: int | None
    power: int | None
    might: int | None
    ability_raw: str
    ability_text: str
    printings: list[ParsedPrinting] = field(default_factory=list)
    keywords: list[ParsedCardKeyword] = field(default_factory=list)
    listed_errata: list[tuple[str, str]] = field(default_factory=list)  # (old, new) given in the card list
    tags: list[str] = field(default_factory=list)  # the card's tags (champion, region: "Ahri", "Ionia")
    might_bonus: int | None = None  # the Might an Equipment gives ("+2")


@dataclass
class ParsedCards:
    cards: list[ParsedCard]
    issues: list[ParseIssue] = field(default_factory=list)
    entries: int = 0
    tokens: list[ParsedCard] = field(default_factory=list)  # token printings an export lists: not cards
    generated_on: str | None = None  # the date the export says it was made, where it says one


@dataclass
class ParsedErratum:
    name: str
    old_text: str | None
    new_text: str | None
    card_set: str | None
    faqs: list[tuple[str, str]]  # (question, answer)
    line: int
    announced_on: str | None = None  # the date Riot announced it (ISO), where the list gives one
    announcement: str | None = None  # the announcement's title
    url: str | None = None  # the announcement's address
    printing_ids: list[str] = field(default_factory=list)  # the printings the list names ("OGN-107"; "OGN-?" kept)
    note: str | None = None


@dataclass
class ParsedErrata:
    errata: list[ParsedErratum]
    issues: list[ParseIssue] = field(default_factory=list)
    entries: int = 0
    dated: bool = False  # every erratum carries its announcement date (a list that supersedes undated ones)


# --------------------------------------------------------------------------- validation models


class _CardEntry(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    id: NonEmpty
    name: NonEmpty
    card_type: NonEmpty
    domain: str | list[str]
    card_set: NonEmpty
    collector_number: CardNumber | str
    rarity: str | None = None
    image_url: str | None = None
    energy: CardNumber | None = None
    power: CardNumber | None = None
    might: CardNumber | None = None
    ability: str = ""
    errata_old_text: str | None = None
    errata_text: str | None = None


class _Faq(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    question: str
    answer: str


class _ErratumEntry(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore")
    name: NonEmpty
    oldText: str | None = None
    newText: str | None = None
    set: str | None = None
    faqs: list[_Faq] = []

    @model_validator(mode="after")
    def _says_something(self) -> _ErratumEntry:
        if (self.oldText is None) != (self.newText is None):
            raise ValueError("oldText and newText come together")
        if self.oldText is None and not self.faqs:
            raise ValueError("an erratum needs oldText and newText, or faqs")
        return self


# --------------------------------------------------------------------------- reading


def note_printing(path: str | Path, index: int, line: int, printing: str, first_line: dict[str, int]) -> None:
    """Records the line of a printing id, refusing one an earlier entry of the file has (either export shape)."""
    if printing in first_line:
        raise IngestError(
            path,
            line,
            f"card entry {index} to have a printing id of its own",
            f"{printing!r}, as on line {first_line[printing]}",
        )
    first_line[printing] = line


def parse_cards(path: str | Path) -> ParsedCards:
    raw = _json_entries(path, "card entries")
    by_name: dict[str, ParsedCard] = {}
    issues: list[ParseIssue] = []
    first_line: dict[str, int] = {}  # printing id -> the line of the entry that has it
    for index, (line, value) in enumerate(raw, start=1):
        entry = validated(_CardEntry, path, index, line, value, "card")
        note_printing(path, index, line, entry.id, first_line)
        card = by_name.get(entry.name)
        if card is None:
            card = by_name[entry.name] = _card(entry)
        else:
            _check_same_card(card, entry, line, issues)
        card.printings.append(
            ParsedPrinting(
                entry.id,
                entry.card_set,
                str(entry.collector_number),
                entry.rarity,
                entry.image_url,
                entry.name,
                entry.ability,
                line,
                set_id=entry.id.split("-", 1)[0].upper(),
            )
        )
        if entry.errata_text is not None and (entry.errata_old_text or "", entry.errata_text) not in card.listed_errata:
            card.listed_errata.append((entry.errata_old_text or "", entry.errata_text))
        issues.extend(_unknown_icons(entry.ability, line, entry.name))
    return ParsedCards(list(by_name.values()), issues, len(raw))


def parse_errata(path: str | Path) -> ParsedErrata:
    errata = []
    raw = _json_entries(path, "errata")
    for index, (line, value) in enumerate(raw, start=1):
        model = validated(_ErratumEntry, path, index, line, value, "erratum")
        errata.append(
            ParsedErratum(
                model.name,
                model.oldText,
                model.newText,
                model.set,
                [(faq.question, faq.answer) for faq in model.faqs],
                line,
            )
        )
    return ParsedErrata(errata, [], len(raw))


def json_text(path: str | Path, what: str) -> tuple[str, object]:
    """The file's text and its JSON value; an error naming the line where it is not JSON."""
    text = "\n".join(read_lines(path, max_line=None))  # a JSON list may be written on one line
    check_json_nesting(path, text)
    try:
        return text, json.loads(text)
    except json.JSONDecodeError as error:
        raise IngestError(path, error.lineno, f"JSON text ({what})", error.msg) from None


def _json_entries(path: str | Path, what: str) -> list[tuple[int, object]]:
    """The list's entries, each with the line it starts on."""
    text, data = json_text(path, f"a list of {what}")
    if not isinstance(data, list):
        raise IngestError(path, 1, f"a JSON list of {what}", f"a JSON {type(data).__name__}")
    return list_entries(text, text.index("[") + 1, data)


def list_entries(text: str, position: int, data: list) -> list[tuple[int, object]]:
    """The entries of the JSON list ``data`` whose text starts after its ``[`` at ``position``, each with the line
    it starts on."""
    decoder, line, entries = json.JSONDecoder(), text.count("\n", 0, position) + 1, []
    for _ in data:
        start = _after_separators(text, position)
        line += text.count("\n", position, start)
        value, end = decoder.raw_decode(text, start)
        entries.append((line, value))
        line += text.count("\n", start, end)
        position = end
    return entries


def _after_separators(text: str, position: int) -> int:
    """Where the next JSON value starts after the commas and white space at ``position``."""
    while position < len(text) and (text[position].isspace() or text[position] == ","):
        position += 1
    return position


def validated(model: type[BaseModel], path: str | Path, index: int, line: int, entry: object, what: str):
    """The entry as ``model``, or an error naming the file, the entry's line and number, and the field."""
    label = f"{what} entry {index}"
    if not isinstance(entry, dict):
        raise IngestError(path, line, f"{label} to be a JSON object", f"a JSON {type(entry).__name__}")
    if isinstance(entry.get("name"), str):
        label += f" ({entry['name']!r})"
    try:
        return model.model_validate(entry)
    except ValidationError as error:
        problem = error.errors()[0]
        field_name = ".".join(str(part) for part in problem["loc"])
        if not field_name:  # a rule about the whole entry
            raise IngestError(path, line, f"{label} to be complete ({problem['msg']})") from None
        found = None if problem["type"] == "missing" else repr(problem["input"])
        raise IngestError(path, line, f"{label} to have a valid '{field_name}' ({problem['msg']})", found) from None


def _card(entry: _CardEntry) -> ParsedCard:
    domains = [entry.domain] if isinstance(entry.domain, str) else list(entry.domain)
    return ParsedCard(
        name=entry.name,
        card_type=entry.card_type,
        domains=domains,
        energy=entry.energy,
        power=entry.power,
        might=entry.might,
        ability_raw=entry.ability,
        ability_text=render_text(entry.ability, domains),
        keywords=card_keywords(entry.ability),
    )


def _check_same_card(card: ParsedCard, entry: _CardEntry, line: int, issues: list[ParseIssue]) -> None:
    """Printings of one name should agree; where they do not, the first is kept and the difference reported."""
    domains = [entry.domain] if isinstance(entry.domain, str) else list(entry.domain)
    differences = [
        name
        for name, mine, theirs in (
            ("card type", card.card_type, entry.card_type),
            ("domain", card.domains, domains),
            ("energy", card.energy, entry.energy),
            ("power", card.power, entry.power),
            ("might", card.might, entry.might),
            ("ability", card.ability_raw, entry.ability),
        )
        if mine != theirs
    ]
    if differences:
        issues.append(
            ParseIssue(
                "duplicate",
                f"printing {entry.id} of {entry.name} differs in {', '.join(differences)}; "
                f"the card keeps the first printing's ({card.printings[0].id}), each printing its own text",
                line=line,
                number=entry.id,
            )
        )


def _unknown_icons(text: str, line: int, name: str) -> list[ParseIssue]:
    return [
        ParseIssue("malformed", f"{name}: unknown icon token :{token}: shown as its name", line=line)
        for token in _ICON_TOKEN.findall(text)
        if token not in ICONS and not _ENERGY_ICON.fullmatch(token)
    ]


# --------------------------------------------------------------------------- text


def render_text(raw: str, domains: Iterable[str] = ()) -> str:
    """Card text for reading: icon tokens and shorthand become bracketed words.

    ``[C]`` is power of the card's own domain; on a card with no domain or
    several it means power of any domain (core rules 134.2.e.6.b).
    """
    text = _ICON_TOKEN.sub(lambda match: _icon(match.group(1)), raw)
    own_domain = [domain for domain in domains if domain != "Colorless"]
    own_rune = f"[{own_domain[0]} rune]" if len(own_domain) == 1 else SHORTHAND["A"]
    return _SHORTHAND_TOKEN.sub(lambda match: _shorthand(match.group(0), match.group(1), own_rune), text)


def _icon(token: str) -> str:
    if token in ICONS:
        return ICONS[token]
    if energy := _ENERGY_ICON.fullmatch(token):
        return f"[{energy.group(1)} Energy]"
    return "[" + token.removeprefix("rb_").replace("_", " ").capitalize() + "]"


def _shorthand(whole: str, symbol: str, own_rune: str) -> str:
    if symbol.isdigit():
        return f"[{symbol} Energy]"
    if symbol == "C":
        return own_rune
    return SHORTHAND.get(symbol, whole)


def card_keywords(text: str) -> list[ParsedCardKeyword]:
    """Bracketed keywords in card text, once each (by term and value), in order; a few
    printings lost the brackets of a leading keyword ("Ganking (I can move …)"), and the
    reminder text in parentheses after it still marks it as one."""
    found: dict[tuple[str, int | None], ParsedCardKeyword] = {}
    for match in [*_UNBRACKETED_LEAD.finditer(text), *_BRACKETED.finditer(text)]:
        keyword = _KEYWORD.match(match.group(1).strip())
        if keyword is None:
            continue
        value = int(keyword.group("value")) if keyword.group("value") else None
        key = (keyword.group("term").casefold(), value)
        found.setdefault(key, ParsedCardKeyword(keyword.group("term"), value, match.group(0)))
    return list(found.values())


# --------------------------------------------------------------------------- names


def name_key(name: str) -> str:
    """How names are compared across files: case, curly quotes and product labels ignored."""
    return without_product_label(name).replace("\u2019", "'").casefold().strip()


def without_product_label(name: str) -> str:
    """The name without a product label: "Dark Child - Starter" is "Dark Child"."""
    return _PRODUCT_SUFFIX.sub("", name)
