"""Load on loopback: ``rules-db serve`` under 8, 32 and 64 concurrent clients, a fixed time each, over the mix of
judges' pages of ``bench_pages`` (rules, rulings, cards, keywords, replays, searches, missing rules, every game
and version). Prints per client count the requests per second, p50, p99 and max latency and the errors, with the
load average the machine had (other work on a shared machine slows every figure).

    .venv/bin/python benchmarks/bench_load.py [--db data/rules.db] [--clients 8 32 64] [--seconds 20] [--workers N]
        [--hostile 2]

With ``--hostile N`` each client count is measured alone and again while N hostile clients send, in turn, a table
address with 1,000 query parameters, the largest board the dispute builder takes, a slow SQL call and a 200 MB
body (``hostile_requests``); their answers are counted by status. Judges' errors fail the run, not the hostile's.

Bounded: every client is a keep-alive connection on 127.0.0.1, each run stops at its time, and the server and
its workers are stopped at the end. Exits non-zero on any error.

The clients run in processes of their own, at most ``CLIENTS_PER_PROCESS`` threads each, so that at 64 clients a
response does not wait for one interpreter's lock before its time is taken. The CPU time of the server (its
workers and replay sandboxes) and of the clients is printed per request: on a machine other work keeps busy, the
latencies grow but these stay what a page costs.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import itertools
import math
import os
import statistics
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from urllib.parse import quote

from bench_pages import (
    PROJECT,
    drive,
    free_port,
    page_urls,
    percentile,
    start_server,
    stop_server,
    worker_cpu_seconds,
    worker_shares,
)

CLIENTS_PER_PROCESS = 8
# What a hostile client sends, each in turn (issue 35): a table address with 1,000 query parameters, the largest
# board the dispute builder takes, one SQL call that ran 30 s inside a step (instr over megabytes), and a 200 MB
# body. Each must be refused or bounded without slowing the judges' pages.
HOSTILE_BODY_BYTES = 200 * 1024 * 1024


def hostile_requests(db: Path) -> list[tuple[str, str, str]]:
    """(method, url, what) of each hostile request, for the database file ``db`` (Datasette's name for it)."""
    from rules_db.replay_view import encode

    units = "\n".join(f"        - {{id: a{n}, card: Test Unit, might: 3}}" for n in range(1, 13))
    fields = "\n".join(f"    - {{id: bf{n}, card: Neutral Ground}}" for n in range(1, 13))
    board = (
        "meta: {id: hostile, title: the largest board}\nsetup:\n  turn: {player: A}\n  players:\n    A:\n"
        f"      base:\n{units}\n    B: {{}}\n  battlefields:\n{fields}\nactions: []\nexpect: {{}}\n"
    )
    params = "&".join(f"x{index}=a" for index in range(1_000))
    slow_sql = "select instr(hex(zeroblob(2500000)) || 'b', hex(zeroblob(1250000)) || 'b')"
    return [
        ("GET", f"/{db.stem}/rules?{params}", "1,000 parameters"),
        ("GET", f"/dispute?s={encode(board)}", "the largest builder board"),
        ("GET", f"/{db.stem}.json?sql={quote(slow_sql)}", "a slow SQL function"),
        ("POST", "/dispute", "a 200 MB body"),
    ]


def hostile_client(port: int, requests: list[tuple[str, str, str]], stop: float) -> Counter:
    """Sends the hostile requests in turn until ``stop``; counts the answers by (what, status)."""
    answers: Counter = Counter()
    for method, url, what in itertools.cycle(requests):
        if time.monotonic() >= stop:
            return answers
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            if method == "POST":  # says its length, then sends until the server answers or closes
                connection.putrequest("POST", url)
                connection.putheader("Content-Length", str(HOSTILE_BODY_BYTES))
                connection.endheaders()
                with contextlib.suppress(OSError):
                    for _ in range(HOSTILE_BODY_BYTES // 65_536):
                        connection.send(b"a" * 65_536)
            else:
                connection.request(method, url)
            status: int | str = connection.getresponse().status
        except (OSError, http.client.HTTPException) as error:
            status = type(error).__name__
        finally:
            connection.close()
        answers[(what, status)] += 1
    return answers


START_DELAY = 1.0  # seconds for every client process to be ready before the run starts


def run(
    port: int, pairs: list[tuple[str, str]], clients: int, seconds: float
) -> tuple[list[float], list[str], float, float]:
    """``clients`` connections, each asking for the next page of the cycled mix until ``seconds`` have passed,
    spread over client processes (each starting at its own place in the mix). Returns the latencies, the errors,
    the run's length and the clients' CPU time."""
    processes = math.ceil(clients / CLIENTS_PER_PROCESS)
    shares = [clients // processes + (index < clients % processes) for index in range(processes)]
    start = time.monotonic() + START_DELAY  # one clock for every process (CLOCK_MONOTONIC is system-wide)
    with ProcessPoolExecutor(processes) as pool:
        results = list(
            pool.map(
                _client_process,
                itertools.repeat(port),
                [
                    pairs[index * len(pairs) // processes :] + pairs[: index * len(pairs) // processes]
                    for index in range(processes)
                ],
                shares,
                itertools.repeat(start),
                itertools.repeat(seconds),
            )
        )
    latencies = [t for result in results for t in result[0]]
    errors = [e for result in results for e in result[1]]
    return latencies, errors, max(result[2] for result in results), sum(result[3] for result in results)


def _client_process(
    port: int, pairs: list[tuple[str, str]], clients: int, start: float, seconds: float
) -> tuple[list[float], list[str], float, float]:
    pages = itertools.cycle(pairs)
    lock = threading.Lock()
    stop = start + seconds

    def next_page() -> tuple[str, str] | None:
        if time.monotonic() >= stop:
            return None
        with lock:
            return next(pages)

    time.sleep(max(0.0, start - time.monotonic()))
    cpu = time.process_time()
    latencies, errors, wall = drive(port, next_page, clients)
    return (
        [t for times in latencies.values() for t in times],
        [e for kind in errors.values() for e in kind],
        wall,
        time.process_time() - cpu,
    )


def measured_with(port: int, pairs, clients: int, seconds: float, hostile: list | None, hostile_clients: int):
    """``run`` of the judges' mix, with ``hostile_clients`` threads sending ``hostile`` requests meanwhile."""
    threads, answers = [], Counter()
    stop = time.monotonic() + START_DELAY + seconds
    for _ in range(hostile_clients if hostile else 0):
        thread = threading.Thread(target=lambda: answers.update(hostile_client(port, hostile, stop)))
        thread.start()
        threads.append(thread)
    result = run(port, pairs, clients, seconds)
    for thread in threads:
        thread.join()
    return result, answers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=PROJECT / "data" / "rules.db")
    parser.add_argument("--clients", type=int, nargs="+", default=[8, 32, 64])
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--per-kind", type=int, default=100, help="distinct pages of each kind in the mix")
    parser.add_argument("--workers", type=int, help="server processes (default: rules-db serve's, one per core)")
    parser.add_argument(
        "--hostile", type=int, default=0, help="also measure each client count with this many hostile clients"
    )
    arguments = parser.parse_args()
    hostile = hostile_requests(arguments.db) if arguments.hostile else None

    pairs = page_urls(arguments.db, arguments.per_kind)
    port = free_port()
    server = start_server(arguments.db, port, arguments.workers)
    rows, failed, hostile_answers = [], [], Counter()
    try:
        run(port, pairs, 8, 5)  # warm-up: every worker has opened its connections and filled its page cache a little
        for clients, hostile_clients in itertools.product(arguments.clients, sorted({0, arguments.hostile})):
            load = os.getloadavg()[0]
            before = worker_cpu_seconds(server.pid)
            (latencies, errors, wall, client_cpu), answers = measured_with(
                port, pairs, clients, arguments.seconds, hostile, hostile_clients
            )
            server_cpu, shares = worker_shares(server.pid, before)
            label = f"{clients}+{hostile_clients}h" if hostile_clients else str(clients)
            rows.append((label, len(latencies), wall, latencies, len(errors), load, server_cpu, client_cpu, shares))
            hostile_answers.update(answers)
            failed.extend(errors)
    finally:
        stop_server(server)

    print(f"{len(pairs)} distinct pages, {arguments.seconds:g} s a run, {os.cpu_count()} cores")
    print("CPU ms/req: CPU time per request of the server (workers, sandboxes) and of the clients;")
    print("workers: each server worker's share of the server's CPU time (one at 100%: one core served everything)")
    print(
        f"{'clients':>7} {'requests':>8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>6} "
        f"{'server CPU ms/req':>17} {'client CPU ms/req':>17} {'load':>5}  workers"
    )
    for clients, count, wall, latencies, errors, load, server_cpu, client_cpu, shares in rows:
        print(
            f"{clients:>7} {count:>8} {count / wall:>7.0f} {statistics.median(latencies) * 1000:>8.1f} "
            f"{percentile(latencies, 0.99) * 1000:>8.1f} {max(latencies) * 1000:>8.1f} {errors:>6} "
            f"{server_cpu / count * 1000:>17.1f} {client_cpu / count * 1000:>17.1f} {load:>5.1f}  "
            + " ".join(f"{share:.0%}" for share in shares)
        )
    for (what, status), count in sorted(hostile_answers.items(), key=str):
        print(f"  hostile: {what}: {count} answered {status}")
    for line in failed[:5]:
        print(f"  error: {line}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
