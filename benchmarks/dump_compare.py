"""Is a refactoring's build the same database? A sorted dump of a fresh build, written or compared.

    .venv/bin/python benchmarks/dump_compare.py write before.sql      # on the old code
    .venv/bin/python benchmarks/dump_compare.py write after.sql       # on the new code
    .venv/bin/python benchmarks/dump_compare.py compare before.sql after.sql

``write`` builds the bundled documents into a fresh database in a temporary folder (``rules-db build``, in its
own process, the embedding cache shared as any build's) and writes every statement of its SQL dump, sorted: the
order rows were inserted in is not the database's content. With ``--db`` it dumps that database instead of
building one. ``compare`` says whether two dumps are identical, and if not how many statements each holds that
the other lacks and the first few of them (exit status 1).

To build the old code without checking it out, put a copy of its tree first on the path:
``git archive <commit> | tar -x -C /tmp/old && PYTHONPATH=/tmp/old .venv/bin/python benchmarks/dump_compare.py
write before.sql`` (the build runs ``rules_db.cli`` in a process with the same path).
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path


def sorted_dump(db_path: Path) -> list[str]:
    """Every statement of the database's SQL dump, one line each (newlines inside values escaped), sorted."""
    conn = sqlite3.connect(db_path)
    try:
        return sorted(statement.replace("\\", "\\\\").replace("\n", "\\n") for statement in conn.iterdump())
    finally:
        conn.close()


def build(db_path: Path) -> None:
    command = "import sys; from rules_db.cli import cli; sys.exit(cli())"
    subprocess.run([sys.executable, "-c", command, "build", "--db", str(db_path)], check=True)


def write(out: Path, db: Path | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        if db is None:
            db = Path(folder) / "fresh.db"
            build(db)
        lines = sorted_dump(db)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    digest = hashlib.sha256(out.read_bytes()).hexdigest()
    print(f"{out}: {len(lines)} statements, sha256 {digest}")


def compare(first: Path, second: Path, shown: int = 5) -> int:
    a = first.read_text(encoding="utf-8").splitlines()
    b = second.read_text(encoding="utf-8").splitlines()
    if a == b:
        print(f"identical: {len(a)} statements")
        return 0
    only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
    print(f"different: {len(only_a)} statements only in {first}, {len(only_b)} only in {second}")
    for name, lines in ((first, only_a), (second, only_b)):
        for line in lines[:shown]:
            print(f"  {name}: {line[:200]}")
    return 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    writing = commands.add_parser("write", help="build (or take --db) and write its sorted dump")
    writing.add_argument("out", type=Path)
    writing.add_argument("--db", type=Path, help="dump this database instead of building one")
    comparing = commands.add_parser("compare", help="are two sorted dumps identical?")
    comparing.add_argument("first", type=Path)
    comparing.add_argument("second", type=Path)
    arguments = parser.parse_args()
    if arguments.command == "write":
        write(arguments.out, arguments.db)
        return 0
    return compare(arguments.first, arguments.second)


if __name__ == "__main__":
    sys.exit(main())
