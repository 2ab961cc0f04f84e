"""The indexes a judge browses (rule tree, rulings, cards, replays), card names that are not slugs, keyword
definitions, the raw tables' links back to the judges' pages, and the offline web app's routes; on the
small fixture database through Datasette's own test client."""

from __future__ import annotations

import html
import json
import re
import shutil
from urllib.parse import urljoin

import pytest
from servers import in_process

from rules_db import queries


@pytest.fixture(scope="module")
def datasette(fixture_db):
    return in_process(fixture_db)


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:500])
    return response


def _numbers(nodes: list[dict]) -> list:
    """The tree's numbers, nested as the tree is."""
    return [(node["number"], _numbers(node["children"])) if node["children"] else node["number"] for node in nodes]


# ---------------------------------------------------------------- the rule tree


def test_outline_nests_flat_numbering_under_chapters_and_sections():
    """Flat hundreds (Riftbound): 100 is a chapter, 101 a section, 102 (no heading) a rule of section 101;
    a headed sub-rule sits under its nearest shown ancestor, an unheaded one is left to the rule page."""
    rows = [
        (1, "100", None, 0, "Game Concepts"),
        (2, "101", None, 0, "Deck Construction"),
        (3, "101.1", 2, 1, None),
        (4, "102", None, 0, None),
        (5, "102.1", 4, 1, None),
        (6, "102.1.a", 5, 2, "Chosen Champion"),
        (7, "103", None, 0, "Setup"),
        (8, "200", None, 0, "Playing"),
        (9, "201", None, 0, None),
    ]
    rules = [
        {"id": i, "number": n, "parent_id": p, "depth": d, "heading": h, "preview": None if h else f"text of {n}"}
        for i, n, p, d, h in rows
    ]
    tree = queries.outline(rules)
    assert _numbers(tree) == [("100", [("101", [("102", ["102.1.a"])]), "103"]), ("200", ["201"])]
    assert tree[0]["children"][0]["sub_rules"] == 1  # 101.1, not shown in the tree
    assert tree[0]["children"][0]["children"][0]["preview"] == "text of 102"


def test_outline_of_a_rulebook_numbered_by_parents():
    """Numbered 1, 1.1, 1.1a (Rush of Ikorr): the headed sub-rules nest under their parents, none is a chapter."""
    rules = [
        {"id": 1, "number": "1", "parent_id": None, "depth": 0, "heading": "Overview", "preview": None},
        {"id": 2, "number": "1.1", "parent_id": 1, "depth": 1, "heading": "Players", "preview": None},
        {"id": 3, "number": "1.1a", "parent_id": 2, "depth": 2, "heading": None, "preview": None},
        {"id": 4, "number": "2", "parent_id": None, "depth": 0, "heading": "Components", "preview": None},
    ]
    assert _numbers(queries.outline(rules)) == [("1", ["1.1"]), "2"]


async def test_rule_tree_pages_every_version_with_permalinks_and_jump(datasette):
    newest = (await _get(datasette, "/rules/riftbound.json")).json()
    assert newest["document"]["version"] == "2025-12-01" and newest["rules"] == 11
    assert "443" in str(_numbers(newest["tree"]))
    assert [version["version"] for version in newest["versions"]] == ["2025-12-01", "2025-06-02"]
    html = (await _get(datasette, "/rules/riftbound")).text
    assert 'href="/rules/riftbound/2025-12-01/443"' in html and "<details>" in html
    assert 'href="/rules/riftbound?version=2025-06-02"' in html
    older = (await _get(datasette, "/rules/riftbound.json?version=2025-06-02")).json()
    assert older["document"]["version"] == "2025-06-02" and older["rules"] == 9
    jump = await _get(datasette, "/rules/riftbound?version=2025-06-02&number=626.1.d", status=302)
    assert jump.headers["location"] == "/rules/riftbound/2025-06-02/626.1.d"
    await _get(datasette, "/rules/riftbound?version=1999-01-01", status=404)
    await _get(datasette, "/rules/no-such-game", status=404)


async def test_an_address_naming_a_version_or_a_rulebook_opens_its_tree(datasette):
    version = await _get(datasette, "/rules/riftbound/2025-06-02", status=302)
    assert version.headers["location"] == "/rules/riftbound?version=2025-06-02"
    newest = await _get(datasette, "/rules/riftbound/2025-12-01", status=302)
    assert newest.headers["location"] == "/rules/riftbound"
    core = await _get(datasette, "/rules/riftbound/core", status=302)
    assert core.headers["location"] == "/rules/riftbound"
    missing = (await _get(datasette, "/rules/riftbound/9999", status=404)).text  # a missing rule stays a 404
    assert '<p class="error">Riftbound Core Rules, version' in missing  # the title names the game once


