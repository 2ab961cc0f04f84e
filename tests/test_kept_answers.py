"""Answers kept per database file are shared by the server's threads: evicting and filling at once loses nothing."""

import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from rules_db.queries import kept
from rules_db.queries.kept import DATABASES_KEPT, KEPT_ANSWERS_MAX, lookup_table, once_per_database


def test_threads_filling_and_evicting_the_kept_answers_each_get_their_own_answer(tmp_path):
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two bytecodes: the races show
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()

    def ask(key: int) -> int:
        conn = sqlite3.connect(path)
        try:
            return once_per_database(conn, ("test", key % (KEPT_ANSWERS_MAX * 3)), lambda: time.sleep(0) or key)
        finally:
            conn.close()

    try:
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(ask, range(4000)))
    finally:
        sys.setswitchinterval(interval)
    assert all(answer % (KEPT_ANSWERS_MAX * 3) == key % (KEPT_ANSWERS_MAX * 3) for key, answer in enumerate(answers))


def test_an_answer_in_use_is_kept_while_others_come_and_go(tmp_path):
    """The least recently used answer is dropped first: one a server reads on every page (a warm-up's) stays."""
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()
    conn = sqlite3.connect(path)
    computed: list[str] = []

    def ask(key: str) -> str:
        return once_per_database(conn, ("lru", key), lambda: computed.append(key) or key)

    try:
        ask("in use")
        for other in range(KEPT_ANSWERS_MAX * 2):
            ask(f"other {other}")
            ask("in use")
        assert computed.count("in use") == 1
        ask("other 0")  # long unused: dropped, computed again
        assert computed.count("other 0") == 2
    finally:
        conn.close()


def test_browsing_many_versions_keeps_the_lookup_tables(tmp_path):
    """A judge browsing version after version fills the answers kept per version (outlines, comparisons) many times
    over: the lookup tables every page reads (search's vocabulary, card names) are kept apart and stay."""
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()
    conn = sqlite3.connect(path)
    built: list[str] = []

    def card_names() -> dict:
        return lookup_table(conn, ("card names",), lambda: built.append("card names") or {})

    try:
        card_names()
        for version in range(KEPT_ANSWERS_MAX * 3):
            once_per_database(conn, ("outline", f"version {version}"), list)
        card_names()
        assert built == ["card names"]
        assert once_per_database(conn, ("outline", "version 0"), lambda: "worked out again") == "worked out again"
    finally:
        conn.close()


def test_a_database_of_many_lookup_tables_keeps_every_one(tmp_path):
    """Lookup tables are never dropped while their database is in use: however many a database has (more than the
    answers kept per version), each is built once, however often the judges go from one page to another."""
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()
    conn = sqlite3.connect(path)
    built: list[str] = []
    names = [f"table {number}" for number in range(KEPT_ANSWERS_MAX * 3)]

    def table(name: str) -> str:
        return lookup_table(conn, (name,), lambda: built.append(name) or name)

    try:
        for _ in range(3):
            assert [table(name) for name in names] == names
        assert built == names
    finally:
        conn.close()


def test_the_database_in_use_keeps_its_lookup_tables_while_other_files_come_and_go(tmp_path):
    """The tables of the last few database files read are kept: the served one stays while a process reads other
    files (a test run, a rebuilt database); one unread for that long is dropped with all its tables."""
    paths = [tmp_path / f"kept{number}.db" for number in range(DATABASES_KEPT + 1)]
    for path in paths:
        sqlite3.connect(path).execute("create table t (x)").connection.commit()
    connections = [sqlite3.connect(path) for path in paths]
    built: list[int] = []

    def table(number: int) -> int:
        return lookup_table(connections[number], ("card names",), lambda: built.append(number) or number)

    try:
        for other in range(1, len(paths)):
            assert table(0) == 0
            assert table(other) == other
        assert table(0) == 0
        assert built == list(range(len(paths)))  # the one in use built once, though more files than are kept
        table(len(paths) - 1)
        table(1)  # unread while as many other files as are kept were read: dropped, built again
        assert built == [*range(len(paths)), 1]
    finally:
        for conn in connections:
            conn.close()


def test_a_connection_in_the_middle_of_writing_gets_an_answer_of_its_own(tmp_path):
    """What a connection has written and not committed is not in the file yet: the answer kept for the file would
    hide it from that connection, and its answer would show it to every other one."""
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()
    conn = sqlite3.connect(path)

    def rows() -> int:
        return once_per_database(conn, ("rows",), lambda: conn.execute("select count(*) from t").fetchone()[0])

    try:
        assert rows() == 0
        conn.execute("insert into t values (1)")
        assert rows() == 1
        conn.rollback()
        assert rows() == 0
    finally:
        conn.close()


def test_one_request_reads_the_database_identity_once(tmp_path, monkeypatch):
    """Every look-up of a kept answer is keyed by the database file's identity (a pragma and a stat): within one
    request it is read once; outside one, at each look-up, so a rebuilt file is never answered from the old one."""
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()
    conn = sqlite3.connect(path)
    reads: list[str] = []
    read = kept.file_identity
    monkeypatch.setattr(kept, "file_identity", lambda file: reads.append(file) or read(file))
    try:
        with kept.one_request(conn), kept.one_request(conn):  # a helper opening its own: the same reading
            assert [lookup_table(conn, (name,), lambda name=name: name) for name in "abc"] == ["a", "b", "c"]
        assert len(reads) == 1
        lookup_table(conn, ("a",), lambda: "a")
        lookup_table(conn, ("b",), lambda: "b")
        assert len(reads) == 3
    finally:
        conn.close()
