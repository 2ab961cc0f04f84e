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


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=lambda size: f"{size['width']}-{size['height']}")
def test_the_best_ruling_and_card_sit_below_the_best_rule(chromium, search_server, viewport):
    """Issue 34: the first result, then the best ruling and card (side by side where there is room), each ruling's
    answer in one line under its question; nothing above the results, nothing wider than the screen."""
    from playwright.sync_api import expect

    page = chromium.page(viewport)
    width, height = viewport["width"], viewport["height"]
    page.goto(search_server + "/search?q=how+does+stun+work")
    items = page.locator("ol.results > li")
    expect(items.nth(0)).to_have_class("result result-rule")
    picks = items.nth(1)
    expect(picks).to_have_class("best-answers")
    expect(picks.locator(".best-ruling .ruling-answer")).to_be_visible()
    expect(picks.locator(".best-card a")).to_be_visible()
    first_box, picks_box = items.nth(0).bounding_box(), picks.bounding_box()
    assert first_box and picks_box and picks_box["y"] >= first_box["y"] + first_box["height"] - 1
    assert picks_box["y"] < height  # on the first screen, phone included
    assert page.locator(".best-answers").count() == 1
    ruling_box = picks.locator(".best-ruling").bounding_box()
    card_box = picks.locator(".best-card").bounding_box()
    assert ruling_box and card_box
    if width >= 1000:  # beside each other on a desktop, one below the other on a phone
        assert abs(card_box["y"] - ruling_box["y"]) < 2 and card_box["x"] > ruling_box["x"]
    else:
        assert card_box["y"] > ruling_box["y"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # The ruling results of the list show their answers too
    for result in page.locator("ol.results > li.result-ruling").all()[:3]:
        expect(result.locator(".ruling-answer")).to_be_visible()
    _screenshot(page, f"search-best-answers-{width}x{height}")
