"""The pages of the official FAQs and of what is in force on a day, on the real database: the home page's "in force
today" and its date picker, a ruling from an FAQ, a rule an FAQ clarifies, a rule/card/search page asked for a
day, the patch notes and the diffs that link them."""

from __future__ import annotations

import datetime
import re

from rules_db import faqs


async def _get(datasette, path, status=200):
    response = await datasette.client.get(path)
    assert response.status_code == status, (path, response.status_code, response.text[:500])
    return response


def _section(html: str, css_class: str) -> str:
    found = re.search(rf'<section class="{css_class}".*?</section>', html, re.S)
    assert found, css_class
    return found.group(0)


async def test_home_says_what_is_in_force_today_each_item_linked(datasette):
    html = (await _get(datasette, "/")).text
    today = datetime.date.today().isoformat()
    block = _section(html, "in-force")
    assert f'In force today, <time datetime="{today}">' in block
    assert 'href="/rules/riftbound?version=2026-06-18"' in block  # the Core Rules 1.4 text
    assert 'href="/rules/riftbound?rulebook=tournament&amp;version=2026-07-16"' in block
    assert 'href="/rulings?document=vendetta-rules-faq-and-clarifications"' in block
    assert "takes precedence over the Core Rules where they differ" in block
    assert 'href="/patch-notes/riftbound/vendetta"' in block
    assert 'name="on"' in block and 'type="date"' in block


async def test_home_in_force_reads_as_sentences_and_disputes_only_differing_dates(datasette, real_connection):
    block = _section((await _get(datasette, "/?on=2026-12-01")).text, "in-force")
    text = " ".join(re.sub(r"<[^>]+>", "", block).split())
    assert "Core Rules 1.4 (text of 2026-06-18), in force since 2026-07-24 · patch notes" in text
    assert "Tournament Rules of 2026-07-16, in force since 2026-07-16" in text
    assert "None" not in text  # a set without a name is named by its code; an undated claim is not listed
    # a ban is disputed where its sources give different dates, not where one gives none
    differing = real_connection.execute(
        """select count(*) from (select card_id from bans where effective_date is not null and format = 'Constructed'
        group by card_id having count(distinct effective_date) > 1)"""
    ).fetchone()[0]
    undated = real_connection.execute("select count(*) from bans where effective_date is null").fetchone()[0]
    assert differing >= 1 and undated >= 1 and text.count("sources disagree") == differing
    assert "2v2: every Constructed ban" in text


async def test_home_for_an_earlier_event_day(datasette):
    block = _section((await _get(datasette, "/?on=2026-05-01")).text, "in-force")
    assert "In force on <time" in block and "1.3" in block and "Not in this database" in block
    assert "vendetta-rules-faq" not in block  # published later
    assert "Unleashed Rules FAQ and Clarifications" in block
    data = (await _get(datasette, "/.json?on=2025-11-01")).json()
    riftbound = next(game for game in data["games"] if game["id"] == "riftbound")
    core = riftbound["in_force"]["rulebooks"][0]["version"]
    assert (core["label"], core["reading"]["version"]) == ("1.1", "2025-06-02")
    assert not any(game["in_force"] for game in data["games"] if game["id"] != "riftbound")


async def test_a_day_not_written_as_a_day_is_refused_saying_what_was_expected(datasette):
    for path in ("/?on=yesterday", "/rules/riftbound/375?on=2026-02-30", "/search?q=x&on=2026-5-1"):
        response = await _get(datasette, path, status=400)
        assert "YYYY-MM-DD" in response.text


async def test_a_faq_ruling_is_credited_to_riot_with_date_link_and_rules_in_force(datasette, real_connection):
    found = faqs.faq_entries(real_connection, "riftbound", ["faq:2026-08-14#q2"])["faq:2026-08-14#q2"]
    html = (await _get(datasette, found["path"])).text
    assert "Official FAQ" in html and "Riot Games" in html
    assert (
        'href="https://playriftbound.com/en-us/news/rules-and-releases/vendetta-rules-faq-and-clarifications"' in html
    )
    assert "faq:2026-08-14#q2" in html
    assert 'Core Rules in force on <time datetime="2026-08-14">2026-08-14</time>: 1.4' in html
    assert 'href="/rules/riftbound/2026-06-18/359.3.f.1"' in html  # its Relevant Rules linked in 1.4
    assert 'href="/cards/' in html  # Iascylla and Azir named


