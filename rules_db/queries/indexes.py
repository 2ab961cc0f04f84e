"""The lists judges browse (rulings, cards, replays): one page of rows narrowed by the filters asked, with the
filters' choices."""

from __future__ import annotations

import json
import sqlite3

from rules_db import card_status
from rules_db.queries.common import PART_OF, paged, select_all
from rules_db.queries.kept import lookup_table


def rulings_index(
    conn: sqlite3.Connection,
    game: str | None = None,
    document: str | None = None,
    source: str | None = None,
    category: str | None = None,
    card: str | None = None,
    rule: str | None = None,
    order: str = "position",
    page: int = 1,
) -> dict:
    """Rulings narrowed by game, document, source (who wrote them), category, a card they name (slug, name
    or nickname) and a rule they cite (a number, with its sub-rules); in source order, or newest first
    (``order="newest"``: by date where the source gives one, else later documents and positions first)."""
    params = {
        "game": game,
        "document": document,
        "source": source,
        "category": category,
        "card": card,
        "rule": (rule or "").strip().rstrip(".") or None,
    }
    order_by = (
        "g.created_at is null, g.created_at desc, d.version desc, g.position desc"
        if order == "newest"
        else "d.title, d.version, g.position"
    )
    sql = f"""
        select g.id, g.question, {PART_OF}, g.position, g.game_id as game, d.id as document, d.title as document_title,
            g.source, g.category, g.created_at
        from rulings g join documents d on d.id = g.document_id
        where (:game is null or g.game_id = :game) and (:document is null or g.document_id = :document)
          and (:source is null or g.source = :source) and (:category is null or g.category = :category)
          and (:card is null or g.id in (select m.ruling_id from card_mentions m join cards c on c.id = m.card_id
              where c.slug = :card or c.name = :card collate nocase
                 or c.id in (select card_id from card_aliases where alias = :card collate nocase)))
          and (:rule is null or g.id in (select ruling_id from ruling_citations
              where number = :rule collate nocase or number like :rule || '.%'))"""
    return {
        **paged(conn, sql, order_by, params, page, details=_RULING_DETAILS),
        "filters": {**params, "order": order},
        "options": lookup_table(conn, ("rulings index options",), lambda: _rulings_options(conn)),
    }


# What the rulings list shows of each ruling beside its own columns: the rules it cites, the cards it names.
_RULING_DETAILS = """select g.id,
    (select group_concat(number, ', ') from (select distinct number from ruling_citations
        where ruling_id = g.id and how = 'explicit' order by id)) as cited,
    (select group_concat(name, ', ') from (select distinct c.name from card_mentions m
        join cards c on c.id = m.card_id where m.ruling_id = g.id order by c.name)) as cards
    from rulings g where g.id in (select value from json_each(:_ids))"""


def _rulings_options(conn: sqlite3.Connection) -> dict:
    """The choices of the rulings list's filters (the same for every request: kept per database)."""
    return {
        "games": select_all(conn, "select id, name from games where id in (select game_id from rulings) order by name"),
        "documents": select_all(
            conn,
            """select d.id, d.title, d.version, count(*) as rulings from rulings g
            join documents d on d.id = g.document_id group by d.id order by d.title""",
        ),
        "sources": _distinct_values(conn, "rulings", "source"),
        "categories": _distinct_values(conn, "rulings", "category"),
        "cards": select_all(
            conn,
            """select c.slug, c.name, count(distinct m.ruling_id) as rulings from card_mentions m
            join cards c on c.id = m.card_id group by c.id order by c.name""",
        ),
    }


