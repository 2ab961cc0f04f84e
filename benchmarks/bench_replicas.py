"""Serving more judges: N Datasette replicas of one read-only database behind HAProxy.

The database is never written after the build, so serving more judges is more identical
servers behind a load balancer the project does not write. For each N this starts N
``datasette serve -i`` processes on loopback ports, Debian's HAProxy in front of them (round
robin), and drives it with Debian's ``wrk`` over judges' pages found by following the links
of the home page; it prints requests per second and latency percentiles per N. Everything
listens on 127.0.0.1, each load runs for a fixed time, and every process is stopped at the end.

    apt-get install -y haproxy wrk
    .venv/bin/python benchmarks/bench_replicas.py [--replicas 1 2 4] [--seconds 20] [--connections 32] [--db PATH]

A replica is one Python process, so it uses at most about one core: throughput can grow with N
only while there are cores for the replicas, HAProxy and wrk alike.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import deque
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

from rules_db.build import build
from rules_db.serve import datasette_args, write_metadata

PAGE_PREFIXES = ("/rules/", "/rulings/", "/cards/", "/keywords/", "/replays/", "/search", "/diff/")
SEEDS = ("/", "/search?q=recall", "/search?q=combat+damage", "/rulings/1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replicas", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--seconds", type=int, default=20, help="length of each measured run")
    parser.add_argument("--connections", type=int, default=32, help="open connections wrk keeps busy")
    parser.add_argument("--pages", type=int, default=300, help="how many distinct pages the load cycles through")
    parser.add_argument("--db", type=Path, help="a built database (default: build one from the bundled documents)")
    args = parser.parse_args()
    missing = [tool for tool in ("haproxy", "wrk") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"{' and '.join(missing)} missing: apt-get install -y haproxy wrk")

    with tempfile.TemporaryDirectory(prefix="bench-replicas-") as folder:
        work = Path(folder)
        db_path = args.db or _build(work / "rules.db")
        metadata = write_metadata(db_path, work / "metadata.json")
        with Replica(db_path, metadata, work) as probe:
            pages = crawl(probe.url, args.pages)
        script = work / "pages.lua"
        script.write_text(_lua(pages), encoding="utf-8")
        print(f"{len(pages)} pages ({_mix(pages)}), {args.connections} connections, {args.seconds} s per run")
        print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.2f}")
        results = []
        for count in args.replicas:
            with Cluster(count, db_path, metadata, work) as cluster:
                load(cluster.url, script, args.connections, 3)  # warm-up, not measured
                results.append((count, load(cluster.url, script, args.connections, args.seconds)))
        _print_table(results)


def _build(db_path: Path) -> Path:
    print("building the database from the bundled documents ...", flush=True)
    build(db_path)
    return db_path


# --- the servers ------------------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(url: str, process: subprocess.Popen, log: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} did not answer:\n{log.read_text(errors='replace')[-2000:]}")


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Replica:
    """One ``datasette serve -i`` of the database on a loopback port."""

    def __init__(self, db_path: Path, metadata: Path, work: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = work / f"datasette-{self.port}.log"
        datasette = Path(sys.executable).parent / "datasette"
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [str(datasette), *datasette_args(db_path, metadata, port=self.port)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def __enter__(self) -> Replica:
        try:
            _wait_for(f"{self.url}/-/versions.json", self.process, self.log)
        except BaseException:
            _stop(self.process)
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        _stop(self.process)


class Cluster:
    """N replicas behind HAProxy, round robin, keep-alive on both sides."""

    def __init__(self, count: int, db_path: Path, metadata: Path, work: Path):
        self.replicas = [Replica(db_path, metadata, work) for _ in range(count)]
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.config = work / f"haproxy-{count}.cfg"
        self.config.write_text(_haproxy_config(self.port, [replica.port for replica in self.replicas]))
        self.log = work / f"haproxy-{count}.log"
        self.balancer: subprocess.Popen | None = None

    def __enter__(self) -> Cluster:
        try:
            for replica in self.replicas:
                replica.__enter__()
            with self.log.open("w") as log:
                self.balancer = subprocess.Popen(
                    ["haproxy", "-db", "-f", str(self.config)], stdout=log, stderr=subprocess.STDOUT
                )
            _wait_for(f"{self.url}/-/versions.json", self.balancer, self.log)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.balancer is not None:
            _stop(self.balancer)
        for replica in self.replicas:
            _stop(replica.process)


def _haproxy_config(port: int, replica_ports: list[int]) -> str:
    servers = "\n".join(f"    server replica{index} 127.0.0.1:{each}" for index, each in enumerate(replica_ports))
    return f"""global
    maxconn 4096

