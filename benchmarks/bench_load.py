"""Load on loopback: ``rules-db serve`` under 8, 32 and 64 concurrent clients, a fixed time each, over the mix of
judges' pages of ``bench_pages`` (rules, rulings, cards, keywords, replays, searches, missing rules, every game
and version). Prints per client count the requests per second, p50, p99 and max latency and the errors, with the
load average the machine had (other work on a shared machine slows every figure).

    .venv/bin/python benchmarks/bench_load.py [--db data/rules.db] [--clients 8 32 64] [--seconds 20]

Bounded: every client is a keep-alive connection on 127.0.0.1, each run stops at its time, and the server and
its workers are stopped at the end. Exits non-zero on any error.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import threading
import time
from pathlib import Path

from bench_pages import PROJECT, drive, free_port, page_urls, percentile, start_server, stop_server


def run(port: int, pairs: list[tuple[str, str]], clients: int, seconds: float) -> tuple[list[float], list[str], float]:
    """``clients`` connections, each asking for the next page of the cycled mix until ``seconds`` have passed."""
    pages = itertools.cycle(pairs)
    lock = threading.Lock()
    stop = time.monotonic() + seconds

    def next_page() -> tuple[str, str] | None:
        if time.monotonic() >= stop:
            return None
        with lock:
            return next(pages)

    latencies, errors, wall = drive(port, next_page, clients)
    return [t for times in latencies.values() for t in times], [e for kind in errors.values() for e in kind], wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=PROJECT / "data" / "rules.db")
    parser.add_argument("--clients", type=int, nargs="+", default=[8, 32, 64])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--per-kind", type=int, default=100, help="distinct pages of each kind in the mix")
    arguments = parser.parse_args()

    pairs = page_urls(arguments.db, arguments.per_kind)
    port = free_port()
    server = start_server(arguments.db, port)
    rows, failed = [], []
    try:
        run(port, pairs, 8, 5)  # warm-up: every worker has opened its connections and filled its page cache a little
        for clients in arguments.clients:
            load = os.getloadavg()[0]
            latencies, errors, wall = run(port, pairs, clients, arguments.seconds)
            rows.append((clients, len(latencies), wall, latencies, len(errors), load))
            failed.extend(errors)
    finally:
        stop_server(server)

    print(f"{len(pairs)} distinct pages, {arguments.seconds:g} s a run, {os.cpu_count()} cores")
    print(
        f"{'clients':>7} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>6} {'load':>5}"
    )
    for clients, count, wall, latencies, errors, load in rows:
        print(
            f"{clients:>7} {count:>8} {count / wall:>7.0f} {statistics.median(latencies) * 1000:>8.1f} "
            f"{percentile(latencies, 0.99) * 1000:>8.1f} {max(latencies) * 1000:>8.1f} {errors:>6} {load:>5.1f}"
        )
    for line in failed[:5]:
        print(f"  error: {line}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
