"""Citations that survive renumbering, the diff page and scenarios per card, on the real database."""

from __future__ import annotations

import html as html_module
import math
import re
import sqlite3
from urllib.parse import parse_qs, urlsplit

import pytest
from servers import in_process

from rules_db.queries import DIFF_PAGE_SIZE


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:500])
    return response


def _visible(html: str) -> str:
    """The page's text as a reader sees it: tags dropped (an element inside a line, a date's or a link's, with no
    space for it), entities decoded, spaces collapsed."""
    inline = re.sub(r"</?(?:a|span|time|b|i|em|strong|mark|sup)\b[^>]*>", "", html)
    return re.sub(r"\s+", " ", html_module.unescape(re.sub(r"<[^>]+>", " ", inline)))


def _ruling_citing(real_connection, number: str, version: str) -> int:
    return real_connection.execute(
        """select c.ruling_id from ruling_citations c join rules r on r.id = c.rule_id
        join documents d on d.id = r.document_id where r.number = ? and d.version = ? order by c.ruling_id""",
        [number, version],
    ).fetchone()[0]


async def test_a_stale_ruling_citation_shows_its_equivalent_in_the_newest_version(datasette, real_connection):
    """A citation of the 2025-12-01 rules says what each rule is in the newest version (2026-06-18), not in the
    other older one (2025-06-02)."""
    ruling_id = _ruling_citing(real_connection, "443.1.e", "2025-12-01")
    assert ruling_id == _ruling_citing(real_connection, "444", "2025-12-01")
    data = (await _get(datasette, f"/rulings/{ruling_id}.json")).json()
    equivalents = {
        citation["number"]: [(other["version"], other["number"], other["kind"]) for other in citation["equivalents"]]
        for citation in data["citations"]
        if citation["id"] is not None
    }
    assert equivalents["443.1.e"] == [("2026-06-18", "465.2.d", "moved")]
    assert [(version, number) for version, number, _kind in equivalents["444"]] == [("2026-06-18", "466")]
    text = _visible((await _get(datasette, f"/rulings/{ruling_id}")).text)
    assert re.search(r"443\.1\.e \(2025-12-01\) is 465\.2\.d .*?in 2026-06-18", text)
    assert re.search(r"444 \(2025-12-01\) is 466 .*?in 2026-06-18", text)
    html = (await _get(datasette, f"/rulings/{ruling_id}")).text
    assert 'href="/rules/riftbound/2026-06-18/465.2.d"' in html
    assert (
        'href="/rules/riftbound/2025-06-02/626.1"' not in html and 'href="/rules/riftbound/2025-06-02/627"' not in html
    )


@pytest.fixture
def fixture_with_an_old_replay_citation(fixture_db, tmp_path):
    """The fixture database with one replay step citing 518, the 2025-06-02 number of Cleanups (318 now)."""
    path = tmp_path / "rules.db"
    path.write_bytes(fixture_db.read_bytes())
    with sqlite3.connect(path) as connection:
        connection.execute("insert into replay_step_citations (step_id, rule_id, number) values (3, 1, '518')")
    connection.close()
    return in_process(path)


async def test_replay_citations_show_their_version_and_note_an_old_one(fixture_with_an_old_replay_citation):
    datasette = fixture_with_an_old_replay_citation
    data = (await _get(datasette, "/replays/hourglass-saves-unit.json")).json()
    citations = {
        c["cited_number"]: c for step in data["steps"] for s in [step, *step["children"]] for c in s["citations"]
    }
    assert citations["518"]["stale"] and [other["number"] for other in citations["518"]["in_newest"]] == ["318"]
    assert not citations["443.1.e"]["stale"] and citations["443.1.e"]["in_newest"] == []
    html = (await _get(datasette, "/replays/hourglass-saves-unit")).text
    text = _visible(html)
    assert "443.1.e (2025-12-01)" in text
    assert "518 (2025-06-02) cites the 2025-06-02 rules; in 2025-12-01 this is 318" in text
    assert 'href="/rules/riftbound/2025-12-01/318"' in html
    assert text.count("cites the 2025-06-02 rules") == 1


async def test_references_in_an_old_rule_note_the_newest_number(datasette, real_connection):
    referring = real_connection.execute("""select r.number from rule_refs x join rules r on r.id = x.from_rule_id
        join rules t on t.id = x.to_rule_id join documents d on d.id = r.document_id
        where d.version = '2025-06-02' and t.number = '518' order by r.position""").fetchone()[0]
    data = (await _get(datasette, f"/rules/riftbound/2025-06-02/{referring}.json")).json()
    cleanups = [ref for ref in data["references"] if ref["number"] == "518"][0]
    assert cleanups["stale"] and [other["number"] for other in cleanups["in_newest"]] == ["318"]
    text = _visible((await _get(datasette, f"/rules/riftbound/2025-06-02/{referring}")).text)
    assert "cites the 2025-06-02 rules; in 2026-06-18 this is 318" in text
    newest = (await _get(datasette, "/rules/riftbound/2026-06-18/318.json")).json()
    assert newest["referenced_by"] and not any(row["stale"] for row in newest["referenced_by"])