def cards_index(
    conn: sqlite3.Connection,
    game: str | None = None,
    name: str | None = None,
    card_set: str | None = None,
    card_type: str | None = None,
    domain: str | None = None,
    page: int = 1,
    legality: str | None = None,
    format_name: str | None = None,
) -> dict:
    """Cards by name, narrowed by game, a piece of their name or of a nickname, set, type, domain and legality
    ('banned' or 'legal' in a format: Constructed unless ``format_name`` says 2v2)."""
    legality = legality if legality in ("banned", "legal") else None
    format_name = format_name if format_name in card_status.FORMATS else None
    params = {
        "game": game,
        "name": (name or "").strip() or None,
        "set": card_set,
        "type": card_type,
        "domain": domain,
        "legality": legality,
        "format": format_name,
    }
    sql = f"""
        select c.id, c.name, c.slug, c.game_id as game, c.card_type, c.domain, c.energy, c.might, c.power,
            c.in_card_list, substr(coalesce(c.current_text, c.ability_text), 1, 140) as preview
        from cards c
        where (:game is null or c.game_id = :game) and (:type is null or c.card_type = :type)
          and (:domain is null or ', ' || c.domain || ', ' like '%, ' || :domain || ', %')
          and (:set is null or c.id in (select card_id from card_printings where card_set = :set))
          and (:legality is null or (:legality = 'banned') = {_BANNED}
              and (:legality = 'banned' or c.in_card_list = 1))
          and (:name is null or c.name like '%' || :name || '%'
              or c.id in (select card_id from card_aliases where alias like '%' || :name || '%'))"""
    return {
        **paged(conn, sql, "c.name collate nocase", params, page, details=_CARD_DETAILS),
        "filters": params,
        "options": lookup_table(conn, ("cards index options",), lambda: _cards_options(conn)),
    }


# What the cards list shows of each card beside its own columns: whether it has errata, how many rulings name it,
# which of its nicknames match the name asked for.
_BANNED = card_status.banned_sql("c.id", "coalesce(:format, 'Constructed')")


_CARD_DETAILS = """select c.id,
    exists (select 1 from card_errata where card_id = c.id and new_text is not null) as has_errata,
    (select group_concat(distinct format) from bans where card_id = c.id) as banned_in,
    (select count(distinct ruling_id) from card_mentions where card_id = c.id) as rulings,
    (select group_concat(alias, ', ') from card_aliases a where a.card_id = c.id and :name is not null
        and a.alias like '%' || :name || '%') as matched_aliases
    from cards c where c.id in (select value from json_each(:_ids))"""


def _distinct_values(conn: sqlite3.Connection, table: str, column: str) -> list:
    """The values a column holds (not null), sorted: the choices of a list's filter on it."""
    return [
        row[0] for row in conn.execute(f"select distinct {column} from {table} where {column} is not null order by 1")
    ]


def _cards_options(conn: sqlite3.Connection) -> dict:
    """The choices of the cards list's filters (the same for every request: kept per database)."""
    domains = {
        domain
        for (joined,) in conn.execute("select distinct domain from cards where domain is not null")
        for domain in joined.split(", ")
        if domain
    }
    return {
        "games": select_all(conn, "select id, name from games where id in (select game_id from cards) order by name"),
        "sets": _distinct_values(conn, "card_printings", "card_set"),
        "types": _distinct_values(conn, "cards", "card_type"),
        "domains": sorted(domains),
    }


def replays_index(
    conn: sqlite3.Connection,
    verdict: str | None = None,
    ruling: int | None = None,
    tag: str | None = None,
    page: int = 1,
) -> dict:
    """Scenario replays, narrowed by verdict, the ruling they replay and a tag, in ruling order."""
    params = {"verdict": verdict, "ruling": ruling, "tag": tag}
    sql = """
        select p.id, p.title, p.verdict, p.ruling_id, g.question, p.step_count, p.tags, d.version as rules_version,
            p.disagreement is not null as disagrees
        from replays p left join rulings g on g.id = p.ruling_id left join documents d on d.id = p.rules_document_id
        where (:verdict is null or p.verdict = :verdict) and (:ruling is null or p.ruling_id = :ruling)
          and (:tag is null or exists (select 1 from json_each(coalesce(p.tags, '[]')) where value = :tag))"""
    listed = paged(conn, sql, "g.position, p.id", params, page)
    for row in listed["rows"]:
        row["tags"] = json.loads(row["tags"] or "[]")
        row["disagrees"] = bool(row["disagrees"])
    return {
        **listed,
        "filters": params,
        "options": lookup_table(conn, ("replays index options",), lambda: _replays_options(conn)),
    }


def _replays_options(conn: sqlite3.Connection) -> dict:
    """The choices of the replays list's filters (the same for every request: kept per database)."""
    return {
        "verdicts": _distinct_values(conn, "replays", "verdict"),
        "tags": [
            row[0]
            for row in conn.execute(
                "select distinct value from replays, json_each(coalesce(replays.tags, '[]')) order by 1"
            )
        ],
    }
