"""Benchmark the card reader: reading every card of a built database (what the build adds to itself by storing
card_readings), CPU time of this process, best of `--repeat` runs. The budget is 1 s for the bundled cards.

    .venv/bin/python benchmarks/bench_cards_read.py [--db data/rules.db] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

import sqlite_utils

from rules_db import card_readings, guard
from scenarios.card_reader import read_card


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="data/rules.db")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.1f}")
    conn = guard.read_only(args.db)
    conn.row_factory = sqlite3.Row
    texts = [card_readings.card_text(dict(row)) for row in conn.execute(card_readings._CARDS, ["riftbound"])]
    conn.close()
    read_card(texts[0])  # the engine's vocabulary loaded once, as the build has it loaded
    best = min(_timed(lambda: [read_card(text) for text in texts]) for _ in range(args.repeat))
    print(f"read {len(texts)} cards: {best:.3f} s CPU ({1000 * best / len(texts):.2f} ms a card)")
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "rules.db"
        shutil.copy(args.db, copy)
        db = sqlite_utils.Database(copy)
        stored = min(_timed(lambda: card_readings.store_readings(db, "riftbound")) for _ in range(args.repeat))
        db.close()
    print(f"read and stored in card_readings: {stored:.3f} s CPU (budget 1 s)")


def _timed(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


if __name__ == "__main__":
    main()
