"""Benchmark the build and the pages at scale: synthetic Riftbound corpora (``benchmarks/synthetic_corpus.py``:
a rulebook in two versions and a rulings file, with the bundled card list and errata) at 1x, 10x, 30x and
100x the bundled size, each built by ``rules_db.build`` in a process of its own.

For each scale: seconds (wall clock, and CPU: the machine may be shared; the total counts both of the build's
processes, a stage only the first's, with the second's tasks the first took over while it waited, shown apart),
peak memory (the build process's peak resident set at the end of each
stage; in the total, the larger of its two processes') and
database size per stage; the whole build's time and how it grows against the corpus (seconds per 1,000
rules from one scale to the next: flat when the build is linear); then, on the database built, the
latency (p50, p99) of ``/search.json``, a ruling page, a rule page and the first page of the version
diff, asked in-process from Datasette with the judges' plugin (no network).

    .venv/bin/python benchmarks/bench_scale.py [--scales 1 10 30 100] [--requests 100] [--keep FOLDER]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote, urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_build import cpu_seconds  # noqa: E402
from bench_pages import percentile  # noqa: E402
from bench_search import skip_trio_probe  # noqa: E402
from synthetic_corpus import KEYWORDS, NEW_DATE, generate  # noqa: E402

from rules_db.guard import read_only  # noqa: E402
from rules_db.timeline import TAKEN_OVER, Span  # noqa: E402

BUNDLED_CARDS = ("riftbound-cards.json", "riftbound-errata.json")


def build_one(folder: Path, db_path: Path) -> dict:
    """Build the synthetic corpus in ``folder``; per stage: seconds, peak memory (MB) and database size (MB)."""
    from ingest import limits
    from ingest.documents import CORPUS_DIR
    from ingest.formats import spec_for
    from rules_db import build as build_module

    # A synthetic rulebook at 100x is 11 MB, above the bound a judge's document is held to (the real ones are
    # under 1 MB): raised here, for this benchmark's process only.
    limits.MAX_DOCUMENT_BYTES = max(
        limits.MAX_DOCUMENT_BYTES, 4 * max(path.stat().st_size for path in folder.iterdir())
    )

    stages: dict[str, dict[str, float]] = {}
    stage_cpu: dict[str, float] = {}
    original = build_module._timed

    @contextmanager
    def measured(timings: dict[str, float], stage: str):
        cpu = time.process_time()
        with original(timings, stage):
            yield
        stage_cpu[stage] = stage_cpu.get(stage, 0.0) + time.process_time() - cpu
        building = list(db_path.parent.glob(f".{db_path.name}.*.building"))
        stages[stage] = {
            "seconds": timings[stage],
            "cpu seconds": stage_cpu[stage],
            "peak MB": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "db MB": building[0].stat().st_size / 2**20 if building else 0.0,
        }

    build_module._timed = measured
    specs = [
        spec_for(folder / "synthetic-core-rules-old.txt"),
        spec_for(folder / "synthetic-core-rules-new.txt"),
        replace(spec_for(folder / "synthetic-rulings.txt"), written_against=NEW_DATE),
        *(spec_for(CORPUS_DIR / name) for name in BUNDLED_CARDS),
    ]
    start, cpu = time.perf_counter(), cpu_seconds()
    result = build_module.build(db_path, specs)
    total, total_cpu = time.perf_counter() - start, cpu_seconds() - cpu  # the build's second process included
    if result.failed:
        raise SystemExit("; ".join(report.line() for report in result.failed))
    for stage, seconds in _taken_over_cpu(result.timeline, list(stages)).items():
        stages[stage]["cpu taken over"] = seconds
    conn = sqlite3.connect(db_path)
    rules = conn.execute("select count(*) from rules").fetchone()[0]
    rulings = conn.execute("select count(*) from rulings").fetchone()[0]
    return {
        "stages": stages,
        "total": total,
        "cpu": total_cpu,
        "peak MB": _peak_mb(),
        "db MB": db_path.stat().st_size / 2**20,
        "rules": rules,
        "rulings": rulings,
    }


def _taken_over_cpu(spans: list[Span], stages: list[str]) -> dict[str, float]:
    """CPU seconds of the second process's tasks that the first took over while waiting (``Timeline.take_over``),
    by the stage of the first they ran in. A stage's CPU includes them, and how many the first takes over
    depends on when it waits, not on the corpus: without them the stages compare from one scale to the next."""
    taken: dict[str, float] = {}
    for span in spans:
        if not span.stage.endswith(TAKEN_OVER):
            continue
        enclosing = [
            outer.stage
            for outer in spans
            if outer.pid == span.pid and outer.start <= span.start and span.end <= outer.end
        ]
        stage = next((stage for stage in stages for name in enclosing if f"{name} ".startswith(f"{stage} ")), None)
        if stage:
            taken[stage] = taken.get(stage, 0.0) + span.cpu
    return taken


def _peak_mb() -> float:
    """The larger peak resident set of the build's two processes (the second's is known once it has ended)."""
    return max(resource.getrusage(who).ru_maxrss for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024


def latencies(db_path: Path, requests: int, seed: int = 15) -> dict[str, tuple[list[float], list[float]]]:
    """Seconds per request (wall clock, and CPU of every thread of this process) for each kind of page, URLs
    drawn at random (fixed seed) from the database."""
    from datasette.app import Datasette

    skip_trio_probe()
    rng = random.Random(seed)
    conn = read_only(db_path)
    words = [word for (word,) in conn.execute("select term from search_terms where df > 1 limit 5000")]
    rulings = [ruling_id for (ruling_id,) in conn.execute("select id from rulings")]
    rules = conn.execute(
        "select r.game_id, d.version, r.number from rules r join documents d on d.id = r.document_id "
        "where d.game_id = 'riftbound'"
    ).fetchall()
    old, new = conn.execute(
        "select o.version, n.version from documents n join documents o on o.id = n.previous_id "
        "where n.game_id = 'riftbound' and n.kind = 'rules'"
    ).fetchone()

    def question() -> str:
        return " ".join([*rng.sample(words, rng.randint(1, 3)), *rng.sample(KEYWORDS, rng.randint(0, 1))])

    urls = {
        "/search.json": ["/search.json?" + urlencode({"q": question()}) for _ in range(requests)],
        "ruling page": [f"/rulings/{rng.choice(rulings)}" for _ in range(requests)],
        "rule page": [
            "/rules/" + "/".join(quote(str(part), safe="") for part in rng.choice(rules)) for _ in range(requests)
        ],
        "diff, first page": [f"/diff/riftbound/{quote(old)}/{quote(new)}"] * max(3, requests // 20),
    }
    return asyncio.run(_timed(Datasette(immutables=[str(db_path)]), urls))


async def _timed(datasette, urls: dict[str, list[str]]) -> dict[str, tuple[list[float], list[float]]]:
    """Each URL asked in turn, timed; in one ``asyncio.run`` so the client's generators are closed at the end."""
    await datasette.invoke_startup()
    seconds: dict[str, tuple[list[float], list[float]]] = {}
    for kind, paths in urls.items():
        start, cpu = time.perf_counter(), time.process_time()
        await datasette.client.get(paths[0])  # warm-up: the first request opens the database
        if kind.startswith("diff"):  # the comparison is worked out by the first request, then kept
            seconds["diff, first request"] = ([time.perf_counter() - start], [time.process_time() - cpu])
        seconds[kind] = ([], [])
        for path in paths:
            start, cpu = time.perf_counter(), time.process_time()
            response = await datasette.client.get(path)
            seconds[kind][0].append(time.perf_counter() - start)
            seconds[kind][1].append(time.process_time() - cpu)
            if response.status_code not in (200, 302):
                raise SystemExit(f"{path} answered {response.status_code}: {response.text[:300]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scales", type=float, nargs="+", default=[1, 10, 30, 100])
    parser.add_argument("--requests", type=int, default=100, help="requests per kind of page")
    parser.add_argument("--keep", type=Path, help="keep the corpora and databases in this folder")
    parser.add_argument("--build-one", nargs=2, type=Path, help=argparse.SUPPRESS)  # FOLDER DB: one build, as JSON
    arguments = parser.parse_args()
    if arguments.build_one:
        print(json.dumps(build_one(*arguments.build_one)))
        return
    with tempfile.TemporaryDirectory() as scratch:
        root = arguments.keep or Path(scratch)
        previous = None
        for scale in arguments.scales:
            folder = root / f"scale-{scale:g}"
            generate(folder, scale)
            db_path = folder / "rules.db"
            command = [sys.executable, __file__, "--build-one", str(folder), str(db_path)]
            figures = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
            report(scale, figures, previous)
            previous = figures
            seconds = latencies(db_path, arguments.requests)
            for kind, (wall, cpu) in seconds.items():
                print(
                    f"  {kind:<20} p50 {percentile(wall, 0.5) * 1000:7.1f} ms   p99 {percentile(wall, 0.99) * 1000:7.1f} ms"
                    f"   (cpu p50 {percentile(cpu, 0.5) * 1000:6.1f} ms, p99 {percentile(cpu, 0.99) * 1000:6.1f} ms; "
                    f"{len(wall)} requests)"
                )
            sys.stdout.flush()


