"""Writing cards into the database: the card list, errata, aliases, the
keywords cards carry and the cards rulings name.

Call order in a build: ``store_cards`` (card list document), ``store_errata``
(errata document; links by name to the cards already stored), and once the
rules and rulings are stored, ``link_card_keywords`` and ``link_card_mentions``
(or ``store_card_mentions`` with mentions found by ``ingest.card_names.find_card_mentions``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence

import sqlite_utils

from ingest.card_names import (
    CardAliases,
    CardMention,
    CardMentions,
    UnresolvedName,
    card_name_index,
    find_card_mentions,
    load_aliases,
)
from ingest.cards import ParsedCard, ParsedCards, ParsedErrata
from ingest.model import ParsedRuling, ParsedStep
from rules_db import card_merge, errata, versions
from rules_db.store import next_id, unique_slug


def store_cards(
    db: sqlite_utils.Database,
    game_id: str,
    document_id: str,
    parsed_cards: ParsedCards,
    parsed_errata: ParsedErrata | None = None,
    *,
    errata_document_id: str | None = None,
    aliases: CardAliases | None = None,
) -> dict:
    """Cards, printings, bracketed keywords and aliases; errata too when given.

    A card list stored after another of the same game merges into it (``rules_db.card_merge``): one card per
    name, one printing per printing id; where they disagree the newer list wins, and card_texts keeps each
    list's wording."""
    figures = card_merge.merge_cards(db, game_id, document_id, parsed_cards)
    index = card_name_index(_card_list(db, game_id), aliases or load_aliases())
    db.execute("delete from card_aliases where card_id in (select id from cards where game_id = ?)", [game_id])
    alias_rows: list[dict] = []
    for card_name, names in sorted(index.aliases_of().items()):
        card_id = _card_id(db, game_id, card_name)
        alias_rows.extend({"card_id": card_id, "alias": alias, "how": how} for alias, how in sorted(names))
    db.table("card_aliases").insert_all(alias_rows)
    figures.update(
        {
            "aliases": len(alias_rows),
            "alias problems": [f"{problem.name}: {problem.reason}" for problem in index.problems],
        }
    )
    if parsed_errata is not None:
        figures.update(store_errata(db, game_id, errata_document_id or document_id, parsed_errata))
    else:
        errata.refresh_current_text(db, game_id)
    return figures


def store_errata(db: sqlite_utils.Database, game_id: str, document_id: str, parsed_errata: ParsedErrata) -> dict:
    """Errata and FAQs, linked to the game's stored cards (``rules_db.errata``)."""
    return errata.store_errata(db, game_id, document_id, parsed_errata)


def link_card_keywords(db: sqlite_utils.Database, game_id: str) -> dict:
    """Point card_keywords at the keyword rows of the game's newest rules document (term or alias, any case)."""
    newest = versions.rules_document(db, game_id)
    known: dict[str, int] = {}
    if newest is not None:
        for row in db.query("select id, term, aliases from keywords where document_id = ? order by id", [newest["id"]]):
            for term in [row["term"], *json.loads(row["aliases"] or "[]")]:
                known.setdefault(term.casefold(), row["id"])
    rows = list(
        db.query(
            "select ck.id, ck.term from card_keywords ck join cards c on c.id = ck.card_id where c.game_id = ?",
            [game_id],
        )
    )
    links = [(known.get(row["term"].casefold()), row["id"]) for row in rows]
    unlinked = {row["term"] for row, (keyword_id, _) in zip(rows, links) if keyword_id is None}
    with db.conn:
        db.conn.executemany("update card_keywords set keyword_id = ? where id = ?", links)
    return {
        "card keywords linked": sum(1 for row in rows if row["term"] not in unlinked),
        "card keywords not in the glossary": sorted(unlinked),
        "glossary document": newest["id"] if newest else None,
    }


def store_card_mentions(
    db: sqlite_utils.Database,
    game_id: str,
    mentions: list[CardMention],
    unresolved: Sequence[UnresolvedName] = (),
    *,
    document_id: str | None = None,
) -> dict:
    """card_mentions from ruling positions in the game's rulings document; a card the
    card list lacks gets a row with in_card_list=0; unresolved names become parse issues."""
    document_id = document_id or _rulings_document(db, game_id)
    ruling_ids = {
        row["position"]: row["id"]
        for row in db.query("select id, position from rulings where document_id = ?", [document_id])
    }
    rows = []
    for mention in mentions:
        card_id = _card_id(db, game_id, mention.card_name)
        rows.append(
            {
                "card_id": card_id,
                "ruling_id": ruling_ids.get(mention.ruling_position),
                "surface": mention.surface,
                "how": mention.how,
            }
        )
    db.table("card_mentions").insert_all(rows)
    db.table("parse_issues").insert_all(
        {
            "document_id": document_id,
            "line": None,
            "kind": "dangling",
            "number": None,
            "message": f"card name {name.surface!r} in rulings {', '.join(map(str, name.rulings))} is not linked: "
            f"{name.reason}",
        }
        for name in unresolved
    )
    return {
        "card mentions": len(rows),
        "rulings naming cards": len({row["ruling_id"] for row in rows}),
        "cards named": len({row["card_id"] for row in rows}),
        "card names unresolved": [
            f"{name.surface} (rulings {', '.join(map(str, name.rulings))}): {name.reason}" for name in unresolved
        ],
    }


