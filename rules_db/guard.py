"""Connections to a built database: read-only (``read_only``, for every reader: the CLI, the card readings, a
server), and every connection a server opens, bounded: SQLite's limits and an authorizer (``harden``).

Datasette's time limit interrupts a query between steps of SQLite's virtual machine, which one call to a
function never reaches: ``zeroblob(1e9)`` would build a gigabyte in one step. ``SQLITE_LIMIT_LENGTH`` ends
such a call at once ("string or blob too big"), and the other limits keep a query's text, its expressions and
its compound selects small. The authorizer refuses the functions that reach outside the database or hand out
native pointers (``fts3_tokenizer``), attaching other files, and ``printf``/``format``: past the length limit
``printf('%.*c', 1e9, 'x')`` still loops once per character it cannot add, eight seconds of one thread that
nothing interrupts (no page of ours formats in SQL). Datasette's ``prepare_connection`` hook applies
``harden`` to every connection it opens (``datasette_plugins``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

# The largest value a query may build: a page's rows are far smaller (the largest rule is under 50,000
# characters, the largest JSON a page query builds under a megabyte).
MAX_VALUE_BYTES = 10_000_000
CONNECTION_LIMITS = {
    sqlite3.SQLITE_LIMIT_LENGTH: MAX_VALUE_BYTES,
    sqlite3.SQLITE_LIMIT_SQL_LENGTH: 100_000,  # characters of one statement
    sqlite3.SQLITE_LIMIT_EXPR_DEPTH: 100,  # nested expressions
    sqlite3.SQLITE_LIMIT_COMPOUND_SELECT: 50,  # SELECTs joined by UNION and the like
    sqlite3.SQLITE_LIMIT_FUNCTION_ARG: 32,
    sqlite3.SQLITE_LIMIT_ATTACHED: 0,
}
# Functions no page and no reader's query needs, that reach outside the database, return native pointers or
# run unbounded inside one step (printf, format: see above).
DENIED_FUNCTIONS = frozenset(
    {"fts3_tokenizer", "load_extension", "readfile", "writefile", "edit", "fts5", "printf", "format"}
)
_DENIED_ACTIONS = {sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH}


def read_only(db_path: str | Path, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A read-only connection to the database file ``db_path`` (named by its URI: a "?", "#" or "%" in the path is
    the file's, not the URI's). ``check_same_thread=False`` lets other threads use it (sqlite3's own option)."""
    return sqlite3.connect(Path(db_path).resolve().as_uri() + "?mode=ro", uri=True, check_same_thread=check_same_thread)


def harden(conn: sqlite3.Connection) -> None:
    """Apply ``CONNECTION_LIMITS`` and the authorizer to ``conn``, and replace the built-in functions whose one
    call can outrun the time limit (``LINEAR_FUNCTIONS``)."""
    for limit, value in CONNECTION_LIMITS.items():
        conn.setlimit(limit, value)
    conn.set_authorizer(_authorize)
    for name, (arguments, function) in LINEAR_FUNCTIONS.items():
        conn.create_function(name, arguments, function, deterministic=True)


def _instr(haystack, needle):
    """SQLite's ``instr`` (the 1-based position of the first ``needle`` in ``haystack``, 0 when absent: in bytes
    for two blobs, else in characters), by Python's linear search: SQLite's own compares at every position, so
    one call over two long values (30 s for a few megabytes) ran inside one step, past the time limit."""
    if haystack is None or needle is None:
        return None
    if isinstance(haystack, bytes) and isinstance(needle, bytes):
        return haystack.find(needle) + 1
    return _text(haystack).find(_text(needle)) + 1


def _text(value) -> str:
    return value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)


# Built-ins replaced on every served connection: a single call of SQLite's own takes time quadratic in its input.
LINEAR_FUNCTIONS = {"instr": (2, _instr)}


def _authorize(action: int, first: str | None, second: str | None, database: str | None, source: str | None) -> int:
    if action == sqlite3.SQLITE_FUNCTION and (second or "").lower() in DENIED_FUNCTIONS:
        return sqlite3.SQLITE_DENY
    if action in _DENIED_ACTIONS:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK
