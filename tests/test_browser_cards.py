"""The pages of the format in force in a real browser, at a phone's size and a desktop's: a banned card (its notice
at the top, the sources' dates), an Unleashed card with an erratum (the current wording first, then the printed one
with the change and its date) and the bans page. Screenshots go to ``test-artifacts/``."""

from __future__ import annotations

import pytest
from test_browser import CHROMIUM, DESKTOP, PHONE, _layout_faults, _screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing: run `make chromium`"),
]

PAGES = {
    "banned-card": "/cards/called-shot",
    "erratum-card": "/cards/diana-lunari",
    "bans": "/bans/riftbound",
}


@pytest.mark.parametrize("name", list(PAGES))
def test_format_pages_fit_a_phone_and_a_desktop(chromium, real_server, name):
    page = chromium.page(PHONE)
    try:
        for size, screen in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(screen)
            page.goto(real_server + PAGES[name])
            assert _layout_faults(page, size) == [], (name, size)
            _screenshot(page, f"format-{size}-{name}", full_page=False)
            _check(page, name, screen)
    finally:
        page.set_viewport_size(PHONE)  # the page is the shared phone


def _check(page, name: str, screen: dict) -> None:
    if name == "banned-card":
        notice = page.locator(".ban-notice").first
        # Seen first, above the card's name, without scrolling, on either screen.
        assert notice.bounding_box()["y"] < page.locator("h1").bounding_box()["y"] < screen["height"]
        text = notice.inner_text()
        assert "Banned in Constructed since 2026-03-31" in text and "2026-07-24" in text
        assert "the sources disagree" in text
    elif name == "erratum-card":
        current = page.locator("article.card .card-text").first.bounding_box()
        printed = page.locator(".printed-text").bounding_box()
        assert current["y"] < printed["y"]
        assert page.locator(".printed-text del").count() > 0 and page.locator(".printed-text ins").count() > 0
        assert "2026-07-24" in page.locator(".printed-text").inner_text()
    else:
        rows = page.locator("table.bans").first.locator("tbody tr")
        assert rows.count() == 12
        assert page.locator("tr.disputed").count() == 2
