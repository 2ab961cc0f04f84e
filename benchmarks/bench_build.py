"""Benchmark the build: time per stage (parse, write, spaCy tagging and linking, search index, ...) and in
total, median of several runs over the bundled documents, against the minimal work on the same data.

    .venv/bin/python benchmarks/bench_build.py [--runs 3] [--timeline]

The floor is what any build of these documents must do at least, measured in the same process: read
the files, insert the same rows (every table the build wrote, the search index's included) with one
``insert_all`` each into a database written like the build's, build one full-text index (the judges'
search index over its rows), and run spaCy's pipeline over the same texts (every rule and ruling). The
ratio of the two medians says how much the build spends beyond that floor. CPU seconds are printed
beside wall-clock ones: on a shared machine they say what the build costs, whatever else runs.

The build uses two processes (the second loads spaCy and tags text, then matches the versions' lineage and
replays the scenarios, while the first parses, stores, links and indexes): its CPU seconds are both processes'
together, and a stage's figure is the first process's wall-clock time in it, waiting for the second included.
Each build's second process loads spaCy afresh (the first never does), as a cold build would. The floor is one
process. ``--timeline`` prints, for the last build, when each stage of each process started and ended and its
CPU seconds, and when the first process waited for the second (``rules_db.timeline``).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import sqlite_utils

from rules_db.build import build, bulk_loader, bundled_specs
from rules_db.timeline import table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from spacy_reference import pipeline  # noqa: E402  (spaCy's own pipeline: the floor's tagging)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeline", action="store_true", help="print the last build's stages in both processes")
    arguments = parser.parse_args()
    runs = arguments.runs
    stages: dict[str, list[float]] = {}
    totals, cpus, floors, floor_cpus = [], [], [], []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(runs):
            start, cpu = time.perf_counter(), cpu_seconds()
            result = build(Path(folder) / f"bench-{run}.db")
            totals.append(time.perf_counter() - start)
            cpus.append(cpu_seconds() - cpu)
            for stage, seconds in result.timings.items():
                stages.setdefault(stage, []).append(seconds)
        tables, texts = _same_data(Path(folder) / "bench-0.db")
        for run in range(runs):
            start, cpu = time.perf_counter(), time.process_time()
            _floor(Path(folder) / f"floor-{run}.db", tables, texts)
            floors.append(time.perf_counter() - start)
            floor_cpus.append(time.process_time() - cpu)
    rows = sum(len(table) for table in tables.values())
    print(f"build of {len(result.reports)} bundled documents in 2 processes, median of {runs} runs")
    for stage, seconds in stages.items():
        print(f"  {stage:<28} {statistics.median(seconds):7.3f} s")
    build_wall, build_cpu = statistics.median(totals), statistics.median(cpus)
    floor_wall, floor_cpu = statistics.median(floors), statistics.median(floor_cpus)
    print(f"  {'total (wall clock)':<28} {build_wall:7.3f} s   cpu {build_cpu:7.3f} s")
    print(
        f"floor (read the files, {rows:,} rows in {len(tables)} insert_all, one FTS index, "
        f"spaCy over {len(texts):,} texts)"
    )
    print(f"  {'total (wall clock)':<28} {floor_wall:7.3f} s   cpu {floor_cpu:7.3f} s   (one process)")
    print(f"build / floor: {build_wall / floor_wall:.2f}x wall clock, {build_cpu / floor_cpu:.2f}x cpu")
    if arguments.timeline:
        print(f"\ntimeline of the last build (seconds from its first stage)\n{table(result.timeline, os.getpid())}")


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (the build's second process)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _same_data(db_path: Path) -> tuple[dict[str, list[dict]], list[str]]:
    """Every row of every ordinary table the build wrote (not the full-text indexes' own tables), and the
    texts it tags: each rule's text and each ruling's question and answer."""
    db = sqlite_utils.Database(db_path)
    fts = {name for name in db.table_names() if db[name].virtual_table_using}
    shadow = {name for name in db.table_names() if any(name.startswith(f"{index}_") for index in fts)}
    tables = {name: list(db[name].rows) for name in db.table_names() if name not in fts | shadow}
    texts = [row["text"] or "" for row in tables["rules"]]
    texts += [f"{row['question']}\n{row['ruling']}" for row in tables["rulings"]]
    return tables, texts


def _floor(db_path: Path, tables: dict[str, list[dict]], texts: list[str]) -> None:
    for spec in bundled_specs():
        files = sorted(spec.path.rglob("*")) if spec.path.is_dir() else [spec.path]
        for file in files:
            if file.is_file():
                file.read_bytes()
    db = bulk_loader(str(db_path))
    for name, rows in tables.items():
        db[name].insert_all(rows)
    db["search_documents"].enable_fts(
        ["title", "terms", "path", "context", "body", "facets"], tokenize="porter", create_triggers=False
    )
    db.conn.commit()
    db.close()
    nlp = pipeline()
    for _ in nlp.pipe(texts, batch_size=256):
        pass


if __name__ == "__main__":
    main()
