"""What the pages ask about a card's standing: its bans (each source's claim), its errata with their dates, the
card lists its wording comes from, and a game's bans and sets. Plain data for ``datasette_plugins``."""

from __future__ import annotations

import sqlite3
from collections import defaultdict

# 2v2 bans every card Constructed bans, and its own extra bans (bans.format = '2v2').
IMPLIED_FORMATS = {"2v2": ("Constructed",)}
FORMATS = ("Constructed", "2v2")


def _rows(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    cursor = conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def banned_sql(card: str, format_param: str) -> str:
    """SQL that is true when the card (a column holding cards.id) is banned in the format a parameter names."""
    return f"""exists (select 1 from bans b where b.card_id = {card} and (b.format = {format_param}
        or ({format_param} = '2v2' and b.format = 'Constructed')))"""


def _claims(rows: list[dict]) -> list[dict]:
    """A card's ban claims in one format: each date with the sources that give it, dated first (earliest first),
    then the sources that give no date."""
    by_date: dict[str | None, list[dict]] = defaultdict(list)
    for row in rows:
        by_date[row["effective_date"]].append(
            {
                "document_id": row["document_id"],
                "title": row["title"],
                "line": row["line"],
                "note": row["note"],
                "written": row["name"],
            }
        )
    dated = sorted(date for date in by_date if date)
    return [{"date": date, "sources": by_date[date]} for date in [*dated, *([None] if None in by_date else [])]]


def card_bans(conn: sqlite3.Connection, card_id: int) -> list[dict]:
    """The formats the card is banned in, each with every source's claim of since when (``claims``); ``disputed``
    when dated sources disagree; ``through`` the format whose ban makes this one (2v2 through Constructed)."""
    rows = _rows(
        conn,
        """select b.format, b.effective_date, b.document_id, b.line, b.note, b.name, d.title
        from bans b join documents d on d.id = b.document_id where b.card_id = ?
        order by b.effective_date, d.version_date, b.document_id""",
        [card_id],
    )
    by_format: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by_format[row["format"]].append(row)
    result = []
    for format_name in [*FORMATS, *sorted(set(by_format) - set(FORMATS))]:
        own = by_format.get(format_name, [])
        through = next((other for other in IMPLIED_FORMATS.get(format_name, ()) if by_format.get(other)), None)
        if not own and not through:
            continue
        claims = _claims(own or by_format[through or ""])
        result.append(
            {
                "format": format_name,
                "claims": claims,
                "disputed": sum(1 for claim in claims if claim["date"]) > 1,
                "through": None if own else through,
            }
        )
    return result


def card_errata(conn: sqlite3.Connection, card_id: int) -> list[dict]:
    """The card's errata in force and before it, newest first: each with its announcement and date; an erratum
    of an older undated list that a dated one replaces is left out (``superseded_by``)."""
    return _rows(
        conn,
        """select e.id, e.old_text, e.new_text, e.card_set, e.announced_on, e.announcement, e.url, e.applied_as,
            e.document_id, d.title as document_title
        from card_errata e left join documents d on d.id = e.document_id
        where e.card_id = ? and e.new_text is not null
            and (e.superseded_by is null or e.announced_on is not null)
        order by e.announced_on desc, e.id desc""",
        [card_id],
    )


def card_sources(conn: sqlite3.Connection, card_id: int) -> list[dict]:
    """Each card list's wording of the card, newest list first; ``current`` marks the one the card takes."""
    rows = _rows(
        conn,
        """select t.document_id, d.title, coalesce(d.version_date, d.version) as date, t.ability_text,
            t.card_type, t.domain, t.energy, t.power, t.might, t.document_id = c.document_id as current
        from card_texts t join documents d on d.id = t.document_id join cards c on c.id = t.card_id
        where t.card_id = ? order by date desc""",
        [card_id],
    )
    facts = ("card_type", "domain", "energy", "power", "might")
    versions = {(" ".join((row["ability_text"] or "").split()), *(row[fact] for fact in facts)) for row in rows}
    for row in rows:
        row["differs"] = len(versions) > 1
    return rows


def bans_page(conn: sqlite3.Connection, game: str) -> dict | None:
    """A game's bans by format, each card with every source's dated claim, the sources and the sets' dates."""
    name = conn.execute("select name from games where id = ?", [game]).fetchone()
    if name is None:
        return None
    rows = _rows(
        conn,
        """select b.format, b.effective_date, b.document_id, b.line, b.note, b.name, d.title, b.card_id,
            c.name as card, c.slug, c.card_type
        from bans b join documents d on d.id = b.document_id left join cards c on c.id = b.card_id
        where b.game_id = ? order by b.effective_date, d.version_date, b.document_id""",
        [game],
    )
    grouped: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in rows:
        grouped[(row["format"], row["card"] or row["name"])].append(row)
    formats = []
    for format_name in [*FORMATS, *sorted({row["format"] for row in rows} - set(FORMATS))]:
        cards = []
        for (card_format, card_name), claims_rows in grouped.items():
            if card_format != format_name:
                continue
            claims = _claims(claims_rows)
            first = claims_rows[0]
            cards.append(
                {
                    "name": card_name,
                    "slug": first["slug"],
                    "card_type": first["card_type"],
                    "claims": claims,
                    "disputed": sum(1 for claim in claims if claim["date"]) > 1,
                    "since": next((claim["date"] for claim in claims if claim["date"]), None),
                }
            )
        if cards:
            cards.sort(key=lambda card: (card["since"] or "9999", card["name"]))
            formats.append({"format": format_name, "cards": cards, "includes": IMPLIED_FORMATS.get(format_name, ())})
    return {
        "game": {"id": game, "name": name[0]},
        "formats": formats,
        "sources": _rows(
            conn,
            """select d.id, d.title, d.version_date, d.source_file,
                (select count(*) from bans where document_id = d.id) as bans,
                (select count(*) from bans where document_id = d.id and effective_date is not null) as dated
            from documents d where d.game_id = ? and d.kind = 'bans' order by d.version_date""",
            [game],
        ),
        "sets": _rows(
            conn,
            """select s.id, s.name, s.release_date, s.document_id,
                (select count(*) from card_printings where set_id = s.id) as printings
            from sets s where s.game_id = ? order by s.release_date, s.id""",
            [game],
        ),
    }
