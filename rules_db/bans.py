"""Ban lists and set release dates stored: each source's claims side by side.

A ban names its card as its source writes it ("Dreaming Tree", "Reaver’s Row", "Master Yi, Wuju Bladesman",
"Wuju Bladesman - Starter"); it is linked to the card by a printing it names ("OGN-292"), else by the card's
name or one of its names (``card_aliases``: derived, curated, legends), else, for "<champion>, <title>", by the
Legend titled so. A name none of these finds keeps card_id null and is reported.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import sqlite_utils

from ingest.bans import ParsedBans, load_set_names
from ingest.cards import name_key


def store_bans(db: sqlite_utils.Database, game_id: str, document_id: str, parsed: ParsedBans) -> dict:
    find = _CardFinder(db, game_id)
    title = db.execute("select title from documents where id = ?", [document_id]).fetchone()
    rows, unmatched = [], []
    for ban in parsed.bans:
        card_id = find(ban.name, ban.printing_codes)
        if card_id is None:
            unmatched.append(f"{ban.name} (line {ban.line})")
        rows.append(
            {
                "game_id": game_id,
                "card_id": card_id,
                "name": ban.name,
                "format": ban.format,
                "effective_date": ban.effective_date,
                "document_id": document_id,
                "source": title[0] if title else document_id,
                "line": ban.line,
                "note": ban.note,
            }
        )
    db.table("bans").insert_all(rows)
    formats = Counter(row["format"] for row in rows)
    figures: dict = {
        **{f"{format_name} bans": count for format_name, count in sorted(formats.items())},
        "bans dated": sum(1 for row in rows if row["effective_date"]),
        "bans naming no card": unmatched,
    }
    if parsed.sets:
        figures.update(store_sets(db, game_id, document_id, parsed))
    figures.update({"dates disagreeing with another source": disagreements(db, game_id, document_id)})
    return figures


def store_sets(db: sqlite_utils.Database, game_id: str, document_id: str, parsed: ParsedBans) -> dict:
    """The sets a source dates, named from the card lists (the name most printings of that code give), else from
    ingest/data/card_sets.yaml; a set another source dated first keeps that date, and a different one is reported."""
    names: dict[str, Counter] = defaultdict(Counter)
    for row in db.query(
        """select p.set_id, p.card_set, count(*) as n from card_printings p join cards c on c.id = p.card_id
        where c.game_id = ? and p.set_id is not null group by p.set_id, p.card_set""",
        [game_id],
    ):
        names[row["set_id"]][row["card_set"]] += row["n"]
    curated = load_set_names().get(game_id, {})
    stored = {row["id"]: row for row in db.query("select * from sets where game_id = ?", [game_id])}
    rows, differing = [], []
    for parsed_set in parsed.sets:
        if parsed_set.id in stored:
            if stored[parsed_set.id]["release_date"] != parsed_set.release_date:
                differing.append(
                    f"{parsed_set.id}: {parsed_set.release_date} here, {stored[parsed_set.id]['release_date']} "
                    f"in {stored[parsed_set.id]['document_id']}"
                )
            continue
        name = names[parsed_set.id].most_common(1)[0][0] if names.get(parsed_set.id) else curated.get(parsed_set.id)
        rows.append(
            {
                "id": parsed_set.id,
                "game_id": game_id,
                "name": name,
                "release_date": parsed_set.release_date,
                "document_id": document_id,
            }
        )
    db.table("sets").insert_all(rows)
    return {"sets": len(rows), "set dates disagreeing": differing}


def disagreements(db: sqlite_utils.Database, game_id: str, document_id: str | None = None) -> list[str]:
    """Cards whose ban in a format sources date differently ("Called Shot, Constructed: 2026-03-31 (a, b),
    2026-07-24 (c)"), those this document takes part in when one is given."""
    claims: dict[tuple, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for row in db.query(
        """select coalesce(c.name, b.name) as card, b.format, b.effective_date, b.document_id from bans b
        left join cards c on c.id = b.card_id where b.game_id = ? and b.effective_date is not null
        order by b.effective_date, b.document_id""",
        [game_id],
    ):
        claims[(row["card"], row["format"])][row["effective_date"]].append(row["document_id"])
    return [
        f"{card}, {format_name}: " + "; ".join(f"{date} ({', '.join(sources)})" for date, sources in dates.items())
        for (card, format_name), dates in sorted(claims.items())
        if len(dates) > 1 and (document_id is None or any(document_id in s for s in dates.values()))
    ]


class _CardFinder:
    def __init__(self, db: sqlite_utils.Database, game_id: str):
        self.names: dict[str, set[int]] = defaultdict(set)
        self.legends: dict[str, set[int]] = defaultdict(set)
        for row in db.query(
            """select id, name as surface, card_type from cards where game_id = ? and in_card_list = 1
            union all select c.id, a.alias, c.card_type from card_aliases a join cards c on c.id = a.card_id
            where c.game_id = ? and c.in_card_list = 1""",
            [game_id, game_id],
        ):
            self.names[name_key(row["surface"])].add(row["id"])
            if row["card_type"] == "Legend":
                self.legends[name_key(row["surface"])].add(row["id"])
        self.printings = [
            (row["id"].upper(), row["card_id"])
            for row in db.query(
                "select p.id, p.card_id from card_printings p join cards c on c.id = p.card_id where c.game_id = ?",
                [game_id],
            )
        ]

    def __call__(self, name: str, codes: list[str]) -> int | None:
        by_code = {
            card_id
            for code in codes
            for printing, card_id in self.printings
            if printing.startswith(code.upper() + "-") or printing == code.upper()
        }
        if len(by_code) == 1:
            return next(iter(by_code))
        by_name = self.names.get(name_key(name), set())
        if len(by_name) == 1:
            return next(iter(by_name))
        _, comma, title = name.partition(", ")
        by_title = self.legends.get(name_key(title), set()) if comma else set()
        return next(iter(by_title)) if len(by_title) == 1 else None
