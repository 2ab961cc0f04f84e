"""Draw read cards at random for a check by someone who did not write the reader (issue 32's acceptance: 50
read cards of the newer sets, each checked to behave as its text says). Prints each card's set, text in force
and the definition the reader read, as YAML, numbered for the checker's notes.

    .venv/bin/python benchmarks/draw_read_cards.py [--db data/rules.db] [--n 50] [--seed 32]
        [--sets Spiritforged,Unleashed,Vendetta,Radiance] [--new-since OLD.db]

--new-since draws only cards the older database did not read: a new check then covers what the reader has
learnt since the last one.
"""

from __future__ import annotations

import argparse
import json
import random

import yaml

from rules_db import guard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="data/rules.db")
    parser.add_argument("--n", type=int, default=50)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--sets", default="Spiritforged,Unleashed,Vendetta,Radiance")
    parser.add_argument("--new-since", metavar="OLD_DB", help="leave out the cards this database already read")
    args = parser.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    conn = guard.read_only(args.db)
    rows = conn.execute(
        "select c.name, r.card_set, c.card_type, c.current_text, r.definition from card_readings r "
        f"join cards c on c.id = r.card_id where r.status = 'read' and r.card_set in ({','.join('?' * len(sets))}) "
        "order by c.name",
        sets,
    ).fetchall()
    if args.new_since:
        already_read = _read_names(args.new_since)
        rows = [row for row in rows if row[0] not in already_read]
    drawn = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    since = f", not read in {args.new_since}" if args.new_since else ""
    print(f"# {len(drawn)} of the {len(rows)} cards read fully in {', '.join(sets)}{since} (seed {args.seed})")
    for number, (name, card_set, card_type, text, definition) in enumerate(drawn, 1):
        reading = {k: v for k, v in json.loads(definition).items() if k not in ("name", "real", "text")}
        print(f"\n## {number}. {name} ({card_set}, {card_type})\ntext: |\n  " + (text or "").replace("\n", "\n  "))
        print("reading:\n  " + yaml.safe_dump(reading, sort_keys=False, width=110).rstrip().replace("\n", "\n  "))


def _read_names(db_path: str) -> set[str]:
    conn = guard.read_only(db_path)
    query = "select c.name from card_readings r join cards c on c.id = r.card_id where r.status = 'read'"
    return {name for (name,) in conn.execute(query)}


if __name__ == "__main__":
    main()
