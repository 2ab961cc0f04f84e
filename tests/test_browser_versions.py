"""A rule's history and the comparison of two versions in Chromium, at 390x844 and 1366x900, on the real database:
a change in the history opens the comparison narrowed to that rule; the comparison's boxes narrow it by section and
rule with script off; a number a version gave to a new rule links to the rule that had it.
Screenshots: test-artifacts/versions-*.png.
"""

from __future__ import annotations

import re

import pytest
from test_browser import DESKTOP, PHONE, _layout_faults, _screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("test_browser").CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

SIZES = {"phone": PHONE, "desktop": DESKTOP}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_change_in_a_rules_history_opens_the_diff_narrowed_to_it(chromium, real_server, size):
    from playwright.sync_api import expect

    page = chromium.page(SIZES[size])
    page.goto(real_server + "/rules/riftbound/2026-06-18/340")
    link = page.locator("ol.history a.diff-link").last
    expect(link).to_contain_text("340 in the changes")
    link.click()
    page.wait_for_url(re.compile(r"/diff/riftbound/2025-12-01/2026-06-18\?.*rule=340"))
    expect(page.locator("#changes h2")).to_contain_text("rule 340 and its sub-rules")
    rows = [row.locator("td.number a").all_inner_texts() for row in page.locator("table.diff-rows tbody tr").all()]
    assert any("340" in row for row in rows), rows
    assert all(any(n == "340" or n.startswith("340.") for n in row) for row in rows), rows
    assert _layout_faults(page, size) == []
    _screenshot(page, f"versions-diff-rule-{size}", full_page=False)


@pytest.mark.parametrize("size", list(SIZES))
def test_the_diff_narrows_by_section_and_rule_without_script(browser, real_server, size):
    """The boxes are a plain GET form: with script off, typing a section, then a rule, narrows the rows."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport=SIZES[size], java_script_enabled=False, service_workers="block")
    page = context.new_page()
    try:
        page.goto(real_server + "/diff/riftbound/2025-12-01/2026-06-18")
        everything = int(page.locator("#changes h2").inner_text().split()[0])
        page.fill("form.diff-narrow input[name=section]", "318")
        page.click("form.diff-narrow input[type=submit]")
        page.wait_for_url(re.compile(r"section=318"))
        in_section = int(page.locator("#changes h2").inner_text().split()[0])
        assert 0 < in_section < everything
        expect(page.locator("#changes h2")).to_contain_text("in section 318")
        page.fill("form.diff-narrow input[name=section]", "")
        page.fill("form.diff-narrow input[name=rule]", "rule 336.1")
        page.click("form.diff-narrow input[type=submit]")
        page.wait_for_url(re.compile(r"rule=rule\+336\.1"))
        expect(page.locator("#changes h2")).to_contain_text("rule 336.1 and its sub-rules")
        numbers = page.locator("table.diff-rows td.number a").all_inner_texts()
        assert numbers and any(n == "336.1" or n.startswith("336.1.") for n in numbers)
        assert page.locator("form.diff-narrow input[name=rule]").input_value() == "336.1"
        _screenshot(page, f"versions-diff-box-{size}", full_page=False)
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_reused_number_links_to_the_rule_that_had_it(chromium, real_server, size):
    from playwright.sync_api import expect

    page = chromium.page(SIZES[size])
    page.goto(real_server + "/rules/riftbound/2026-06-18/336")
    note = page.locator("ol.history p.reused")
    expect(note).to_contain_text("Number 336 was another rule's in 2025-12-01")
    note.locator("a").first.click()
    page.wait_for_url(re.compile(r"/rules/riftbound/2026-06-18/340$"))
    expect(page.locator("ol.history")).to_contain_text("from 336 to")
    page.go_back()
    _screenshot(page, f"versions-reused-{size}", full_page=False)
