"""The search page in a real browser: a judge sets the game, then types new questions in the header's
box; the filter stays. Screenshots at phone and desktop sizes go to ``test-artifacts/``."""

from __future__ import annotations

import pytest
from test_browser import CHROMIUM, DESKTOP, PHONE, _screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing: run `make chromium`"),
]


@pytest.fixture(scope="module")
def search_server(real_server):
    return real_server


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=lambda size: f"{size['width']}-{size['height']}")
def test_a_judge_keeps_the_game_filter_across_questions(chromium, search_server, viewport):
    from playwright.sync_api import expect

    real_server, page = search_server, chromium.page(viewport)
    width, height = viewport["width"], viewport["height"]
    page.goto(real_server + "/search?q=full+hand")
    page.select_option("form.search-filters select[name=game]", "runeterra")
    page.click("form.search-filters input[type=submit]")
    page.wait_for_load_state()
    assert "game=runeterra" in page.url
    page.fill("form.judges-search input[name=q]", "what happens when I draw with a full hand")
    page.click("form.judges-search input[type=submit]")
    page.wait_for_load_state()
    assert "game=runeterra" in page.url
    expect(page.locator("form.search-filters select[name=game]")).to_have_value("runeterra")
    first = page.locator("ol.results li.result").first
    expect(first).to_contain_text("Legends of Runeterra")  # the game filtered on, by its name
    expect(first.locator("mark").first).to_be_visible()
    _screenshot(page, f"search-{width}x{height}")
    page.fill("form.judges-search input[name=q]", "zhonyas hourglas")
    page.click("form.judges-search input[type=submit]")
    page.wait_for_load_state()
    expect(page.locator("p.did-you-mean")).to_contain_text("zhonyas hourglass")
    _screenshot(page, f"search-did-you-mean-{width}x{height}")
