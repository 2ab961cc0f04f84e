"""Benchmark the judges' pages under load: ``rules-db serve`` on the database, then 8 concurrent
loopback clients (keep-alive connections) asking for a shuffled mix of every kind of judges' page;
p50, p99 and max latency per kind of page, the errors, and the server's CPU time per request.

    .venv/bin/python benchmarks/bench_pages.py [--db data/rules.db] [--clients 8] [--per-kind 200]

The URLs are drawn from the database (rules, rulings, cards, keywords and replays spread over every
game and version), so the figures cover the pages judges open, not one page cached in a loop.
"""

from __future__ import annotations

import argparse
import http.client
import os
import queue
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote, urlencode

from rules_db.guard import read_only

PROJECT = Path(__file__).resolve().parent.parent
SEARCHES = ["recalled", "tank", "combat damage", "hidden", "zhonya", "legend", "showdown", "deflect", "626.1.d"]


def page_urls(db_path: Path, per_kind: int, seed: int = 1) -> list[tuple[str, str]]:
    """(kind, url) pairs: ``per_kind`` of each kind of page, drawn at random (fixed seed) from the database."""
    random.seed(seed)
    conn = read_only(db_path)

    def sample(sql: str) -> list[tuple]:
        rows = conn.execute(sql).fetchall()
        return [random.choice(rows) for _ in range(per_kind)] if rows else []

    def path(*parts: str) -> str:
        return "/" + "/".join(quote(str(part), safe="") for part in parts)

    kinds = {
        "home": [("/",)] * per_kind,
        "search": [(f"/search?q={quote(random.choice(SEARCHES))}",) for _ in range(per_kind)],
        # A rule of a rulebook other than the game's default one (the Tournament Rules) names its rulebook.
        "rule": [
            (path("rules", game, *([rulebook] if rulebook else []), version, number),)
            for game, rulebook, version, number in sample(
                """select r.game_id, case when b.is_default then null else b.slug end, d.version, r.number
                from rules r join documents d on d.id = r.document_id left join rulebooks b on b.id = d.rulebook_id"""
            )
        ],
        "missing rule": [
            (path("rules", game, f"{number}.999.9"),)
            for game, number in sample(
                "select r.game_id, r.number from rules r join documents d on d.id = r.document_id where d.is_newest"
            )
        ],
        "ruling": [(path("rulings", ruling_id),) for (ruling_id,) in sample("select id from rulings")],
        "card": [(path("cards", slug),) for (slug,) in sample("select slug from cards")],
        "keyword": [
            (path("keywords", game, version, term),)
            for game, version, term in sample(
                "select k.game_id, d.version, k.term from keywords k join documents d on d.id = k.document_id"
            )
        ],
        "replay": [(path("replays", replay_id),) for (replay_id,) in sample("select id from replays")],
        "diff": [
            (path("diff", game, old, new),)
            for game, old, new in sample(
                """select o.game_id, o.version, n.version from rule_lineage l
                join documents o on o.id = l.from_document_id join documents n on n.id = l.to_document_id
                group by l.from_document_id, l.to_document_id"""
            )
        ],
        "rule tree": [
            (path("rules", game) + "?" + urlencode({"rulebook": rulebook, "version": version}),)
            for game, rulebook, version in sample(
                """select d.game_id, b.slug, d.version from documents d join rulebooks b on b.id = d.rulebook_id
                where d.kind = 'rules'"""
            )
        ],
        "infractions": [
            (path("infractions", game),)
            for (game,) in sample(
                "select distinct d.game_id from infractions i join documents d on d.id = i.document_id"
            )
        ],
        # The lists as a judge narrows them: no filter, one filter, newest first, a later page.
        "rulings list": [
            ("/rulings" + ("?" + urlencode(filters) if filters else ""),)
            for filters in random.choices(
                [{}, {"order": "newest"}, {"page": 2}]
                + [{"source": source} for (source,) in conn.execute("select distinct source from rulings")]
                + [{"category": category} for (category,) in conn.execute("select distinct category from rulings")]
                + [{"rule": number} for (number,) in conn.execute("select number from ruling_citations limit 20")],
                k=per_kind,
            )
        ],
        "cards list": [
            ("/cards" + ("?" + urlencode(filters) if filters else ""),)
            for filters in random.choices(
                [{}, {"page": 2}, {"name": "zhonya"}, {"name": "a"}]
                + [{"type": card_type} for (card_type,) in conn.execute("select distinct card_type from cards")],
                k=per_kind,
            )
        ],
        "replays list": [("/replays",)] * per_kind,
    }
    conn.close()
    pairs = [(kind, url) for kind, urls in kinds.items() for (url,) in urls]
    random.shuffle(pairs)
    return pairs


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(db_path: Path, port: int, workers: int | None = None) -> subprocess.Popen:
    """``rules-db serve``, as ``make serve`` runs it (or with ``workers`` processes), answering on ``port`` with
    every worker (``rules_db.serve.listening_on``): clients that connect while one still warms up stay on the
    others, and the figures would be those of fewer workers."""
    from rules_db.serve import default_workers, listening_on

    command = [str(Path(sys.executable).parent / "rules-db"), "serve", "--db", str(db_path), "--port", str(port)]
    command += ["--workers", str(workers)] if workers else []
    # Its own process group: stopping the server stops its worker processes too.
    server = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=PROJECT, start_new_session=True
    )
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"rules-db serve stopped:\n{server.stderr.read().decode()[-2000:]}")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/-/versions.json")
            connection.getresponse().read()
            listening = listening_on(port)
            if listening is None or listening >= (workers or default_workers()):
                return server
            time.sleep(0.2)
        except OSError:
            time.sleep(0.2)
    stop_server(server)
    raise SystemExit("rules-db serve did not answer within 300 s")


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server and its workers (SIGTERM to its process group, SIGKILL if it lingers)."""
    try:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
    except ProcessLookupError:
        pass


# A missing rule is a 404; a search that is only a rule number jumps to the rule (302).
EXPECTED = {"missing rule": (404,), "search": (200, 302)}


def drive(port: int, next_page: Callable[[], tuple[str, str] | None], clients: int) -> tuple[dict, dict, float]:
    """``clients`` keep-alive connections, each asking for ``next_page()`` (thread-safe) until it returns None;
    latency in seconds and errors per kind of page, and the wall time of the whole run."""
    latencies: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, list[str]] = defaultdict(list)
    lock = threading.Lock()

    def client() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while (page := next_page()) is not None:
            kind, url = page
            started = time.perf_counter()
            try:
                connection.request("GET", url)
                response = connection.getresponse()
                response.read()
                status: int | str = response.status
            except (OSError, http.client.HTTPException) as error:
                connection.close()
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                status = f"{type(error).__name__}: {error}"
            elapsed = time.perf_counter() - started
            with lock:
                latencies[kind].append(elapsed)
                if status not in EXPECTED.get(kind, (200,)):
                    errors[kind].append(f"{url}: {status}")
        connection.close()

    threads = [threading.Thread(target=client) for _ in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return latencies, errors, time.perf_counter() - started


def run_clients(port: int, pairs: list[tuple[str, str]], clients: int) -> tuple[dict, dict, float]:
    """Each page of ``pairs`` asked once, the clients sharing one queue until it is empty."""
    work: queue.Queue = queue.Queue()
    for pair in pairs:
        work.put(pair)

    def next_page() -> tuple[str, str] | None:
        try:
            return work.get_nowait()
        except queue.Empty:
            return None

    return drive(port, next_page, clients)


def server_cpu_seconds(pid: int) -> float:
    """CPU time (user and system) of the server and every process under it so far (its workers and their replay
    sandboxes; Linux /proc), so the cost of a page can be told apart from waiting for a machine other work keeps
    busy; 0 where /proc is absent."""
    return sum(worker_cpu_seconds(pid).values())


def worker_cpu_seconds(pid: int) -> dict[int, float]:
    """CPU time so far of the server ``pid`` itself and of each of its worker processes, every process under a
    worker (its replay sandboxes) counted with it: how the work is spread over the workers."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents, cpu = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
        cpu[int(stat.parent.name)] = (int(fields[11]) + int(fields[12])) / ticks

    def branch(process: int) -> int | None:
        """The server, or the worker of the server that ``process`` runs under; None outside the server."""
        while process > 1 and process != pid and parents.get(process) != pid:
            process = parents.get(process, 0)
        return process if process == pid or parents.get(process) == pid else None

    spread: dict[int, float] = defaultdict(float)
    for process, seconds in cpu.items():
        if (worker := branch(process)) is not None:
            spread[worker] += seconds
    return {worker: seconds for worker, seconds in spread.items() if not _resource_tracker(worker)}


