"""A library replay as a judge at the table reads it, in Chromium at 390x844 and 1366x900: the verdict first with
the steps that decide it, from the replay list to the deciding step's board in at most three taps; the step bar
and the board (what the step touches first) in one screen; routine steps folded and opened with a tap; stepping
without reloading the page; the what-if beside the board (one tap on a phone). The phone's screenshot of a
deciding step is the README's docs/screenshots/phone-replay.png.
"""

from __future__ import annotations

import re

import pytest
import test_browser_replay
from test_browser import _screenshot
from test_browser_replay import _fits

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("test_browser").CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

DAMAGE = "ruling-44-damage-does-not-reduce-might"
server, screen = test_browser_replay.server, test_browser_replay.screen  # the replay tests' fixtures


def _step(page) -> int:
    found = re.search(r"step=(\d+)", page.url)
    return int(found.group(1)) if found else 0


def test_from_the_replay_list_to_the_deciding_step_in_three_taps(screen, server):
    """Tap 1: a replay of the list (its first); tap 2: its first deciding step in the verdict, at the top of the
    page. The step bar and the step's words are then on the first screen, the step the one the verdict named."""
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + "/replays")
    taps = 0
    page.locator("ol.replays > li > a").first.click()
    taps += 1
    verdict = page.locator("section.verdict-first")
    expect(verdict).to_be_in_viewport()
    deciding = verdict.locator("a.deciding-step").first
    words = deciding.locator(".words").inner_text()
    deciding.click()
    taps += 1
    page.wait_for_url(re.compile(r"step=\d+#board$"))
    assert taps <= 3
    expect(page.locator(".now-words")).to_contain_text(words.rstrip(".")[1:20])
    viewport = page.viewport_size
    for part in (".step-nav", ".now"):
        box = page.locator(part).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], (part, box)
    _fits(page, size)
    # A combat's deciding step: the unit killed, what it touched drawn first, all in the first screen.
    page.goto(server + f"/replays/{DAMAGE}")
    page.locator("section.verdict-first a.deciding-step").first.click()
    page.wait_for_url(re.compile(r"step=\d+#board$"))
    expect(page.locator(".now-words")).to_contain_text("is killed")
    box = page.locator(".touched").bounding_box()
    assert box and box["y"] + box["height"] <= viewport["height"], box
    expect(page.locator(".touched")).to_contain_text("now in trash")
    _screenshot(page, f"replay-verdict-deciding-{size}", full_page=False)
    if size == "phone":
        page.screenshot(path="docs/screenshots/phone-replay.png")


def test_the_step_bar_stays_in_view_and_stepping_does_not_reload(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + f"/replays/{DAMAGE}?step=9#board")
    page.evaluate("window.notReloaded = true")
    page.mouse.wheel(0, 300)  # down the board, which scrolls under the bar
    page.wait_for_timeout(200)
    bar = page.locator(".step-bar").bounding_box()
    assert bar and -1 <= bar["y"] <= 1, bar  # stuck to the top of the screen
    page.locator(".step-nav a[rel=next]").click()
    expect(page.locator(".step-count")).to_contain_text("Step 10 of")
    assert _step(page) == 10 and page.evaluate("window.notReloaded") is True
    page.keyboard.press("ArrowRight")
    expect(page.locator(".step-count")).to_contain_text("Step 11 of")
    page.go_back()
    expect(page.locator(".step-count")).to_contain_text("Step 10 of")
    assert page.evaluate("window.notReloaded") is True
    # The same URL, opened anew, is the same step.
    page.goto(page.url)
    expect(page.locator(".step-count")).to_contain_text("Step 10 of")


def test_routine_steps_open_with_one_tap_and_stay_linkable(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + f"/replays/{DAMAGE}")
    fold = page.locator("ol.judge-steps li.folded").first
    hidden = fold.locator("a.step-link").first
    expect(hidden).not_to_be_visible()
    fold.locator("summary").click()
    expect(hidden).to_be_visible()
    number = int(hidden.locator(".n").inner_text())
    hidden.click()
    expect(page.locator(".step-count")).to_contain_text(f"Step {number} of")
    expect(page.locator("ol.judge-steps li.current a.step-link")).to_be_visible()
    _fits(page, size)


def test_the_what_if_is_beside_the_board_or_one_tap_from_the_step(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + f"/replays/{DAMAGE}?step=20#board")
    what_if = page.locator("section.what-if")
    if size == "desktop":
        board, side = page.locator(".stepper").bounding_box(), what_if.bounding_box()
        assert side["x"] >= board["x"] + board["width"]
    else:
        page.locator(".to-what-if a[href='#what-if']").click()
        expect(what_if.locator("h2")).to_be_in_viewport()
    # A what-if that flips the outcome names the step after which the outcome differs, and opens there.
    page.goto(server + f"/replays/{DAMAGE}?path=setup.battlefields.0.units.0.stunned&value=yes")
    compare = page.locator("section.compare")
    expect(compare).to_contain_text("The outcome first differs after step")
    expect(compare).to_contain_text("The outcome changes.")
    first = int(re.search(r"after step (\d+)", compare.inner_text()).group(1))
    assert page.locator(".step-count b").inner_text() == str(first)
    _fits(page, size)
    _screenshot(page, f"replay-what-if-outcome-{size}", full_page=False)