DIFF = "/diff/riftbound/2025-06-02/2025-12-01"


async def _every_row(datasette, query: str) -> list[dict]:
    """The rows of every page of a diff page's JSON."""
    first = (await _get(datasette, DIFF + ".json?" + query)).json()
    rows = first["rows"]
    for page in range(2, first["pages"] + 1):
        rows += (await _get(datasette, DIFF + f".json?{query}&page={page}")).json()["rows"]
    assert len(rows) == first["total"]
    past_the_end = (await _get(datasette, DIFF + f".json?{query}&page={first['pages'] + 1}")).json()
    assert past_the_end["page"] == first["pages"], "a page past the end is the last page"
    assert past_the_end["rows"] == rows[(first["pages"] - 1) * DIFF_PAGE_SIZE :]
    return rows


async def test_a_sections_changed_count_is_the_sum_of_the_kinds_it_lists_as_changed(datasette):
    """ "353 The Process of Play: 73 changed" was followed by "75 moved, 34 edited, 4 removed, 35 new": the moved
    rules (same text) are not among the changed, so they are said apart, after the kinds that add up to it."""
    page = (await _get(datasette, DIFF + "?page=2")).text
    sections = page.split('class="links diff-sections"', 1)[1].split("</ol>", 1)[0]
    lines = [_visible(item) for item in sections.split("<li>")[1:]]
    assert lines
    for line in lines:
        changed = int(re.search(r": (\d+) changed", line).group(1))
        listed = line.split(" changed", 1)[1].split("; numbered", 1)[0]
        kinds, _, same = listed.partition("; the same text: ")
        assert sum(int(n) for n in re.findall(r"(\d+) \w+", kinds)) == changed, line
        assert set(re.findall(r"\d+ (\w+)", same)) <= {"moved", "unchanged"}, line


async def test_diff_page_counts_sections_and_linked_rows(datasette, real_connection):
    data = (await _get(datasette, DIFF + ".json")).json()
    stored = dict(
        real_connection.execute("""select l.kind, count(*) from rule_lineage l
        where l.from_document_id = 'riftbound-core-rules-2025-06-02'
          and l.to_document_id = 'riftbound-core-rules-2025-12-01' group by l.kind""").fetchall()
    )
    assert {kind: count for kind, count in data["counts"].items() if count} == stored
    changed = sum(count for kind, count in stored.items() if kind != "unchanged")
    # One page at a time, rules only renumbered (moved with the same text) left out unless asked.
    assert len(data["rows"]) == min(DIFF_PAGE_SIZE, data["total"]) and data["pages"] > 1
    assert data["total"] + data["renumbered_only"] == changed and data["renumbered_only"] > 0
    every = await _every_row(datasette, "renumbered=1")
    assert len(every) == changed and {row["kind"] for row in every} <= set(stored) - {"unchanged"}
    shown = await _every_row(datasette, "")
    assert shown == [row for row in every if not (row["kind"] == "moved" and row["old_text"] == row["new_text"])]
    assert data["sections"] and data["sections"][0]["changed"] >= data["sections"][-1]["changed"]
    cleanups = [row for row in every if row["old"] == "518"]
    assert [row["new"] for row in cleanups] == ["318"]
    html = (await _get(datasette, DIFF)).text
    for row in data["rows"]:
        if row["old"]:
            assert f'href="/rules/riftbound/2025-06-02/{row["old"]}"' in html
        if row["new"]:
            assert f'href="/rules/riftbound/2025-12-01/{row["new"]}"' in html
    assert f'href="{DIFF}?page=2"' in html and f'href="{DIFF}?renumbered=1"' in html
    edited = [row for row in shown if row["kind"] == "edited" and row["diff"]]
    assert edited and "<ins>" in html and "<del>" in html
    for row in (row for row in data["rows"] if row["kind"] == "edited"):
        # said in words, not a bare 0.92; rounded down: a rule whose text changed is never "100% alike"
        assert f"{min(math.floor(row['similarity'] * 100), 99)}% alike" in html
    assert "100% alike" not in html
    renumbered = (await _get(datasette, f"{DIFF}?renumbered=1&kind=moved")).text
    assert "100% alike" in renumbered  # a rule moved with its text unchanged is
    old_text = "".join(piece["text"] for piece in edited[0]["diff"] if piece["op"] != "insert")
    new_text = "".join(piece["text"] for piece in edited[0]["diff"] if piece["op"] != "delete")
    assert (old_text, new_text) == (edited[0]["old_text"], edited[0]["new_text"])