def link_card_mentions(
    db: sqlite_utils.Database,
    game_id: str,
    *,
    document_id: str | None = None,
    aliases: CardAliases | None = None,
    found: CardMentions | None = None,
) -> dict:
    """Find and store the cards each stored ruling names, from the rulings and cards already in the database;
    ``found``, if given, is what ``find_card_mentions`` found over ``card_mention_search`` (a build finds it in
    its second process)."""
    document_id = document_id or _rulings_document(db, game_id)
    if found is None:
        found = find_card_mentions(*card_mention_search(db, game_id, document_id), aliases)
    return store_card_mentions(db, game_id, found.mentions, found.unresolved, document_id=document_id)


def link_tagged_card_mentions(
    db: sqlite_utils.Database,
    game_id: str,
    document_id: str,
    tagged: list[CardMention],
    aliases: CardAliases | None = None,
) -> dict:
    """Store the cards a source tags in its rulings (``<Card name="…" />``): a tag names a card of the
    card list by its name or one of its names; a name the card list lacks gets a card row
    (in_card_list=0) and is listed, never dropped."""
    known = _card_list(db, game_id)
    index = card_name_index(known, aliases or load_aliases())
    names = {card.name for card in known}
    mentions, missing = [], defaultdict(list)
    for mention in tagged:
        candidates = index.surfaces.get(mention.card_name, set())
        if mention.card_name in names:
            card_name, how = mention.card_name, mention.how
        elif len(candidates) == 1:
            card_name, how = next(iter(candidates)), f"{mention.how} ({index.how[mention.card_name]})"
        else:
            card_name, how = mention.card_name, f"{mention.how} (not in the card list)"
            missing[mention.card_name].append(mention.ruling_position)
        mentions.append(CardMention(mention.ruling_position, card_name, mention.surface, how))
    figures = store_card_mentions(db, game_id, list(dict.fromkeys(mentions)), document_id=document_id)
    figures["cards not in the card list"] = [
        f"{name} (rulings {', '.join(map(str, dict.fromkeys(positions)))})"
        for name, positions in sorted(missing.items())
    ]
    return figures


def card_mention_search(
    db: sqlite_utils.Database, game_id: str, document_id: str
) -> tuple[list[ParsedRuling], list[ParsedCard]]:
    """What ``find_card_mentions`` reads for a rulings document: its rulings and the game's card list, as stored
    (plain data, which a second process can take)."""
    return _stored_rulings(db, document_id), _card_list(db, game_id)


def _card_list(db: sqlite_utils.Database, game_id: str) -> list[ParsedCard]:
    """The game's card list as stored."""
    return [
        ParsedCard(
            name=row["name"],
            card_type=row["card_type"] or "",
            domains=(row["domain"] or "").split(", "),
            energy=row["energy"],
            power=row["power"],
            might=row["might"],
            ability_raw=row["ability_raw"] or "",
            ability_text=row["ability_text"] or "",
            tags=[tag for tag in (row["tags"] or "").split(", ") if tag],
        )
        for row in db.query("select * from cards where game_id = ? and in_card_list = 1", [game_id])
    ]


def _stored_rulings(db: sqlite_utils.Database, document_id: str) -> list[ParsedRuling]:
    rulings = {
        row["id"]: ParsedRuling(position=row["position"], question=row["question"], ruling=row["ruling"])
        for row in db.query("select * from rulings where document_id = ? order by position", [document_id])
    }
    for row in db.query(
        "select * from ruling_steps where ruling_id in (select id from rulings where document_id = ?) "
        "order by ruling_id, position",
        [document_id],
    ):
        rulings[row["ruling_id"]].steps.append(ParsedStep(row["position"], row["text"], row["branch"]))
    for row in db.query(
        "select * from ruling_nuances where ruling_id in (select id from rulings "
        "where document_id = ?) order by ruling_id, position",
        [document_id],
    ):
        rulings[row["ruling_id"]].nuances.append(row["text"])
    return list(rulings.values())


def _rulings_document(db: sqlite_utils.Database, game_id: str) -> str:
    ids = [row["id"] for row in db.query("select id from documents where game_id = ? and kind = 'rulings'", [game_id])]
    if len(ids) != 1:
        raise ValueError(f"expected one rulings document for {game_id}, found {ids}; pass document_id")
    return ids[0]


def _card_id(db: sqlite_utils.Database, game_id: str, name: str) -> int:
    """The card's id, adding a row (in_card_list=0) for a card only rulings know."""
    row = next(db.query("select id from cards where game_id = ? and name = ?", [game_id, name]), None)
    if row is not None:
        return row["id"]
    card_id = next_id(db, "cards")
    db.table("cards").insert(
        {"id": card_id, "game_id": game_id, "name": name, "slug": unique_slug(db, name), "in_card_list": 0}
    )
    return card_id
