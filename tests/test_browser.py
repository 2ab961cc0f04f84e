"""The judges' pages in a real browser: Debian's chromium driven by Playwright, against real servers on free ports
(``rules_db.serve.serve`` for the real database, uvicorn in a thread of the test process for the small ones); one
browser for the test process (``Chromium``, tests/fixtures/browser.py), a phone page and a desktop page the tests share.

Screenshots go to ``test-artifacts/`` (not committed): every judges' page at 390x844 and 1366x900.
"""

from __future__ import annotations

import contextlib
import re
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from servers import in_a_thread, patience

CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="/usr/bin/chromium is missing: run `make chromium` "
        "(installs Debian's chromium) to run the browser tests",
    ),
]


@pytest.fixture(scope="module")
def servers(fixture_db, hostile_db):
    """The fixture and hostile databases served side by side, each by uvicorn in a thread of this process
    (``in_a_thread``); the real database's server is the run's ``rules-db serve`` (``real_server``,
    tests/fixtures/real_build.py)."""
    with in_a_thread(fixture_db) as fixture, in_a_thread(hostile_db) as hostile:
        yield {"fixture": fixture, "hostile": hostile}


@pytest.fixture(scope="module")
def fixture_server(servers):
    return servers["fixture"]


@pytest.fixture(scope="module")
def hostile_server(servers):
    return servers["hostile"]


def _open_page(browser, viewport: dict, service_workers: str = "allow"):
    context = browser.new_context(viewport=viewport, service_workers=service_workers)
    page = context.new_page()
    page.set_default_timeout(patience(15) * 1000)
    return context, page


@pytest.fixture
def phone(chromium):
    """The phone page the browser tests share (``Chromium``, tests/fixtures/browser.py: a page of its own per test costs
    most of a second of CPU)."""
    return chromium.page(PHONE)


@pytest.fixture
def page(chromium):
    """The desktop page the browser tests share; a test that changes it (a dialog listener, the screen's size)
    puts it back."""
    return chromium.page(DESKTOP)


@contextlib.contextmanager
def _dialogs(page):
    """The messages of the dialogs (alerts) the page opens within the block, each dismissed."""
    messages = []

    def dismiss(dialog) -> None:
        messages.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    try:
        yield messages
    finally:
        page.remove_listener("dialog", dismiss)


