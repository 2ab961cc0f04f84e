"""The judges' pages on the real database built from the bundled corpus (built once per session)."""

from __future__ import annotations

import re
import shutil
from urllib.parse import quote, urlencode

import pytest
import sqlite_utils
from servers import in_process

from ingest.card_names import CardMention
from rules_db import cards

# A rule's URL part before its number: "2025-12-01" for the default rulebook, "tournament/2026-07-16" else.
_URL_VERSION = """case when b.is_default then d.version else b.slug || '/' || d.version end"""
# A walk over hundreds of pages is split in four tests (every fourth page each), so that the workers of `make test`
# share it and none is left alone with a long one at the end of the run.
SHARDS = 4


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:500])
    return response


async def test_home_counts_match_the_database(datasette, real_connection):
    data = (await _get(datasette, "/.json")).json()
    shown = {doc["id"]: (doc["rules"], doc["rulings"]) for game in data["games"] for doc in game["documents"]}
    stored = {}
    for document_id, rules, rulings in real_connection.execute(
        "select id, (select count(*) from rules where document_id = d.id), "
        "(select count(*) from rulings where document_id = d.id) from documents d"
    ):
        stored[document_id] = (rules, rulings)
    assert shown == stored
    assert shown["riftbound-core-rules-2025-12-01"][0] > 1000


async def test_both_riftbound_permalinks_from_the_issue(datasette):
    old = (await _get(datasette, "/rules/riftbound/2025-06-02/626.1.d.2.json")).json()
    assert old["rule"]["number"] == "626.1.d.2" and "lethal damage" in old["rule"]["text"].lower()
    assert [row["number"] for row in old["breadcrumb"]] == ["626", "626.1", "626.1.d"]
    new = (await _get(datasette, "/rules/riftbound/2025-12-01/443.1.e.json")).json()
    assert new["document"]["version"] == "2025-12-01" and new["rule"]["text"].startswith("Deal Damage")
    newest = (await _get(datasette, "/rules/riftbound/465.2.json")).json()
    assert newest["document"]["version"] == "2026-06-18" and newest["document"]["version_label"] == "1.4"


async def test_rulings_citing_443_1_e_are_on_its_page(datasette, real_connection):
    citing = {
        row[0]
        for row in real_connection.execute(
            "select c.ruling_id from ruling_citations c join rules r on r.id = c.rule_id "
            "join documents d on d.id = r.document_id where r.number = '443.1.e' and d.version = '2025-12-01'"
        )
    }
    assert citing, "the rulings cite 443.1.e"
    html = (await _get(datasette, "/rules/riftbound/2025-12-01/443.1.e")).text
    for ruling_id in citing:
        assert f'href="/rulings/{ruling_id}"' in html


async def test_a_citation_reads_as_words_not_as_the_sources_markup(datasette, real_connection):
    """The FAQ writes its citations as markup (``<Rule number="355.5" />``): the pages of the rulings and of the
    rules they cite show the citation's words, never that markup nor the column's value ("explicit")."""
    cited = real_connection.execute(f"""select c.ruling_id, {_URL_VERSION}, r.number from ruling_citations c
        join rules r on r.id = c.rule_id join documents d on d.id = r.document_id join rulebooks b on b.id = d.rulebook_id
        where c.raw_text like '<%' and r.game_id = 'riftbound' group by c.ruling_id order by c.ruling_id limit 12""").fetchall()
    assert cited
    for ruling_id, version, number in cited:
        for path in (f"/rulings/{ruling_id}", f"/rules/riftbound/{version}/{number}"):
            html = (await _get(datasette, path)).text
            assert "&lt;Rule" not in html and "explicit:" not in html, path
    by_keyword = real_connection.execute(
        "select ruling_id, raw_text from ruling_citations where how = 'keyword'"
    ).fetchone()
    html = (await _get(datasette, f"/rulings/{by_keyword[0]}")).text
    assert f"by the keyword “{by_keyword[1]}" in html


