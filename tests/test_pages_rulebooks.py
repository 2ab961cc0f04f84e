"""The rules in force on the real database: Core Rules v1.4, the Tournament Rules and the Riftbound FAQ
rulings, with attribution, version notes, per-rule history and the diff of any two versions."""

from __future__ import annotations

import html as html_module
import re
from urllib.parse import urlencode

from rules_db import versions

FAQ = "riftboundfaq-rulings"
QA = "riftbound-qa-rulings"


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:500])
    return response


def _visible(html: str) -> str:
    return re.sub(r"\s+", " ", html_module.unescape(re.sub(r"<[^>]+>", " ", html)))


def test_each_rulebook_has_its_newest_version(real_connection):
    assert versions.rules_document(real_connection, "riftbound")["id"] == "riftbound-core-rules-2026-06-18"
    assert versions.rules_document(real_connection, "riftbound", "1.4")["version"] == "2026-06-18"
    tournament = versions.rules_document(real_connection, "riftbound", slug="tournament")
    assert tournament["id"] == "riftbound-tournament-rules-2026-07-16" and tournament["is_newest"] == 1
    chain = [
        (row[0], row[1])
        for row in real_connection.execute(
            "select id, previous_id from documents where rulebook_id = 'riftbound-core' order by version_date"
        )
    ]
    assert chain == [
        ("riftbound-core-rules-2025-06-02", None),
        ("riftbound-core-rules-2025-12-01", "riftbound-core-rules-2025-06-02"),
        ("riftbound-core-rules-2026-06-18", "riftbound-core-rules-2025-12-01"),
    ]
    pairs = set(real_connection.execute("select distinct from_document_id, to_document_id from rule_lineage"))
    assert pairs == {(older, newer) for newer, older in chain if older}  # no lineage into the Tournament Rules


def test_every_riftboundfaq_question_is_a_ruling(real_connection):
    rows = real_connection.execute(
        "select count(*), count(distinct page || '#' || anchor), sum(parent_ruling_id is not null) from rulings "
        "where document_id = ?",
        [FAQ],
    ).fetchone()
    assert rows == (175, 175, 16)
    categories = dict(
        real_connection.execute("select category, count(*) from rulings where document_id = ? group by category", [FAQ])
    )
    assert categories == {"card": 125, "general rules": 27, "mechanics": 23}


def test_what_the_faq_writes_about_itself_is_its_notes_not_rulings(real_connection):
    notes = real_connection.execute(
        "select title, url from source_notes where document_id = ? order by position", [FAQ]
    )
    assert [title for title, _ in notes] == [
        "Using this FAQ",
        "About rule references",
        "Feedback and corrections",
        "Legal",
    ]
    for table, column in (("rulings", "question"), ("search_documents", "title")):
        assert not real_connection.execute(
            f"select 1 from {table} where {column} in ('Legal', 'Using this FAQ')"
        ).fetchall()


async def test_the_faqs_notes_are_shown_with_its_credit_where_its_rulings_are(datasette, real_connection):
    (ruling_id,) = real_connection.execute("select min(id) from rulings where document_id = ?", [FAQ]).fetchone()
    for path in (f"/rulings/{ruling_id}", "/rulings?document=" + FAQ):
        html = (await _get(datasette, path)).text
        notes = html.split('class="credit note source-notes"', 1)[1].split("</details>", 1)[0]
        assert ">Legal</a>" in notes and 'href="https://www.riftboundfaq.com/#legal"' in notes
        assert "not affiliated with, endorsed by, or sponsored by Riot Games" in _visible(notes)
        assert "<h" not in notes  # at the foot of every page: no headings in the page's outline
        assert 'href="https://creativecommons.org/licenses/by-sa/4.0/"' in html
    listed = (await _get(datasette, "/rulings?" + urlencode({"document": FAQ, "category": "about"}))).text
    assert "0 rulings" in _visible(listed)
    searched = (await _get(datasette, "/search.json?" + urlencode({"q": "Legal Jibber Jabber policy"}))).json()
    assert not any("Jibber" in (hit.get("snippet") or "") for hit in searched.get("results", []))


def test_riftboundfaq_citations_resolve_in_the_version_they_were_reviewed_against(real_connection):
    total, resolved, in_1_4 = real_connection.execute(
        """select count(*), sum(c.rule_id is not null), sum(d.version_label = '1.4') from ruling_citations c
        join rulings g on g.id = c.ruling_id left join documents d on d.id = c.document_id
        where g.document_id = ? and c.how = 'explicit'""",
        [FAQ],
    ).fetchone()
    assert total == 805 and in_1_4 == total
    assert resolved >= 0.99 * total


