"""CPU time of each kind of judges' page, rendered in-process: what one request costs the server, apart from
waiting for a machine other work keeps busy (the latency benchmark, bench_pages.py, measures under load).

    .venv/bin/python benchmarks/bench_page_cpu.py [--db data/rules.db] [--per-kind 30] [--profile KIND] [--served]

Each URL (bench_pages.page_urls: the same mix of pages) is asked through Datasette's own client, as the served
application is built (rules_db.serve), with the page cache emptied before every request, so the figure is the
cost of rendering the page, not of answering it from memory. The CPU time counts the replay sandbox's worker
processes too (Linux /proc). ``--profile KIND`` prints where that kind's time goes (cProfile, cumulative).
``--served`` measures the mix as a served worker answers it: warmed up by the ASGI lifespan as a server starts
it, its page cache kept (what bench_pages's server does, without the waiting). ``--first`` measures instead the
first page of each kind in an application started as a server starts it (the ASGI lifespan, which
``datasette_plugins.warm_up`` answers), over ``--per-kind`` fresh applications: what a worker's first judges pay,
the slow tail of the latency benchmark when a worker starts cold.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import multiprocessing
import os
import pstats
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pages import EXPECTED, PROJECT, page_urls, percentile  # noqa: E402
from bench_search import skip_trio_probe  # noqa: E402


def application(db_path: Path):
    """Datasette on the database as ``rules-db serve`` builds it (immutable, with its metadata)."""
    from datasette.app import Datasette

    from rules_db.serve import metadata

    skip_trio_probe()
    return Datasette(immutables=[str(db_path)], metadata=metadata(db_path))


def cpu_now() -> float:
    """CPU time of this process and of its child processes still running (the replay sandbox's workers),
    read from /proc for the children (whose time getrusage counts only once they end)."""
    ticks = os.sysconf("SC_CLK_TCK")
    children = 0
    for listing in Path("/proc/self/task").glob("*/children"):
        for pid in listing.read_text().split():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            children += int(fields[11]) + int(fields[12])
    return time.process_time() + children / ticks


async def measure(
    db_path: Path, per_kind: int, profile: str | None, kinds: list[str] | None, served: bool = False
) -> dict[str, list[float]]:
    from datasette_plugins import CACHE

    datasette = application(db_path)
    # as a server's worker: warmed up by the lifespan, then the mix in its order, its pages kept
    lifespan = await served_startup(datasette) if served else None
    if served:
        pages = page_urls(db_path, per_kind)
    else:
        await datasette.invoke_startup()
        for _kind, url in page_urls(db_path, 2, seed=2):  # warm up: templates compiled, sandbox started
            await datasette.client.get(url)
        pages = sorted(page_urls(db_path, per_kind))
    costs: dict[str, list[float]] = defaultdict(list)
    profiler = cProfile.Profile() if profile else None
    for kind, url in pages:
        if kinds and kind not in kinds:
            continue
        if not served:
            CACHE.pages.clear()
        if profiler and kind == profile:
            profiler.enable()
        started = cpu_now()
        response = await datasette.client.get(url)
        costs[kind].append(cpu_now() - started)
        if profiler and kind == profile:
            profiler.disable()
        if response.status_code not in EXPECTED.get(kind, (200,)):
            print(f"  {kind} {url}: {response.status_code}", file=sys.stderr)
    if profiler:
        pstats.Stats(profiler).sort_stats(os.environ.get("SORT", "cumulative")).print_stats(
            int(os.environ.get("LINES", "45"))
        )
    if lifespan:
        lifespan.cancel()
    return costs


def first_pages(db_path: Path, starts: int) -> dict[str, list[float]]:
    """CPU time of the first page of each kind (in a shuffled order) in each of ``starts`` fresh applications, each
    in a new process as a server's worker is (nothing loaded by an earlier one)."""
    costs: dict[str, list[float]] = defaultdict(list)
    with multiprocessing.get_context("spawn").Pool(1, maxtasksperchild=1) as pool:
        for start in range(starts):
            for kind, seconds in pool.apply(_first_pages_of_one_start, (db_path, start)).items():
                costs[kind].append(seconds)
    return costs


def _first_pages_of_one_start(db_path: Path, seed: int) -> dict[str, float]:
    from datasette_plugins import replay_pages

    async def run() -> dict[str, float]:
        datasette = application(db_path)
        lifespan = await served_startup(datasette)
        costs = {}
        for kind, url in page_urls(db_path, 1, seed=seed):
            started = cpu_now()
            await datasette.client.get(url)
            costs[kind] = cpu_now() - started
        lifespan.cancel()
        return costs

    try:
        return asyncio.run(run())
    finally:
        replay_pages.service().sandbox.close()


async def served_startup(datasette) -> asyncio.Task:
    """The ASGI lifespan's startup, as uvicorn runs it before serving: the lifespan then waits for a shutdown that
    never comes while the pages are measured (the caller cancels the task it is given once done)."""
    messages = [{"type": "lifespan.startup"}]
    started = asyncio.Event()

    async def receive() -> dict:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # serving: no shutdown
        raise AssertionError("unreachable")

    async def send(message: dict) -> None:
        if message["type"] == "lifespan.startup.complete":
            started.set()

    lifespan = asyncio.create_task(datasette.app()({"type": "lifespan", "asgi": {"version": "3.0"}}, receive, send))
    await started.wait()
    return lifespan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=PROJECT / "data" / "rules.db")
    parser.add_argument("--per-kind", type=int, default=30)
    parser.add_argument("--profile", help="a kind of page (as printed) to profile")
    parser.add_argument("--kind", action="append", help="measure only this kind of page (may be repeated)")
    parser.add_argument("--first", action="store_true", help="each kind's first page in a freshly started application")
    parser.add_argument(
        "--served", action="store_true", help="as a served worker answers the mix: warmed up, its page cache kept"
    )
    arguments = parser.parse_args()
    if arguments.first:
        costs = first_pages(arguments.db, arguments.per_kind)
        print(f"CPU ms of each kind's first page in {arguments.per_kind} fresh applications", end="")
    else:
        costs = asyncio.run(
            measure(arguments.db, arguments.per_kind, arguments.profile, arguments.kind, arguments.served)
        )
        kept = "a served worker's: warmed up, page cache kept" if arguments.served else "page cache emptied before each"
        print(f"CPU ms per request, {kept}", end="")
    print(f"; load average {os.getloadavg()[0]:.1f}")
    print(f"{'page':14} {'requests':>8} {'mean':>7} {'p50':>7} {'p99':>7} {'max':>7}")
    for kind in sorted(costs, key=lambda kind: -statistics.mean(costs[kind])):
        values = [value * 1000 for value in costs[kind]]
        print(
            f"{kind:14} {len(values):>8} {statistics.mean(values):>7.1f} {statistics.median(values):>7.1f} "
            f"{percentile(values, 0.99):>7.1f} {max(values):>7.1f}"
        )


if __name__ == "__main__":
    main()
