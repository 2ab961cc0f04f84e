"""What every page's queries share: rows as dicts (``select_all``, ``select_one``), the columns that name a rule
(``RULE_REF``) and a sub-question's question (``PART_OF``), one page of a list (``paged``), a word diff as pages
show it (``diff_ops``), and the pieces several page kinds show (a game's symbols, a ruling's sequence)."""

from __future__ import annotations

import json
import sqlite3

from rules_db.lineage import word_diff

# Rule references in lists: enough to name, link and preview a rule. ``rulebook`` is the slug a
# rule's URL carries: None for the game's default rulebook (/rules/riftbound/2025-12-01/336.1),
# else /rules/riftbound/tournament/2026-07-16/204.8.
RULE_REF = """r.id, r.game_id as game, d.version, r.number, r.heading,
    substr(r.text, 1, 160) as preview, d.is_newest, r.document_id,
    (select case when b.is_default then null else b.slug end from rulebooks b where b.id = d.rulebook_id)
        as rulebook, (select b.title from rulebooks b where b.id = d.rulebook_id) as rulebook_title"""


# Rows per page of a list (the version comparison's and a keyword's mentions have their own sizes).
PAGE_SIZE = 100


def select_all(conn: sqlite3.Connection, sql: str, params=()) -> list[dict]:
    cursor = conn.execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def select_one(conn: sqlite3.Connection, sql: str, params=()) -> dict | None:
    rows = select_all(conn, sql, params)
    return rows[0] if rows else None


# A ruling's question as lists show it: a sub-question (one the source asks under another, "Resolution Sequence")
# names nothing alone, so a list also gives the question it is part of (null for any other). A column of a query
# that names its rulings table ``g``, as every list of rulings here does.
PART_OF = "(select question from rulings where id = g.parent_ruling_id) as part_of"


def parts_of(conn: sqlite3.Connection, ruling_ids: list[int]) -> dict[int, str]:
    """The question each sub-question among ``ruling_ids`` is part of (``PART_OF``), for lists that do not read the
    rulings themselves (search hits)."""
    return dict(
        conn.execute(
            f"""select g.id, {PART_OF} from json_each(?) w join rulings g on g.id = w.value
            where g.parent_ruling_id is not null""",
            [json.dumps(ruling_ids)],
        ).fetchall()
    )


def symbols(conn: sqlite3.Connection, game: str, document_id: str | None = None) -> list[dict]:
    """The shorthand a text of the game may print for its symbols (``[A]``, ``[E]``), each with what it stands for
    and the rule that defines it (a rule row): the definitions of the document the text is in, else those of the
    game's newest version that defines any (a ruling's or a card's text, an older version defining none)."""
    source = conn.execute(
        """select s.document_id from symbols s join documents d on d.id = s.document_id where s.game_id = ?
        order by s.document_id is ? desc, d.is_newest desc, d.version desc limit 1""",
        [game, document_id],
    ).fetchone()
    if source is None:
        return []
    return select_all(
        conn,
        f"""select s.shorthand, s.meaning, {RULE_REF} from symbols s join rules r on r.id = s.rule_id
        join documents d on d.id = r.document_id where s.document_id = ? order by s.id""",
        [source[0]],
    )


def diff_ops(old: str | None, new: str | None) -> list[dict]:
    """The word diff (``lineage.word_diff``) as pages and their JSON show it: ``{"op", "text"}`` runs."""
    return [{"op": op, "text": text} for op, text in word_diff(old or "", new or "")]


def ruling_sequence(conn: sqlite3.Connection, ruling_id: int) -> list[dict]:
    """A ruling's Sequence, its steps grouped under their branch headers ('If Guardian Angel is chosen')."""
    return _branches(
        select_all(
            conn, "select branch, position, text from ruling_steps where ruling_id = ? order by position", [ruling_id]
        )
    )


def _branches(steps: list[dict]) -> list[dict]:
    """Steps grouped into consecutive runs under the same branch header, order kept."""
    groups: list[dict] = []
    for step in steps:
        if not groups or groups[-1]["branch"] != step["branch"]:
            groups.append({"branch": step["branch"], "steps": []})
        groups[-1]["steps"].append(step)
    return groups


def with_raw_texts(rows: list[dict]) -> list[dict]:
    """Rows whose ``raw_texts`` (``json_group_array``: a ruling may cite one rule in several words) become lists."""
    for row in rows:
        row["raw_texts"] = json.loads(row["raw_texts"])
    return rows


def quote(text: str, length: int = 220) -> str:
    """The start of a rule's text, cut at a word."""
    text = " ".join(text.split())
    return text if len(text) <= length else text[:length].rsplit(" ", 1)[0] + " …"


def page_in_range(rows: int, page: int, size: int) -> tuple[int, int]:
    """(the number of pages of ``rows`` rows, ``size`` a page, and ``page`` brought within them)."""
    pages = max(1, -(-rows // size))
    return pages, min(max(1, page), pages)


def paged(
    conn: sqlite3.Connection,
    sql: str,
    order: str,
    params: dict,
    page: int,
    size: int = PAGE_SIZE,
    details: str | None = None,
) -> dict:
    """One page of a query's rows in ``order`` (an ORDER BY list), with the total and the number of pages (page
    numbers start at 1). The total counts the unordered query: SQLite then folds it into the count and leaves
    out its columns (an ordered one is computed whole, every correlated subquery of every row: 20 ms, not 0.4).
    ``details`` adds the columns that cost a subquery per row, for the rows shown only (a query of their ``id``
    and those columns, for the ids in the JSON list ``:_ids``): in the page's query they were computed for every
    row before sorting."""
    total = conn.execute(f"select count(*) from ({sql})", params).fetchone()[0]
    pages, page = page_in_range(total, page, size)
    rows = select_all(
        conn,
        f"{sql} order by {order} limit :_limit offset :_offset",
        {**params, "_limit": size, "_offset": (page - 1) * size},
    )
    if details:
        found = {
            row["id"]: row for row in select_all(conn, details, {**params, "_ids": json.dumps([r["id"] for r in rows])})
        }
        rows = [{**row, **found[row["id"]]} for row in rows]
    return {"total": total, "page": page, "pages": pages, "rows": rows}