defaults
    mode http
    option http-keep-alive
    timeout connect 5s
    timeout client 60s
    timeout server 60s

frontend judges
    bind 127.0.0.1:{port}
    default_backend replicas

backend replicas
    balance roundrobin
{servers}
"""


# --- the pages and the load ------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href and href.startswith(PAGE_PREFIXES):
            self.hrefs.append(href.split("#")[0])


def crawl(base: str, limit: int) -> list[str]:
    """Judges' pages reachable from the home page and a few searches, breadth first, each answering 200;
    no kind of page (rules, rulings, cards, ...) takes more than a third of them."""
    queue, seen, pages = deque(SEEDS), set(SEEDS), []
    per_kind: dict[str, int] = {}
    while queue and len(pages) < limit:
        path = queue.popleft()
        if per_kind.get(_kind(path), 0) >= max(limit // 3, 1):
            continue
        try:
            with urllib.request.urlopen(base + path, timeout=30) as answer:
                html = answer.read().decode("utf-8", errors="replace")
        except OSError:
            continue
        pages.append(path)
        per_kind[_kind(path)] = per_kind.get(_kind(path), 0) + 1
        links = _Links()
        links.feed(html)
        for href in links.hrefs:
            if href not in seen and len(seen) < limit * 20:
                seen.add(href)
                queue.append(href)
    return pages


def _kind(page: str) -> str:
    return page.strip("/").split("/")[0].split("?")[0].removesuffix(".json") or "home"


def _mix(pages: list[str]) -> str:
    kinds: dict[str, int] = {}
    for page in pages:
        kinds[_kind(page)] = kinds.get(_kind(page), 0) + 1
    return ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items(), key=lambda item: -item[1]))


def _lua(pages: list[str]) -> str:
    """A wrk script cycling through the pages (each wrk thread from its own offset)."""
    quoted = ",\n".join(f"  {_lua_string(page)}" for page in pages)
    return f"""local pages = {{
{quoted}
}}
local index = 0
function setup(thread)
  thread:set("offset", math.random(#pages))
end
function init(args)
  index = offset or 0
end
function request()
  index = index % #pages + 1
  return wrk.format("GET", pages[index])
end
"""


def _lua_string(text: str) -> str:
    """A Lua string literal: safe characters as they are, every other byte as a decimal escape."""
    safe = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/-_.?=&%+:,()'")
    return '"' + "".join(chr(byte) if byte in safe else f"\\{byte:03d}" for byte in text.encode("utf-8")) + '"'


@dataclass
class Load:
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int


def load(url: str, script: Path, connections: int, seconds: int) -> Load:
    """One wrk run: two threads (one per core here), ``connections`` kept busy, for ``seconds``."""
    output = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "--latency", "-s", str(script), url],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 60,
    ).stdout
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", output))
    errors += int(_find(r"Non-2xx or 3xx responses: (\d+)", output, "0"))
    return Load(
        requests_per_second=float(_find(r"Requests/sec:\s+([\d.]+)", output)),
        p50_ms=_milliseconds(_find(r"\s50%\s+([\d.]+\w+)", output)),
        p99_ms=_milliseconds(_find(r"\s99%\s+([\d.]+\w+)", output)),
        requests=int(_find(r"(\d+) requests in", output)),
        errors=errors,
    )


def _find(pattern: str, text: str, default: str | None = None) -> str:
    found = re.search(pattern, text)
    if found:
        return found.group(1)
    if default is None:
        raise RuntimeError(f"wrk printed no {pattern!r}:\n{text}")
    return default


def _milliseconds(value: str) -> float:
    """wrk's durations ("850.12us", "12.5ms", "1.02s", "1.5m") in milliseconds."""
    number, unit = re.split(r"(?<=\d)(?=[a-z])", value, maxsplit=1)
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}[unit]


def _print_table(results: list[tuple[int, Load]]) -> None:
    base = results[0][1].requests_per_second
    print()
    print("| replicas | requests/s | vs first | p50 | p99 | requests | errors |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for count, result in results:
        print(
            f"| {count} | {result.requests_per_second:.1f} | {result.requests_per_second / base:.2f}x "
            f"| {result.p50_ms:.0f} ms | {result.p99_ms:.0f} ms | {result.requests} | {result.errors} |"
        )
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
