"""Benchmark the correspondence between the two Riftbound Core Rules versions
(2025-06-02, about 1,340 rules, to 2025-12-01, about 1,800): parsing is timed
separately; the correspondence is the median of several runs. Also reports how
many text pairs were scored, against the all-pairs count it avoids.

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs

    start = time.perf_counter()
    old = parse(riftbound, "riftbound-core-rules-2025-06-02.txt")
    new = parse(riftbound, "riftbound-core-rules-2025-12-01.txt")
    parse_seconds = time.perf_counter() - start

    timings = []
    for _ in range(runs):
        start = time.perf_counter()
        rows = lineage.compute_lineage(old, new)
        timings.append(time.perf_counter() - start)

    scored = count_scored_pairs()
    lineage.compute_lineage(old, new)
    kinds = Counter(row.kind for row in rows)
    accounted = len({row.old for row in rows if row.old is not None})

    print(f"Riftbound 2025-06-02 ({len(old)} rules) -> 2025-12-01 ({len(new)} rules)")
    print(f"  parse both versions (not part of the correspondence) {parse_seconds:7.3f} s")
    print(
        f"  correspondence, median of {runs} runs {'':17}{statistics.median(timings):7.3f} s "
        f"(min {min(timings):.3f}, max {max(timings):.3f})"
    )
    print(
        f"  text pairs scored: {scored['pairs']:,} of {len(old) * len(new):,} all-pairs "
        f"({scored['pairs'] / (len(old) * len(new)):.1%})"
    )
    print(f"  old rules accounted for: {accounted}/{len(old)} ({accounted / len(old):.1%})")
    print("  rows per kind: " + ", ".join(f"{kinds[kind]} {kind}" for kind in lineage.KINDS))


if __name__ == "__main__":
    main()