def worker_shares(pid: int, before: dict[int, float]) -> tuple[float, list[float]]:
    """The server's CPU time since ``before`` (``worker_cpu_seconds`` then), and each worker's share of it, largest
    first: kept-alive connections stay on the worker that accepted them, so one worker may serve most clients."""
    spread = {worker: cpu - before.get(worker, 0.0) for worker, cpu in worker_cpu_seconds(pid).items()}
    total = sum(spread.values())
    return total, sorted((cpu / total for worker, cpu in spread.items() if worker != pid and total), reverse=True)


def _resource_tracker(pid: int) -> bool:
    """multiprocessing's resource tracker: a child of the server that serves no page."""
    try:
        return b"resource_tracker" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=PROJECT / "data" / "rules.db")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--per-kind", type=int, default=200)
    parser.add_argument("--warm-up", type=int, default=2, help="requests of each kind before measuring")
    arguments = parser.parse_args()

    port = free_port()
    server = start_server(arguments.db, port)
    try:
        run_clients(port, page_urls(arguments.db, arguments.warm_up, seed=2), arguments.clients)
        pairs = page_urls(arguments.db, arguments.per_kind)
        cpu_before = worker_cpu_seconds(server.pid)
        latencies, errors, wall = run_clients(port, pairs, arguments.clients)
        server_cpu, shares = worker_shares(server.pid, cpu_before)
    finally:
        stop_server(server)

    print(f"{len(pairs)} requests, {arguments.clients} clients, {wall:.1f} s, {len(pairs) / wall:.0f} requests/s")
    print(
        f"server CPU {server_cpu:.1f} s: {server_cpu / len(pairs) * 1000:.1f} ms a request on average; "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work slows every figure); "
        "workers' shares " + " ".join(f"{share:.0%}" for share in shares)
    )
    print(f"{'page':14} {'requests':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'errors':>7}")
    for kind in sorted(latencies, key=lambda kind: -percentile(latencies[kind], 0.99)):
        values = latencies[kind]
        print(
            f"{kind:14} {len(values):>8} {statistics.median(values) * 1000:>8.1f} "
            f"{percentile(values, 0.99) * 1000:>8.1f} {max(values) * 1000:>8.1f} {len(errors[kind]):>7}"
        )
    for kind, failed in errors.items():
        for line in failed[:3]:
            print(f"  {kind} error: {line}")
    if any(errors.values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
