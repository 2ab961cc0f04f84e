"""Benchmark the build: time per stage (parse, write, spaCy tagging and linking, search index, ...) and in
total, median of several runs over the bundled documents, against the minimal work on the same data.

    .venv/bin/python benchmarks/bench_build.py [--runs 3] [--timeline]

Every build runs in a fresh Python process, as ``rules-db build`` does: its figure is a cold build's, the
interpreter's start, every import and spaCy's load included (a second build in the same process would find
them done). The floor too runs in fresh processes of its own.

The floor is what any build of these documents must do at least: read the files, insert the same rows (every
table the build wrote, the search index's included) with one ``insert_all`` each into a database written like
the build's, build one full-text index (the judges' search index over its rows), and run spaCy's pipeline over
the same texts (every rule and ruling). Its process first reads those rows and texts from the first build's
database; that reading is not the floor's work, and its seconds are taken off the floor's. The ratio of the two
medians says how much the build spends beyond that floor. CPU seconds are printed beside wall-clock ones: on a
shared machine they say what the build costs, whatever else runs (the load average is printed too).

The build uses two processes (the second loads spaCy and tags text, then matches the versions' lineage and
replays the scenarios, while the first parses, stores, links and indexes): its CPU seconds are both processes'
together, and a stage's figure is the first process's wall-clock time in it, waiting for the second included.
The floor is one process. ``--timeline`` prints, for the last build, when each stage of each process started
and ended and its CPU seconds, and when the first process waited for the second (``rules_db.timeline``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeline", action="store_true", help="print the last build's stages in both processes")
    parser.add_argument("--build-once", metavar="DB", help=argparse.SUPPRESS)  # one build, in this fresh process
    parser.add_argument("--floor-once", nargs=2, metavar=("BUILT_DB", "DB"), help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.build_once:
        return _build_once(Path(arguments.build_once))
    if arguments.floor_once:
        return _floor_once(*map(Path, arguments.floor_once))
    runs = arguments.runs
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        builds = [_in_fresh_process("--build-once", f"{folder}/bench-{run}.db") for run in range(runs)]
        floors = [
            _in_fresh_process("--floor-once", f"{folder}/bench-0.db", f"{folder}/floor-{run}.db") for run in range(runs)
        ]
    _print_figures(builds, floors, load_before)
    if arguments.timeline:
        from rules_db.timeline import Span, table

        last = builds[-1]
        spans = [Span(**span) for span in last["timeline"]]
        print(f"\ntimeline of the last build (seconds from its first stage)\n{table(spans, last['pid'])}")


def _in_fresh_process(*arguments: str) -> dict:
    """Run this script with ``arguments`` in a new Python process: its wall-clock and CPU seconds (its children's
    included), less what it says it spent on reading its input, and what it printed (JSON)."""
    start, cpu = time.perf_counter(), cpu_seconds()
    finished = subprocess.run(
        [sys.executable, __file__, *arguments], check=True, capture_output=True, text=True, cwd=_REPOSITORY
    )
    wall, cpu = time.perf_counter() - start, cpu_seconds() - cpu
    figures = json.loads(finished.stdout.splitlines()[-1])
    figures["wall"] = wall - figures.get("input_wall", 0.0)
    figures["cpu"] = cpu - figures.get("input_cpu", 0.0)
    return figures


_REPOSITORY = Path(__file__).resolve().parent.parent


def _print_figures(builds: list[dict], floors: list[dict], load_before: tuple[float, float, float]) -> None:
    runs = len(builds)
    print(
        f"build of {builds[0]['documents']} bundled documents in 2 processes, each build a fresh `python`, median of {runs} runs"
    )
    for stage in builds[0]["timings"]:
        print(f"  {stage:<28} {statistics.median(build['timings'][stage] for build in builds):7.3f} s")
    build_wall, build_cpu = (statistics.median(build[key] for build in builds) for key in ("wall", "cpu"))
    floor_wall, floor_cpu = (statistics.median(floor[key] for floor in floors) for key in ("wall", "cpu"))
    print(f"  {'total (wall clock)':<28} {build_wall:7.3f} s   cpu {build_cpu:7.3f} s")
    floor = floors[0]
    print(
        f"floor (read the files, {floor['rows']:,} rows in {floor['tables']} insert_all, one FTS index, "
        f"spaCy over {floor['texts']:,} texts), each a fresh `python`"
    )
    print(f"  {'total (wall clock)':<28} {floor_wall:7.3f} s   cpu {floor_cpu:7.3f} s   (one process)")
    print(f"build / floor: {build_wall / floor_wall:.2f}x wall clock, {build_cpu / floor_cpu:.2f}x cpu")
    print(f"load average (1, 5, 15 min): before {_load(load_before)}, after {_load(os.getloadavg())}")


def _load(averages: tuple[float, float, float]) -> str:
    return " ".join(f"{average:.2f}" for average in averages)


def cpu_seconds() -> float:
    """CPU seconds of this process and of its children that have ended (a build's processes)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _build_once(db_path: Path) -> None:
    """One build (``rules_db.build``), its figures printed as JSON; the process exits as ``rules-db build`` does."""
    from dataclasses import asdict

    from rules_db.build import build
    from rules_db.cli import heap_left_to_the_system_at_exit

    heap_left_to_the_system_at_exit()
    result = build(db_path)
    figures = {
        "documents": len(result.reports),
        "timings": result.timings,
        "timeline": [asdict(span) for span in result.timeline],
        "pid": os.getpid(),
    }
    print(json.dumps(figures))


def _floor_once(built_path: Path, db_path: Path) -> None:
    """The floor's work on the rows and texts of the database at ``built_path``, its figures printed as JSON with
    the seconds spent reading them (not the floor's work)."""
    import sqlite_utils  # the floor's import: before its input is read

    start, cpu = time.perf_counter(), time.process_time()
    tables, texts = _same_data(sqlite_utils.Database(built_path))
    input_wall, input_cpu = time.perf_counter() - start, time.process_time() - cpu
    _floor(db_path, tables, texts)
    figures = {
        "rows": sum(len(rows) for rows in tables.values()),
        "tables": len(tables),
        "texts": len(texts),
        "input_wall": input_wall,
        "input_cpu": input_cpu,
    }
    print(json.dumps(figures))


def _same_data(db) -> tuple[dict[str, list[dict]], list[str]]:
    """Every row of every ordinary table the build wrote in ``db`` (not the full-text indexes' own tables), and
    the texts it tags: each rule's text and each ruling's question and answer."""
    fts = {name for name in db.table_names() if db[name].virtual_table_using}
    shadow = {name for name in db.table_names() if any(name.startswith(f"{index}_") for index in fts)}
    tables = {name: list(db[name].rows) for name in db.table_names() if name not in fts | shadow}
    texts = [row["text"] or "" for row in tables["rules"]]
    texts += [f"{row['question']}\n{row['ruling']}" for row in tables["rulings"]]
    return tables, texts


def _floor(db_path: Path, tables: dict[str, list[dict]], texts: list[str]) -> None:
    from ingest.documents import BUNDLED
    from ingest.spacy_reference import pipeline  # spaCy's own pipeline: the floor's tagging
    from rules_db.schema import bulk_loader

    for spec in BUNDLED:
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
