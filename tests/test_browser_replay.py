"""The replay pages in Chromium, at 1366x900 and 390x844, as a judge uses them: step through a library replay
with the keyboard and read the board, ask a what-if that changes the outcome, build a two-unit combat with the
forms and replay it, paste malformed YAML. Every page fits the screen (no sideways scroll; thumb-sized targets
on a phone). Screenshots go to test-artifacts/replay-*.png; the README's board is docs/screenshots/replay.png.
"""

from __future__ import annotations

import re

import pytest
from servers import patience
from test_browser import _MEASURE, DESKTOP, PHONE, PRIMARY, _screenshot

from rules_db import dispute

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not __import__("test_browser").CHROMIUM.exists(), reason="/usr/bin/chromium is missing"),
]

ZHONYA = "/replays/ruling-03-zhonya-heals-keeps-stat-mods"
SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.fixture(scope="module")
def server(real_server):
    return real_server


@pytest.fixture(params=list(SIZES))
def screen(request, chromium):
    """The shared page of each screen size (tests/fixtures/browser.py), waiting longer while the test runs."""
    page = chromium.page(SIZES[request.param])
    page.set_default_timeout(patience(60) * 1000)  # a replay page may wait for the engine's first start
    yield request.param, page
    page.set_default_timeout(patience(15) * 1000)


def _fits(page, size: str) -> None:
    measured = page.evaluate(_MEASURE, PRIMARY)
    assert measured["overflow"] <= 0, f"{measured['overflow']} px wider than the screen"
    assert measured["clipped"] == [], f"words spill out of their box: {measured['clipped']}"
    if size == "phone":
        assert measured["small_primary"] == [] and measured["small_links"] == [], measured


def _unit(page, card: str):
    return page.locator(f".board .obj[data-card='{card}']").first


def _battlefield_of(page, card: str):
    return page.locator(".board .battlefield", has=page.locator(f".obj[data-card='{card}']")).first


def _go(page, key: str, step: int) -> None:
    page.keyboard.press(key)
    page.wait_for_url(re.compile(rf"step={step}#board$") if step else re.compile(r"/replays/[^?]+(#board)?$"))


def test_step_through_a_library_replay_with_the_keyboard(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + ZHONYA)
    expect(page.locator(".step-count")).to_have_text("Start")
    defender = _unit(page, "Test Defender")
    expect(defender).to_contain_text("Might 5")
    expect(_battlefield_of(page, "Test Defender")).to_contain_text("Neutral Ground")
    _go(page, "ArrowRight", 1)
    _go(page, "ArrowRight", 2)
    _go(page, "ArrowLeft", 1)
    expect(page.locator(".now-words")).to_contain_text("A plays Smoke Screen (A) choosing target: Test Defender (B)")
    dealt = page.locator("ol.judge-steps a.step-link", has_text="Void Seeker deals 4 damage to Test Defender (B)")
    dealt.click()
    number = int(re.search(r"step=(\d+)", page.url).group(1))
    defender = _unit(page, "Test Defender")
    expect(defender).to_contain_text("4 damage")
    expect(defender).to_contain_text("Might 1")
    expect(defender).to_contain_text("(base 5)")
    expect(defender).to_have_class(re.compile(r"\bchanged\b"))
    expect(_battlefield_of(page, "Test Defender")).to_contain_text("Neutral Ground")
    expect(page.locator(".player[data-player='B'] .zone.base")).to_contain_text("Zhonya's Hourglass")
    page.locator("details.step-rules > summary").click()  # the rules the step cites, one tap under it
    expect(page.locator(".step-rules .quotes")).to_contain_text("404.1.b")
    board, steps = page.locator(".stepper").bounding_box(), page.locator(".judge-steps-section").bounding_box()
    if size == "desktop":  # the steps beside the board, the step shown scrolled into view
        assert steps["x"] >= board["x"] + board["width"]
        expect(page.locator("ol.judge-steps li.current")).to_be_in_viewport()
    else:  # one column on a phone
        assert steps["y"] >= board["y"] + board["height"]
    _fits(page, size)
    _screenshot(page, f"replay-board-{size}", full_page=False)
    recalled = page.locator("ol.judge-steps a.step-link", has_text="recall Test Defender (B) to base")
    recalled.click()
    defender = _unit(page, "Test Defender")
    expect(page.locator(".player[data-player='B'] .zone.base .obj[data-card='Test Defender']")).to_be_visible()
    expect(defender).to_contain_text("0 damage")
    expect(defender).to_contain_text("exhausted")
    expect(page.locator(".player[data-player='B'] [data-zone='trash']")).to_contain_text("Zhonya's Hourglass")
    _go(page, "ArrowLeft", int(re.search(r"step=(\d+)", page.url).group(1)) - 1)
    assert int(re.search(r"step=(\d+)", page.url).group(1)) > number


