"""The home page: every game with its documents, what was in force on a day, and the licensed sources credited."""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from urllib.parse import urlsplit

from rules_db import in_force
from rules_db.queries.common import select_all


def licensed_sources(conn: sqlite3.Connection) -> list[dict]:
    """The ruling sources shared under a licence (CC BY-SA: their text is credited wherever it is shown), each
    with its licence, the licence's URL, its site (where its rulings' pages are) and what it writes about itself
    (``notes``, from ``source_notes``: not rulings, shown with its credit)."""
    rows = select_all(
        conn,
        """select source, licence, licence_url, min(url) as url, json_group_array(distinct document_id) as documents
        from rulings where licence is not null and licence != '' group by source, licence, licence_url order by source""",
        [],
    )
    for row in rows:
        parts = urlsplit(row.pop("url") or "")
        row["site"] = f"{parts.scheme}://{parts.netloc}/" if parts.scheme and parts.netloc else None
        row["notes"] = select_all(
            conn,
            """select n.title, n.text, n.url from json_each(?) d join source_notes n on n.document_id = d.value
            order by n.document_id, n.position""",
            [row.pop("documents")],
        )
    return rows


def home(conn: sqlite3.Connection, day: str | None = None, today: str | None = None) -> dict:
    """Every game with its documents (every version) and what each holds; the game with most documents first.
    With ``day`` (ISO), each game whose versions are dated says what was in force that day (``in_force``);
    ``today`` is the day the page calls today."""
    games = select_all(
        conn, "select id, name from games order by (select count(*) from documents where game_id = games.id) desc, name"
    )
    documents = select_all(
        conn,
        """
        select d.id, d.game_id, d.title, d.version, d.version_label, d.version_date, d.kind, d.source_file,
            d.original_name, d.is_newest, d.coverage, d.written_against, d.rulebook_id, b.title as rulebook_title,
            case when b.is_default then null else b.slug end as rulebook, previous.version as diff_from,
            (select count(*) from rules where document_id = d.id) as rules,
            (select count(*) from keywords where document_id = d.id) as keywords,
            (select count(*) from rulings where document_id = d.id) as rulings,
            (select count(*) from infractions where document_id = d.id) as infractions,
            (select count(*) from parse_issues where document_id = d.id) as parse_issues,
            (select count(*) from skipped_lines where document_id = d.id) as skipped_lines
        from documents d left join rulebooks b on b.id = d.rulebook_id
        left join documents previous on previous.id = d.previous_id
        order by d.game_id, d.kind, b.is_default desc, b.slug, coalesce(d.version_date, d.version) desc""",
    )
    by_game = defaultdict(list)
    for document in documents:
        by_game[document["game_id"]].append(document)
    for game in games:
        game["documents"] = by_game[game["id"]]
        game["cards"] = conn.execute("select count(*) from cards where game_id = ?", [game["id"]]).fetchone()[0]
        game["errata"] = conn.execute(  # the text changes in force: not those a newer list replaces, nor FAQs
            "select count(*) from card_errata join cards on cards.id = card_errata.card_id where cards.game_id = ? "
            "and card_errata.new_text is not null and card_errata.superseded_by is null",
            [game["id"]],
        ).fetchone()[0]
        game["banned"] = conn.execute(
            "select count(distinct card_id) from bans where game_id = ? and format = 'Constructed'", [game["id"]]
        ).fetchone()[0]
        game["replays"] = conn.execute(
            "select count(*) from replays join documents on documents.id = replays.rules_document_id "
            "where documents.game_id = ?",
            [game["id"]],
        ).fetchone()[0]
        game["in_force"] = None
        if day and (in_force.listed_versions(conn, game["id"]) or in_force.faqs_on(conn, game["id"], "9999-12-31")):
            game["in_force"] = {**in_force.in_force_on(conn, game["id"], day), "is_today": day == today}
    return {"games": games, "day": day, "today": today}
