"""The rule tree: the outline of one version of a rulebook, and what a rule address naming only a rulebook or a
version means."""

from __future__ import annotations

import sqlite3
from collections import Counter

from rules_db import versions
from rules_db.queries.common import select_all, select_one
from rules_db.queries.kept import KEPT_ANSWERS_MAX, once_per_database


def rule_tree(
    conn: sqlite3.Connection,
    game: str,
    version: str | None = None,
    rulebook: str | None = None,
    with_tree: bool = True,
) -> dict | None:
    """The outline of one version of a rulebook (the game's default rulebook unless ``rulebook`` names
    another; its newest version unless ``version`` names one), or None when there is none: chapters,
    sections and top-level rules, with the headed sub-rules under their parents. Without ``with_tree``,
    only which document that is."""
    document = versions.rules_document(conn, game, version, rulebook)
    if document is None or not with_tree:
        return document and {"document": document}
    rules, tree = _kept_outline(conn, document["id"])
    return {
        "game": select_one(conn, "select id, name from games where id = ?", [game]),
        "document": document,
        "versions": [
            {key: other[key] for key in ("version", "version_label", "is_newest", "rulebook")}
            for other in reversed(versions.versions(conn, game, rulebook))
        ],
        "rulebooks": [
            {"slug": None if book["is_default"] else book["slug"], "title": book["title"]}
            for book in versions.rulebooks(conn, game)
        ],
        "rules": rules,
        "tree": tree,
    }


def outline_every_rulebook(conn: sqlite3.Connection) -> None:
    """Every rulebook version's outline worked out once, for a server to do before it serves: a rule tree's first
    page read and arranged its thousands of rules (8-30 ms). At most half the answers kept per database, so that
    a corpus of many versions does not push out what the other pages keep."""
    for (document_id,) in conn.execute(
        "select id from documents where kind = 'rules' order by is_newest desc, id limit ?", [KEPT_ANSWERS_MAX // 2]
    ).fetchall():
        _kept_outline(conn, document_id)


def _kept_outline(conn: sqlite3.Connection, document_id: str) -> tuple[int, list[dict]]:
    return once_per_database(conn, ("outline", document_id), lambda: _document_outline(conn, document_id))


def _document_outline(conn: sqlite3.Connection, document_id: str) -> tuple[int, list[dict]]:
    """How many rules a document has, and its outline (``outline``)."""
    rules = select_all(
        conn,
        """select id, number, parent_id, depth, heading,
            case when heading is null and depth = 0 then substr(text, 1, 120) end as preview
        from rules where document_id = ? order by position""",
        [document_id],
    )
    return len(rules), outline(rules)


def tree_named_by(conn: sqlite3.Connection, game: str, segments: list[str]) -> dict | None:
    """When a rule address names no rule but a rulebook or a version (/rules/riftbound/2025-06-02,
    /rules/riftbound/tournament), the rulebook and version whose rule tree it means; else None."""
    *rulebook, last = segments
    slug = rulebook[0] if rulebook else None
    book = versions.rulebook(conn, game, last) if slug is None else None
    if book is not None and not versions.rules_document(conn, game, last):
        return {"rulebook": None if book["is_default"] else last, "version": None}
    document = versions.rules_document(conn, game, last, slug)
    if document is None:
        return None
    return {"rulebook": document["rulebook"], "version": None if document["is_newest"] else document["version"]}


def outline(rules: list[dict]) -> list[dict]:
    """Rules in document order as a tree of the rules a reader navigates by: every top-level rule and
    every rule with a heading. Top-level rules nest by rank (``_outline_rank``), so a rulebook numbered
    flat (101, 102, 103 under the heading of 101) still reads as chapters and sections; a headed sub-rule
    sits under its nearest shown ancestor. Each node counts its direct sub-rules (``sub_rules``)."""
    sub_rules = Counter(rule["parent_id"] for rule in rules)
    parent_of = {rule["id"]: rule["parent_id"] for rule in rules}
    nodes: dict[int, dict] = {}
    roots: list[dict] = []
    open_top: list[tuple[int, dict]] = []  # (rank, node) of the top-level rules still open
    for rule in rules:
        if rule["depth"] and not rule["heading"]:
            continue
        node = nodes[rule["id"]] = {
            "number": rule["number"],
            "heading": rule["heading"],
            "preview": None if rule["heading"] else rule["preview"],
            "sub_rules": sub_rules[rule["id"]],
            "children": [],
        }
        if rule["depth"] == 0:
            rank = _outline_rank(rule)
            while open_top and open_top[-1][0] >= rank:
                open_top.pop()
            (open_top[-1][1]["children"] if open_top else roots).append(node)
            open_top.append((rank, node))
            continue
        ancestor = parent_of[rule["id"]]
        while ancestor is not None and ancestor not in nodes:
            ancestor = parent_of.get(ancestor)
        (nodes[ancestor]["children"] if ancestor is not None else roots).append(node)
    return roots


def _outline_rank(rule: dict) -> int:
    """0 for a chapter (a headed hundred: 100, 300 in a rulebook numbered in hundreds), 1 for a section
    (any other headed top-level rule), 2 for a top-level rule without a heading."""
    if not rule["heading"]:
        return 2
    number = rule["number"]
    return 0 if number.isdigit() and len(number) >= 3 and int(number) % 100 == 0 else 1