async def test_a_rule_cited_twice_in_other_words_reads_as_a_list_not_one_text_with_a_comma(datasette, real_connection):
    """A ruling citing one rule in two texts ("step 443.1.e" and "(443.1.e)") says each text on its own; the
    texts were joined by SQL's comma into one quoted text, "step 443.1.e,(443.1.e)"."""
    twice = real_connection.execute(f"""select c.ruling_id, {_URL_VERSION}, r.number, group_concat(distinct c.raw_text)
        from ruling_citations c join rules r on r.id = c.rule_id join documents d on d.id = r.document_id
        join rulebooks b on b.id = d.rulebook_id where c.how = 'explicit' and r.game_id = 'riftbound'
        group by c.ruling_id, c.rule_id having count(distinct c.raw_text) > 1""").fetchall()
    assert twice, "a ruling cites a rule in two texts"
    for ruling_id, version, number, joined in twice:
        for path in (f"/rulings/{ruling_id}", f"/rules/riftbound/{version}/{number}"):
            html = (await _get(datasette, path)).text
            assert "cited as" in html and f"“{joined}”" not in html, path


async def test_a_ruling_lists_older_numbers_only_when_it_cites_older_rules(datasette, real_connection):
    """A citation of an older version lists what its rule is in the newest version (what it means today), not in
    the other older ones; one of the newest rules folds its older numbers away, so a ruling citing six rules is not
    twice as long."""
    newest, stale = (
        real_connection.execute(f"""select c.ruling_id from ruling_citations c join documents d on d.id = c.document_id
        where d.is_newest = {flag} and d.game_id = 'riftbound' order by c.ruling_id limit 1""").fetchone()[0]
        for flag in (1, 0)
    )
    folded = (await _get(datasette, f"/rulings/{newest}")).text.split('class="citations"', 1)[1]
    listed = (await _get(datasette, f"/rulings/{stale}")).text.split('class="citations"', 1)[1]
    assert '<details class="equivalents"><summary>In ' in folded
    assert folded.count('<ul class="equivalents">') == folded.count('<details class="equivalents">')
    assert '<ul class="equivalents">' in listed and '<details class="equivalents">' not in listed
    newest_versions = {row[0] for row in real_connection.execute("select version from documents where is_newest = 1")}
    shown = re.findall(r'<ul class="equivalents">.*?</ul>', listed, re.S)
    in_versions = {
        version
        for block in shown
        for version in re.findall(r"\) is <a[^>]*>.*?</a> in <time datetime=\"([^\"]+)", block)
    }
    assert in_versions and in_versions <= newest_versions, in_versions - newest_versions


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_every_resolved_cross_reference_printed_in_riftbound_text_is_a_link(datasette, real_connection, shard):
    """Every other rule with references, in every rulebook (a sample across the books, to keep the test quick);
    a reference into another rulebook ("See CR 110") links to that rulebook's URL."""
    rules = real_connection.execute(f"""select distinct {_URL_VERSION}, r.number from rule_refs x
        join rules r on r.id = x.from_rule_id join documents d on d.id = r.document_id
        join rulebooks b on b.id = d.rulebook_id
        where x.status = 'resolved' and r.game_id = 'riftbound' and r.position % 2 = 0""").fetchall()
    assert len(rules) > 100
    unlinked = []
    for version, number in rules[shard::SHARDS]:
        data = (await _get(datasette, f"/rules/riftbound/{version}/{number}.json")).json()
        html = (await _get(datasette, f"/rules/riftbound/{version}/{number}")).text
        text = html.split('class="rule-text">')[1].split("</div>")[0]
        for ref in data["references"]:
            printed = re.search(rf"(?<![\w.]){re.escape(ref['target_number'])}(?![\w]|\.[0-9A-Za-z])", ref["raw_text"])
            target = "/".join(filter(None, ["/rules/riftbound", ref["rulebook"], ref["version"], ref["number"]]))
            if ref["id"] is not None and printed and f'href="{target}"' not in text:
                unlinked.append((version, number, ref["target_number"]))
    assert unlinked == []


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_every_ruling_page_and_each_citation_target(datasette, real_connection, shard):
    ruling_ids = [row[0] for row in real_connection.execute("select id from rulings order by id")]
    (official_faqs,) = real_connection.execute(
        "select count(*) from rulings where document_id in (select document_id from faq_articles)"
    ).fetchone()
    assert official_faqs >= 172  # Riot's FAQs (and an event's rulings page): their questions and clarifications
    # the Riftbound FAQ's four notes about itself are not rulings, nor are the FAQ articles' introductions
    assert len(ruling_ids) == 50 + 175 + official_faqs
    rulings_on: dict[str, set[int]] = {}  # a cited rule's page -> the rulings it lists (fetched once: cited often)
    for ruling_id in ruling_ids[shard::SHARDS]:
        data = (await _get(datasette, f"/rulings/{ruling_id}.json")).json()
        html = (await _get(datasette, f"/rulings/{ruling_id}")).text
        for citation in data["citations"]:
            if citation["id"] is None:
                continue
            path = f"/rules/{citation['game']}/{citation['version']}/{citation['number']}"
            assert f'href="{path}"' in html
            if path not in rulings_on:
                rulings_on[path] = {
                    ruling["id"] for ruling in (await _get(datasette, path + ".json")).json()["rulings"]
                }
            assert ruling_id in rulings_on[path], (ruling_id, path)


