"""Count the templates of every card's text: sentences with numbers as N and the card's name as NAME, most
frequent first, and beside each how many of its cards the reader reads fully. Run on a built database:

    .venv/bin/python benchmarks/card_templates.py [--db data/rules.db] [--top 80] [--unread]

It is how the reader's grammar is ordered: the most frequent templates first (issue 32)."""

from __future__ import annotations

import argparse
import sqlite3
from collections import Counter

from rules_db import guard
from rules_db.card_readings import _CARDS, card_text
from scenarios.card_reader import read_card
from scenarios.card_reader.text import paragraphs, sentences, template_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", default="data/rules.db")
    parser.add_argument("--top", type=int, default=80)
    parser.add_argument("--unread", action="store_true", help="only the templates of sentences of unread cards")
    args = parser.parse_args()
    conn = guard.read_only(args.db)
    conn.row_factory = sqlite3.Row
    counts: Counter[str] = Counter()
    read: Counter[str] = Counter()
    for row in conn.execute(_CARDS, ["riftbound"]):
        card = card_text(dict(row))
        fully = read_card(card).status == "read"
        if args.unread and fully:
            continue
        for paragraph in paragraphs(card.text):
            for sentence in sentences(paragraph.text):
                template = template_of(sentence, (card.name, card.name.split(",")[0]))
                counts[template] += 1
                read[template] += fully
    for template, n in counts.most_common(args.top):
        print(f"{n:4d} {read[template]:4d}  {template}")


if __name__ == "__main__":
    main()
