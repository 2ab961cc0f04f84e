"""The card page, and what a card address or a typed name that is no card's slug means."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict

from rapidfuzz import fuzz, process

from rules_db import card_status
from rules_db.queries.common import PART_OF, answer_line, select_all, select_one
from rules_db.queries.kept import lookup_table
from rules_db.store import slugify


def card_page(conn: sqlite3.Connection, slug: str) -> dict | None:
    card = select_one(
        conn,
        """select cards.*, games.name as game_name from cards left join games on games.id = cards.game_id
        where slug = ?""",
        [slug],
    )
    if card is None:
        return None
    card_id = card["id"]
    return {
        "card": card,
        "aliases": [
            row["alias"]
            for row in select_all(conn, "select alias from card_aliases where card_id = ? order by alias", [card_id])
        ],
        "printings": select_all(
            conn, "select * from card_printings where card_id = ? order by card_set, collector_number", [card_id]
        ),
        "keywords": select_all(
            conn,
            """select ck.term, ck.value, k.term as keyword, k.game_id as game,
                d.version as keyword_version, k.defining_number
            from card_keywords ck left join keywords k on k.id = ck.keyword_id
            left join documents d on d.id = k.document_id where ck.card_id = ? order by ck.id""",
            [card_id],
        ),
        "errata": [
            {**erratum, "faqs": json.loads(erratum["faqs"] or "[]")}
            for erratum in select_all(
                conn,
                "select old_text, new_text, card_set, faqs from card_errata where card_id = ? order by id",
                [card_id],
            )
        ],
        "dated_errata": card_status.card_errata(conn, card_id),
        "bans": card_status.card_bans(conn, card_id),
        "sources": card_status.card_sources(conn, card_id),
        "rulings": [
            {**ruling, "answer": answer_line(ruling.pop("ruling"))}
            for ruling in select_all(
                conn,
                f"""select g.id, g.question, g.ruling, {PART_OF}, group_concat(distinct m.surface) as surfaces
                from card_mentions m join rulings g on g.id = m.ruling_id where m.card_id = ? group by g.id
                order by g.position""",
                [card_id],
            )
        ],
        "replays": select_all(
            conn,
            """select p.id, p.title, p.verdict, p.ruling_id from replays p
            where p.id in (select replay_id from replay_cards where card_id = ?) order by p.id""",
            [card_id],
        ),
        "reading": _reading(conn, card_id),
    }


def _reading(conn: sqlite3.Connection, card_id: int) -> dict | None:
    """How the card reader read the card's text (``card_readings``): its status and the words it could not read."""
    row = select_one(conn, "select status, unread from card_readings where card_id = ?", [card_id])
    return {"status": row["status"], "unread": json.loads(row["unread"] or "[]")} if row else None


def find_cards(conn: sqlite3.Connection, text: str, nearest: int = 5) -> dict:
    """What a card address or a typed name means when it is no card's slug: ``cards``, the cards whose name
    or nickname it is (several for a champion's name), or else ``nearest``, the closest names (rapidfuzz)."""
    wanted = slugify(text)
    names, by_slug, choices = lookup_table(conn, ("card names",), lambda: _card_names(conn))
    matches = {row["slug"]: {"slug": row["slug"], "name": row["name"]} for row in by_slug.get(wanted, [])}
    if matches or not wanted:
        return {"cards": sorted(matches.values(), key=lambda card: card["name"]), "nearest": []}
    scored = process.extract(wanted.replace("-", " "), choices, scorer=fuzz.ratio, score_cutoff=60, limit=nearest * 4)
    closest: dict[str, dict] = {}
    for _text, score, index in scored:
        row = names[index]
        closest.setdefault(
            row["slug"], {"slug": row["slug"], "name": row["name"], "matched": row["matched"], "score": round(score, 1)}
        )
    return {"cards": [], "nearest": list(closest.values())[:nearest]}


def _card_names(conn: sqlite3.Connection) -> tuple[list[dict], dict[str, list[dict]], list[str]]:
    """Every card's name and nicknames (``matched``), by the slug each makes, and each as the words rapidfuzz
    compares (a slug's hyphens as spaces): worked out once per database, as slugging them all was most of the
    cost of an unknown card's page."""
    names = select_all(
        conn,
        """select slug, name, name as matched from cards
        union all select c.slug, c.name, a.alias from card_aliases a join cards c on c.id = a.card_id""",
    )
    slugs = [slugify(row["matched"]) for row in names]
    by_slug: dict[str, list[dict]] = defaultdict(list)
    for row, slug in zip(names, slugs):
        by_slug[slug].append(row)
    return names, dict(by_slug), [slug.replace("-", " ") for slug in slugs]


def card_slugs(conn: sqlite3.Connection, game: str, names: list[str]) -> dict[str, str]:
    """The card page (slug) of each of these card names that the card list holds."""
    rows = conn.execute(
        "select name, slug from cards where game_id = ? and name in (select value from json_each(?))",
        [game, json.dumps(sorted(set(names)))],
    )
    return dict(rows.fetchall())


def engine_card_names(conn: sqlite3.Connection, game: str) -> set[str]:
    """The card list's names (a dispute's card picker marks the ones the engine models)."""
    return {row[0] for row in conn.execute("select name from cards where game_id = ?", [game])}
