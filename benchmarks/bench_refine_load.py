"""The semantic stage under load, on ``rules-db serve``: the first response and the refined order at one client, then
the pages' latency alone and while 8 clients search continuously (each search asking for the refined order too).

    .venv/bin/python benchmarks/bench_refine_load.py [--db data/rules.db] [--seconds 20] [--questions 40]

Prints /search.json p50/p99 (first response) and /search.json?refine=1 p50/p90 at one client, then the pages'
p50/p99 (the mix of bench_pages, searches left out) with no searching client and with 8, and what became of the
searchers' refine requests ("refined", or "busy": the bounded capacity was full and the fused order stood).
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

import yaml
from bench_pages import free_port, page_urls, percentile, start_server, stop_server

HERE = Path(__file__).resolve().parent


def questions(count: int) -> list[str]:
    texts = []
    for name in ("judge_questions_fresh.yaml", "judge_questions_real.yaml"):
        texts += [q["q"] for q in yaml.safe_load((HERE / name).read_text(encoding="utf-8"))["questions"]]
    random.Random(1).shuffle(texts)
    return texts[:count]


def get(connection: http.client.HTTPConnection, url: str) -> tuple[float, int, bytes]:
    started = time.perf_counter()
    connection.request("GET", url)
    response = connection.getresponse()
    body = response.read()
    return time.perf_counter() - started, response.status, body


def pages_for(port: int, urls: list[str], seconds: float) -> list[float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    times, deadline, position = [], time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        elapsed, _status, _body = get(connection, urls[position % len(urls)])
        times.append(elapsed)
        position += 1
    connection.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=HERE.parent / "data" / "rules.db")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--questions", type=int, default=40)
    options = parser.parse_args()
    asked = questions(options.questions)
    urls = [url for kind, url in page_urls(options.db, per_kind=5) if kind != "search"]
    port = free_port()
    server = start_server(options.db, port)
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        for question in asked[:3]:  # warm: the models loaded, the vectors read
            get(connection, "/search.json?" + urlencode({"q": question, "refine": "1"}))
        first = [get(connection, "/search.json?" + urlencode({"q": q + " ?"}))[0] for q in asked]
        refined, states = [], Counter()
        for question in asked:
            elapsed, _status, body = get(connection, "/search.json?" + urlencode({"q": question + " !", "refine": "1"}))
            refined.append(elapsed)
            states[json.loads(body).get("refine")] += 1
        connection.close()
        print(
            f"one client, {len(asked)} questions: /search.json p50 {percentile(first, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(first, 0.99) * 1000:.0f} ms; refine=1 p50 {percentile(refined, 0.5):.2f} s, "
            f"p90 {percentile(refined, 0.9):.2f} s ({dict(states)})"
        )
        alone = pages_for(port, urls, options.seconds)
        stop, searched, outcomes = threading.Event(), Counter(), Counter()

        def searcher(seed: int) -> None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            rng = random.Random(seed)
            while not stop.is_set():
                question = rng.choice(asked) + f" {rng.randrange(10**6)}"  # never the same question twice
                _elapsed, status, body = get(connection, "/search.json?" + urlencode({"q": question, "refine": "1"}))
                searched[status] += 1
                if status == 200:
                    outcomes[json.loads(body).get("refine")] += 1
            connection.close()

        threads = [threading.Thread(target=searcher, args=(seed,)) for seed in range(8)]
        for thread in threads:
            thread.start()
        time.sleep(2)
        loaded = pages_for(port, urls, options.seconds)
        stop.set()
        for thread in threads:
            thread.join()
    finally:
        stop_server(server)
    for title, times in (("pages, no searching client", alone), ("pages, 8 clients searching", loaded)):
        print(
            f"{title}: {len(times)} requests, p50 {percentile(times, 0.5) * 1000:.0f} ms, "
            f"p99 {percentile(times, 0.99) * 1000:.0f} ms"
        )
    print(f"the 8 searchers: {sum(searched.values())} searches, statuses {dict(searched)}, refine {dict(outcomes)}")


if __name__ == "__main__":
    sys.exit(main())