def test_a_what_if_that_changes_the_outcome(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + ZHONYA + "#what-if")
    form = page.locator("form.what-if-form", has=page.locator("select[name=path] option", has_text="Might (now 5)"))
    form.locator("select[name=path]").select_option(label="Test Defender (B): Might (now 5)")
    form.locator("input[name=value]").fill("9")
    form.locator("input[type=submit]").click()
    compare = page.locator("section.compare")
    expect(compare).to_contain_text("The outcome changes.")
    linked = [int(re.search(r"\d+", text).group(0)) for text in compare.locator(".divergence a").all_inner_texts()]
    assert linked and min(linked) > 1
    zone = compare.locator("table.outcome-table tr", has_text="Test Defender (B) zone")
    expect(zone.locator("td").nth(0)).to_have_text("base")
    expect(zone.locator("td").nth(1)).to_have_text("Neutral Ground")
    # The what-if's own list marks a step the sentence links: the deciding one, or where the steps first differ
    # when the what-if ends before the original's deciding step; the page opens at it.
    marked = page.locator("ol.judge-steps li.divergence")
    expect(marked).to_have_count(1)
    step = int(marked.get_attribute("id").removeprefix("step-"))
    assert step in linked
    assert marked.get_attribute("class").split().count("current") == 1
    expect(page.locator(".side-by-side.boards .board")).to_have_count(2)
    _fits(page, size)
    _screenshot(page, f"replay-what-if-{size}")
    shared = compare.get_by_role("link", name="Share this what-if").get_attribute("href")
    assert "path=setup.battlefields.0.units.0.might" in shared and "value=9" in shared


def test_build_a_two_unit_combat_with_the_forms_and_replay_it(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + "/dispute")
    for card, owner, where, might in (("Test Unit", "A", "base", "4"), ("Test Defender", "B", "bf1", "3")):
        add = page.locator("form.builder-form", has=page.locator("input[name=op][value=add]"))
        add.locator("input[name=card]").fill(card)
        add.locator(f"input[name=player][value={owner}]").check()
        add.locator(f"input[name=where][value={where}]").check()
        add.locator("input[name=might]").fill(might)
        add.locator("input[type=submit]").click()
        expect(page.locator("#build .board")).to_contain_text(card)
    for done, action in enumerate(("A moves Test Unit (A) to Neutral Ground", "A passes", "B passes"), start=1):
        page.locator(".legal-actions a", has_text=action).first.click()
        expect(page.locator("ol.done-actions > li")).to_have_count(done)
    _fits(page, size)
    _screenshot(page, f"replay-builder-{size}")
    page.get_by_role("link", name="Replay this dispute").click()
    page.locator("ol.judge-steps a.step-link:visible").last.click()
    expect(page.locator(".player[data-player='B'] [data-zone='trash']")).to_contain_text("Test Defender")
    attacker = _unit(page, "Test Unit")
    expect(attacker).to_contain_text("Might 4")
    expect(_battlefield_of(page, "Test Unit")).to_contain_text("controlled by A")
    expect(page.locator(".player[data-player='A'] [data-field='points']")).to_contain_text("1 / 8 points")
    _fits(page, size)
    _screenshot(page, f"replay-built-combat-{size}")


