"""Kill -9 during builds: the previous database survives every kill, and the next build leaves no temporary file.

Builds a database once, then starts ``rules-db build`` over it N times and kills each one with SIGKILL at a
random moment of its run (parse, write, spaCy tagging, replays, search index). After each kill the old database
must be byte for byte what it was and pass SQLite's integrity check, and within seconds neither the killed build's
second process nor a ``.building`` file (or its journal) may remain; at the end one build runs to completion.

    .venv/bin/python benchmarks/kill_builds.py [--times 20] [--seed 1] [DOCUMENT ...]

Without documents it builds the bundled corpus (about a minute a build on a quiet machine); name a few small
documents (``corpus/pox-nora-rules.txt corpus/runeterra-unofficial-rulebook.txt``) for a quick run.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rules_db.guard import read_only

COMMAND = [str(Path(sys.executable).parent / "rules-db"), "build"]


def build(db: Path, documents: list[str]) -> subprocess.Popen:
    return subprocess.Popen([*COMMAND, "--db", str(db), *documents], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def intact(db: Path) -> bool:
    connection = read_only(db)
    try:
        return connection.execute("pragma integrity_check").fetchone()[0] == "ok"
    finally:
        connection.close()


def children(pid: int) -> list[int]:
    """The processes ``pid`` has started (its build's second process), from /proc."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found.extend(int(child) for child in (task / "children").read_text().split())
    return found


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except (OSError, IndexError):
        return False


def leftovers(db: Path) -> list[Path]:
    return sorted(db.parent.glob(f".{db.name}.*"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--times", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("documents", nargs="*")
    options = parser.parse_args()
    chance = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "rules.db"
        start = time.monotonic()
        first = build(db, options.documents)
        if first.wait() != 0:
            print(first.stderr.read().decode()[-2000:] if first.stderr else "", file=sys.stderr)
            return 1
        duration = time.monotonic() - start
        before = digest(db)
        print(f"a whole build takes {duration:.1f} s; killing {options.times} builds at random moments")
        failures = 0
        for attempt in range(1, options.times + 1):
            victim = build(db, options.documents)
            delay = chance.uniform(0.2, duration * 0.95)
            time.sleep(delay)
            helpers = children(victim.pid)
            victim.send_signal(signal.SIGKILL)
            victim.wait()  # reaped: its process id is free, as after any killed build
            gone = time.monotonic() + 10  # its second process ends and cleans up when it learns its builder died
            while (any(alive(pid) for pid in helpers) or leftovers(db)) and time.monotonic() < gone:
                time.sleep(0.05)
            same, ok = digest(db) == before, intact(db)
            left, living = leftovers(db), [pid for pid in helpers if alive(pid)]
            failures += not (same and ok) or bool(left) or bool(living)
            print(
                f"kill {attempt:2}: after {delay:5.1f} s  old database unchanged: {same}  integrity: {ok}  "
                f"temporary files left: {[path.name for path in left]}  processes left: {len(living)} of {len(helpers)}"
            )
        final = build(db, options.documents)
        completed = final.wait() == 0
        remaining = leftovers(db)
        print(f"next build completed: {completed}; temporary files left after it: {[p.name for p in remaining]}")
        ok = failures == 0 and completed and not remaining and intact(db)
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
