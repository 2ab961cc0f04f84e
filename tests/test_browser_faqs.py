"""The official FAQs and "in force" in a real browser, at a phone's 390x844 and a desktop's 1366x900: a ruling from
the Vendetta FAQ, a rule it clarifies, the home page's "in force today" and its date picker. Each page fits the
screen (``test_browser._layout_faults``); screenshots go to test-artifacts/faqs-*.png."""

from __future__ import annotations

import sqlite3

import pytest
from test_browser import CHROMIUM, DESKTOP, PHONE, _layout_faults, _screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="/usr/bin/chromium is missing: run `make chromium`"),
]


def _faq_ruling(real_db) -> int:
    connection = sqlite3.connect(real_db)
    try:
        return connection.execute(
            """select r.id from rulings r join faq_articles f on f.document_id = r.document_id
            where f.published = '2026-08-14' and r.anchor = 'q2'"""
        ).fetchone()[0]
    finally:
        connection.close()


@pytest.mark.parametrize(("size", "screen"), [("phone", PHONE), ("desktop", DESKTOP)])
def test_faq_pages_read_on_a_phone_and_a_desktop(chromium, real_server, real_db, size, screen):
    from playwright.sync_api import expect

    page = chromium.page(screen)
    problems = {}
    ruling = f"/rulings/{_faq_ruling(real_db)}"
    page.goto(real_server + ruling)
    expect(page.locator("p.meta.faq")).to_contain_text("Official FAQ: Vendetta Rules FAQ and Clarifications")
    expect(page.locator("p.meta.faq")).to_contain_text("Riot Games")
    expect(page.locator(".ruling-text a.rule-link, .citations a").first).to_be_visible()
    problems[ruling] = _layout_faults(page, size)
    _screenshot(page, f"faqs-{size}-ruling", full_page=False)

    page.goto(real_server + "/rules/riftbound/2026-06-18/419.4.b")
    clarified = page.locator("section.clarified-by")
    expect(clarified).to_contain_text("Clarified by the Vendetta Rules FAQ and Clarifications, 2026-08-14")
    expect(clarified).to_contain_text("takes precedence over the Core Rules")
    clarified.scroll_into_view_if_needed()
    problems["rule"] = _layout_faults(page, size)
    _screenshot(page, f"faqs-{size}-clarified-rule", full_page=False)

    page.goto(real_server + "/#in-force-riftbound")
    in_force = page.locator("section.in-force")
    expect(in_force.locator("h3")).to_contain_text("In force today")
    expect(in_force).to_contain_text("Core Rules 1.4 (text of 2026-06-18), in force since 2026-07-24")
    in_force.scroll_into_view_if_needed()
    problems["home"] = _layout_faults(page, size)
    _screenshot(page, f"faqs-{size}-home-in-force", full_page=False)

    # the date picker: an earlier event's day
    in_force.locator("input[name=on]").fill("2026-05-01")
    in_force.locator("button[type=submit]").click()
    page.wait_for_url("**/?on=2026-05-01*")
    expect(page.locator("section.in-force h3")).to_contain_text("In force on 2026-05-01")
    expect(page.locator("section.in-force")).to_contain_text("1.3")
    page.locator("section.in-force").scroll_into_view_if_needed()
    problems["home on a day"] = _layout_faults(page, size)
    _screenshot(page, f"faqs-{size}-home-on-2026-05-01", full_page=False)
    assert {path: faults for path, faults in problems.items() if faults} == {}