def report(scale: float, figures: dict, previous: dict | None) -> None:
    rules, total, cpu = figures["rules"], figures["total"], figures["cpu"]
    print(f"\n{scale:g}x: {rules:,} rules in two versions, {figures['rulings']:,} rulings")
    for stage, values in figures["stages"].items():
        taken = f", {values['cpu taken over']:.2f} s of it taken over" if "cpu taken over" in values else ""
        print(
            f"  {stage:<28} {values['seconds']:8.2f} s (cpu {values['cpu seconds']:7.2f} s)   peak {values['peak MB']:7.0f} MB   "
            f"database {values['db MB']:7.1f} MB{taken}"
        )
    growth = ""
    if previous:
        step = (total / rules) / (previous["total"] / previous["rules"])
        cpu_step = (cpu / rules) / (previous["cpu"] / previous["rules"])
        growth = f"; time per rule x{step:.2f} (cpu x{cpu_step:.2f}) against the previous scale (1.00: linear)"
    print(
        f"  {'total':<28} {total:8.2f} s (cpu {cpu:7.2f} s)   peak {figures['peak MB']:7.0f} MB   "
        f"database {figures['db MB']:7.1f} MB\n  {total / rules * 1000:.2f} s per 1,000 rules{growth}"
    )


if __name__ == "__main__":
    main()