async def test_another_rulebook_has_its_own_tree(datasette):
    tournament = (await _get(datasette, "/rules/riftbound.json?rulebook=tournament")).json()
    assert tournament["document"]["rulebook"] == "tournament" and tournament["document"]["version"] == "2026-07-16"
    assert "702" in str(_numbers(tournament["tree"]))
    assert {book["slug"] for book in tournament["rulebooks"]} == {None, "tournament"}
    html = (await _get(datasette, "/rules/riftbound?rulebook=tournament")).text
    assert 'href="/rules/riftbound/tournament/2026-07-16/702"' in html
    assert 'href="/rules/riftbound"' in html  # the Core Rules' tree, one tap away
    jump = await _get(datasette, "/rules/riftbound?rulebook=tournament&number=702", status=302)
    assert jump.headers["location"] == "/rules/riftbound/tournament/2026-07-16/702"
    for path in ("/rules/riftbound/tournament", "/rules/riftbound/tournament/2026-07-16"):
        response = await _get(datasette, path, status=302)
        assert response.headers["location"] == "/rules/riftbound?rulebook=tournament", path
    assert 'href="/rules/riftbound?rulebook=tournament"' in (await _get(datasette, "/")).text
    await _get(datasette, "/rules/riftbound?rulebook=nothing", status=404)


async def test_the_raw_tables_stay_datasettes(datasette):
    """/rules is the database: /rules/rules and /rules/rulings are its tables, not a game's rule tree."""
    for table in ("rules", "rulings", "cards", "replays"):
        html = (await _get(datasette, f"/rules/{table}")).text
        assert 'class="judges-page"' in html, table


# ---------------------------------------------------------------- rulings, cards and replays


async def test_rulings_list_filters_and_orders(datasette):
    every = (await _get(datasette, "/rulings.json")).json()
    assert [ruling["id"] for ruling in every["rows"]] == [1, 2, 3] and every["total"] == 3
    assert (await _get(datasette, "/rulings.json?order=newest")).json()["rows"][0]["id"] == 3
    by_card = (await _get(datasette, "/rulings.json?card=zhonyas-hourglass")).json()
    assert [ruling["id"] for ruling in by_card["rows"]] == [1]
    by_nickname = (await _get(datasette, "/rulings.json?card=Zhonyas")).json()
    assert [ruling["id"] for ruling in by_nickname["rows"]] == [1]
    by_rule = (await _get(datasette, "/rulings.json?rule=443")).json()  # 443 and the rules under it
    assert [ruling["id"] for ruling in by_rule["rows"]] == [1, 2]
    assert (await _get(datasette, "/rulings.json?rule=443.1.e.")).json()["total"] == 2
    by_document = (await _get(datasette, "/rulings.json?document=riftbound-qa-rulings")).json()
    assert by_document["total"] == 3
    assert (await _get(datasette, "/rulings.json?document=nothing")).json()["total"] == 0
    html = (await _get(datasette, "/rulings?card=zhonyas-hourglass")).text
    assert 'href="/rulings/1"' in html and 'href="/rulings/2"' not in html
    assert '<option value="zhonyas-hourglass" selected>' in html


async def test_cards_list_filters_by_name_nickname_set_type_and_domain(datasette):
    every = (await _get(datasette, "/cards.json")).json()
    assert [card["name"] for card in every["rows"]] == ["Garen, Rugged", "Zhonya's Hourglass"]
    assert every["options"]["domains"] == ["Order"] and every["options"]["sets"] == ["OGN"]
    nickname = (await _get(datasette, "/cards.json?name=zhonyas")).json()["rows"]
    assert [card["slug"] for card in nickname] == ["zhonyas-hourglass"] and nickname[0]["matched_aliases"] == "Zhonyas"
    assert [card["slug"] for card in (await _get(datasette, "/cards.json?type=Unit")).json()["rows"]] == [
        "garen-rugged"
    ]
    assert [card["slug"] for card in (await _get(datasette, "/cards.json?set=OGN")).json()["rows"]] == [
        "zhonyas-hourglass"
    ]
    assert (await _get(datasette, "/cards.json?domain=Fury")).json()["total"] == 0
    html = (await _get(datasette, "/cards?name=glass")).text
    assert 'href="/cards/zhonyas-hourglass"' in html and 'href="/cards/garen-rugged"' not in html