async def test_search_recalled_finds_the_recall_rules(datasette, real_connection):
    recall_rules = {
        row[0]
        for row in real_connection.execute(
            "select r.number from rules r join documents d on d.id = r.document_id "
            "where d.game_id = 'riftbound' and d.is_newest = 1 and r.heading like 'Recall%'"
        )
    }
    assert recall_rules
    data = (await _get(datasette, "/search.json?q=recalled&game=riftbound")).json()
    found = {hit["number"] for hit in data["results"] if hit["kind"] == "rule"}
    assert recall_rules <= found
    assert {hit["version"] for hit in data["results"] if hit["kind"] == "rule"} == {"2026-06-18"}
    top = [hit["number"] for hit in data["results"][:5]]
    assert recall_rules & set(top)


async def test_rule_numbers_jump_to_the_newest_version_that_has_them(datasette):
    for query, target in [
        ("626.1.d", "/rules/riftbound/2025-06-02/626.1.d"),
        ("rule 318", "/rules/riftbound/2026-06-18/318"),
        ("443.1.e", "/rules/riftbound/2025-12-01/443.1.e"),
        ("702.17", "/rules/riftbound/tournament/2026-07-16/702.17"),
    ]:
        response = await _get(datasette, "/search?q=" + query.replace(" ", "+"), status=302)
        assert response.headers["location"] == target


async def test_a_number_missing_from_the_newest_version_is_404_with_help(datasette):
    response = await _get(datasette, "/rules/riftbound/626.1.d.2", status=404)
    assert 'href="/rules/riftbound/2025-06-02/626.1.d.2"' in response.text
    data = (await _get(datasette, "/rules/riftbound/465.1.zz.json", status=404)).json()
    assert "465.1" in {row["number"] for row in data["nearest"]}


async def test_every_newest_keyword_page_names_its_defining_rule(datasette, real_connection):
    keywords = real_connection.execute("""select k.game_id, k.term, d.version, k.defining_number from keywords k
        join documents d on d.id = k.document_id where d.is_newest = 1 and k.rule_id is not null""").fetchall()
    assert len(keywords) > 100
    for game, term, version, number in keywords:
        data = (await _get(datasette, f"/keywords/{game}/{version}/{quote(term, safe='')}.json")).json()
        defined_in = [data["defining_rule"]["number"]] + [rule["number"] for rule in data["also_defined"]]
        assert number in defined_in, (game, term)


async def test_card_pages_list_their_rulings_and_highlight_errata(datasette, real_connection):
    named = real_connection.execute("""select c.slug, group_concat(distinct m.ruling_id) from card_mentions m
        join cards c on c.id = m.card_id group by c.id""").fetchall()
    for slug, ruling_ids in named:
        html = (await _get(datasette, f"/cards/{quote(slug)}")).text
        assert all(f'href="/rulings/{ruling_id}"' in html for ruling_id in ruling_ids.split(","))
    with_errata = real_connection.execute("""select distinct c.slug from card_errata e join cards c on c.id = e.card_id
        where e.old_text != e.new_text""").fetchall()
    for (slug,) in with_errata:
        html = (await _get(datasette, f"/cards/{quote(slug)}")).text
        assert "<del>" in html or "<ins>" in html, slug


