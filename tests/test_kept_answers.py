"""Answers kept per database file are shared by the server's threads: evicting and filling at once loses nothing."""

import sqlite3
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from rules_db.queries import _KEPT_ANSWERS_MAX, once_per_database


def test_threads_filling_and_evicting_the_kept_answers_each_get_their_own_answer(tmp_path):
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two bytecodes: the races show
    path = tmp_path / "kept.db"
    sqlite3.connect(path).execute("create table t (x)").connection.commit()

    def ask(key: int) -> int:
        conn = sqlite3.connect(path)
        try:
            return once_per_database(conn, ("test", key % (_KEPT_ANSWERS_MAX * 3)), lambda: time.sleep(0) or key)
        finally:
            conn.close()

    try:
        with ThreadPoolExecutor(16) as pool:
            answers = list(pool.map(ask, range(4000)))
    finally:
        sys.setswitchinterval(interval)
    assert all(answer % (_KEPT_ANSWERS_MAX * 3) == key % (_KEPT_ANSWERS_MAX * 3) for key, answer in enumerate(answers))