def test_riftboundfaq_relations_and_cards(real_connection):
    related = real_connection.execute(
        """select g.anchor, o.page from ruling_relations x join rulings g on g.id = x.ruling_id
        join rulings o on o.id = x.related_ruling_id where g.page = 'general-rules/movement'"""
    ).fetchall()
    assert ("entering-board", "cards/baron-nashor") in related and ("chosen-destination", "cards/flash") in related
    named = {
        row[0]
        for row in real_connection.execute(
            """select c.name from card_mentions m join cards c on c.id = m.card_id join rulings g on g.id = m.ruling_id
            where g.page = 'cards/azir-sovereign'"""
        )
    }
    assert {"Azir, Sovereign", "Hidden Blade", "Overzealous Fan"} <= named
    unlisted = real_connection.execute(
        """select count(distinct c.id) from card_mentions m join cards c on c.id = m.card_id
        join rulings g on g.id = m.ruling_id where g.document_id = ? and c.in_card_list = 0""",
        [FAQ],
    ).fetchone()[0]
    # Every card the FAQ tags is in the card lists since the gallery of all five sets came (a card of a set to come
    # would be kept and listed: tests/test_pages_real.py adds one).
    assert unlisted == 0


async def test_every_riftboundfaq_ruling_page_credits_its_source(datasette, real_connection):
    rulings = real_connection.execute(
        "select id, url, author, created_at from rulings where document_id = ? order by position", [FAQ]
    ).fetchall()
    for ruling_id, url, author, created_at in rulings:
        assert url.startswith("https://www.riftboundfaq.com/") and "#" in url
        html = (await _get(datasette, f"/rulings/{ruling_id}")).text
        assert f'href="{html_module.escape(url)}"' in html
        assert 'href="https://creativecommons.org/licenses/by-sa/4.0/"' in html and "CC BY-SA 4.0" in html
        text = _visible(html)
        if author:
            assert f"by {author}" in text
        if created_at:
            assert created_at in text


async def test_a_riftboundfaq_ruling_links_its_citations_into_1_4(datasette, real_connection):
    ruling_id = real_connection.execute(
        "select id from rulings where page = 'general-rules/movement' and anchor = 'chosen-destination'"
    ).fetchone()[0]
    html = (await _get(datasette, f"/rulings/{ruling_id}")).text
    assert 'href="/rules/riftbound/2026-06-18/355.4"' in html and 'href="/rules/riftbound/2026-06-18/055"' in html
    assert "the newest rules" in _visible(html)
    url = "https://www.riftboundfaq.com/general-rules/movement#chosen-destination"
    assert (await _get(datasette, f"/rulings/{ruling_id}.json")).json()["ruling"]["url"] == url


async def test_the_original_rulings_show_the_1_4_equivalent_of_every_citation(datasette, real_connection):
    for (ruling_id,) in real_connection.execute("select id from rulings where document_id = ? order by position", [QA]):
        data = (await _get(datasette, f"/rulings/{ruling_id}.json")).json()
        text = _visible((await _get(datasette, f"/rulings/{ruling_id}")).text)
        assert "not the newest rules: the newest are 2026-06-18 (1.4)" in text
        for citation in data["citations"]:
            if citation["id"] is None:
                continue
            in_1_4 = [other for other in citation["equivalents"] if other["version"] == "2026-06-18"]
            assert in_1_4, (ruling_id, citation["number"])
            assert f"is {in_1_4[0]['number']}" in text


async def test_a_rule_page_shows_the_rules_whole_history(datasette):
    data = (await _get(datasette, "/rules/riftbound/2025-12-01/443.1.e.json")).json()
    assert [(event["version"], event["event"], event["number"]) for event in data["history"]] == [
        ("2025-12-01", "created", "443.1.e"),
        ("2026-06-18", "moved", "465.2.d"),
    ]
    data = (await _get(datasette, "/rules/riftbound/2025-06-02/518.json")).json()
    assert [(event["version"], event["event"], event["number"]) for event in data["history"]] == [
        ("2025-06-02", "first version", "518"),
        ("2025-12-01", "moved", "318"),
        ("2026-06-18", "unchanged", "318"),
    ]
    assert [row["number"] for row in data["in_newest"]] == ["318"]
    text = _visible((await _get(datasette, "/rules/riftbound/2025-06-02/518")).text)
    assert "History" in text and "moved from 518 to 318" in text and "in 2026-06-18 this is 318" in text