async def test_zhonyas_hourglass_shows_its_current_wording_first(datasette):
    html = (await _get(datasette, "/cards/zhonyas-hourglass")).text
    current = html.index("Heal that unit, exhaust it, and recall it")
    printed = html.index('class="printed-text"')
    assert html.index('class="card-text"') < current < printed
    # The printed wording is the word diff without what the errata added.
    as_printed = re.sub(r"<ins>.*?</ins>|<[^>]+>", "", html[printed:].split("</section>")[0])
    assert "Recall that unit exhausted" in " ".join(as_printed.split())
    data = (await _get(datasette, "/cards/zhonyas-hourglass.json")).json()
    assert "Heal that unit, exhaust it, and recall it" in data["card"]["current_text"]
    assert "Recall that unit exhausted" in data["card"]["ability_text"]


async def test_an_old_number_points_to_its_renumbered_rule(datasette):
    """518 (Cleanups in 2025-06-02) became 318 in 2025-12-01, which v1.4 keeps: followed over both steps."""
    data = (await _get(datasette, "/rules/riftbound/518.json", status=404)).json()
    assert ("318", "2025-06-02") in {(row["number"], row["other_version"]) for row in data["renumbered"]}
    html = (await _get(datasette, "/rules/riftbound/518", status=404)).text
    assert 'href="/rules/riftbound/2026-06-18/318"' in html and 'href="/rules/riftbound/2025-06-02/518"' in html


@pytest.mark.parametrize("shard", range(SHARDS))
async def test_keyword_mentions_in_rule_text_are_links(datasette, real_connection, shard):
    """Every seventh Riftbound rule with mentions (a sample across the book, to keep the test quick). The mentions
    come from the database (the page's own JSON would render the rule a second time)."""
    rules = real_connection.execute(f"""select r.id, r.text, {_URL_VERSION}, r.number, d.version from rules r
        join documents d on d.id = r.document_id join rulebooks b on b.id = d.rulebook_id
        where r.game_id = 'riftbound' and r.id in (select rule_id from keyword_mentions)
        and r.position % 7 = 0""").fetchall()
    assert len(rules) > 100
    for rule_id, rule_text, version, number, keyword_version in rules[shard::SHARDS]:
        mentions = real_connection.execute(
            """select distinct k.term, m.matched_text from keyword_mentions m join keywords k on k.id = m.keyword_id
            where m.rule_id = ?""",
            [rule_id],
        ).fetchall()
        html = (await _get(datasette, f"/rules/riftbound/{version}/{number}")).text
        text = html.split('class="rule-text">')[1].split("</div>")[0] if 'class="rule-text"' in html else ""
        for term, matched_text in mentions:
            if matched_text.lower() in rule_text.lower() and text:
                assert f'href="/keywords/riftbound/{keyword_version}/{quote(term)}"' in text, (number, term)


async def test_a_card_known_only_from_the_rulings_shows_no_missing_facts(datasette, real_connection, real_db, tmp_path):
    """Its type, domain, cost and stats are unknown: the page says so, never "None". The card lists now hold
    every card of the released sets, so a ruling naming a card of a set to come is added to a copy of the
    database, as the build adds one (``link_tagged_card_mentions``)."""
    copy = tmp_path / "rules.db"
    shutil.copy(real_db, copy)
    db = sqlite_utils.Database(copy)
    document, position = next(
        db.query("select document_id, position from rulings where source is not null limit 1")
    ).values()
    figures = cards.link_tagged_card_mentions(
        db, "riftbound", document, [CardMention(position, "Lantern of a Set to Come", "Lantern", "tagged")]
    )
    assert figures["cards not in the card list"] == [f"Lantern of a Set to Come (rulings {position})"]
    db.conn.commit()
    db.close()
    html = (await _get(in_process(copy), "/cards/lantern-of-a-set-to-come")).text
    meta = html.split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    assert re.sub(r"<[^>]+>", "", meta).strip() == "known only from the rulings"
    slug, energy = real_connection.execute(
        "select slug, energy from cards where in_card_list and energy is not null"
    ).fetchone()
    meta = (await _get(datasette, f"/cards/{slug}")).text.split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    assert f"energy {energy}" in meta and "None" not in meta and "known only" not in meta


