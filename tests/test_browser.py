"""The judges' pages in a real browser: Debian's chromium driven by Playwright, against a
real ``datasette`` server started on a free port.

Screenshots go to ``test-artifacts/`` (not committed).
"""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from rules_db.serve import datasette_args, write_metadata

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

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="/usr/bin/chromium is missing: run `make chromium` "
        "(installs Debian's chromium) to run the browser tests",
    ),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """``datasette serve`` on a database, in a subprocess, until stopped."""

    def __init__(self, db_path: Path, tmp_dir: Path):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        metadata = write_metadata(db_path, tmp_dir / "metadata.json")
        datasette = Path(sys.executable).parent / "datasette"
        self.log = (tmp_dir / "datasette.log").open("w+")
        self.process = subprocess.Popen(
            [str(datasette), *datasette_args(db_path, metadata, port=self.port)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_until_ready(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/-/versions.json", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        self.log.seek(0)
        raise RuntimeError(f"datasette did not start on {self.url}:\n{self.log.read()[-3000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def _serve(db_path: Path, tmp_dir: Path):
    server = Server(db_path, tmp_dir)
    server.wait_until_ready()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture(scope="module")
def fixture_server(fixture_db, tmp_path_factory):
    yield from _serve(fixture_db, tmp_path_factory.mktemp("fixture-server"))


@pytest.fixture(scope="module")
def real_server(real_db, tmp_path_factory):
    yield from _serve(real_db, tmp_path_factory.mktemp("real-server"))


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _screenshot(page, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


def _search(page, base_url: str, text: str) -> None:
    page.goto(base_url + "/")
    page.fill("form.judges-search input[name=q]", text)
    page.click("form.judges-search input[type=submit]")
    page.wait_for_load_state()


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
    rule_results = [link.get_attribute("href") for link in page.locator("ol.results li.result-rule > a").all()]
    assert rule_results, "searching 'recalled' found no rule"
    for _ in range(2):
        more = page.locator("nav.pager a[rel=next]")
        if not more.count():
            break
        more.first.click()
        page.wait_for_load_state()
        rule_results += [link.get_attribute("href") for link in page.locator("ol.results li.result-rule > a").all()]
    page.goto(base_url + rule_results[0])
    expect(page.locator("article.rule")).to_contain_text(re.compile("recall", re.IGNORECASE))
    for href in rule_results:
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
    ruling_link = page.locator("li.result-ruling > a").first
    question = ruling_link.inner_text().strip()
    ruling_link.click()
    page.wait_for_load_state()
    expect(page.locator("h1.question")).to_have_text(question)
    citation = page.locator("section.citations a.rule-link").first
    cited_number = citation.inner_text().strip()
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


@pytest.fixture(scope="module")
def hostile_server(hostile_db, tmp_path_factory):
    yield from _serve(hostile_db, tmp_path_factory.mktemp("hostile-server"))


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
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
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
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
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

    Their screenshots (test-artifacts/readme-*.png) are the README's docs/screenshots.
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
    ruling_id, question = connection.execute("""select g.id, g.question from rulings g order by
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
    page.set_viewport_size({"width": 1100, "height": 1300})
    _screenshot(page, "readme-rule", full_page=False)

    page.goto(f"{real_server}/rulings/{ruling_id}")
    expect(page.locator("h1.question")).to_have_text(question)
    for heading in ["Sequence", "Citations", "Cards named", "Related rulings"]:
        expect(page.locator("h2", has_text=heading)).to_be_visible()
    _screenshot(page, "readme-ruling", full_page=False)


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
