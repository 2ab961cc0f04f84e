"""Card lists of one game merged into one set of cards: one card per card, one printing per printing.

Two exports of the same cards (the fan app's list, Riot's gallery) share printing ids and card names; a card is
the same card when its name is (product labels, case and curly quotes aside: ``ingest.cards.name_key``) or when
it shares a printing with it. Where the lists disagree on a card or a printing, the newer list (by the date the
manifest gives it) wins; ``card_texts`` keeps every list's wording so a card's page shows where each came from.
"""

from __future__ import annotations

import json

import sqlite_utils

from ingest.cards import ParsedCard, ParsedCards, name_key
from rules_db.store import next_id, unique_slug


def document_date(db: sqlite_utils.Database, document_id: str) -> str:
    """What orders card lists: the date the manifest gives a document, else its version."""
    row = db.execute("select coalesce(version_date, version, '') from documents where id = ?", [document_id]).fetchone()
    return row[0] if row else ""


def _text_fields(card: ParsedCard) -> dict:
    """What a card list says of a card, stored on the card and with each list's text of it (card_texts)."""
    return {
        "card_type": card.card_type,
        "domain": ", ".join(card.domains),
        "energy": card.energy,
        "power": card.power,
        "might": card.might,
        "ability_raw": card.ability_raw,
        "ability_text": card.ability_text,
    }


def _card_row(card: ParsedCard, game_id: str, document_id: str) -> dict:
    return {
        "game_id": game_id,
        **_text_fields(card),
        "in_card_list": 1,
        "document_id": document_id,
        "tags": ", ".join(card.tags) or None,
        "might_bonus": card.might_bonus,
    }


def merge_cards(db: sqlite_utils.Database, game_id: str, document_id: str, parsed: ParsedCards) -> dict:
    """Store a card list's cards, printings, keywords and tokens, merging into the game's cards already stored."""
    date = document_date(db, document_id)
    stored = list(
        db.query(
            """select c.id, c.name, coalesce(d.version_date, d.version, '') as date from cards c
            left join documents d on d.id = c.document_id where c.game_id = ? and c.in_card_list = 1""",
            [game_id],
        )
    )
    by_name = {row["name"]: row for row in stored}
    by_key = {name_key(row["name"]): row for row in stored}
    printing_card = {
        row["id"]: row["card_id"]
        for row in db.query(
            "select p.id, p.card_id from card_printings p join cards c on c.id = p.card_id where c.game_id = ?",
            [game_id],
        )
    }
    stored_by_id = {row["id"]: row for row in stored}
    new_cards, updated, kept, new_printings, updated_printings = [], [], 0, [], []
    card_ids: dict[str, int] = {}
    next_card = next_id(db, "cards")
    new_slugs: set[str] = set()
    for card in parsed.cards:
        match = by_name.get(card.name) or by_key.get(name_key(card.name))
        if match is None:
            shared = {printing_card[p.id] for p in card.printings if p.id in printing_card}
            match = stored_by_id.get(next(iter(shared))) if len(shared) == 1 else None
        if match is None:
            card_ids[card.name] = next_card
            new_cards.append(
                {
                    "id": next_card,
                    "name": card.name,
                    "slug": unique_slug(db, card.name, new_slugs),
                    **_card_row(card, game_id, document_id),
                }
            )
            next_card += 1
            continue
        card_ids[card.name] = match["id"]
        if date >= match["date"]:
            updated.append((card, match["id"]))
        else:
            kept += 1
    db.table("cards").insert_all(new_cards)
    if updated:
        columns = list(_card_row(updated[0][0], game_id, document_id))
        assignments = ", ".join(f"[{column}] = ?" for column in columns)
        with db.conn:  # one statement for every card the newer list rewords
            db.conn.executemany(
                f"update cards set {assignments} where id = ?",
                [[*_card_row(card, game_id, document_id).values(), card_id] for card, card_id in updated],
            )
            db.conn.execute(
                "delete from card_keywords where card_id in (select value from json_each(?))",
                [json.dumps([card_id for _, card_id in updated])],
            )
    newer_ids = {card_id for _, card_id in updated} | {row["id"] for row in new_cards}
    for card in parsed.cards:
        card_id = card_ids[card.name]
        for printing in card.printings:
            row = {
                "id": printing.id,
                "card_id": card_id,
                "card_set": printing.card_set,
                "collector_number": printing.collector_number,
                "rarity": printing.rarity,
                "image_url": printing.image_url,
                "printed_name": printing.printed_name,
                "ability_raw": printing.ability_raw,
                "set_id": printing.set_id,
                "code": printing.code,
                "document_id": document_id,
            }
            if printing.id not in printing_card:
                new_printings.append(row)
                printing_card[printing.id] = card_id
            elif card_id in newer_ids:
                updated_printings.append(row)
    db.table("card_printings").insert_all(new_printings)
    db.table("card_printings").upsert_all(updated_printings, pk="id")
    db.table("card_keywords").insert_all(
        {"card_id": card_ids[card.name], "keyword_id": None, "term": keyword.term, "value": keyword.value}
        for card in parsed.cards
        if card_ids[card.name] in newer_ids
        for keyword in card.keywords
    )
    db.table("card_texts").insert_all(
        {
            "card_id": card_ids[card.name],
            "document_id": document_id,
            **_text_fields(card),
            "errata_text": card.listed_errata[-1][1] if card.listed_errata else None,
        }
        for card in parsed.cards
    )
    db.table("card_tokens").insert_all(
        {
            "id": printing.id,
            "game_id": game_id,
            "name": token.name,
            "card_set": printing.card_set,
            "set_id": printing.set_id,
            "ability_text": token.ability_text,
            "document_id": document_id,
        }
        for token in parsed.tokens
        for printing in token.printings
    )
    return {
        "cards": len(parsed.cards),
        "cards new": len(new_cards),
        "cards also in an earlier list": len(updated) + kept,
        "printings": sum(len(card.printings) for card in parsed.cards),
        "printings new": len(new_printings),
        "card keywords": sum(len(card.keywords) for card in parsed.cards),
        **({"tokens (not cards)": [token.name for token in parsed.tokens]} if parsed.tokens else {}),
    }
