"""Benchmark the build: time per stage (parse, write, spaCy tagging and linking,
search index, ...) and in total, median of several runs over the bundled documents.

    .venv/bin/python benchmarks/bench_build.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rules_db.build import build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    stages: dict[str, list[float]] = {}
    totals = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs):
            start = time.perf_counter()
            result = build(Path(folder) / f"bench-{run}.db")
            totals.append(time.perf_counter() - start)
            for stage, seconds in result.timings.items():
                stages.setdefault(stage, []).append(seconds)
    print(f"build of {len(result.reports)} bundled documents, median of {runs} runs")
    for stage, seconds in stages.items():
        print(f"  {stage:<28} {statistics.median(seconds):7.3f} s")
    print(f"  {'total (wall clock)':<28} {statistics.median(totals):7.3f} s")


if __name__ == "__main__":
    main()
