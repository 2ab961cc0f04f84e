"""Benchmark the correspondence between consecutive Riftbound Core Rules versions
(2025-06-02, about 1,340 rules, to 2025-12-01, about 1,800, to 2026-06-18, about
2,400): parsing is timed separately; each correspondence is the median of several
runs. Also reports how many text pairs were scored, against the all-pairs count
it avoids, and the time per rule over the three versions (near-linear: it should
not grow with the size of the versions).

    .venv/bin/python benchmarks/bench_lineage.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from pathlib import Path

from ingest import riftbound
from ingest.source import read_lines
from ingest.text import plain_text
from rules_db import lineage

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def parse(adapter, name: str) -> list[lineage.RuleRow]:
    path = CORPUS / name
    return [
        lineage.RuleRow(rule.number, plain_text(rule.raw_text), rule.parent, rule.heading)
        for rule in adapter.parse(read_lines(path), path).rules
    ]


def count_scored_pairs() -> Counter:
    """Wrap the similarity function to count the pairs it scores."""
    scored: Counter = Counter()
    original = lineage.text_similarity

    def counting(olds, news, *args, **kwargs):
        scored["pairs"] += len(olds) * len(news)
        return original(olds, news, *args, **kwargs)

    lineage.text_similarity = counting
    return scored


VERSIONS = (
    "riftbound-core-rules-2025-06-02.txt",
    "riftbound-core-rules-2025-12-01.txt",
    "riftbound-core-rules-2026-06-18.txt",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    start = time.perf_counter()
    books = [parse(riftbound, name) for name in VERSIONS]
    parse_seconds = time.perf_counter() - start
    print(f"parse the {len(books)} Core Rules versions (not part of the correspondence) {parse_seconds:7.3f} s")

    total = 0.0
    for (old_name, old), (new_name, new) in zip(zip(VERSIONS, books), list(zip(VERSIONS, books))[1:]):
        timings = []
        for _ in range(runs):
            start = time.perf_counter()
            rows = lineage.compute_lineage(old, new)
            timings.append(time.perf_counter() - start)
        total += statistics.median(timings)
        original = lineage.text_similarity
        scored = count_scored_pairs()
        lineage.compute_lineage(old, new)
        lineage.text_similarity = original
        kinds = Counter(row.kind for row in rows)
        successors = len({row.old for row in rows if row.new is not None})
        print(f"{old_name[-14:-4]} ({len(old)} rules) -> {new_name[-14:-4]} ({len(new)} rules)")
        print(
            f"  correspondence, median of {runs} runs {'':17}{statistics.median(timings):7.3f} s "
            f"(min {min(timings):.3f}, max {max(timings):.3f})"
        )
        print(
            f"  text pairs scored: {scored['pairs']:,} of {len(old) * len(new):,} all-pairs "
            f"({scored['pairs'] / (len(old) * len(new)):.1%})"
        )
        print(f"  old rules with a successor: {successors}/{len(old)} ({successors / len(old):.1%}); the rest removed")
        print("  rows per kind: " + ", ".join(f"{kinds[kind]} {kind}" for kind in lineage.KINDS))
    rules = sum(len(book) for book in books)
    print(
        f"lineage over the {len(books)} versions ({rules} rules): {total:.3f} s, {total / rules * 1000:.2f} ms per rule"
    )


if __name__ == "__main__":
    main()
