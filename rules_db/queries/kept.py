"""What the pages read of a database served read-only, worked out once per database file and kept: answers that
read a whole rulebook version (``once_per_database``) and lookup tables (``lookup_table``), keyed by the file's
identity (``file_identity``), read once per request (``one_request``). Imports nothing of the pages."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict
from contextlib import contextmanager

# What the pages read of a database that is served read-only is worked out once per database file (its path, size
# and time of change) and kept, in two caches, so that neither pushes out the other: answers that read a whole
# rulebook version or a pair of them (a version's outline, the comparison of two versions, a pair's citation
# translator), one per version a judge browses, at most ``KEPT_ANSWERS_MAX`` per database, least recently used
# dropped first; and lookup tables (search's vocabulary and scoring rows, card names, the rulings sharing a rule, the
# lists' filter choices), which pages of every version read: a fixed few per database, each keyed by what it is and
# never by what a request typed (a request could then grow it without end), none dropped while the database is in
# use. Each cache holds the answers of the last ``DATABASES_KEPT`` database files read (a test process reads many).
KEPT_ANSWERS_MAX = 32
DATABASES_KEPT = 4
_NOT_KEPT = object()


class _KeptPerDatabase:
    """Values computed once per database file and key, for the last ``DATABASES_KEPT`` files; at most
    ``per_database`` per file, least recently used dropped first (None: every value kept). Shared by the server's
    threads."""

    def __init__(self, per_database: int | None):
        self.per_database = per_database
        self.databases: OrderedDict[tuple, OrderedDict[tuple, object]] = OrderedDict()  # least recently used first
        self.lock = threading.Lock()  # the server's threads read, reorder, evict and insert at once

    def get(self, conn: sqlite3.Connection, key: tuple, compute):
        """``compute()``, or its earlier answer for the same database file and ``key``. A connection in the middle
        of writing sees what the file does not hold yet: it gets an answer of its own."""
        identity = _database_identity(conn)
        if identity is None or conn.in_transaction:
            return compute()
        with self.lock:
            answers = self._answers(identity)
            kept = answers.get(key, _NOT_KEPT)
            if kept is not _NOT_KEPT:
                answers.move_to_end(key)
                return kept
        answer = compute()
        with self.lock:
            answers = self._answers(identity)
            while self.per_database is not None and len(answers) >= self.per_database:
                answers.popitem(last=False)  # the least recently used: a warm-up's answers stay while in use
            answers[key] = answer
        return answer

    def _answers(self, identity: tuple) -> OrderedDict[tuple, object]:
        """The answers kept for the database file ``identity``, now its most recently used (under the lock)."""
        answers = self.databases.get(identity)
        if answers is None:
            answers = self.databases[identity] = OrderedDict()
            while len(self.databases) > DATABASES_KEPT:
                self.databases.popitem(last=False)
        self.databases.move_to_end(identity)
        return answers


KEPT_ANSWERS = _KeptPerDatabase(KEPT_ANSWERS_MAX)
LOOKUP_TABLES = _KeptPerDatabase(None)


# The identity of the database a request reads, held on the thread running it (``one_request``).
_REQUEST = threading.local()


@contextmanager
def one_request(conn: sqlite3.Connection):
    """One request's reading of ``conn``: the identity of its database file, which every kept answer is keyed by,
    is read once here rather than at each look-up (a pragma and a file's stat, several times a search). The file
    does not change under a request that only reads. Within another request on the same connection, that one's."""
    outer = getattr(_REQUEST, "held", None)
    if outer is not None and outer[0] is conn:
        yield
        return
    _REQUEST.held = (conn, _read_database_identity(conn))
    try:
        yield
    finally:
        _REQUEST.held = outer


def _database_identity(conn: sqlite3.Connection) -> tuple | None:
    """``file_identity`` of the database ``conn`` reads: the one its request read (``one_request``), else read now."""
    held = getattr(_REQUEST, "held", None)
    return held[1] if held is not None and held[0] is conn else _read_database_identity(conn)


def _read_database_identity(conn: sqlite3.Connection) -> tuple | None:
    return file_identity(next((row[2] for row in conn.execute("pragma database_list") if row[1] == "main"), ""))


def file_identity(path: str | None) -> tuple | None:
    """A database file's path, size and time of change, the key of every answer kept for it: a rebuilt database
    (or another database in the same process) never gets an answer of the old one. None for a database held in
    memory, whose answers are never kept."""
    if not path:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (path, stat.st_size, stat.st_mtime_ns)


def once_per_database(conn: sqlite3.Connection, key: tuple, compute):
    """``compute()`` (an answer that reads a whole rulebook version or a pair of them), worked out once per database
    file and ``key``; at most ``KEPT_ANSWERS_MAX`` kept."""
    return KEPT_ANSWERS.get(conn, key, compute)


def lookup_table(conn: sqlite3.Connection, key: tuple, build):
    """``build()`` (a lookup table of the whole database, not of one version), built once per database file and
    ``key``, and kept while the database is open, apart from the answers browsing versions cycles through."""
    return LOOKUP_TABLES.get(conn, key, build)