@pytest.mark.parametrize(
    "path", [DIFF, "/rules/riftbound/2025-12-01/443.1.e", "/infractions/riftbound", "/cards/zhonyas-hourglass"]
)
async def test_a_pages_breadcrumb_names_the_game_as_the_home_page_does(datasette, real_connection, path):
    """The breadcrumb's game is the game's name ("Riftbound"), on the comparison page as on the others."""
    name = real_connection.execute("select name from games where id = 'riftbound'").fetchone()[0]
    crumbs = (await _get(datasette, path)).text.split('class="crumbs"', 1)[1].split("</p>", 1)[0]
    assert re.search(r'<a href="/#riftbound">([^<]*)</a>', crumbs).group(1) == name


async def test_a_comparison_that_does_not_exist_offers_those_that_do(datasette, real_connection):
    """A comparison of versions the game does not have names the game as a judge knows it and links to each
    comparison there is, every one of which answers."""
    response = await _get(datasette, "/diff/riftbound/2025-12-01/2030-01-01", status=404)
    pairs = real_connection.execute("select count(*) from rule_lineage_pairs").fetchone()[0]
    links = re.findall(r'<li><a href="(/diff/riftbound/[^"]+)">', response.text)
    assert "Riftbound has no rules versions" in response.text and len(links) == pairs > 0
    for link in links:
        await _get(datasette, link)


async def test_diff_page_filters_by_kind_and_section(datasette):
    edited = (await _get(datasette, DIFF + ".json?kind=edited")).json()["rows"]
    assert edited and {row["kind"] for row in edited} == {"edited"}
    in_cleanups = (await _get(datasette, DIFF + ".json?kind=edited&section=318")).json()["rows"]
    assert in_cleanups and {row["section"] for row in in_cleanups} == {"318"}
    assert [row for row in edited if row["section"] == "318"] == in_cleanups
    new_in_cleanups = (await _get(datasette, DIFF + ".json?kind=new&section=318")).json()["rows"]
    assert new_in_cleanups and all(row["old"] is None for row in new_in_cleanups)
    html = (await _get(datasette, DIFF + "?kind=edited&section=318")).text
    assert html.count('<tr class="diff-edited">') == len(in_cleanups) and 'class="diff-new"' not in html
    await _get(datasette, "/diff/riftbound/2025-06-02/1999-01-01", status=404)


async def test_home_and_rule_pages_link_to_the_diff(datasette):
    """The home page links the whole comparison; a rule's history links each change to the comparison narrowed to
    that rule, which lists the rule's own row (its number before or after the change)."""
    assert f'href="{DIFF}"' in (await _get(datasette, "/")).text
    for rule in ("/rules/riftbound/2025-12-01/318", "/rules/riftbound/2025-06-02/518"):
        html = (await _get(datasette, rule)).text
        links = [html_module.unescape(link) for link in re.findall(r'class="diff-link" href="([^"]+)"', html)]
        assert any(link.startswith(DIFF + "?") for link in links), (rule, links)
        for link in links:
            number = parse_qs(urlsplit(link).query)["rule"][0]
            rows = (await _get(datasette, link.replace("?", ".json?", 1))).json()["rows"]
            assert any(number in (row["old"], row["new"]) for row in rows), (link, rows)


async def test_the_diff_narrows_to_a_rule_and_its_sub_rules(datasette):
    """``?rule=`` keeps the rows whose rule, in either version, is that rule or one of its sub-rules; a section and a
    rule narrow together; the page's box names them and submits without script (a GET form)."""
    whole = (await _get(datasette, DIFF + ".json?renumbered=1")).json()
    narrowed = (await _get(datasette, DIFF + ".json?rule=318&renumbered=1")).json()
    inside = lambda number: number is not None and (number == "318" or number.startswith("318."))  # noqa: E731
    assert narrowed["total"] == len(narrowed["rows"]) > 0 and narrowed["total"] < whole["total"]
    assert all(inside(row["old"]) or inside(row["new"]) for row in narrowed["rows"])
    typed = (await _get(datasette, DIFF + ".json?rule=Rule+318.&renumbered=1")).json()
    assert typed["rows"] == narrowed["rows"]
    nowhere = (await _get(datasette, DIFF + ".json?rule=318&section=999")).json()
    assert nowhere["total"] == 0 and nowhere["rows"] == []
    html = (await _get(datasette, DIFF + "?rule=318")).text
    form = html.split('<form class="diff-narrow"')[1].split("</form>")[0]
    assert 'method="get"' in form and 'name="rule" value="318"' in form and 'name="section"' in form
    assert "rule 318 and its sub-rules" in html
    await _get(datasette, DIFF + "?rule=" + "9" * 100, status=400)