async def test_a_long_hostile_question_is_echoed_short_and_escaped_each_word_once(datasette):
    """A pasted page (5,000 characters) is echoed in a line, not in full above the results; the words no document
    uses and the ones left out are each named once; none of it is markup."""
    question = "<b>wibblezork</b> " * 2 + "can a unit block " * 300
    html = (await _get(datasette, "/search?" + urlencode({"q": question}))).text
    count = html.split('<p class="count">', 1)[1].split("</p>", 1)[0]
    assert len(count) < 600 and "<b>" not in count and "&lt;b&gt;wibblezork" in count
    assert len(html.split("<title>", 1)[1].split("</title>", 1)[0]) < 200
    unknown = html.split("No document uses: ", 1)[1].split("</p>", 1)[0]
    assert unknown.count("wibblezork") == 1


async def test_a_rules_symbols_are_glossed_from_the_rules_that_define_them(datasette, real_connection):
    """Each shorthand a rule or a keyword's definition prints ([>], [C]) is glossed with its meaning from the rule of the same version that
    defines it (1.4: 135.2.e; 2025-12-01: 134.2.e), or of the newest that does for a version defining none
    (2025-06-02); a rule using bracketed letters as variables ("Replace [X] with [Y]") glosses none; the page's
    JSON lists the symbols."""
    defined = dict(
        real_connection.execute(
            "select shorthand, number from symbols where document_id = 'riftbound-core-rules-2026-06-18'"
        ).fetchall()
    )
    assert defined["[>]"].startswith("135.2.e") and defined["[A]"].startswith("135.2.e")
    for url, shorthand, meaning, defining, named in (
        (
            "/rules/riftbound/135.2.e.7.a",
            "[&gt;]",
            "A keyword associated with an ability",
            "2026-06-18/135.2.e.7",
            "135.2.e.7",
        ),
        ("/rules/riftbound/2025-12-01/134.2.e.6.a", "[C]", "Power of a domain", "2025-12-01/134.2.e.6", "134.2.e.6"),
        (
            "/rules/riftbound/2025-06-02/717.1.a",
            "[C]",
            "Power of a domain",
            "2026-06-18/135.2.e.6",
            "135.2.e.6 of 2026-06-18",
        ),
    ):
        text = (await _get(datasette, url)).text.split('class="rule-text"', 1)[1].split("</div>", 1)[0]
        glossed = re.search(
            rf'<span class="symbol" tabindex="0"><abbr title="({re.escape(meaning)}[^"]*)">{re.escape(shorthand)}'
            rf'</abbr><span class="gloss"> \(\1, <a href="/rules/riftbound/{defining}">rule ([^<]+)</a>',
            text,
        )
        assert glossed, (url, text[:600])
        assert glossed.group(2) == named  # the version named where the text's own defines none
    keyword = (await _get(datasette, "/keywords/riftbound/Accelerate")).text  # "[1][C]" in its definition
    definition = keyword.split('class="definition-text"', 1)[1].split("</div>", 1)[0]
    assert (
        '<abbr title="Power of a domain' in definition
        and '<a href="/rules/riftbound/2026-06-18/135.2.e.6">' in definition
    )
    variables = (await _get(datasette, "/rules/riftbound/438.3.b")).text
    assert "[Y]" in variables and 'class="symbol"' not in variables
    data = (await _get(datasette, "/rules/riftbound/135.2.e.7.a.json")).json()
    assert {"shorthand": "[A]", "meaning": "Power of any Domain"}.items() <= next(
        s for s in data["symbols"] if s["shorthand"] == "[A]"
    ).items()