async def test_a_faq_citation_of_a_version_not_held_links_the_rule_its_quote_names(datasette, real_connection):
    """Unleashed FAQ q1 cites Core Rules 1.3's 467 and quotes it; 1.4 numbers that rule 472: the citation links
    472 and says why, and the number in the ruling's text links there too."""
    (ruling_id,) = real_connection.execute(
        "select id from rulings where document_id = 'unleashed-rules-faq-and-clarifications' and anchor = 'q1'"
    ).fetchone()
    html = (await _get(datasette, f"/rulings/{ruling_id}")).text
    citations = _section(html, "citations")
    assert 'href="/rules/riftbound/2026-06-18/472"' in citations
    body = re.search(r'<div class="ruling-text">.*?</div>', html, re.S).group(0)
    assert re.search(r'href="/rules/riftbound/2026-06-18/472"[^>]*>467<', body)  # "Rules 323.1. and 467."
    text = " ".join(re.sub(r"<[^>]+>", "", citations).split())
    assert "cited as “467”, a number of the version it was written against, not stored here" in text
    assert "carries most of its numbering (a rule the FAQ quotes is read by its text)" in html
    assert ": not found" not in citations


async def test_the_event_rulings_page_is_not_riots(datasette, real_connection):
    (ruling_id,) = real_connection.execute(
        "select min(id) from rulings where document_id = 'rq-vegas-2026-rulings'"
    ).fetchone()
    html = (await _get(datasette, f"/rulings/{ruling_id}")).text
    assert "Event rulings, not the publisher's" in html and "GrentonTV" in html


async def test_a_rule_the_vendetta_faq_clarifies_says_so(datasette):
    html = (await _get(datasette, "/rules/riftbound/2026-06-18/419.4.b")).text
    block = _section(html, "clarified-by")
    assert "Vendetta Rules FAQ and Clarifications" in block and "2026-08-14" in block
    assert "takes precedence over the Core Rules where they differ" in block


async def test_a_rule_asked_for_a_day_is_the_version_in_force_that_day(datasette):
    html = (await _get(datasette, "/rules/riftbound/375?on=2025-12-20")).text
    assert 'version <time datetime="2025-12-01">' in html and 'in force on <time datetime="2025-12-20">' in html
    html = (await _get(datasette, "/rules/riftbound/375?on=2026-08-01")).text
    assert 'version <time datetime="2026-06-18">' in html


async def test_a_card_and_a_search_asked_for_a_day(datasette):
    html = (await _get(datasette, "/cards/zhonyas-hourglass?on=2026-05-01")).text
    assert 'class="meta on-day"' in html
    html = (await _get(datasette, "/search?q=replacement+effect&on=2025-12-20")).text
    assert "As on <time" in html and "2025-12-01" in html
    data = (await _get(datasette, "/search.json?q=replacement+effect&on=2025-12-20")).json()
    assert {hit["version"] for hit in data["results"] if hit["kind"] == "rule"} == {"2025-12-01"}


async def test_patch_notes_are_linked_from_the_diff_they_describe(datasette):
    html = (await _get(datasette, "/diff/riftbound/2025-12-01/2026-06-18")).text
    assert 'href="/patch-notes/riftbound/unleashed"' in html and 'href="/patch-notes/riftbound/vendetta"' in html
    notes = (await _get(datasette, "/patch-notes/riftbound/vendetta")).text
    assert "<h1>Riftbound — Vendetta Patch Notes</h1>" in notes
    assert 'href="/diff/riftbound/2025-12-01/2026-06-18"' in notes
    assert "<script" not in notes.split('class="patch-notes-text"')[1].split("</article>")[0]
    await _get(datasette, "/patch-notes/riftbound/nothing", status=404)


def test_patch_notes_markdown_is_rendered_inert():
    from datasette_plugins.in_force_pages import rendered

    html = str(rendered("# T\n\n<script>alert(1)</script> [x](javascript:alert(1)) [y](https://a.example/) **b**"))
    assert "<h1>T</h1>" in html and "<strong>b</strong>" in html and 'href="https://a.example/"' in html
    assert "<script>" not in html and 'href="javascript' not in html
