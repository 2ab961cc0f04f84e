"""The comparison of two versions of a rulebook (``diff_page``), and which comparisons exist."""

from __future__ import annotations

import sqlite3

from rules_db import in_force, lineage_diff, lineage_store
from rules_db.lineage import KINDS
from rules_db.queries.common import diff_ops, page_in_range, select_all
from rules_db.queries.kept import KEPT_ANSWERS_MAX, once_per_database

# Rows per page of a comparison: each carries two texts and a word diff.
DIFF_PAGE_SIZE = 50


def diff_page(
    conn: sqlite3.Connection,
    game: str,
    old_version: str,
    new_version: str,
    kind: str | None = None,
    section: str | None = None,
    show_renumbered: bool = False,
    page: int = 1,
    rulebook: str | None = None,
    rule: str | None = None,
) -> dict | None:
    """What changed between two versions of a rulebook (``rules_db.lineage_store.stored_diff_summary``; the game's
    default rulebook unless ``rulebook`` names another): the counts and sections of the whole comparison,
    and one page of its rows narrowed to one ``kind`` (every kind but "unchanged" when none is asked) and
    one ``section`` and one ``rule`` (its number in either version, with its sub-rules), each with a word-level
    diff when the text changed. Rules only renumbered (moved, same
    text) are left out unless ``show_renumbered``; ``renumbered_only`` counts them. None when either
    version does not exist."""
    try:
        summary = _diff_summary(conn, game, old_version, new_version, rulebook)
    except LookupError:
        return None
    selection = lineage_diff.DiffSelection(conn, summary, kind, section, show_renumbered, rule)
    pages, page = page_in_range(selection.total, page, DIFF_PAGE_SIZE)
    shown = [{**row} for row in selection.rows((page - 1) * DIFF_PAGE_SIZE, DIFF_PAGE_SIZE)]
    for row in shown:
        changed = row["old_text"] is not None and row["new_text"] is not None and row["old_text"] != row["new_text"]
        row["diff"] = diff_ops(row["old_text"], row["new_text"]) if changed else []
    return {
        **{key: value for key, value in summary.items() if key not in ("rows", "stored", "groups", "lineage_ids")},
        "patch_notes": in_force.patch_notes_between(
            conn, game, summary["old"]["version"], summary["new"]["version"], rulebook
        ),
        "game_name": _game_name(conn, game),
        "kinds": list(KINDS),
        "kind": kind,
        "section": section,
        "rule": rule,
        "show_renumbered": show_renumbered,
        "rows": shown,
        "total": selection.total,
        "renumbered_only": selection.renumbered,
        "page": page,
        "pages": pages,
    }


def _diff_summary(
    conn: sqlite3.Connection, game: str, old_version: str, new_version: str, rulebook: str | None
) -> dict:
    return once_per_database(
        conn,
        ("diff", game, rulebook, old_version, new_version),
        lambda: lineage_store.stored_diff_summary(conn, game, old_version, new_version, rulebook=rulebook),
    )


def comparisons(conn: sqlite3.Connection, game: str) -> dict:
    """The game's name and each pair of its rulebooks' versions the lineage compares, newest first: what a
    comparison that does not exist offers instead."""
    found = select_all(
        conn,
        """select o.version as old, n.version as new, b.title as rulebook_title,
            case when b.is_default then null else b.slug end as rulebook
        from rule_lineage_pairs l join documents o on o.id = l.from_document_id join documents n on n.id = l.to_document_id
        left join rulebooks b on b.id = n.rulebook_id where n.game_id = ? order by n.version desc""",
        [game],
    )
    return {"game_name": _game_name(conn, game), "pairs": found}


def _game_name(conn: sqlite3.Connection, game: str) -> str:
    """A game's name, or its id when the database does not know the game."""
    name = conn.execute("select name from games where id = ?", [game]).fetchone()
    return name[0] if name else game


def compare_every_version_pair(conn: sqlite3.Connection) -> None:
    """Each pair of versions the lineage links (``rule_lineage_pairs``) compared once (``_diff_summary``), for a server
    to do before it serves: a comparison's first page reads the counts of two whole rulebooks' changes and their
    sections (a few ms, more at 100 times the bundled rulebooks). At most a quarter of the answers kept per database."""
    pairs = conn.execute(
        """select o.game_id, case when b.is_default then null else b.slug end, o.version, n.version
        from rule_lineage_pairs l join documents o on o.id = l.from_document_id join documents n on n.id = l.to_document_id
        left join rulebooks b on b.id = n.rulebook_id order by n.is_newest desc, n.id limit ?""",
        [KEPT_ANSWERS_MAX // 4],
    ).fetchall()
    for game, rulebook, old_version, new_version in pairs:
        _diff_summary(conn, game, old_version, new_version, rulebook)
