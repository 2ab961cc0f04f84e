"""The judges' pages, through Datasette's own test client, on the small fixture database."""

from __future__ import annotations

import html as html_module
import re

import pytest
from servers import get_page, in_process


@pytest.fixture(scope="module")
def datasette(fixture_db):
    return in_process(fixture_db)


def _visible(html: str) -> str:
    """The page's text as a reader sees it: tags dropped, entities decoded, spaces collapsed."""
    return re.sub(r"\s+", " ", html_module.unescape(re.sub(r"<[^>]+>", " ", html)))


def _links(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


async def test_home_lists_every_document_version_with_counts(datasette):
    html = (await get_page(datasette, "/")).text
    assert "2025-06-02" in html and "2025-12-01" in html and "Legends of Runeterra" in html
    assert 'name="q"' in html
    assert "site-credit" not in html  # no ruling here is shared under a licence that asks for credit
    data = (await get_page(datasette, "/.json")).json()
    riftbound = next(game for game in data["games"] if game["id"] == "riftbound")
    counts = {doc["version"]: doc["rules"] for doc in riftbound["documents"] if doc["kind"] == "rules"}
    assert counts == {"2025-06-02": 9, "2025-12-01": 11, "2026-07-16": 2}
    assert riftbound["cards"] == 2 and riftbound["replays"] == 1


async def test_rule_page_links_references_keywords_and_shows_context(datasette):
    html = (await get_page(datasette, "/rules/riftbound/2025-12-01/443.1.e")).text
    assert '<a href="/rules/riftbound/2025-12-01/411" title="411 Recalls">411</a>' in html
    assert 'href="/keywords/riftbound/2025-12-01/Tank"' in html
    crumbs = html.split('class="crumbs"')[1].split("</p>")[0]
    assert [link for link in _links(crumbs) if link.startswith("/rules/riftbound")] == [
        "/rules/riftbound",  # the version's rule tree
        "/rules/riftbound/2025-12-01/443",
        "/rules/riftbound/2025-12-01/443.1",
    ]
    assert 'rel="prev" href="/rules/riftbound/2025-12-01/443.1.d"' in html
    assert 'rel="next" href="/rules/riftbound/2025-12-01/444"' in html
    assert 'href="/rulings/1"' in html and 'href="/rulings/2"' in html
    assert 'href="/replays/hourglass-saves-unit"' in html


async def test_rule_page_json_has_the_same_data(datasette):
    data = (await get_page(datasette, "/rules/riftbound/2025-12-01/443.1.e.json")).json()
    assert data["rule"]["number"] == "443.1.e"
    assert [row["number"] for row in data["breadcrumb"]] == ["443", "443.1"]
    assert data["previous"]["number"] == "443.1.d" and data["next"]["number"] == "444"
    assert [ref["number"] for ref in data["references"]] == ["411"]
    assert {ruling["id"] for ruling in data["rulings"]} == {1, 2}
    assert [replay["id"] for replay in data["replays"]] == ["hourglass-saves-unit"]
    same = (await get_page(datasette, "/rules/riftbound/2025-12-01/443.1.e?_format=json")).json()
    assert same == data


async def test_rule_without_version_means_newest(datasette):
    data = (await get_page(datasette, "/rules/riftbound/318.json")).json()
    assert data["document"]["version"] == "2025-12-01"
    assert [row["number"] for row in data["children"]] == ["318.1"]
    assert [row["number"] for row in data["referenced_by"]] == ["411.1"]
    old = (await get_page(datasette, "/rules/riftbound/2025-06-02/626.1.d.2.json")).json()
    assert old["document"]["is_newest"] == 0
    assert [(row["direction"], row["number"]) for row in old["lineage"]] == [("successor", "443.1.d")]
    removed = _visible((await get_page(datasette, "/rules/riftbound/2025-06-02/626.1.d.1")).text)
    assert "2025-12-01 removed (was 626.1.d.1)" in removed
    new = _visible((await get_page(datasette, "/rules/riftbound/741")).text)
    assert "History 2025-12-01 created 741" in new
    edited = (await get_page(datasette, "/rules/riftbound/318.1")).text
    assert "happens <del>after </del>each <ins>time an </ins>item" in edited


async def test_heading_rule_lists_keywords_defined_and_referrers(datasette):
    data = (await get_page(datasette, "/rules/riftbound/411.json")).json()
    assert [keyword["term"] for keyword in data["keywords_defined"]] == ["Recall"]
    assert [row["number"] for row in data["referenced_by"]] == ["443.1.e"]


@pytest.mark.parametrize("path", ["/no/such/page", "/{db}/rules?_sort=<i>nope</i>"])
async def test_an_address_that_names_nothing_answers_in_the_judges_look(datasette, fixture_db, path):
    """Datasette's own 404 ("Database not found") named its parts and left the judge no search box and no way home:
    the page says what was not found, escaped, with the search box, the way home and the address's words searched."""
    response = await datasette.client.get(path.format(db=fixture_db.stem))
    assert response.status_code in (400, 404)
    html = response.text
    assert 'class="judges-search"' in html and '<a href="/">home</a>' in html
    assert "<i>nope" not in html and "Database not found" not in html
    if path.startswith("/no/such"):
        assert "Nothing is at the address /no/such/page." in html and 'href="/search?q=no+such+page"' in html
    else:
        assert "&lt;i&gt;nope" in html
        assert "Not understood" in html and "/search?q=" not in html  # a bad request: its words are no search


@pytest.mark.parametrize("suffix", [".json", "?_format=json"])
async def test_an_error_answers_every_json_client_in_one_shape(datasette, suffix):
    """A program asking for JSON by the suffix or by ``?_format=json`` gets the same fields."""
    response = await datasette.client.get("/no/such/page" + suffix)
    answer = response.json()
    assert response.status_code == 404 and answer["status"] == 404 and answer["ok"] is False
    assert set(answer) == {"ok", "error", "status", "title"}
    assert answer["error"].startswith("Nothing is at the address /no/such/page")


async def test_unknown_rule_is_404_with_nearest_rules_and_other_versions(datasette):
    renumbered = (await get_page(datasette, "/rules/riftbound/626.1.d.2.json", status=404)).json()
    assert [(row["number"], row["other_version"]) for row in renumbered["renumbered"]] == [("443.1.d", "2025-06-02")]
    response = await get_page(datasette, "/rules/riftbound/626.1.d", status=404)
    assert 'href="/rules/riftbound/2025-06-02/626.1.d"' in response.text  # the version that has it
    assert "Nearest rules" in response.text
    data = (await get_page(datasette, "/rules/riftbound/443.1.z.json", status=404)).json()
    nearest = [row["number"] for row in data["nearest"]]
    assert nearest[0] == "443.1" and "443.1.e" in nearest
    assert data["elsewhere"] == []
    await get_page(datasette, "/rules/no-such-game/1", status=404)
    await get_page(datasette, "/rules/riftbound/1999-01-01/443", status=404)


async def test_keyword_page_defining_rule_mentions_and_rulings(datasette):
    html = (await get_page(datasette, "/keywords/riftbound/recall")).text
    assert 'href="/rules/riftbound/2025-12-01/411"' in html
    assert 'href="/rules/riftbound/2025-12-01/411.1"' in html and "recalled" in html
    assert 'href="/rulings/1"' in html
    data = (await get_page(datasette, "/keywords/riftbound/Recall.json")).json()
    assert data["keyword"]["version"] == "2025-12-01"
    assert [row["number"] for row in data["rules"]] == ["411.1"]
    assert [row["version"] for row in data["other_versions"]] == ["2025-06-02"]
    old = (await get_page(datasette, "/keywords/riftbound/2025-06-02/Recall.json")).json()
    assert [row["number"] for row in old["rules"]] == ["616.1"]
    tank = (await get_page(datasette, "/keywords/riftbound/Tank.json")).json()
    assert [card["slug"] for card in tank["cards"]] == ["garen-rugged"]
    await get_page(datasette, "/keywords/riftbound/Nonsense", status=404)


async def test_keyword_replays_page_lists_the_replays_citing_the_keyword_and_says_if_the_engine_plays_it(datasette):
    keyword_page = (await get_page(datasette, "/keywords/riftbound/Recall")).text
    assert 'href="/keyword-replays/riftbound/Recall"' in keyword_page
    html = (await get_page(datasette, "/keyword-replays/riftbound/recall")).text
    assert 'href="/replays/hourglass-saves-unit"' in html and 'href="/rules/riftbound/2025-12-01/411.1"' in html
    assert "does not play Recall" in _visible(html) and 'href="/keywords/riftbound/Recall"' in html
    data = (await get_page(datasette, "/keyword-replays/riftbound/Recall.json")).json()
    assert data["term"] == "Recall" and data["engine"] is None
    assert [row["version"] for row in data["versions"]] == ["2025-12-01", "2025-06-02"]
    assert [(replay["id"], [row["number"] for row in replay["cited"]]) for replay in data["replays"]] == [
        ("hourglass-saves-unit", ["411.1"])
    ]
    tank = (await get_page(datasette, "/keyword-replays/riftbound/Tank.json")).json()
    assert tank["engine"] == {"name": "Tank", "rule": "815", "valued": False} and tank["replays"] == []
    backline = (await get_page(datasette, "/keyword-replays/riftbound/Backline.json")).json()  # the engine's only
    assert backline["engine"]["rule"] == "826" and backline["versions"] == []
    missing = (await get_page(datasette, "/keyword-replays/riftbound/%3Cb%3ENonsense", status=404)).text
    assert "<b>Nonsense" not in missing and "&lt;b&gt;Nonsense" in missing


async def test_ruling_page_sequence_citations_stale_and_related(datasette):
    html = (await get_page(datasette, "/rulings/1")).text
    assert "If Guardian Angel is chosen" in html
    assert 'href="/rules/riftbound/2025-12-01/443.1.e"' in html
    assert 'href="/cards/zhonyas-hourglass"' in html
    assert 'stale: cites <time datetime="2025-06-02">2025-06-02</time>' in html
    assert 'href="/rulings/2"' in html  # shares the citation of 443.1.e
    data = (await get_page(datasette, "/rulings/1.json")).json()
    assert [group["branch"] for group in data["sequence"]] == [None, "If Guardian Angel is chosen"]
    assert [len(group["steps"]) for group in data["sequence"]] == [2, 1]
    stale = {citation["cited_number"]: citation["stale"] for citation in data["citations"]}
    assert stale == {"443.1.e": False, "444": False, "626.1.d.2": True}
    old = next(citation for citation in data["citations"] if citation["stale"])
    assert [row["number"] for row in old["equivalents"]] == ["443.1.d"]
    assert [card["name"] for card in data["cards"]] == ["Zhonya's Hourglass"]
    assert [related["id"] for related in data["related"]] == [2]
    assert [replay["id"] for replay in data["replays"]] == ["hourglass-saves-unit"]
    missing = (await get_page(datasette, "/rulings/999", status=404)).text
    assert '<a href="/rulings">Every ruling</a>' in missing  # somewhere to go on from a dead link


async def test_card_page_errata_diff_keywords_and_rulings(datasette):
    html = (await get_page(datasette, "/cards/zhonyas-hourglass")).text
    assert "<del>Recall </del><ins>Heal </ins>that <del>unit.</del><ins>unit and recall it.</ins>" in html
    text = html.split('class="card-text">')[1]
    assert text.startswith("When a friendly unit would die, kill this instead. Heal that unit and recall it.")
    assert 'href="/rulings/1"' in html and 'href="/replays/hourglass-saves-unit"' in html
    assert "javascript:" not in html  # the fixture's image link is not a web address
    garen = (await get_page(datasette, "/cards/garen-rugged")).text
    assert '<a href="/keywords/riftbound/2025-12-01/Tank" title="Tank">[Tank]</a>' in garen
    data = (await get_page(datasette, "/cards/zhonyas-hourglass.json")).json()
    assert {op["op"] for op in data["errata"][0]["diff"]} == {"equal", "delete", "insert"}
    assert data["aliases"] == ["Hourglass", "Zhonyas"]
    await get_page(datasette, "/cards/no-such-card", status=404)


async def test_replay_page_nests_steps_and_links_citations(datasette):
    html = (await get_page(datasette, "/replays/hourglass-saves-unit")).text
    assert 'href="/rules/riftbound/2025-12-01/443.1.e"' in html and "match" in html
    data = (await get_page(datasette, "/replays/hourglass-saves-unit.json")).json()
    assert [step["summary"] for step in data["steps"]] == [
        "Combat damage step",
        "Hourglass replaces the death; unit is recalled",
    ]
    child = data["steps"][0]["children"][0]
    assert child["citations"][0]["number"] == "443.1.e"
    missing = (await get_page(datasette, "/replays/nope", status=404)).text
    assert '<a href="/replays">Every replay</a>' in missing


async def test_hostile_rule_text_is_inert(datasette):
    html = (await get_page(datasette, "/rules/riftbound/050")).text
    text = html.split('class="rule-text">')[1].split("</div>")[0]
    assert "<script" not in text and "onerror" not in text and "onclick" not in text and "javascript:" not in text
    assert "<svg" not in text and "<iframe" not in text and "<style" not in text
    assert "<b>bold</b>" in text and "<i>italic</i>" in text and "&lt;script&gt;" in text
    assert "javascript:" not in html and "__pwned" not in html


async def test_datasette_search_box_facets_and_canned_queries(datasette):
    table = (await get_page(datasette, "/rules/rules.json?_search=recalled&_shape=objects")).json()
    assert {row["number"] for row in table["rows"]} >= {"411.1", "5.2"}
    faceted = (await get_page(datasette, "/rules/rules.json?_facet=game_id")).json()
    assert {item["value"] for item in faceted["facet_results"]["game_id"]["results"]} == {"riftbound", "runeterra"}
    citing = (await get_page(datasette, "/rules/rulings_citing_rule.json?number=443.1&_shape=objects")).json()
    assert {row["ruling_id"] for row in citing["rows"]} == {1, 2}
    mentioning = (await get_page(datasette, "/rules/rules_mentioning_keyword.json?term=recall&_shape=objects")).json()
    assert {(row["game"], row["number"]) for row in mentioning["rows"]} == {
        ("riftbound", "411.1"),
        ("riftbound", "616.1"),
        ("runeterra", "5.2"),
    }
    dangling = (await get_page(datasette, "/rules/dangling_references.json?_shape=objects")).json()
    assert [row["target_number"] for row in dangling["rows"]] == ["999"]
    stale = (await get_page(datasette, "/rules/stale_citations.json?_shape=objects")).json()
    assert [(row["source"], row["number"]) for row in stale["rows"]] == [("ruling", "626.1.d.2")]


async def test_datasette_row_pages_are_not_taken_by_rule_routes(datasette):
    data = (await get_page(datasette, "/rules/rules/28.json?_shape=objects")).json()
    assert data["rows"][0]["number"] == "443.1.e"


async def test_a_judges_page_shows_datasettes_menu_to_an_actor_who_has_one(fixture_db):
    """The judges' templates are rendered at once (``web._RenderedAtOnce``): Datasette's menu links, which it
    computes asynchronously, are still there for an actor allowed to see them, and absent for anyone else."""
    datasette = in_process(fixture_db)
    datasette.root_enabled = True
    anonymous = (await get_page(datasette, "/")).text
    root = await datasette.client.get("/", cookies={"ds_actor": datasette.sign({"a": {"id": "root"}}, "actor")})
    assert root.status_code == 200
    assert "Debug permissions" in root.text and 'class="nav-menu"' in root.text
    assert "Debug permissions" not in anonymous and 'class="nav-menu"' not in anonymous