def test_a_judge_builds_a_tank_dispute_and_reads_the_verdict_in_fifteen_taps(screen, server):
    """Timed as a judge on a phone: "A attacks with a 4-Might unit into B's two units, one with Tank", from the home
    page to the outcome, counting each tap (a menu: two, open and pick) and each character typed. After each action
    the outcome, what just happened, the actions allowed and the board are on the page together, the page opened
    at them; the assignment answered is an action of the list; the outcome cites Tank's rule."""
    from playwright.sync_api import expect

    size, page = screen
    taps, typed = 0, 0

    def tap(locator) -> None:
        nonlocal taps
        locator.click()
        taps += 1

    def type_in(locator, text: str) -> None:
        nonlocal typed
        tap(locator)
        locator.fill(text)
        typed += len(text)

    page.goto(server + "/")
    tap(page.get_by_role("link", name=re.compile("Build a dispute")).first)
    add = page.locator("form.add-card")
    type_in(add.locator("input[name=card]"), "test unit")
    type_in(add.locator("input[name=might]"), "4")
    tap(add.locator("input[type=submit]"))
    expect(page.locator("#add")).to_be_in_viewport()  # the next card's form, where the page opens
    tap(add.locator("label.choice:has(input[name=player][value=B])"))
    tap(add.locator("label.choice:has(input[name=where][value=bf1])"))
    tap(add.locator("input[type=submit]"))
    add.locator("select[name=keyword]").select_option("Tank")  # the owner, place and card are kept from before
    taps += 2
    tap(add.locator("input[type=submit]"))
    expect(page.locator("#build .obj[data-card='Test Unit']")).to_have_count(3)
    tap(page.locator(".legal-actions a", has_text="A moves Test Unit (A) to Neutral Ground"))
    expect(page.locator("#actions")).to_be_in_viewport()
    tap(page.locator(".legal-actions a", has_text="Everyone passes in turn"))
    tap(page.locator(".legal-actions a", has_text="A answers the assign question").first)
    verdict = page.locator(".verdict")
    expect(verdict).to_be_in_viewport()
    expect(verdict).to_contain_text("Test Unit (B, u3) died")  # B's two Test Units told apart by their ids
    expect(verdict).to_contain_text("815.1.c")
    expect(page.locator("ol.done-actions > li")).to_have_count(4)
    expect(page.locator("ol.done-actions > li").last).to_contain_text("A answers the assign question")
    assert page.locator(".just-now").bounding_box()["y"] - page.locator(".verdict").bounding_box()["y"] < 900
    gap = page.locator("#build").bounding_box()["y"] - page.locator("#actions").bounding_box()["y"]
    assert 0 < gap < 1200, gap  # the board follows the actions allowed, not 3,000 px further down
    assert (taps, typed) == (13, 10), (taps, typed)
    assert taps <= 15
    _fits(page, size)
    _screenshot(page, f"replay-builder-verdict-{size}", full_page=False)
    if size == "phone":
        page.screenshot(path="docs/screenshots/builder.png")


def test_malformed_yaml_names_its_line(screen, server):
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + "/dispute")
    broken = dispute.NEW_DISPUTE.replace("turn: {player: A}", "turn: {player: A}\n  victory_score: [8")
    page.locator("textarea[name=yaml]").fill(broken)
    page.get_by_role("button", name="Check and use this YAML").click()
    line = next(n for n, text in enumerate(broken.splitlines(), start=1) if "victory_score" in text)
    expect(page.locator("#problem")).to_contain_text(re.compile(rf"Line {line}|Line {line + 1}"))
    expect(page.locator("#error-line")).to_be_visible()
    _fits(page, size)
    _screenshot(page, f"replay-yaml-error-{size}")


def test_a_library_replay_copied_into_the_builder_reads_on_its_buttons(screen, server):
    """A judge copies a library replay into the builder: each action offered reads as one sentence on its button
    (the words keep their spaces, a card's owner is as legible as its name) and each card set up keeps its Remove
    button on its own row."""
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + ZHONYA)
    page.get_by_role("link", name="Edit a copy in the dispute builder").click()
    offered = page.locator(".legal-actions a.button", has_text=re.compile(r"^A plays ")).first
    expect(offered).to_be_visible()
    # as rendered (not the text of the markup, which keeps its spaces even where the layout drops them)
    assert re.fullmatch(r"A plays \S.* \(A\)( choosing .+)?", offered.inner_text()), offered.inner_text()
    colours = offered.evaluate(
        "button => [getComputedStyle(button).color, getComputedStyle(button.querySelector('.owner')).color]"
    )
    assert colours[0] == colours[1]
    rows = page.locator(".setup-list li").evaluate_all(
        """items => items.map((item) => {
            const [name, remove] = [item.querySelector(':scope > span'), item.querySelector(':scope > .button')];
            return remove.getBoundingClientRect().top < name.getBoundingClientRect().bottom;
        })"""
    )
    assert len(rows) >= 4 and all(rows)
    _fits(page, size)
    _screenshot(page, f"replay-builder-copy-{size}")


