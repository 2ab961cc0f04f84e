"""What a game's offline pack holds: every page a judge may open at an event with no network, as plain data.

The web layer (``datasette_plugins.offline``) turns these rows into the pages' URLs; a phone fetches them all
once ("keep this game offline") and its service worker answers them from that copy afterwards. Rules come
from every version of every rulebook of the game (the newest ones apart, so a judge may leave older versions
out), because rulings link the version they were written against.
"""

from __future__ import annotations

import json
import sqlite3


def _rows(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    cursor = conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def pack_contents(conn: sqlite3.Connection, game: str) -> dict | None:
    """The game's name and what its pack holds (None for a game the database does not have): ``rulebooks``
    (each rules document: version, rulebook slug, None for the default rulebook, whether it is the newest),
    ``rules`` (number, version, rulebook, is_newest), ``keywords`` (term, version), ``rulings`` (ids),
    ``cards`` (slugs), ``replays`` (id and step count of the scenarios replayed under this game's rules) and their
    ``replay_tags``, the ``comparisons`` of consecutive versions the lineage links, the ``rulings_documents``, the
    ``patch_notes`` files, and whether the game has bans and infractions pages."""
    found = conn.execute("select name from games where id = ?", (game,)).fetchone()
    if found is None:
        return None
    rulebook = """(select case when b.is_default then null else b.slug end from rulebooks b
        where b.id = d.rulebook_id)"""
    rules = _rows(
        conn,
        f"""select r.number, d.version, {rulebook} as rulebook, d.is_newest
        from rules r join documents d on d.id = r.document_id
        where d.game_id = ? and d.kind = 'rules'
        order by d.is_newest desc, d.rulebook_id, d.version desc, r.position""",
        (game,),
    )
    rulebooks = _rows(
        conn,
        f"""select d.version, {rulebook} as rulebook, d.is_newest,
            (select b.title from rulebooks b where b.id = d.rulebook_id) as title, d.version_label as label
        from documents d where d.game_id = ? and d.kind = 'rules'
        order by d.is_newest desc, d.rulebook_id, d.version desc""",
        (game,),
    )
    keywords = _rows(
        conn,
        f"""select distinct k.term, d.version, d.is_newest, {rulebook} as rulebook
        from keywords k join documents d on d.id = k.document_id
        where d.game_id = ? and d.kind = 'rules' order by d.is_newest desc, d.version desc, k.term""",
        (game,),
    )
    comparisons = _rows(
        conn,
        f"""select o.version as old, d.version as new, {rulebook} as rulebook
        from rule_lineage_pairs l join documents o on o.id = l.from_document_id join documents d on d.id = l.to_document_id
        where d.game_id = ? order by d.is_newest desc, d.version desc""",
        (game,),
    )
    tags = sorted(
        {
            tag
            for (text,) in conn.execute(
                """select p.tags from replays p join documents d on d.id = p.rules_document_id
                where d.game_id = ? and p.tags is not null""",
                (game,),
            )
            for tag in json.loads(text or "[]")
        }
    )
    column = lambda sql: [row[0] for row in conn.execute(sql, (game,))]  # noqa: E731
    return {
        "game": game,
        "name": found[0],
        "rulebooks": rulebooks,
        "rules": rules,
        "keywords": keywords,
        "rulings": column("select id from rulings where game_id = ? order by id"),
        "cards": column("select slug from cards where game_id = ? and slug is not null order by name, slug"),
        "replays": _rows(
            conn,
            """select p.id, p.step_count from replays p join documents d on d.id = p.rules_document_id
            where d.game_id = ? order by p.id""",
            (game,),
        ),
        "replay_tags": tags,
        "comparisons": comparisons,
        "rulings_documents": column(
            "select id from documents where game_id = ? and kind = 'rulings' and exists "
            "(select 1 from rulings r where r.document_id = documents.id) order by id"
        ),
        "patch_notes": column(
            "select distinct patch_notes from effective_dates where game_id = ? and patch_notes is not null "
            "order by effective_date"
        ),
        "has_bans": bool(column("select 1 from bans where game_id = ? limit 1")),
        "has_infractions": bool(
            column("select 1 from infractions i join documents d on d.id = i.document_id where d.game_id = ? limit 1")
        ),
    }