def _screenshot(page, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def _search(page, base_url: str, text: str) -> None:
    page.goto(base_url + "/")
    page.fill("form.judges-search input[name=q]", text)
    page.click("form.judges-search input[type=submit]")
    page.wait_for_load_state()


RULE_RESULTS = "ol.results li.result-rule > a:not(.badge)"  # the rules found (not the keywords they define)


def _has_resolved_references(page, rule_url: str) -> bool:
    """Whether a rule's JSON lists a reference to another rule: read over HTTP, not rendered, so that the journey
    opens in the browser only the rules that can show a cross-reference (the first one of "recalled" is the
    25th rule found in the real database, and each page the browser renders costs a quarter second of CPU)."""
    references = page.request.get(rule_url + ".json").json()["references"]
    return any(reference["status"] == "resolved" for reference in references)


def _judge_journey(page, base_url: str, prefix: str) -> None:
    """Home, search "recalled", open a rule found, follow a cross-reference, then a ruling and one of its
    citations, asserting each time on what the judge sees."""
    from playwright.sync_api import expect

    page.goto(base_url + "/")
    expect(page.locator("h1")).to_have_text("Rules, rulings and cards")
    _screenshot(page, f"{prefix}-home")

    _search(page, base_url, "recalled")
    expect(page.locator("p.count")).to_contain_text("for “recalled”")
    expect(page.locator("mark").first).to_be_visible()
    _screenshot(page, f"{prefix}-search")

    # Open rule results (of the first pages: "more" goes on) until one whose text cross-references another rule.
    rule_results = [link.get_attribute("href") for link in page.locator(RULE_RESULTS).all()]
    assert rule_results, "searching 'recalled' found no rule"
    for _ in range(2):
        more = page.locator("nav.pager a[rel=next]")
        if not more.count():
            break
        more.first.click()
        page.wait_for_load_state()
        rule_results += [link.get_attribute("href") for link in page.locator(RULE_RESULTS).all()]
    page.goto(base_url + rule_results[0])
    expect(page.locator("article.rule")).to_contain_text(re.compile("recall", re.IGNORECASE))
    for href in [href for href in rule_results if _has_resolved_references(page, base_url + href)]:
        page.goto(base_url + href)
        cross_references = page.locator("div.rule-text a[href*='/rules/']")
        if cross_references.count():
            break
    else:
        pytest.fail("no rule found by 'recalled' cross-references another rule")
    _screenshot(page, f"{prefix}-rule")
    target = cross_references.first
    target_number = target.inner_text().strip().rstrip(".")
    target.click()
    page.wait_for_load_state()
    expect(page.locator("h1 .rule-number")).to_have_text(re.compile(rf"^{re.escape(target_number)}"))
    _screenshot(page, f"{prefix}-cross-reference")

    _search(page, base_url, "damage")
    ruling_link = page.locator("li.best-ruling > a, li.result-ruling > a").first
    question = ruling_link.inner_text().strip()
    ruling_link.click()
    page.wait_for_load_state()
    expect(page.locator("h1.question")).to_have_text(question)
    citation = page.locator("section.citations a.rule-link").first
    cited_number = citation.locator(".rule-number").inner_text().strip()
    _screenshot(page, f"{prefix}-ruling")
    citation.click()
    page.wait_for_load_state()
    expect(page.locator("h1 .rule-number")).to_have_text(cited_number)
    citing = page.locator("section", has=page.locator("h2", has_text="Rulings citing this rule"))
    expect(citing.get_by_role("link", name=question, exact=True)).to_be_visible()
    _screenshot(page, f"{prefix}-cited-rule")


def test_judge_journey_on_fixture_database(page, fixture_server):
    _judge_journey(page, fixture_server, "fixture")


def test_judge_journey_on_real_database(page, real_server):
    _judge_journey(page, real_server, "real")


def _assert_inert(page, url: str) -> None:
    """Nothing the page's text carried has run or can run: no flag set, no javascript: URL, no handler."""
    page.goto(url)
    page.wait_for_load_state("load")
    for element in page.locator("div.rule-text b, div.rule-text i, div.rule-text a").all():
        element.hover()
    assert page.evaluate("typeof window.__pwned") == "undefined", url
    urls = page.eval_on_selector_all(
        "[href], [src], [action], [data], [formaction]",
        "els => els.flatMap(e => ['href', 'src', 'action', 'data', 'formaction'].map(a => e.getAttribute(a)))",
    )
    assert not [value for value in urls if value and re.sub(r"\s", "", value).lower().startswith("javascript:")], url
    handlers = page.eval_on_selector_all(
        "body *", "els => els.flatMap(e => [...e.attributes].map(a => a.name)).filter(n => n.startsWith('on'))"
    )
    assert handlers == [], url
    document_text = ":is(.rule-text, .snippet, .ruling-text, .card-text, .preview)"
    assert page.locator(f"{document_text} :is(script, iframe, object, svg, img, style, math)").count() == 0, url


def test_hostile_rule_text_is_inert_in_the_browser(page, fixture_server):
    with _dialogs(page) as dialogs:
        _assert_inert(page, fixture_server + "/rules/riftbound/050")
        page.locator("div.rule-text b").click()
        page.locator("div.rule-text", has_text="a javascript link").click()
        assert page.locator("div.rule-text").inner_text().startswith("Hostile text with a javascript link")
        assert page.evaluate("typeof window.__pwned") == "undefined"
        _screenshot(page, "hostile-rule")
        _assert_inert(page, fixture_server + "/search?q=hostile")
    assert dialogs == []


def test_hostile_document_ingested_by_the_build_is_inert(page, hostile_server, hostile_db):
    import sqlite3

    connection = sqlite3.connect(hostile_db)
    numbers = [row[0] for row in connection.execute("select number from rules order by position")]
    connection.close()
    assert len(numbers) >= 10
    with _dialogs(page) as dialogs:
        for number in numbers:
            _assert_inert(page, f"{hostile_server}/rules/riftbound/{number}")
        page.goto(f"{hostile_server}/rules/riftbound/101")
        expect_text = page.locator("div.rule-text").inner_text()
        assert "A Unit is a card." in expect_text and "window.__pwned" not in expect_text
        page.locator("div.rule-text a", has_text="103").click()
        page.wait_for_load_state()
        assert page.locator("h1 .rule-number").inner_text() == "103"
        for path in ["/", "/search?q=recalled", "/rules/rules", "/keywords/riftbound/Tank"]:
            _assert_inert(page, hostile_server + path)
    assert dialogs == []


def test_rule_and_ruling_pages_for_the_readme(page, real_server, real_db):
    """The best-connected rule and ruling of the newest Riftbound rules, as judges see them.

    Their screenshots (test-artifacts/readme-*.png) are the README's docs/screenshots/rule.png and
    ruling.png; its phone pictures are test-artifacts/layout-phone-{rule-tree,card,keyword}.png.
    """
    import sqlite3

    from playwright.sync_api import expect

    connection = sqlite3.connect(real_db)
    (rule_number,) = connection.execute("""select number from (
            select r.number, r.position, (select count(*) from rule_refs where from_rule_id = r.id
                and status = 'resolved') as references_out,
                (select count(*) from ruling_citations where rule_id = r.id) + (select count(*)
                from replay_step_citations where rule_id = r.id) as citations,
                (select count(*) from keyword_mentions where rule_id = r.id) as mentions
            from rules r join documents d on d.id = r.document_id
            where d.game_id = 'riftbound' and d.is_newest = 1 and r.heading is null)
        where references_out and citations and mentions
        order by references_out + citations + mentions desc, position limit 1""").fetchone()
    ruling_id, question = connection.execute("""select g.id, g.question from rulings g
        where exists (select 1 from ruling_steps where ruling_id = g.id) order by
        (select count(*) from ruling_steps where ruling_id = g.id) + (select count(*) from ruling_citations
        where ruling_id = g.id) + (select count(*) from card_mentions where ruling_id = g.id) desc, g.id
        limit 1""").fetchone()
    connection.close()

    page.goto(f"{real_server}/rules/riftbound/{rule_number}")
    expect(page.locator("h1 .rule-number")).to_have_text(rule_number)
    expect(page.locator("div.rule-text a[href*='/rules/']").first).to_be_visible()
    expect(page.locator("div.rule-text a[href*='/keywords/']").first).to_be_visible()
    expect(page.locator("h2", has_text="Refers to")).to_be_visible()
    expect(page.locator("h2", has_text=re.compile("(Rulings|Replays) citing this rule")).first).to_be_visible()
    page.set_viewport_size({"width": 1100, "height": 1300})  # the README's pictures' size
    try:
        _screenshot(page, "readme-rule", full_page=False)
        page.goto(f"{real_server}/rulings/{ruling_id}")
        expect(page.locator("h1.question")).to_have_text(question)
        for heading in ["Sequence", "Citations", "Cards named", "Related rulings"]:
            expect(page.locator("h2", has_text=heading)).to_be_visible()
        _screenshot(page, "readme-ruling", full_page=False)
    finally:
        page.set_viewport_size(DESKTOP)


def test_card_page_ruling_and_keyword_links(page, real_server, real_db):
    """Zhonya's Hourglass as a judge opens it: a ruling naming it, then the keyword its text carries."""
    import sqlite3

    from playwright.sync_api import expect

    connection = sqlite3.connect(real_db)
    rulings = {
        question
        for (question,) in connection.execute("""select g.question from card_mentions m
        join rulings g on g.id = m.ruling_id join cards c on c.id = m.card_id where c.slug = 'zhonyas-hourglass'""")
    }
    connection.close()
    assert rulings, "the rulings name Zhonya's Hourglass"

    card_url = f"{real_server}/cards/zhonyas-hourglass"
    page.goto(card_url)
    expect(page.locator("article.card h1")).to_have_text("Zhonya's Hourglass")
    _screenshot(page, "card-zhonyas-hourglass")
    rulings_section = page.locator("section:has(> h2:has-text('Rulings naming'))")
    ruling_link = rulings_section.locator("a[href*='/rulings/']").first
    question = ruling_link.inner_text().strip()
    assert question in rulings
    ruling_link.click()
    page.wait_for_load_state()
    expect(page.locator("h1.question")).to_have_text(question)
    expect(
        page.locator("section:has(> h2:has-text('Cards named'))").get_by_role(
            "link", name="Zhonya's Hourglass", exact=True
        )
    ).to_be_visible()

    page.go_back()
    page.wait_for_load_state()
    assert page.url == card_url
    keyword_link = page.locator("div.card-text a[href*='/keywords/']").first
    term = keyword_link.get_attribute("title")
    assert keyword_link.inner_text().strip() == f"[{term}]"
    keyword_link.click()
    page.wait_for_load_state()
    expect(page.locator("h1")).to_have_text(term)
    expect(page.locator("section.definition a.rule-link")).to_be_visible()


# ---------------------------------------------------------------- phone and desktop layout

# What a thumb taps: rows of link lists, navigation, form controls, fold markers. Each at least 44 px high
# on a phone; every other link (inside running text) at least 24 px.
PRIMARY = ", ".join(
    [
        "ul.links > li > a:first-child",
        "ol.links > li > a:first-child",
        "nav a",
        "header .crumbs a",
        "form input[type=submit]",
        "form input[type=search]",
        "form input[type=text]",
        "form select",
        "summary",
        ".tree li > a",
        "ul.diff-counts a",
        "ol.results > li > a",
        "td.number a",
        "table.infractions td a",
        ".defined-in a.rule-link",
    ]
)

_MEASURE = """primary => {
    const visible = (element) => { const box = element.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
    const describe = (element) => `${element.tagName} "${(element.innerText || element.value || '').trim().slice(0, 30)}" ${Math.round(element.getBoundingClientRect().height)}px`;
    const targets = [...document.querySelectorAll(primary)].filter(visible);
    // a field's hint wider than the room for its text (Chromium keeps a number field's spin buttons' room)
    const measure = document.createElement("canvas").getContext("2d");
    const cutShort = (field, text, controls) => {
        const style = getComputedStyle(field);
        measure.font = style.font;
        const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return measure.measureText(text).width > room - controls + 1;
    };
    const hintCutShort = (input) => cutShort(input, input.placeholder, input.type === "number" ? 16 : 0);
    // a column too narrow for a word of its header, which goes on over two lines ("Origina" / "l")
    const wordCut = (cell) => {
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const word of node.data.matchAll(/[^\\s-]+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
                if (lines.size > 1) return true;
            }
        }
        return false;
    };
    // a date shown where a line may break (at its hyphens: "2026-" / "06-18"), or broken; a file's name holding one
    // ("rules-2026-06-18.txt") is a name, not a date
    const breakableDates = () => {
        const found = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            for (const day of node.data.matchAll(/(?<![\\w-])\\d{4}-\\d{2}-\\d{2}(?![\\w-])/g)) {
                const range = document.createRange();
                range.setStart(node, day.index);
                range.setEnd(node, day.index + day[0].length);
                const lines = new Set([...range.getClientRects()].map((box) => Math.round(box.top)));
                if (lines.size === 0) continue;  // not shown (a closed list's options)
                const whiteSpace = getComputedStyle(node.parentElement).whiteSpace;
                if (lines.size > 1 || !["nowrap", "pre"].includes(whiteSpace)) found.push(`${day[0]} in ${describe(node.parentElement)}`);
            }
        }
        return found;
    };
    // the breadcrumb: a crumb broken across lines or running off the screen, crumbs and slashes off one line
    const crumbFaults = () => {
        const crumbs = document.querySelector("header .crumbs");
        if (!crumbs) return [];
        const found = [], bottoms = [];
        const walker = document.createTreeWalker(crumbs, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.data.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(node);
            const boxes = [...range.getClientRects()].filter((box) => box.width > 0);
            if (new Set(boxes.map((box) => Math.round(box.top))).size > 1) found.push(`"${node.data.trim().slice(0, 30)}" breaks across lines`);
            if (node.parentElement.getBoundingClientRect().right > window.innerWidth) found.push(`${describe(node.parentElement)} runs off the screen`);
            bottoms.push(...boxes.map((box) => box.bottom));
        }
        bottoms.sort((a, b) => a - b);
        for (let i = 1; i < bottoms.length; i++) {
            const apart = bottoms[i] - bottoms[i - 1];
            if (apart > 1 && apart < 16) found.push(`crumbs ${Math.round(apart)} px off one line`);
        }
        return found;
    };
    // a closed list's chosen option wider than the room beside its arrow
    const choiceCutShort = (select) => select.selectedOptions.length > 0 && cutShort(select, select.selectedOptions[0].text, 20);
    return {
        overflow: document.documentElement.scrollWidth - window.innerWidth,
        primary: targets.length,
        small_primary: targets.filter((e) => e.getBoundingClientRect().height < 44).map(describe),
        small_links: [...document.querySelectorAll("a")].filter(visible)
            .filter((e) => e.getBoundingClientRect().height < 24).map(describe),
        // words wider than their own box spill over their neighbours (a label squeezed to a fixed width)
        clipped: [...document.querySelectorAll("label, a, button, input[type=submit], summary, h1, h2, h3, th, td")]
            .filter((e) => e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "auto")
            .map(describe)
            .concat([...document.querySelectorAll("input[placeholder]")].filter(visible).filter(hintCutShort)
                .map((e) => `the hint "${e.placeholder}" of ${e.name}`))
            .concat([...document.querySelectorAll("select")].filter(visible).filter(choiceCutShort)
                .map((e) => `the choice "${e.selectedOptions[0].text}" of ${e.name}`))
            .concat([...document.querySelectorAll("th")].filter(visible).filter(wordCut).map((e) => `a word cut in ${describe(e)}`)),
        breakable_dates: breakableDates(),
        crumbs: crumbFaults(),
    };
}"""


# Installed before a page's own scripts run: records every way a script can read the screen's size or follow its
# changes (the window's and the screen's sizes, media queries, resize events and observers, an element's size), so
# the layout test can hold that a page resized in place lays out as one loaded at that size. Reads made while the
# test measures (``window.__measuring``) are the test's own.
_SCREEN_SIZE_PROBE = """(() => {
    const reads = window.__screenSizeReads = [];
    const note = (what) => { if (!window.__measuring) reads.push(what); };
    const watch = (target, name) => {
        const descriptor = Object.getOwnPropertyDescriptor(target, name);
        if (!descriptor) return;
        if (descriptor.get) {
            Object.defineProperty(target, name, {...descriptor, get() { note(name); return descriptor.get.call(this); }});
        } else if (typeof descriptor.value === "function") {
            const original = descriptor.value;
            Object.defineProperty(target, name, {...descriptor, value: function (...args) { note(name); return original.apply(this, args); }});
        }
    };
    for (const name of ["innerWidth", "innerHeight", "outerWidth", "outerHeight", "matchMedia", "visualViewport", "ResizeObserver"]) watch(window, name);
    for (const name of ["width", "height", "availWidth", "availHeight"]) watch(Screen.prototype, name);
    for (const name of ["clientWidth", "clientHeight", "scrollWidth", "scrollHeight", "getBoundingClientRect", "getClientRects"]) watch(Element.prototype, name);
    for (const name of ["offsetWidth", "offsetHeight", "offsetTop", "offsetLeft"]) watch(HTMLElement.prototype, name);
    const listen = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function (type, ...rest) {
        if (type === "resize") reads.push("resize listener");
        return listen.call(this, type, ...rest);
    };
    watch(window, "onresize");
})()"""


def _judges_pages(real_db) -> dict[str, str]:
    """One of every kind of judges' page in the real database, the fullest of each kind."""
    import sqlite3

    connection = sqlite3.connect(real_db)

    def one(sql: str):
        return connection.execute(sql).fetchone()

    rule = one("""select d.version, r.number from rules r join documents d on d.id = r.document_id
        join rulebooks b on b.id = d.rulebook_id and b.is_default
        where d.game_id = 'riftbound' and d.is_newest and r.heading is null order by (select count(*) from replay_step_citations
        where rule_id = r.id) + (select count(*) from rule_refs where to_rule_id = r.id) desc limit 1""")
    ruling = one("""select g.id from rulings g order by (select count(*) from ruling_citations where ruling_id = g.id)
        + (select count(*) from ruling_steps where ruling_id = g.id) desc limit 1""")
    keyword = one("""select d.version, k.term from keywords k join documents d on d.id = k.document_id
        where k.game_id = 'riftbound' and d.is_newest order by (select count(*) from keyword_mentions
        where keyword_id = k.id) desc limit 1""")
    tournament_rule = one("""select d.version, b.slug, r.number from rules r join documents d on d.id = r.document_id
        join rulebooks b on b.id = d.rulebook_id and not b.is_default where d.game_id = 'riftbound' and d.is_newest
        order by (select count(*) from rules c where c.parent_id = r.id) desc limit 1""")
    # a ruling of each source (the riftboundfaq ones carry their author and licence)
    rulings = connection.execute("select min(id), source from rulings group by source order by min(id)").fetchall()
    replay = one("select id from replays order by step_count desc limit 1")
    fullest_outcome = one("select id from replays order by length(computed) desc limit 1")  # the widest comparison
    diff = one("""select o.version, n.version from rule_lineage l join documents o on o.id = l.from_document_id
        join documents n on n.id = l.to_document_id where o.game_id = 'riftbound' and o.rulebook_id = n.rulebook_id
        group by l.from_document_id, l.to_document_id limit 1""")
    connection.close()
    return {
        "home": "/",
        "search": "/search?q=recalled",
        "rule": f"/rules/riftbound/{rule[0]}/{rule[1]}",
        "ruling": f"/rulings/{ruling[0]}",
        **{f"ruling-of-source-{n}": f"/rulings/{ruling_id}" for n, (ruling_id, _) in enumerate(rulings, start=1)},
        "tournament-rule": f"/rules/riftbound/{tournament_rule[1]}/{tournament_rule[0]}/{tournament_rule[2]}",
        "card": "/cards/zhonyas-hourglass",
        "keyword": f"/keywords/riftbound/{keyword[0]}/{keyword[1]}",
        "replay": f"/replays/{replay[0]}",
        "what-if": f"/replays/{fullest_outcome[0]}?"
        + urlencode({"path": "setup.players.A.base", "add_card": "Test Unit"}),
        "diff": f"/diff/riftbound/{diff[0]}/{diff[1]}",
        "rule-tree": "/rules/riftbound",
        "tournament-rule-tree": f"/rules/riftbound?rulebook={tournament_rule[1]}",
        "rulings": "/rulings",
        "rulings-of-a-source": "/rulings?" + urlencode({"source": rulings[-1][1]}),
        "infractions": "/infractions/riftbound",
        "dispute": "/dispute",
        "cards": "/cards",
        "replays": "/replays",
        "missing-rule": "/rules/riftbound/9999.9",
        "missing-card": "/cards/hourglas",
        "missing-address": "/no/such/page",
        "missing-diff": f"/diff/riftbound/{diff[0]}/2999-12-31",
    }


def _unfold(summary) -> None:
    """Tap a tree node's fold marker (the 44 px square at its left; the rest of the row is its link)."""
    summary.click(position={"x": 22, "y": 22})
    assert summary.evaluate("element => element.parentElement.open")


def _layout_faults(page, size: str) -> list[str]:
    """What does not fit the screen the page is shown on; on a phone, also the targets too small for a thumb."""
    page.evaluate("window.__measuring = true")
    measured = page.evaluate(_MEASURE, PRIMARY)
    assert measured["primary"] > 0, page.url
    faults = []
    if measured["overflow"] > 0:
        faults.append(f"{measured['overflow']} px wider than the screen")
    faults += [f"spills out of its box: {element}" for element in measured["clipped"]]
    faults += [f"a date may break across lines: {date}" for date in measured["breakable_dates"]]
    faults += [f"breadcrumb: {fault}" for fault in measured["crumbs"]]
    if size == "phone":
        faults += [f"primary target {target}" for target in measured["small_primary"]]
        faults += [f"link {link}" for link in measured["small_links"]]
    return faults


def test_every_judges_page_fits_a_phone_and_a_desktop(phone, real_server, real_db):
    """No page scrolls sideways, no date breaks across lines; on a phone every primary target is a thumb's height,
    every link 24 px.
    A page is loaded once and measured at both sizes, the screen resized in between, when its scripts neither read
    the screen's size nor follow its changes (``_SCREEN_SIZE_PROBE``): its layout is then the style sheet's alone,
    the same resized as loaded at that size (half the pages rendered). One whose scripts do (the replay scrolls its
    steps to the current one) is loaded again at the desktop's size. Screenshots of each page at each size go to
    test-artifacts/layout-*.png."""
    page, problems = phone, {}
    # the probe is removed when the test ends: the later tests on the shared page run the pages' scripts as they are
    with page.add_init_script(_SCREEN_SIZE_PROBE):
        try:
            for name, path in _judges_pages(real_db).items():
                reads_the_size = True
                for size, screen in (("phone", PHONE), ("desktop", DESKTOP)):
                    page.set_viewport_size(screen)
                    if reads_the_size:
                        reads_the_size = _open_as_a_judge(page, real_server + path, name)
                    if faults := _layout_faults(page, size):
                        problems[f"{path} ({size})"] = faults[:5]
                    _screenshot(page, f"layout-{size}-{name}", full_page=False)
            probed = page.evaluate("window.__measuring = false; window.innerWidth; window.__screenSizeReads")
            assert "innerWidth" in probed, "the probe does not see a script read the screen's size"
        finally:
            page.set_viewport_size(PHONE)  # the page is the shared phone
    assert problems == {}


def test_a_long_page_name_keeps_the_breadcrumb_on_its_lines(phone, real_server, real_db):
    """The crumb naming the page (a replay's slug, the longest) stays on one line of a phone, cut short with an
    ellipsis, and every crumb and slash sits on its line's baseline; at both sizes the page fits."""
    import sqlite3

    connection = sqlite3.connect(real_db)
    slug = connection.execute("select id from replays order by length(id) desc limit 1").fetchone()[0]
    connection.close()
    page = phone
    page.goto(f"{real_server}/replays/{slug}")
    try:
        for size, screen in (("phone", PHONE), ("desktop", DESKTOP)):
            page.set_viewport_size(screen)
            assert _layout_faults(page, size) == [], size
            _screenshot(page, f"breadcrumb-{size}", full_page=False)
        page.set_viewport_size(PHONE)
        crumb = page.locator("header .crumbs > span").last
        assert crumb.inner_text() == slug
        assert crumb.evaluate("crumb => crumb.scrollWidth > crumb.clientWidth"), "the slug fits: not the case tested"
    finally:
        page.set_viewport_size(PHONE)


# The baseline of each cell's first line in a comparison table's rows: an empty inline-block put at the start of a
# cell's first text sits on that line's baseline (its bottom is the baseline).
_ROW_BASELINES = """rows => rows.map((row) => [...row.cells].map((cell) => {
    const first = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT, (node) => node.data.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP).nextNode();
    if (!first) return null;
    const probe = document.createElement("span");
    probe.style.display = "inline-block";
    first.parentNode.insertBefore(probe, first);
    const baseline = probe.getBoundingClientRect().bottom;
    probe.remove();
    return baseline;
}).filter((baseline) => baseline !== null))"""


def test_a_comparison_rows_numbers_sit_on_its_texts_first_line(page, real_server, real_db):
    """On a wide screen a comparison table's rule numbers (44 px targets) read on the line of the text beside
    them, not centred below it; every cell of a row starts on one baseline."""
    page.goto(real_server + _judges_pages(real_db)["diff"] + "?kind=edited")
    rows = page.locator("table.diff-rows tbody tr")
    assert rows.count() > 5
    baselines = rows.evaluate_all(_ROW_BASELINES)
    off = [row for row in baselines if len(row) > 2 and max(row) - min(row) > 1]
    assert off == []
    assert page.locator("table.diff-rows td.number a").first.bounding_box()["height"] >= 44


def _open_as_a_judge(page, url: str, name: str) -> bool:
    """Load a page as a judge uses it (the rule tree with its first chapter and section open); whether its scripts
    read the screen's size or follow its changes."""
    page.goto(url)
    if name == "rule-tree":
        _unfold(page.locator(".tree summary").first)
        _unfold(page.locator(".tree details[open] details > summary").first)
    return bool(page.evaluate("window.__screenSizeReads"))


def test_home_leads_to_every_index_and_raw_rows_lead_back(phone, real_server):
    """From home to the rule tree, the rulings, the cards and the replays, and from each raw table row (what
    SQL users see) back to the judges' page of that rule, ruling, card or replay."""
    from playwright.sync_api import expect

    page = phone
    page.goto(real_server + "/")
    page.locator("nav.browse a", has_text="Rules").first.click()
    expect(page.locator("h1")).to_contain_text("Rules")
    _unfold(page.locator(".tree > ul > li > details > summary").first)
    section = page.locator(".tree details[open] > ul > li a").first
    number = section.locator(".rule-number").inner_text()
    section.click()
    expect(page.locator("h1 .rule-number")).to_have_text(number)
    for index, heading, item in [
        ("Rulings", "Rulings", "h1.question"),
        ("Cards", "Cards", "article.card h1"),
        ("Replays", "Replays", "h1"),
    ]:
        page.goto(real_server + "/")
        page.locator("nav.browse a", has_text=index).first.click()
        expect(page.locator("h1")).to_have_text(heading)
        first = page.locator("ul.links > li > a, ol.links > li > a").first
        text = first.inner_text().split("\n")[0].strip()
        first.click()
        expect(page.locator(item)).to_contain_text(text)
    for table, judges_heading in [
        ("rules", "h1 .rule-number"),
        ("rulings", "h1.question"),
        ("cards", "article.card h1"),
        ("replays", "h1"),
    ]:
        page.goto(f"{real_server}/rules/{table}?_size=5")
        link = page.locator("a.judges-page").first
        text = link.inner_text().strip()
        link.click()
        expect(page.locator(judges_heading)).to_contain_text(text[:40])


def test_cards_list_finds_a_card_by_nickname_and_the_nickname_address_redirects(phone, real_server):
    from playwright.sync_api import expect

    page = phone
    page.goto(real_server + "/cards")
    page.fill("form.filters input[name=name]", "zhonyas")
    page.locator("form.filters input[type=submit]").click()
    page.locator("ul.links > li > a", has_text="Zhonya's Hourglass").click()
    expect(page.locator("article.card h1")).to_have_text("Zhonya's Hourglass")
    page.goto(real_server + "/cards/zhonya")
    assert page.url == real_server + "/cards/zhonyas-hourglass"
    current = page.locator("div.card-text").inner_text()
    assert "Heal that unit, exhaust it, and recall it" in current and "Recall that unit exhausted" not in current
    # The printed wording comes after the current one, with what the errata changed.
    printed = page.locator("section.printed-text .errata-diff").evaluate(
        "diff => [...diff.querySelectorAll('.diff')[0].childNodes].filter((node) => node.nodeName !== 'INS')"
        ".map((node) => node.textContent).join('')"
    )
    assert "Recall that unit exhausted" in " ".join(printed.split())
    assert page.locator("section.printed-text ins").count() and page.locator("section.printed-text del").count()


def _wait_until_kept(page, timeout: float = 15) -> None:
    """Until the service worker holds its copy of the page shown. (``page.wait_for_function`` cannot wait on
    ``caches.match``: it takes the promise an async function returns as a true answer and returns at once.)"""
    deadline = time.monotonic() + patience(timeout)
    while not page.evaluate("async () => !!(await caches.match(location.href))"):
        assert time.monotonic() < deadline, f"the service worker kept no copy of {page.url}"
        page.wait_for_timeout(100)


def test_a_page_once_opened_reads_with_no_network(browser, real_server, real_db):
    """Open a rule page and a search, cut the network, reload: both still read; a page never opened says so
    and lists the pages the phone keeps."""
    from playwright.sync_api import expect

    context, page = _open_page(browser, PHONE)
    try:
        rule = real_server + _judges_pages(real_db)["rule"]
        page.goto(rule)
        text = page.locator("div.rule-text").inner_text()
        _wait_until_kept(page)
        page.goto(real_server + "/search?q=recalled")
        _wait_until_kept(page)
        context.set_offline(True)
        page.goto(rule)
        response = page.reload()
        assert response.from_service_worker
        assert page.locator("div.rule-text").inner_text() == text
        _screenshot(page, "offline-rule", full_page=False)
        page.goto(real_server + "/search?q=recalled")
        expect(page.locator("p.count")).to_contain_text("recalled")
        page.goto(real_server + "/rulings/1")
        expect(page.locator("h1")).to_have_text("No network")
        expect(page.locator("ul.links a", has_text="recalled")).to_be_visible()
    finally:
        context.set_offline(False)
        context.close()


def test_a_symbols_meaning_shows_where_a_judge_taps_it(phone, real_server):
    """On a phone, a rule's shorthand ([>]) shows what it stands for where it is tapped, with the link to the rule
    defining it; untapped, the gloss takes no room (a screen reader reads it all the same)."""
    page = phone
    page.goto(f"{real_server}/rules/riftbound/135.2.e.7.a")
    symbol = page.locator(".rule-text .symbol").first
    gloss = symbol.locator(".gloss")
    assert gloss.bounding_box()["width"] <= 1 and "A keyword associated with an ability" in gloss.text_content()
    symbol.click()
    box = gloss.bounding_box()
    assert box["width"] > 100 and gloss.is_visible()
    assert symbol.evaluate("s => document.activeElement === s")
    assert _layout_faults(page, "phone") == []
    _screenshot(page, "phone-symbol-gloss", full_page=False)
    gloss.locator("a").click()
    page.wait_for_load_state()
    assert page.url.endswith("/rules/riftbound/2026-06-18/135.2.e.7")


def test_every_folded_section_shows_it_opens(phone, real_server):
    """A summary laid out as a row lost the browser's triangle: the replay's full trace read as a line of plain
    text. Every folded section of the judges' pages shows a triangle, turned when open, in the colour of a link."""
    page = phone
    marker = "summary => getComputedStyle(summary, '::before').content"
    for url in ("/replays/ruling-03-zhonya-heals-keeps-stat-mods", "/"):
        page.goto(real_server + url)
        summaries = page.locator("details:not(.tree details) > summary")
        assert summaries.count() > 0, url
        for index in range(summaries.count()):
            summary = summaries.nth(index)
            if not summary.is_visible():
                continue
            opened = summary.evaluate("summary => summary.parentElement.open")
            assert summary.evaluate(marker) == ('"▾"' if opened else '"▸"'), (url, summary.inner_text())
            color = summary.evaluate("summary => getComputedStyle(summary).color")
            assert color != page.evaluate("getComputedStyle(document.body).color"), (url, summary.inner_text())
    page.goto(real_server + "/replays/ruling-03-zhonya-heals-keeps-stat-mods")
    trace = page.locator("details.full-tree > summary")
    trace.click()
    assert trace.evaluate(marker) == '"▾"' and page.locator("ol.engine-steps").is_visible()
