"""Convert rule numbers written against Core Rules 2025-12-01 into Core Rules 1.4's (the engine's own since issue 30),
for code or scenarios written before the switch (a branch merged later): each quoted rule number in the Python files
given (`"443.1.d"`, as rule modules cite them) and each `expect_refusal` / refusal `rule:` of the scenario files given
becomes its counterpart in 1.4 through the stored lineage of a built database. The rules the lineage gives no
counterpart were read in the 1.4 text and are mapped by hand (HAND). A number cited in another version on purpose
(`"412.1.b@2025-12-01"`) is left alone; so is prose (read it yourself). Prints what it changed and what it could not.

    .venv/bin/python benchmarks/convert_citations.py --db data/rules.db scenarios/rules/new_module.py ...
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import sqlite_utils

from rules_db.replays import CitationTranslator

# 2025-12-01 rules the lineage gives no 1.4 counterpart of its own, read in the 1.4 text.
HAND = {
    "107.6.f": "108.7.a",
    "317.2": "317.2.a",
    "322.9": "323.8.a",
    "322.12": "337.1",
    "343.1": "346.1",
    "344.3.a.1": "347.2.a",
    "345.2.b": "323.9",
    "345.2.b.1": "464.2.c.1",
    "425.3": "447",
    "442.1.a.4": "464.2.c.3",
    "442.1.e": "346.1",
    "443.1.a": "465.1",
    "443.1.a.1": "465.1",
    "448.1.b.1": "471.1.b.1",
}
QUOTED = re.compile(r"""(?<![\w.@])(["'])(\d{3}(?:\.[0-9a-z]+)*)\1""")
SCENARIO = re.compile(r"""((?:expect_refusal|rule|expect_refusal, value)["']?: *["']?)(\d{3}(?:\.[0-9a-z]+)*)""")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", default="data/rules.db")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args()
    translate = CitationTranslator(sqlite_utils.Database(args.db), "riftbound", "2025-12-01", "2026-06-18")
    unknown: set[str] = set()

    def converted(number: str) -> str:
        found = HAND.get(number) or translate.direct(number)
        if found is None:
            unknown.add(number)
            return number
        return found

    for path in args.files:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py":
            new = QUOTED.sub(lambda m: m.group(1) + converted(m.group(2)) + m.group(1), text)
        else:
            new = SCENARIO.sub(lambda m: m.group(1) + converted(m.group(2)), text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"converted {path}")
    if unknown:
        print("no 1.4 counterpart (read the 1.4 text and cite by hand):", ", ".join(sorted(unknown)))


if __name__ == "__main__":
    main()
