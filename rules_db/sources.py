"""What the database is built from, to tell when it is out of date."""

from __future__ import annotations

import sqlite3
from importlib import resources
from pathlib import Path

from ingest.documents import BUNDLED
from rules_db import guard, schema
from scenarios import library_paths
from scenarios.cards import LIBRARY as CARD_LIBRARY

# The folder holding the packages (the checkout, or site-packages), to name files in messages.
_INSTALLED = Path(str(resources.files("rules_db"))).parent


def source_files() -> list[Path]:
    """The bundled documents and the packages' data (card aliases; the search vocabulary and vetoed aliases, which
    the search aliases are mined with; scenarios, the card library)."""
    data = [Path(str(resources.files(package) / "data")) for package in ("ingest", "rules_db")]
    return [
        *(spec.path for spec in BUNDLED),
        *sorted(path for folder in data for path in folder.glob("*") if path.is_file()),
        *library_paths(),
        CARD_LIBRARY,
    ]


def stale_reason(db_path: Path) -> str | None:
    """Why the database must be (re)built, or None when it is up to date."""
    if not db_path.exists():
        return "it does not exist yet"
    built = db_path.stat().st_mtime
    newer = [path for path in source_files() if path.stat().st_mtime > built]
    if newer:
        return f"{_name(newer[0])} changed since it was built" + (
            f" (and {len(newer) - 1} more)" if len(newer) > 1 else ""
        )
    if missing := _missing_tables(db_path):
        return f"an older version built it (it has no table {missing[0]})"
    return None


def _missing_tables(db_path: Path) -> list[str]:
    """The schema's tables the database lacks: the pages read them, and a database built before they existed would
    fail where they are read."""
    try:
        conn = guard.read_only(db_path)
    except sqlite3.Error:  # a file that cannot be opened
        return list(schema.TABLES)
    try:
        present = {name for (name,) in conn.execute("select name from sqlite_master where type = 'table'")}
    except sqlite3.DatabaseError:  # not a database at all
        present = set()
    finally:
        conn.close()
    return [name for name in schema.TABLES if name not in present]


def _name(path: Path) -> str:
    return str(path.relative_to(_INSTALLED)) if path.is_relative_to(_INSTALLED) else str(path)