async def test_replays_list_filters_by_verdict_ruling_and_tag(datasette):
    every = (await _get(datasette, "/replays.json")).json()
    assert [replay["id"] for replay in every["rows"]] == ["hourglass-saves-unit"]
    assert every["rows"][0]["tags"] == ["recall", "combat"] and every["options"]["tags"] == ["combat", "recall"]
    assert (await _get(datasette, "/replays.json?tag=combat")).json()["total"] == 1
    assert (await _get(datasette, "/replays.json?tag=layers")).json()["total"] == 0
    assert (await _get(datasette, "/replays.json?verdict=mismatch")).json()["total"] == 0
    assert (await _get(datasette, "/replays.json?ruling=1")).json()["total"] == 1
    assert (await _get(datasette, "/replays.json?ruling=2")).json()["total"] == 0
    html = (await _get(datasette, "/replays")).text
    assert 'href="/replays/hourglass-saves-unit"' in html and 'href="/replays?tag=combat"' in html


async def test_lists_page_and_refuse_nonsense_page_numbers_saying_what_is_expected(datasette, fixture_db):
    assert (await _get(datasette, "/cards.json?page=2")).json()["page"] == 1  # only one page: the last
    for nonsense in ("abc", "-1", "9" * 5000, "1e9"):
        refused = await _get(datasette, f"/rulings.json?page={nonsense}", status=400)
        assert "takes a whole number from 1 to 999,999" in refused.json()["error"]
        await _get(datasette, f"/replays.json?ruling={nonsense}", status=400)
    import sqlite3

    conn = sqlite3.connect(fixture_db)
    ids = [row[0] for row in conn.execute("select id from rules order by id")]
    details = "select id, number from rules where id in (select value from json_each(:_ids))"
    listed = queries.paged(conn, "select id from rules", "id", {}, page=2, size=7, details=details)
    assert (listed["total"], listed["pages"]) == (len(ids), -(-len(ids) // 7))
    assert [row["id"] for row in listed["rows"]] == ids[7:14]
    numbers = dict(conn.execute("select id, number from rules"))
    assert all(row["number"] == numbers[row["id"]] for row in listed["rows"])  # details, for the rows shown
    last = queries.paged(conn, "select id from rules", "id", {}, page=999, size=7)
    assert last["page"] == last["pages"] and [row["id"] for row in last["rows"]] == ids[(last["pages"] - 1) * 7 :]


async def test_home_links_to_the_indexes_not_the_raw_tables(datasette):
    html = (await _get(datasette, "/")).text
    for index in ("/rules/riftbound", "/rulings?game=riftbound", "/cards?game=riftbound", "/replays"):
        assert f'href="{index}"' in html, index
    browse = html.split('class="browse"')[1].split("</nav>")[0]
    assert "/rules/rules" not in browse and "/rules/cards" not in browse


# ---------------------------------------------------------------- cards by any name


async def test_a_nickname_or_a_name_redirects_to_the_card(datasette):
    for name in ("Zhonyas", "zhonyas", "Hourglass", "Zhonya%27s%20Hourglass"):
        response = await _get(datasette, f"/cards/{name}", status=302)
        assert response.headers["location"] == "/cards/zhonyas-hourglass", name
    response = await _get(datasette, "/cards/zhonyas.json", status=302)
    assert response.headers["location"] == "/cards/zhonyas-hourglass.json"


async def test_an_unknown_card_is_404_with_the_nearest_names(datasette):
    data = (await _get(datasette, "/cards/zhonyas-hourglas.json", status=404)).json()
    assert [card["slug"] for card in data["nearest"]] == ["zhonyas-hourglass"]
    html = (await _get(datasette, "/cards/garen-rugd", status=404)).text
    assert "Nearest names" in html and 'href="/cards/garen-rugged"' in html
    nothing = (await _get(datasette, "/cards/qqqqqq.json", status=404)).json()
    assert nothing["nearest"] == [] and nothing["cards"] == []


def test_a_name_several_cards_share_lists_them(fixture_db):
    import sqlite3

    conn = sqlite3.connect(fixture_db)
    conn.execute("insert into card_aliases (card_id, alias, how) values (2, 'Hourglass', 'alias')")
    found = queries.find_cards(conn, "hourglass")
    assert [card["slug"] for card in found["cards"]] == ["garen-rugged", "zhonyas-hourglass"]
    conn.rollback()


# ---------------------------------------------------------------- keywords


async def test_keyword_page_starts_with_the_definition_and_quotes_whole_sentences(datasette):
    html = (await _get(datasette, "/keywords/riftbound/Tank")).text
    definition = html.split('class="definition"')[1].split("</section>")[0]
    assert "a unit with Tank must be assigned lethal damage first" in definition
    assert html.index('class="definition"') < html.index("Rules mentioning")
    data = (await _get(datasette, "/keywords/riftbound/Recall.json")).json()
    assert [row["sentence"] for row in data["rules"]] == ["When a unit is recalled, it moves to its owner's base."]
    assert "<mark>recalled</mark>" in (await _get(datasette, "/keywords/riftbound/Recall")).text


def test_definition_takes_the_sub_rules_and_a_flat_section(fixture_db):
    import sqlite3

    conn = sqlite3.connect(fixture_db)
    # 443 (a headed top-level rule): its sub-rules, up to the next headed top-level rule (444).
    assert [row["number"] for row in queries.definition(conn, 25)] == ["443.1", "443.1.d", "443.1.e"]
    assert [row["depth"] for row in queries.definition(conn, 25)] == [1, 2, 2]
    assert [row["number"] for row in queries.definition(conn, 26)] == ["443.1.d", "443.1.e"]  # 443.1's own
    assert queries.definition(conn, 29) == []  # 444 has nothing under it before 741
    assert queries.definition(conn, None) == []


def test_sentence_with_finds_the_whole_sentence():
    text = 'Units die. Example: a unit with Tank ("I go first.") and another unit. See rule 1.2. Tank it.'
    assert queries.sentence_with(text, ["Tank"]) == 'Example: a unit with Tank ("I go first.") and another unit.'
    assert queries.sentence_with("First line\nA tank line", ["tank"]) == "A tank line"
    assert queries.sentence_with("No match here. At all.", ["Tank"]) == "No match here."
    assert queries.sentence_with("", ["Tank"]) == ""


# ---------------------------------------------------------------- raw tables, manifest, service worker


async def test_raw_rows_link_to_their_judges_pages(datasette):
    expected = {
        "rules": 'href="/rules/riftbound/2025-12-01/443.1.e"',
        "rulings": 'href="/rulings/1"',
        "cards": 'href="/cards/zhonyas-hourglass"',
        "replays": 'href="/replays/hourglass-saves-unit"',
    }
    for table, link in expected.items():
        html = (await _get(datasette, f"/rules/{table}?_size=100")).text
        assert f'class="judges-page" {link}' in html, table
    row = (await _get(datasette, "/rules/rules/28")).text
    assert 'class="judges-page" href="/rules/riftbound/2025-12-01/443.1.e"' in row


async def test_manifest_and_service_worker(datasette):
    manifest = await _get(datasette, "/manifest.webmanifest")
    assert manifest.headers["content-type"].startswith("application/manifest+json")
    assert json.loads(manifest.text)["start_url"] == "/"
    worker = await _get(datasette, "/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"
    config = json.loads(re.search(r"const CONFIG = (\{.*\});", worker.text).group(1))
    assert config["root"] == "/" and any("judges.css" in asset for asset in config["assets"])
    # The worker keeps exactly the judges' pages: its patterns are the server's routes.
    pages = [re.compile(pattern.replace("(?<", "(?P<")) for pattern in config["patterns"]]
    for path in (
        "/",
        "/rules/riftbound/2025-12-01/443.1.e",
        "/rulings/1",
        "/cards/zhonyas-hourglass",
        "/keywords/riftbound/Tank",
        "/search",
        "/rules/riftbound",
        "/rulings",
        "/replays",
        "/replays/ruling-03-zhonya-heals-keeps-stat-mods",  # a replay page, any step
        "/dispute",  # the dispute builder, any state of it
        "/dispute/replay",
        "/offline/riftbound",
    ):
        assert any(pattern.match(path) for pattern in pages), path
    for path in ("/rules/rules", "/rules", "/-/static/app.css", "/sw.js", "/manifest.webmanifest", "/dispute/download"):
        assert not any(pattern.match(path) for pattern in pages), path
    # Our static files are kept at install: the replay's and the pack's scripts with the style sheets.
    assert all(any(f"/{name}" in asset for asset in config["assets"]) for name in ("replay.js", "offline.js"))
    for asset in config["assets"]:
        assert (await datasette.client.get(asset)).status_code == 200, asset
    home = (await _get(datasette, "/")).text
    assert '<link rel="manifest" href="/manifest.webmanifest">' in home
    assert 'navigator.serviceWorker.register("/sw.js")' in home


async def test_numbers_no_page_can_have_answer_404_not_500(datasette):
    """Ids past SQLite's integers and numbers past Python's digit limit name nothing: 404, never a crash."""
    for path in (
        "/rulings/9223372036854775808",
        "/rulings/" + "9" * 5000,
        "/rules/riftbound/" + "9" * 5000,
        "/rules/riftbound/2025-12-01/" + "1." * 3000,
        "/diff/riftbound/" + "9" * 5000 + "/2025-12-01",
        "/rules/riftbound?version=" + "9" * 5000,
    ):
        await _get(datasette, path, status=404)
    jump = await _get(datasette, "/rules/riftbound?number=" + "9" * 5000, status=302)
    await _get(datasette, jump.headers["location"], status=404)
    for path in ("/rulings?rule=" + "9" * 5000, "/cards?name=" + "%25" * 3000):
        await _get(datasette, path)
    await _get(datasette, "/rulings.json?page=" + "9" * 30, status=400)  # a page number past any page


async def test_pages_are_kept_per_database_file_and_address(tmp_path):
    """A page is rendered once per address and database file; a changed file or a visitor with a session
    gets a page rendered for them."""
    import os
    import types

    from datasette.utils.asgi import Response

    from datasette_plugins.page_cache import PageCache

    database = tmp_path / "rules.db"
    database.write_bytes(b"one")
    calls = []

    async def view(datasette, request):
        calls.append(request.path)
        return Response.html(f"page {len(calls)} of {request.path}")

    async def database_file(datasette):
        return str(database)

    def request(path, query="", cookies=None):
        return types.SimpleNamespace(path=path, query_string=query, cookies=cookies or {})

    cached = PageCache(size=2).wrap(view, database_file)
    first = await cached(None, request("/rulings"))
    again = await cached(None, request("/rulings"))
    assert (first.body, again.body, len(calls)) == ("page 1 of /rulings", "page 1 of /rulings", 1)
    await cached(None, request("/rulings", "page=2"))
    await cached(None, request("/cards"))  # the third page: the least recently used (/rulings) goes
    assert (await cached(None, request("/rulings"))).body == "page 4 of /rulings"
    await cached(None, request("/cards", cookies={"ds_actor": "x"}))
    assert calls[-1] == "/cards" and len(calls) == 5
    os.utime(database, (1, 1))  # the database was rebuilt
    assert (await cached(None, request("/rulings"))).body == "page 6 of /rulings"


async def test_static_files_are_named_by_their_content_and_kept_for_a_year(datasette):
    """Every page links our style sheets at URLs carrying their content's hash, served with a year-long immutable
    cache (a phone asks once, not on every page); an older hash is sent to the file as it is now."""
    html = (await _get(datasette, "/")).text
    links = re.findall(r'href="(/-/judges-static/[0-9a-f]{16}/judges\.css)"', html)
    assert links, "the home page links judges.css by its hash"
    sheet = await _get(datasette, links[0])
    assert sheet.headers["content-type"].startswith("text/css")
    assert "immutable" in sheet.headers["cache-control"] and "max-age=31536000" in sheet.headers["cache-control"]
    assert "judges" in sheet.text
    stale = await _get(datasette, "/-/judges-static/0000000000000000/judges.css", status=302)
    assert stale.headers["location"] == links[0]
    await _get(datasette, "/-/judges-static/0000000000000000/missing.css", status=404)


async def test_a_games_offline_pack_lists_every_page_of_the_game(datasette, fixture_db):
    """``/offline/<game>``: every rule of every version, every keyword, ruling, card and replay of the game, and the
    pages leading to them, each once, each a page the server answers; an estimated size per part; the page's form
    names each part. Another game's pages are not in it."""
    from rules_db.guard import read_only

    pack = (await _get(datasette, "/offline/riftbound.json")).json()
    urls = {part["id"]: part["urls"] for part in pack["parts"]}
    every = [url for part in pack["parts"] for url in part["urls"]]
    assert pack["cache"] == "judges-pack-riftbound"
    conn = read_only(fixture_db)
    try:
        count = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        rules = count(
            "select count(*) from rules r join documents d on d.id = r.document_id "
            "where d.game_id = 'riftbound' and d.kind = 'rules'"
        )
        assert len(urls["rules"]) + len(urls.get("older_rules", [])) == rules
        assert len(urls["rulings"]) == count("select count(*) from rulings where game_id = 'riftbound'")
        assert len(urls["cards"]) == count("select count(*) from cards where game_id = 'riftbound'")
        assert len(urls["replays"]) == count("select count(*) from replays") > 0
        newest = conn.execute(
            "select d.version, r.number from rules r join documents d on d.id = r.document_id "
            "where d.game_id = 'riftbound' and d.is_newest and d.kind = 'rules' limit 1"
        ).fetchone()
    finally:
        conn.close()
    assert f"/rules/riftbound/{newest[0]}/{newest[1]}" in urls["rules"]
    assert "/" in urls["leading"] and "/dispute" in urls["leading"] and "/offline/riftbound" in urls["leading"]
    assert len(set(every)) == len(every)
    assert "/keywords/riftbound/Tank" in urls["keywords"]  # as rulings link a keyword: the newest version's page
    for url in every:
        assert (await datasette.client.get(url)).status_code == 200, url
    chosen = [part for part in pack["parts"] if part["chosen"]]
    assert all(part["bytes"] > 0 for part in pack["parts"]) and pack["bytes"] == sum(p["bytes"] for p in chosen)
    assert pack["pages"] == sum(part["pages"] for part in chosen)
    # Every step of every replay is there to choose (large, so not chosen at first), followed from the first step.
    steps = next(part for part in pack["parts"] if part["id"] == "replay_steps")
    assert not steps["chosen"] and steps["follow"] == "a[rel=next]" and all("?step=1" in url for url in steps["urls"])
    html = (await _get(datasette, "/offline/riftbound")).text
    assert 'data-pack="/offline/riftbound.json"' in html and "offline.js" in html
    assert all(f'name="part" value="{part["id"]}"' in html for part in pack["parts"])
    assert 'href="/offline/riftbound"' in (await _get(datasette, "/")).text
    other = (await _get(datasette, "/offline/runeterra.json")).json()
    assert not set(every) & {url for part in other["parts"] for url in part["urls"] if url != "/"}
    await _get(datasette, "/offline/no-such-game", status=404)


async def test_the_offline_pack_counts_its_pages_and_measures_their_size(fixture_db, tmp_path, monkeypatch):
    """What the pack page says it will keep, part by part: every page its script keeps, a list's next pages
    included (here a comparison of two versions, one rule a page), and their size within 5%, against every page of the
    pack walked as static/offline.js walks it (the pager's next link followed)."""
    from rules_db.queries import diffs

    monkeypatch.setattr(diffs, "DIFF_PAGE_SIZE", 1)
    shutil.copy(fixture_db, tmp_path / "rules.db")  # a database file of its own: nothing kept from other tests
    datasette = in_process(tmp_path / "rules.db")
    pack = (await _get(datasette, "/offline/riftbound.json")).json()
    followed = 0
    for part in (part for part in pack["parts"] if part["chosen"]):
        queue, seen, sizes = list(part["urls"]), set(part["urls"]), []
        while queue:
            url = queue.pop()
            page = await _get(datasette, url)
            sizes.append(len(page.content))
            pager = re.search(r'<nav class="pages"[^>]*>((?:(?!</nav>).)*)</nav>', page.text, re.S)
            following = pager and re.search(r'<a rel="next" href="([^"]+)"', pager.group(1))
            if part["follow"] and following:
                found = urljoin(url, html.unescape(following.group(1))).partition("#")[0]
                if found not in seen:
                    seen.add(found)
                    queue.append(found)
                    followed += 1
        assert part["pages"] == len(sizes), part["id"]
        assert abs(part["bytes"] - sum(sizes)) <= 0.05 * sum(sizes), part["id"]
    assert followed > 0, "a comparison, one rule a page, has next pages"
    chosen = [part for part in pack["parts"] if part["chosen"]]
    assert pack["pages"] == sum(part["pages"] for part in chosen)
