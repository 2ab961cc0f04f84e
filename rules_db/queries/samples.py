"""One of each thing a judges' page shows, for a server to ask for once before it serves."""

from __future__ import annotations

import sqlite3

from rules_db.queries.common import RULE_REF, select_one


def page_samples(conn: sqlite3.Connection) -> dict:
    """One of each thing a judges' page shows, the first in the database's order (None where there is none): what
    a server asks for once before it serves, so that a judge's first page does not pay for loading what every
    page of its kind needs. ``question``: a ruling's question, as a judge would type one into search."""
    return {
        "rule": select_one(
            conn,
            f"select {RULE_REF} from rules r join documents d on d.id = r.document_id where d.is_newest "
            "order by r.id limit 1",
        ),
        "ruling": select_one(conn, "select id, question from rulings order by id limit 1"),
        "card": select_one(conn, "select slug from cards order by id limit 1"),
        "keyword": select_one(
            conn,
            """select k.game_id as game, d.version, k.term from keywords k join documents d on d.id = k.document_id
            order by k.id limit 1""",
        ),
        "replay": select_one(conn, "select id from replays where scenario is not null order by id limit 1"),
        "diff": select_one(
            conn,
            """select o.game_id as game, o.version as old, n.version as new,
                (select case when b.is_default then null else b.slug end from rulebooks b where b.id = n.rulebook_id)
                    as rulebook
            from rule_lineage_pairs l join documents o on o.id = l.from_document_id
            join documents n on n.id = l.to_document_id order by l.id limit 1""",
        ),
        "infractions": select_one(
            conn, "select d.game_id as game from infractions i join documents d on d.id = i.document_id limit 1"
        ),
    }
