"""Benchmark what-ifs from the replay page: the time from a what-if form's submit to the whole page, over the
library, on a real server (`rules_db.serve.serve`, one process, as `rules-db serve` runs each worker).

For every library replay the judge first opens the replay (its view is then cached, as it is for a judge who
reads a replay before asking), then asks each what-if the page offers in one tap or one form: the first unit's
Might raised by 2, each question answered otherwise (the first other legal answer), and the other player's
turn. Each what-if is asked once (a new what-if is never in the cache). Reports p50, p90, p99 and the slowest,
overall and by kind; the target is p99 < 300 ms.

    .venv/bin/python benchmarks/bench_whatif.py [--db data/rules.db] [--limit N]   (builds the database if missing)
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlencode

from bench_pages import percentile, server_cpu_seconds  # benchmarks/ is on the path when a benchmark runs as a script

from rules_db.guard import read_only
from rules_db.replay_view import flow


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _get(url: str) -> tuple[float, bytes]:
    started = time.perf_counter()
    with urllib.request.urlopen(url, timeout=60) as response:
        body = response.read()
    return time.perf_counter() - started, body


def _what_ifs(view: dict) -> list[tuple[str, dict]]:
    inputs = view["inputs"]
    asked = []
    if inputs["units"]:
        unit = inputs["units"][0]
        asked.append(("might", {"path": unit["path"] + ".might", "value": str((unit["might"] or 0) + 2)}))
    for choice in inputs["choices"]:
        asked.append(("choice", {"path": choice["path"], "value": flow(choice["alternatives"][0]["value"])}))
    for player in inputs["players"]:
        if player != inputs["turn_player"]:
            asked.append(("turn", {"path": "setup.turn.player", "value": player}))
    return asked


def _report(label: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"{label:10} {len(ms):>5} {statistics.median(ms):>8.0f} {percentile(ms, 0.9):>8.0f} "
        f"{percentile(ms, 0.99):>8.0f} {max(ms):>8.0f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=Path("data/rules.db"))
    parser.add_argument("--limit", type=int, default=None, help="only the first N replays")
    args = parser.parse_args()
    if not args.db.exists():
        print(f"{args.db} does not exist: building it (rules-db build)")
        subprocess.run([str(Path(sys.executable).parent / "rules-db"), "build", "--db", str(args.db)], check=True)
    connection = read_only(args.db)
    replay_ids = [row[0] for row in connection.execute("select id from replays order by id")][: args.limit]
    connection.close()
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    code = f"from rules_db.serve import serve; serve({str(args.db.resolve())!r}, port={port}, workers=1)"
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen([sys.executable, "-c", code], stdout=log, stderr=subprocess.STDOUT)
        try:
            for _ in range(600):
                try:
                    _get(base + "/-/versions.json")
                    break
                except OSError:
                    time.sleep(0.2)
            _get(base + "/dispute")  # the engine's workers started and warm
            timings: dict[str, list[float]] = {}
            cpu = 0.0  # the server's and its engine workers' CPU time over the what-ifs alone
            for replay_id in replay_ids:
                page = f"{base}/replays/{quote(replay_id)}"
                _, body = _get(page + ".json")  # the judge opens the replay first
                view = json.loads(body)["view"]
                for kind, params in _what_ifs(view):
                    before = server_cpu_seconds(server.pid)
                    seconds, body = _get(page + "?" + urlencode(params))
                    cpu += server_cpu_seconds(server.pid) - before
                    if b'class="compare"' not in body:
                        raise SystemExit(f"{replay_id}: the what-if {params} gave no comparison")
                    timings.setdefault(kind, []).append(seconds)
        finally:
            server.terminate()
            server.wait(timeout=30)
    everything = [s for values in timings.values() for s in values]
    print(f"what-if latency, form submit to page, over {len(replay_ids)} library replays (ms)")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work slows every figure)")
    print(f"server CPU (with its engine workers) {cpu / len(everything) * 1000:.0f} ms a what-if on average")
    print(f"{'what-if':10} {'count':>5} {'p50':>8} {'p90':>8} {'p99':>8} {'max':>8}")
    for kind, seconds in sorted(timings.items()):
        _report(kind, seconds)
    _report("all", everything)
    p99 = percentile([s * 1000 for s in everything], 0.99)
    print(f"target p99 < 300 ms: {'met' if p99 < 300 else 'NOT met'} ({p99:.0f} ms)")


if __name__ == "__main__":
    main()
