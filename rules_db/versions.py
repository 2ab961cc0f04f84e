"""Rulebooks and their versions: the one look-up that says which document is "the Core Rules of
2025-12-01", "Core Rules 1.4" or "the newest Tournament Rules".

A game has rulebooks (Riftbound: the Core Rules and the Tournament Rules); each rulebook has
versions, each version is one ``documents`` row. A version is named by its ``version`` (what URLs
use: the date for dated rulebooks), its ``version_label`` ("1.4") or its ``version_date``. The
default rulebook (the Core Rules) is the one meant when none is named. Lineage, queries, the
build and the CLI all find documents here, on a ``sqlite3.Connection`` or a sqlite-utils
``Database`` alike.
"""

from __future__ import annotations

import sqlite3

import sqlite_utils

from ingest.outline import natural_key

DEFAULT_RULEBOOK = "core"

Connection = sqlite3.Connection | sqlite_utils.Database

# Every rules document with its rulebook; ``rulebook`` is the slug URLs carry (None for the default rulebook).
_DOCUMENTS = """
select d.*, b.slug as rulebook_slug, b.title as rulebook_title, b.is_default as rulebook_is_default,
    case when b.is_default then null else b.slug end as rulebook
from documents d join rulebooks b on b.id = d.rulebook_id
where d.kind = 'rules' and d.game_id = ?"""


def connection(db: Connection) -> sqlite3.Connection:
    """The plain connection under either kind (a page asks for every citation: no wrapper made per call)."""
    return db.conn if isinstance(db, sqlite_utils.Database) else db


def _rows(db: Connection, sql: str, params=()) -> list[dict]:
    cursor = connection(db).execute(sql, params)
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]


def version_key(document: dict) -> tuple:
    """Versions of one rulebook in order: by date where known, else by the version's own numbering."""
    return natural_key(document.get("version_date") or document["version"])


def rulebook_id(game: str, slug: str | None) -> str:
    return f"{game}-{slug or DEFAULT_RULEBOOK}"


def rulebooks(db: Connection, game: str) -> list[dict]:
    """The game's rulebooks, the default first."""
    return _rows(db, "select * from rulebooks where game_id = ? order by is_default desc, slug", [game])


def rulebook(db: Connection, game: str, slug: str | None = None) -> dict | None:
    """The rulebook of that slug, or the game's default rulebook."""
    for book in rulebooks(db, game):
        if book["slug"] == slug or (slug is None and book["is_default"]):
            return book
    return None


def versions(db: Connection, game: str, slug: str | None = None) -> list[dict]:
    """The rules documents of one rulebook (the default one unless named), oldest first."""
    book = rulebook(db, game, slug)
    if book is None:
        return []
    documents = _rows(db, _DOCUMENTS + " and d.rulebook_id = ?", [game, book["id"]])
    return sorted(documents, key=version_key)


def rules_document(db: Connection, game: str, version: str | None = None, slug: str | None = None) -> dict | None:
    """One version of a rulebook: ``version`` matches its version, label or date; None means the newest
    (``is_newest``, which ``rules_db.store.link_versions`` sets; the last in order before it has run).

    The rulebook is the default one unless ``slug`` names another.
    """
    documents = versions(db, game, slug)
    if version is None:
        marked = [document for document in documents if document["is_newest"]]
        candidates = marked or documents
        return candidates[-1] if candidates else None
    for field in ("version", "version_label", "version_date"):
        for document in documents:
            if document[field] == version:
                return document
    return None


def resolve_path(db: Connection, game: str, first: str | None, second: str | None = None) -> dict | None:
    """The document a URL names: ``/rules/GAME/VERSION/...`` (default rulebook), ``/rules/GAME/RULEBOOK/...``
    (its newest version) or ``/rules/GAME/RULEBOOK/VERSION/...``. A version of the default rulebook wins
    over a rulebook of the same name, so existing version URLs never change meaning."""
    if second is not None:
        return rules_document(db, game, second, first) if rulebook(db, game, first) else None
    if first is None:
        return rules_document(db, game)
    return rules_document(db, game, first) or (
        rules_document(db, game, None, first) if rulebook(db, game, first) else None
    )


def newest_documents(db: Connection, game: str | None = None) -> list[dict]:
    """The newest version of every rulebook (of one game, or of all)."""
    games = [game] if game else [row["id"] for row in _rows(db, "select id from games order by id")]
    newest = []
    for name in games:
        for book in rulebooks(db, name):
            documents = versions(db, name, book["slug"])
            if documents:
                newest.append(documents[-1])
    return newest