def test_a_problem_is_said_where_the_page_opens(screen, server):
    """A form of the builder opens the page at its own section: a refused action, an action the form cannot read
    and YAML in error are each said there, on screen, not at the top of a page scrolled past them."""
    from playwright.sync_api import expect

    size, page = screen
    page.goto(server + "/dispute")
    act = page.locator("form.builder-form", has=page.locator("input[name=op][value=act]"))
    for typed, said in (("{by: B, do: move, units: [bf1], to: base}", "The rules forbid that action."), ("{by: A", "")):
        act.locator("input[name=action]").fill(typed)
        act.locator("input[type=submit]").click()
        expect(page.locator("#now [role=alert]")).to_be_in_viewport()
        expect(page.locator("#now [role=alert]")).to_contain_text(said)
        expect(act.locator("input[name=action]")).to_have_value(typed)  # kept, to be mended
    page.locator("textarea[name=yaml]").fill(dispute.NEW_DISPUTE.replace("title: A new dispute", "titel: x"))
    page.get_by_role("button", name="Check and use this YAML").click()
    expect(page.locator("#yaml #problem")).to_be_in_viewport()
    assert page.locator("[role=alert]").count() == 1
    _screenshot(page, f"replay-builder-problem-{size}", full_page=False)


def test_a_builder_menu_is_as_wide_as_its_choices_and_the_action_field_takes_the_row(chromium, server):
    """On a desktop the "Whose turn" menu (A or B) stood across the whole page, as wide as the typed action's field;
    a menu keeps the width of its choices, the form's only text field still takes the row."""
    page = chromium.page(DESKTOP)
    page.goto(server + "/dispute")
    turn = page.locator("form.builder-form", has=page.locator("input[name=op][value=turn]")).locator("select")
    action = page.locator("form.builder-form input[name=action]")
    assert turn.bounding_box()["width"] < 160
    assert action.bounding_box()["width"] > 600


def test_a_builders_numbers_share_a_row_on_a_phone(chromium, server):
    """On a phone a player's points, Energy and Power stand side by side (each a whole row, a player's form filled
    most of the screen), as do a card's Might and damage; each field still shows the value it holds."""
    page = chromium.page(PHONE)
    page.goto(server + "/dispute")
    for op, fields in (("pool", ("points", "energy", "power")), ("add", ("might", "damage"))):
        form = page.locator("form.builder-form", has=page.locator(f"input[name=op][value={op}]")).first
        boxes = [form.locator(f"input[name={field}]").bounding_box() for field in fields]
        assert len({round(box["y"]) for box in boxes}) == 1, (op, boxes)
        assert all(box["width"] >= 80 for box in boxes), (op, boxes)
    _fits(page, "phone")


# For each step's citations, the room between the texts of the two numbers of each pair ("406.1 → 419.1") and
# between neighbouring pairs on one line.
_CITE_ROOM = """steps => steps.flatMap((cites) => {
    const text = (element) => { const range = document.createRange(); range.selectNodeContents(element); return range.getBoundingClientRect(); };
    const shown = [...cites.querySelectorAll(':scope > .cite-pair')].filter((pair) => pair.getClientRects().length);
    const pairs = shown.map((pair) => {
        const [from, to] = [text(pair.firstElementChild), text(pair.lastElementChild)];
        return {top: Math.round(from.top), left: from.left, right: to.right, inside: to.left - from.right};
    });
    return pairs.slice(1).map((pair, i) => [pairs[i], pair]).filter(([before, pair]) => pair.top === before.top)
        .map(([before, pair]) => ({between: pair.left - before.right, inside: Math.max(pair.inside, before.inside)}));
})"""


def test_a_steps_citation_pairs_read_as_pairs(screen, server):
    """A step citing rules of an older version shows each beside its number today (334.1.c → 338.1.b); two such
    pairs on one line stand further apart than the numbers of a pair, so a judge reads which goes with which."""
    size, page = screen
    page.goto(server + ZHONYA)
    rooms = page.locator("ol.judge-steps .cites").evaluate_all(_CITE_ROOM)
    assert rooms, "no two citation pairs share a line: not the case tested"
    assert [room for room in rooms if room["between"] <= room["inside"]] == []