async def test_the_diff_page_works_for_any_pair(datasette, real_connection):
    data = (
        await _get(datasette, "/diff/riftbound/2025-06-02/2026-06-18.json?kind=moved&renumbered=1&section=318")
    ).json()
    assert data["old"]["version"] == "2025-06-02" and data["new"]["version"] == "2026-06-18"
    assert ("518", "318") in {(row["old"], row["new"]) for row in data["rows"]}
    assert data["old_rules_accounted"] == 1.0
    labelled = (await _get(datasette, "/diff/riftbound/2025-12-01/1.4.json")).json()
    assert labelled["new"]["document_id"] == "riftbound-core-rules-2026-06-18"
    await _get(datasette, "/diff/riftbound/tournament/2026-07-16/2026-07-16")


async def test_tournament_rules_are_browsable_and_their_references_resolve(datasette, real_connection):
    data = (await _get(datasette, "/infractions/riftbound.json")).json()
    (book,) = data["rulebooks"]
    infractions = [item for group in book["categories"] for item in group["infractions"]]
    assert len(infractions) == 32 and infractions[0]["name"] == "Missed Trigger"
    html = (await _get(datasette, "/infractions/riftbound")).text
    assert 'href="/rules/riftbound/tournament/2026-07-16/702.2"' in html
    rule = (await _get(datasette, "/rules/riftbound/tournament/406.1.json")).json()
    (setup,) = [ref for ref in rule["references"] if ref["target_number"] == "110"]
    assert (setup["version"], setup["rulebook"]) == ("2026-06-18", None)  # the newest Core Rules
    inside = (await _get(datasette, "/rules/riftbound/tournament/103.2.json")).json()
    assert [(ref["number"], ref["rulebook"]) for ref in inside["references"]] == [("204.8", "tournament")]
    hits = real_connection.execute(
        "select i.name from infractions_fts f join infractions i on i.rowid = f.rowid where infractions_fts match 'trigger'"
    ).fetchall()
    assert ("Missed Trigger",) in hits


async def test_pages_listing_riftboundfaq_rulings_credit_them(datasette, real_connection):
    """A list showing the FAQ's questions (a card's rulings, the rulings list) credits the FAQ and its licence."""
    (slug,) = real_connection.execute(
        """select c.slug from card_mentions m join cards c on c.id = m.card_id join rulings g on g.id = m.ruling_id
        where g.document_id = ? order by c.id limit 1""",
        [FAQ],
    ).fetchone()
    (source,) = real_connection.execute("select source from rulings where document_id = ? limit 1", [FAQ]).fetchone()
    for path in (f"/cards/{slug}", "/rulings?" + urlencode({"source": source})):
        html = (await _get(datasette, path)).text
        credit = html.split('class="credit note site-credit"', 1)[1].split("</p>", 1)[0]
        assert 'href="https://www.riftboundfaq.com/"' in credit and source in credit
        assert 'href="https://creativecommons.org/licenses/by-sa/4.0/"' in credit and "CC BY-SA 4.0" in credit


async def test_a_sub_question_listed_says_which_question_it_is_part_of(datasette, real_connection):
    """Several FAQ pages ask "Resolution Sequence" under a question of their own: a list of rulings (a rule's, a
    card's, the rulings list) names the question each is part of, or a judge cannot tell them apart."""
    ruling_id, parent, rule_id, number, version, slug = real_connection.execute(
        """select g.id, p.question, r.id, r.number, d.version, c.slug from rulings g
        join rulings p on p.id = g.parent_ruling_id join ruling_citations rc on rc.ruling_id = g.id
        join rules r on r.id = rc.rule_id join documents d on d.id = r.document_id
        join card_mentions m on m.ruling_id = g.id join cards c on c.id = m.card_id
        where d.rulebook_id = 'riftbound-core' order by g.id limit 1"""
    ).fetchone()
    part_of = f'<a href="/rulings/{ruling_id}">'
    for path in (f"/rules/riftbound/{version}/{number}", f"/cards/{slug}", f"/rulings?card={slug}"):
        html = (await _get(datasette, path)).text
        listed = html.split(part_of, 1)[1].split("</li>", 1)[0]
        assert f"part of “{parent}”" in html_module.unescape(listed), (path, listed)


async def test_a_sub_question_found_by_search_says_which_question_it_is_part_of(datasette, real_connection):
    ruling_id, question, parent = real_connection.execute(
        """select g.id, g.question, p.question from rulings g join rulings p on p.id = g.parent_ruling_id
        order by g.id limit 1"""
    ).fetchone()
    asked = urlencode({"q": question, "kind": "ruling"})
    hits = (await _get(datasette, f"/search.json?{asked}")).json()["results"]
    assert {hit["id"]: hit.get("part_of") for hit in hits}.get(ruling_id) == parent
    html = (await _get(datasette, f"/search?{asked}")).text
    listed = html.split(f'<a href="/rulings/{ruling_id}">', 1)[1].split("</li>", 1)[0]
    assert f"part of “{parent}”" in html_module.unescape(listed)
