"""Pages with no network, in Chromium with Playwright's offline mode: a replay page and the dispute builder once
opened, and a whole game kept with "Keep ... offline" (on the small fixture database: every one of its pages
answers afterwards). ``benchmarks/bench_offline_pack.py`` does the same on the real database and measures it.
Screenshots: test-artifacts/offline-*.png; the README's phone one is docs/screenshots/phone-offline-pack.png.
"""

from __future__ import annotations

import json
import math
import re

import pytest
from servers import in_a_thread, patience
from test_browser import DESKTOP, PHONE, _open_page, _screenshot, _wait_until_kept

from datasette_plugins.offline import NEXT_STEP

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("test_browser").CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

# Every URL asked of the service worker from the page (as a page's script would): those not answered 200.
NOT_ANSWERED = """async (urls) => {
  const answers = await Promise.all(urls.map((url) =>
    fetch(url).then((response) => [url, response.status]).catch(() => [url, "network error"])));
  return answers.filter(([, status]) => status !== 200);
}"""


def _amount(bytes_: int, pages: int) -> str:
    """A size as the pack page says it."""
    amount = f"{bytes_ / 1e6:.1f} MB" if bytes_ >= 1e5 else f"{math.ceil(bytes_ / 1000)} kB"
    return f"about {amount}, {pages} pages"


@pytest.fixture(scope="module")
def fixture_server(fixture_db):
    with in_a_thread(fixture_db) as url:
        yield url


def _controlled(page) -> None:
    """Until the service worker controls the page (its fetches go through it). A document whose navigation began
    while the worker was still activating can miss its ``clients.claim()`` (it was not yet a client) and stays
    uncontrolled for its lifetime, a race that a loaded machine makes likely; its next load goes through the active
    worker, as a judge's next page does, so it is loaded again once."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    if not page.evaluate("navigator.serviceWorker.controller !== null"):
        page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=patience(30) * 1000)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_replay_and_the_builder_once_opened_read_with_no_network(browser, real_server, size):
    """A replay page (a step of it) and the dispute builder, opened once, open again with the network cut, from the
    service worker's copy, with their script (the replay's arrow keys step on, to a step opened before). A step's
    first "next" link is the next step, which the pack follows to keep every step."""
    from playwright.sync_api import expect

    context, page = _open_page(browser, PHONE if size == "phone" else DESKTOP)
    page.set_default_timeout(patience(60) * 1000)
    try:
        replay = f"{real_server}/replays/ruling-03-zhonya-heals-keeps-stat-mods"
        page.goto(replay + "?step=1")
        _controlled(page)
        page.goto(replay + "?step=2")
        _wait_until_kept(page)
        page.goto(replay + "?step=1")
        _wait_until_kept(page)
        title = page.title()
        # What "every step of every replay" follows from a step to the next (offline.py's NEXT_STEP): the first link.
        assert page.locator(NEXT_STEP).first.get_attribute("href").split("#")[0].endswith("?step=2")
        page.goto(real_server + "/dispute")
        _wait_until_kept(page)
        builder = page.locator("h1").inner_text()
        context.set_offline(True)
        response = page.goto(replay + "?step=1")
        assert response.from_service_worker and response.status == 200 and page.title() == title
        page.keyboard.press("ArrowRight")  # replay.js, kept by the worker, follows the Next link
        page.wait_for_url(re.compile(r"step=2(#board)?$"))
        assert "step 2" in page.title()
        _screenshot(page, f"offline-replay-{size}", full_page=False)
        response = page.goto(real_server + "/dispute")
        assert response.from_service_worker and page.locator("h1").inner_text() == builder
        response = page.goto(replay + "?step=3")  # never opened: the offline page says so
        expect(page.locator("h1")).to_have_text("No network")
        expect(page.locator(".offline-note")).to_contain_text("step=3")
    finally:
        context.set_offline(False)
        context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_keep_this_game_offline_then_every_page_opens_with_no_network(browser, fixture_server, size):
    """The pack page says how much it will keep first, then keeps every page with its progress; with the network
    cut, every page of the pack answers from the copy, and a rule, card, ruling and replay open as pages. Removing
    the copy empties it."""
    from playwright.sync_api import expect

    context, page = _open_page(browser, PHONE if size == "phone" else DESKTOP)
    page.set_default_timeout(patience(60) * 1000)
    try:
        page.goto(fixture_server + "/")
        page.get_by_role("link", name="Keep offline").first.click()
        page.wait_for_url("**/offline/riftbound")
        _controlled(page)
        pack = page.request.get(fixture_server + "/offline/riftbound.json").json()
        expect(page.locator("form.offline-pack .pack-total")).to_contain_text(_amount(pack["bytes"], pack["pages"]))
        sizes = page.locator(".pack-size")
        assert sizes.count() == len(pack["parts"])
        # Every step of every replay is left out at first; ticked, the size said first counts it.
        steps = page.locator("input[name=part][value=replay_steps]")
        assert not steps.is_checked()
        steps.check()
        every = [sum(part[key] for part in pack["parts"]) for key in ("bytes", "pages")]
        expect(page.locator("form.offline-pack .pack-total")).to_contain_text(_amount(*every))
        expect(page.locator(".pack-last")).to_have_text("Not kept on this phone yet.")
        page.click("form.offline-pack button[name=keep]")
        page.wait_for_selector("form.offline-pack[data-kept]")
        kept = json.loads(page.evaluate("localStorage.getItem('judges-pack-riftbound')"))
        urls = [url for part in pack["parts"] for url in part["urls"]]
        assert kept["pages"] >= len(urls) and kept["failed"] == 0 and kept["bytes"] > 0
        steps_kept = page.evaluate(
            "caches.open('judges-pack-riftbound').then((cache) => cache.keys())"
            ".then((keys) => keys.filter((key) => key.url.includes('?step=')).length)"
        )
        # The fixture's replay is stored without its scenario: one page, no steps to follow (the real replays' steps
        # are followed by their Next link: test_a_replay_and_the_builder_once_opened_read_with_no_network).
        assert steps_kept >= len(next(part["urls"] for part in pack["parts"] if part["id"] == "replay_steps")) > 0
        expect(page.locator(".pack-status")).to_contain_text(f"{kept['pages']} pages kept")
        assert page.locator("progress").evaluate("bar => bar.value === bar.max && bar.max > 0")
        held = page.evaluate("caches.open('judges-pack-riftbound').then((cache) => cache.keys()).then((k) => k.length)")
        assert held == kept["pages"]
        _screenshot(page, f"offline-pack-{size}", full_page=False)
        context.set_offline(True)
        assert page.evaluate(NOT_ANSWERED, urls) == []
        for part in ("rules", "cards", "rulings", "replays"):
            url = pack["parts"][[p["id"] for p in pack["parts"]].index(part)]["urls"][-1]
            response = page.goto(fixture_server + url)
            assert response.from_service_worker and response.status == 200, url
            expect(page.locator("h1")).not_to_have_text("No network")
        context.set_offline(False)
        page.goto(fixture_server + "/offline/riftbound")
        expect(page.locator(".pack-last")).to_contain_text(f"{kept['pages']} pages")
        page.click("form.offline-pack button[name=remove]")
        expect(page.locator(".pack-status")).to_have_text("Removed from this phone.")
        assert page.evaluate("caches.has('judges-pack-riftbound')") is False
    finally:
        context.set_offline(False)
        context.close()