async def test_a_reused_number_names_the_rule_that_had_it(datasette, real_connection):
    """A number a version gave to a new rule, that another rule had in the version before: the new rule's history
    says so and links to the old rule's number in that version (from the stored lineage)."""
    reused = real_connection.execute(
        """select d.version, n.number, s.number, sd.version from rule_lineage created
        join rules n on n.id = created.to_rule_id join documents d on d.id = n.document_id
        join rules o on o.document_id = created.from_document_id and o.number = n.number
        join rule_lineage moved on moved.from_rule_id = o.id and moved.to_document_id = d.id
        join rules s on s.id = moved.to_rule_id join documents sd on sd.id = s.document_id
        where created.kind = 'new' and d.game_id = 'riftbound' and d.rulebook_id = 'riftbound-core'
        order by d.version desc, n.position limit 3"""
    ).fetchall()
    assert reused, "the real rulebooks reuse numbers (1.4 gave 336 to a new rule)"
    for version, number, now, now_version in reused:
        page = (await _get(datasette, f"/rules/riftbound/{version}/{number}.json")).json()
        assert page["history"][0]["reused"]["number"] == number
        assert now in [rule["number"] for rule in page["history"][0]["reused"]["now"]]
        html = (await _get(datasette, f"/rules/riftbound/{version}/{number}")).text
        note = html.split('<p class="reused">')[1].split("</p>")[0]
        assert f'href="/rules/riftbound/{now_version}/{now}"' in note and f"Number {number} was another rule" in note
    free = real_connection.execute(
        """select d.version, n.number from rule_lineage created join rules n on n.id = created.to_rule_id
        join documents d on d.id = n.document_id where created.kind = 'new' and d.rulebook_id = 'riftbound-core'
        and not exists (select 1 from rules o where o.document_id = created.from_document_id and o.number = n.number)
        limit 1"""
    ).fetchone()
    page = (await _get(datasette, f"/rules/riftbound/{free[0]}/{free[1]}.json")).json()
    assert page["history"][0]["event"] == "created" and page["history"][0]["reused"] is None


async def test_card_page_lists_every_scenario_that_puts_the_card_in_play(datasette, real_connection):
    files = dict(real_connection.execute("select scenario, id from replays").fetchall())
    uses_hourglass = {
        replay_id
        for scenario, replay_id in files.items()
        if re.search(r"""card:\s*["']?Zhonya's Hourglass["']?\s*[,}\n]""", scenario)
    }
    assert len(uses_hourglass) >= 3
    data = (await _get(datasette, "/cards/zhonyas-hourglass.json")).json()
    assert {replay["id"] for replay in data["replays"]} == uses_hourglass
    html = (await _get(datasette, "/cards/zhonyas-hourglass")).text
    scenarios = html.split('class="card-replays"')[1].split("</section>")[0]
    assert all(f'href="/replays/{replay_id}"' in scenarios for replay_id in uses_hourglass)


def test_replay_cards_are_real_cards_modelled_in_the_library(real_connection):
    from scenarios.cards import load_library

    modelled = {card.real for card in load_library().values() if card.real}
    used = {
        name
        for (name,) in real_connection.execute(
            "select distinct c.name from replay_cards rc join cards c on c.id = rc.card_id"
        )
    }
    assert used and used <= modelled
    every_replay = real_connection.execute("select count(*) from replays").fetchone()[0]
    with_cards = real_connection.execute("select count(distinct replay_id) from replay_cards").fetchone()[0]
    assert with_cards > every_replay / 2


@pytest.mark.parametrize("query", ["", "?kind=edited", "?renumbered=1", "?kind=moved&renumbered=1"])
async def test_the_diff_pages_notes_are_parts_the_style_sheet_separates(datasette, query):
    """What the rows leave out is said in parts, the dots between them drawn by the style sheet: a filtered page
    with nothing only renumbered read "Every changed rule · ." with a dot for each part not shown."""
    html = (await _get(datasette, DIFF + query)).text
    notes = re.search(r'</h2>\n<p class="note">((?:<span class="part">.*?</span>)+)</p>', html)
    assert notes is not None and "·" not in notes.group(1)
