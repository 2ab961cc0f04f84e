"""The infractions page: what a game's rulebooks define as infractions, with their penalties."""

from __future__ import annotations

import sqlite3
from collections import Counter

from rules_db import versions
from rules_db.queries.common import RULE_REF, select_all, select_one


def infractions_page(conn: sqlite3.Connection, game: str, rulebook: str | None = None) -> dict | None:
    """The infractions a game's rulebooks define with their penalties (the newest version of each
    rulebook that has any, or of the one named), grouped by category in rule order. None when the game
    has none."""
    documents = [
        document
        for document in versions.newest_documents(conn, game)
        if rulebook in (None, document["rulebook_slug"])
        and conn.execute("select 1 from infractions where document_id = ?", [document["id"]]).fetchone()
    ]
    if not documents:
        return None
    books = []
    for document in documents:
        rows = select_all(
            conn,
            f"""select i.name, i.penalty, i.category, {RULE_REF} from infractions i
            join rules r on r.id = i.rule_id join documents d on d.id = r.document_id
            where i.document_id = ? order by r.position""",
            [document["id"]],
        )
        categories: list[dict] = []
        for row in rows:
            if not categories or categories[-1]["category"] != row["category"]:
                categories.append({"category": row["category"], "infractions": []})
            categories[-1]["infractions"].append(row)
        penalties = dict(Counter(row["penalty"] for row in rows))
        books.append({"document": document, "categories": categories, "penalties": penalties})
    return {"game": select_one(conn, "select id, name from games where id = ?", [game]), "rulebooks": books}
