"""Keep a game offline as a phone would, then cut the network and open every page of its pack: how many pages and
bytes were kept, how long it took, and how many pages answer with no network.

    .venv/bin/python benchmarks/bench_offline_pack.py [--db data/rules.db] [--game riftbound] [--workers 2]
        [--screenshot docs/screenshots/phone-offline-pack.png]

``rules-db serve`` on the database (``bench_pages.start_server``), Debian's chromium driven by Playwright at a
phone's size: it opens ``/offline/<game>``, waits for the service worker, presses "Keep ... offline" and waits for
the end; then with the network cut (Playwright's offline mode) it asks the service worker for every URL of the
pack the page ticks at first (a fetch from the page: the worker answers it as it answers a navigation) and opens
one page of each part.
Prints the size the pack page estimated, the bytes kept (the pages' bodies, and what the browser reports for the
site's storage), the time, and the pages that did not answer.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pages import PROJECT, free_port, start_server, stop_server  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Every URL of the pack asked of the service worker from the page, with no network: the statuses that are not 200.
CHECK_ALL = """async (urls) => {
  const failed = [];
  for (let start = 0; start < urls.length; start += 50) {
    const answers = await Promise.all(urls.slice(start, start + 50).map((url) =>
      fetch(url).then((response) => [url, response.status]).catch(() => [url, "network error"])));
    failed.push(...answers.filter(([, status]) => status !== 200));
  }
  return failed;
}"""


def keep_and_check(page, base_url: str, game: str, timeout_s: float = 3600, screenshot: Path | None = None) -> dict:
    """Keep ``game`` offline on ``page`` (its context's service workers allowed), cut the network, check every
    page of the pack: the figures. The network is back on at the end."""
    page.goto(f"{base_url}/offline/{game}")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60000)
    pack = page.request.get(f"{base_url}/offline/{game}.json").json()
    started = time.monotonic()
    page.click("form.offline-pack button[name=keep]")
    page.wait_for_selector("form.offline-pack[data-kept]", timeout=timeout_s * 1000)
    seconds = time.monotonic() - started
    status = page.locator(".pack-status").inner_text()
    storage = page.evaluate("navigator.storage.estimate().then((estimate) => estimate.usage)")
    kept = json.loads(page.evaluate(f"localStorage.getItem('judges-pack-{game}')"))
    if screenshot:  # the parts with their sizes down to what was kept, as a phone shows them
        page.locator("h1").scroll_into_view_if_needed()
        page.evaluate("window.scrollTo(0, document.querySelector('h1').getBoundingClientRect().top + scrollY - 8)")
        page.screenshot(path=str(screenshot))
    chosen = [part for part in pack["parts"] if part["chosen"]]  # as the page ticks them at first
    urls = [url for part in chosen for url in part["urls"]]
    context = page.context
    context.set_offline(True)
    try:
        checked = time.monotonic()
        failed = page.evaluate(CHECK_ALL, urls)
        check_seconds = time.monotonic() - checked
        opened = {}
        for part in chosen:
            url = part["urls"][len(part["urls"]) // 2]
            response = page.goto(base_url + url)
            opened[url] = (response.status if response else None, page.title())
    finally:
        context.set_offline(False)
    return {
        "estimated_pages": pack["pages"],
        "estimated_bytes": pack["bytes"],
        "kept_pages": kept["pages"],
        "kept_bytes": kept["bytes"],
        "storage_usage": storage,
        "seconds": round(seconds, 1),
        "status": status,
        "checked_offline": len(urls),
        "check_seconds": round(check_seconds, 1),
        "failed_offline": failed,
        "opened_offline": opened,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=PROJECT / "data" / "rules.db")
    parser.add_argument("--game", default="riftbound")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--screenshot", type=Path, help="save the phone's pack page, once kept, to this PNG")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    port = free_port()
    server = start_server(args.db, port, args.workers)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="allow")
            page = context.new_page()
            page.set_default_timeout(120000)
            figures = keep_and_check(page, f"http://127.0.0.1:{port}", args.game, screenshot=args.screenshot)
            browser.close()
    finally:
        stop_server(server)
    figures["failed_offline_count"] = len(figures["failed_offline"])
    figures["failed_offline"] = figures["failed_offline"][:20] + (
        ["..."] if len(figures["failed_offline"]) > 20 else []
    )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
