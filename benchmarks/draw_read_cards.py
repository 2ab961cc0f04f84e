"""Draw read cards at random for a check by someone who did not write the reader (issue 32's acceptance: 50
read cards of the newer sets, each checked to behave as its text says). Prints each card's set, text in force
and the definition the reader read, as YAML, numbered for the checker's notes.

    .venv/bin/python benchmarks/draw_read_cards.py [--db data/rules.db] [--n 50] [--seed 32]
        [--sets Spiritforged,Unleashed,Vendetta,Radiance]
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
    args = parser.parse_args()
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    conn = guard.read_only(args.db)
    rows = conn.execute(
        "select c.name, r.card_set, c.card_type, c.current_text, r.definition from card_readings r "
        f"join cards c on c.id = r.card_id where r.status = 'read' and r.card_set in ({','.join('?' * len(sets))}) "
        "order by c.name",
        sets,
    ).fetchall()
    drawn = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    print(f"# {len(drawn)} of the {len(rows)} cards read fully in {', '.join(sets)} (seed {args.seed})")
    for number, (name, card_set, card_type, text, definition) in enumerate(drawn, 1):
        reading = {k: v for k, v in json.loads(definition).items() if k not in ("name", "real", "text")}
        print(f"\n## {number}. {name} ({card_set}, {card_type})\ntext: |\n  " + (text or "").replace("\n", "\n  "))
        print("reading:\n  " + yaml.safe_dump(reading, sort_keys=False, width=110).rstrip().replace("\n", "\n  "))


if __name__ == "__main__":
    main()
