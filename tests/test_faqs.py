"""Official FAQ articles as rulings: the two shapes of file, the questions counted in them, their citations,
their credit, and the citation ``faq:<date>#q<N>`` resolved to a ruling."""

from __future__ import annotations

import json
import re

import pytest

from ingest import faq_articles, riftbound_faq_json, riftbound_faq_md
from ingest.documents import CORPUS_DIR, bundled_spec
from ingest.errors import IngestError
from ingest.formats import expand
from rules_db import faqs, queries

JSON_FILE = CORPUS_DIR / "riftbound-official-faqs.json"
MD_FILE = CORPUS_DIR / "riftbound-vendetta-faq-2026-08-14.md"


def _count_questions(text: str) -> int:
    """Questions counted in an article's text independently of the adapter: the question lines, in whichever of
    the forms the article uses (see corpus/README.md): '### Q:' headings, bold lines ending in '?', one-line
    paragraphs ending in '?'."""
    lines = text.splitlines()
    count = 0
    for index, line in enumerate(lines):
        stripped = line.strip()
        if (
            re.match(r"#+\s+Q:", stripped)
            or stripped.startswith("**")
            and stripped.endswith("?**")
            or (
                stripped.endswith("?")
                and not stripped.startswith(("#", "-", "*"))
                and (index == 0 or not lines[index - 1].strip())
                and (index + 1 == len(lines) or not lines[index + 1].strip())
            )
        ):
            count += 1
    return count


def _riot_articles():
    return riftbound_faq_json.articles(JSON_FILE) + riftbound_faq_md.articles(MD_FILE)


def test_the_four_official_faqs_have_their_questions_stored_as_rulings():
    """172 questions (Origins 97, Spiritforged 27, Unleashed 14, Vendetta 34), counted in the text another way:
    every one a ruling, numbered q1.. in document order."""
    expected = {
        "riftbound-origins-faq": 97,
        "riftbound-spiritforged-faq": 27,
        "unleashed-rules-faq-and-clarifications": 14,
        "vendetta-rules-faq-and-clarifications": 34,
    }
    found = {}
    for article in _riot_articles():
        parsed = faq_articles.parse_article(article)
        questions = [r for r in parsed.rulings if r.category == "question"]
        found[article.id] = len(questions)
        if article.id in expected:
            assert _count_questions("\n".join(article.lines)) == expected[article.id]
            assert parsed.source == "Riot Games" and parsed.official
            assert [r.anchor for r in questions] == [f"q{n}" for n in range(1, len(questions) + 1)]
            assert all(r.question and r.ruling for r in questions)
            assert sum(r.question.endswith("?") for r in questions) >= 0.9 * len(questions)
            assert all(r.created_at == article.published for r in parsed.rulings)
    assert {key: found[key] for key in expected} == expected


def test_the_event_rulings_page_is_credited_to_its_author_not_to_riot():
    event = next(a for a in riftbound_faq_json.articles(JSON_FILE) if a.id == "rq-vegas-2026-rulings")
    parsed = faq_articles.parse_article(event)
    assert parsed.source == "GrentonTV" and not parsed.official
    assert "Last Known Information" in [r.question for r in parsed.rulings]  # headings are its rulings


def test_the_vendetta_faq_claims_precedence_and_its_relevant_rules_are_cited():
    (article,) = riftbound_faq_md.articles(MD_FILE)
    assert article.title == "Vendetta Rules FAQ and Clarifications" and article.published == "2026-08-14"
    parsed = faq_articles.parse_article(article)
    assert "takes precedence" in parsed.precedence
    second = parsed.rulings[1]
    assert second.anchor == "q2" and "Iascylla" in second.question
    assert [c.number for c in second.citations] == ["359.3.f.1", "359.3.f.2", "359.3.f.3", "359.3.f.3.b"]
    assert parsed.rulings[0].lines[0] > 30  # lines are the file's (the article starts after the collection's header)


def test_citations_are_found_in_each_form_the_articles_write():
    numbers = [
        c.number
        for c in faq_articles.find_citations(
            "Relevant Rules: 761., 761.1., 762.\n"
            "per rule 187.4.c. in the update, and rules 718.2. and 135.4. say so; per 438.1. too.\n"
            "438.1.Replacing is the act of Creating.467.When a cleanup occurs\n"
            "It costs 100. A game of 8 points in 2026, at 12:30."
        )
    ]
    assert numbers == ["761", "761.1", "762", "187.4.c", "718.2", "135.4", "438.1", "438.1", "467"]


def test_the_rule_text_a_citation_quotes_is_kept_with_it():
    quotes = {
        c.number: c.quote
        for c in faq_articles.find_citations(
            "438.1.Replacing is the act of Creating a token.467.When a cleanup occurs and a player wins.\n"
            '466.1.b. says "when a player tries to gain a point through a Score" If the point\n'
            "Rule 461.3.d. should read: There is No Result if units were recalled.\n"
            "316.5.b.(OLD) A Showdown is marked as Staged at a Battlefield.\n"
            "323.1.1. If a player has points greater than the Victory Score, that player wins.\n"
            "Rules 323.1. and 335 define winning, per rule 305. and so on."
        )
    }
    assert quotes == {
        "438.1": "Replacing is the act of Creating a token.",
        "467": "When a cleanup occurs and a player wins.",
        "466.1.b": "when a player tries to gain a point through a Score",
        "461.3.d": "There is No Result if units were recalled.",
        "316.5.b": "A Showdown is marked as Staged at a Battlefield.",
        "323.1.1": "If a player has points greater than the Victory Score, that player wins.",
        "323.1": "",
        "305": "",
    }


def test_each_question_form_is_read_in_any_article(tmp_path):
    """A made-up article in every form: headings that ask, bold questions, one-line questions, a section with
    text of its own (a clarification), a card's name as a question's topic, images skipped."""
    content = "\n".join(
        [
            "Intro text, with a claim: this document takes precedence over the rules.",
            "",
            "## Section One",
            "Text the section says before any question.",
            "",
            "### Q: First?",
            "Answer one, see rule 101.2.",
            "",
            "Some Card",
            "",
            '<img src="x.png" />',
            "",
            "**Second one?**",
            "",
            "Answer two.",
            "",
            "Third, on its own line?",
            "",
            "Answer three.",
            "Relevant Rules: 102.",
        ]
    )
    path = tmp_path / "faqs.json"
    path.write_text(
        json.dumps(
            [
                {
                    "id": "x",
                    "title": "X FAQ",
                    "content": content,
                    "publishedAt": "2026-01-02",
                    "originUrl": "https://playriftbound.com/x",
                    "source": "whoever",
                }
            ]
        )
    )
    parsed = riftbound_faq_json.parse_part(path, "x")
    assert [(r.anchor, r.question) for r in parsed.rulings] == [
        ("c1", "Section One"),
        ("q1", "First?"),
        ("q2", "Second one?"),
        ("q3", "Third, on its own line?"),
    ]
    assert parsed.rulings[2].page_title == "Some Card"  # the topic, not the end of answer one
    assert parsed.rulings[1].ruling == "Answer one, see rule 101.2."
    assert [c.number for c in parsed.rulings[3].citations] == ["102"]
    assert parsed.source == "Riot Games" and parsed.precedence.startswith("Intro text")
    assert any(entry.reason == "an image" for entry in parsed.skipped)


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ("[", "a JSON list of FAQ articles"),
        (json.dumps([{"id": "a", "title": "A", "publishedAt": "2026-01-01"}]), "article 1 with content"),
        (json.dumps([{"id": "a", "title": "A", "content": "x", "publishedAt": "soon"}]), "ISO publishedAt"),
        (json.dumps([{"id": "a", "title": "A", "content": "x", "publishedAt": "2026-01-01"}] * 2), "different id"),
    ],
)
def test_a_broken_json_file_names_the_file_and_the_article(tmp_path, items, expected):
    path = tmp_path / "faqs.json"
    path.write_text(items)
    with pytest.raises(IngestError, match=expected) as raised:
        riftbound_faq_json.articles(path)
    assert str(path) in str(raised.value)


def test_an_article_without_its_published_line_names_the_line(tmp_path):
    path = tmp_path / "faq.md"
    path.write_text("# FAQs\n\nheader\n\n# some-faq\n\n**A question?**\n\nAn answer.\n")
    with pytest.raises(IngestError, match="Published") as raised:
        riftbound_faq_md.articles(path)
    assert raised.value.line == 5


def test_a_file_of_several_articles_is_one_document_per_article():
    specs = expand(bundled_spec(JSON_FILE))
    assert [(s.slug, s.version) for s in specs] == [
        ("unleashed-rules-faq-and-clarifications", "2026-04-29"),
        ("riftbound-spiritforged-faq", "2026-01-14"),
        ("riftbound-origins-faq", "2025-10-16"),
        ("rq-vegas-2026-rulings", "2026-02-25"),
    ]
    assert all(s.part == s.slug and s.kind == "rulings" for s in specs)


# ---------------------------------------------------------------- on the real database


def _explicit(real_connection, document_id):
    return real_connection.execute(
        """select count(*), sum(c.rule_id is not null) from ruling_citations c join rulings r on r.id = c.ruling_id
        where r.document_id = ? and c.how = 'explicit'""",
        [document_id],
    ).fetchone()


def test_faq_questions_stored_and_their_citations_resolved_in_the_rules_in_force(real_connection):
    questions = real_connection.execute(
        """select count(*) from rulings r join faq_articles f on f.document_id = r.document_id
        where f.official = 1 and r.category = 'question'"""
    ).fetchone()[0]
    assert questions >= 0.95 * 172
    # Spiritforged (1.2 in force, stored) and Vendetta (1.4): every citation resolves, in that version
    for document_id, version in (
        ("riftbound-spiritforged-faq", "2025-12-01"),
        ("vendetta-rules-faq-and-clarifications", "2026-06-18"),
    ):
        total, resolved = _explicit(real_connection, document_id)
        assert total and resolved == total, document_id
        (read_in,) = real_connection.execute(
            "select distinct d.version from rulings r join documents d on d.id = r.rules_document_id "
            "where r.document_id = ?",
            [document_id],
        ).fetchone()
        assert read_in == version
    # Unleashed cites 1.3 (not in the corpus), read in 2026-06-18; the numbers 1.4 gave another rule (or none) are
    # read by the rule text the FAQ quotes: every citation resolves
    total, resolved = _explicit(real_connection, "unleashed-rules-faq-and-clarifications")
    assert total >= 40 and resolved == total
    everything = real_connection.execute(
        """select count(*), sum(c.rule_id is not null) from ruling_citations c join rulings r on r.id = c.ruling_id
        join faq_articles f on f.document_id = r.document_id where f.official = 1 and c.how = 'explicit'"""
    ).fetchone()
    assert everything[1] >= 0.99 * everything[0]
    rows = real_connection.execute(
        "select source, count(*) from rulings r join faq_articles f on f.document_id = r.document_id group by source"
    ).fetchall()
    assert dict(rows).keys() == {"Riot Games", "GrentonTV"}


def test_a_number_of_a_version_not_held_is_read_by_the_text_the_faq_quotes(real_connection):
    """Core Rules 1.3's 467 ("When a cleanup occurs and a player has accrued Points...") is 1.4's 472, and 1.4's
    467 is another rule ("Scoring"): the quote decides, in the ruling that quotes it and wherever else the FAQ
    cites that number. 1.3's 438.1, quoted as 1.4 prints it under the same number, keeps its number."""
    read = dict(
        real_connection.execute(
            """select c.number, group_concat(distinct x.number) from ruling_citations c
            join rulings r on r.id = c.ruling_id join rules x on x.id = c.rule_id
            where r.document_id = 'unleashed-rules-faq-and-clarifications' and c.how = 'explicit' group by c.number"""
        ).fetchall()
    )
    assert read["467"] == "472" and read["316.5.b"] == "316.8.b"  # held in 1.4, but another rule there
    assert read["187.4.c"] == "190.4.c" and read["461.3.d"] == "466.3.d"  # not in 1.4 at all
    assert read["323.8.6"] == "323.8"  # a step quoted after its rule's number: "323.8.6. Mark a Showdown ..."
    assert read["438.1"] == "438.1" and read["816.2"] == "816.2"


def test_quoted_rules_are_read_by_their_text_only_when_it_is_sure(tmp_path):
    """``links.read_quoted`` on a small rules document: a quote matching another rule re-points the number; a quote
    matching its own rule, a quote matching nothing, and two rules quoted equally well leave it alone."""
    import sqlite_utils

    from rules_db import links

    db = sqlite_utils.Database(tmp_path / "x.db")
    texts = {
        "101": "A player wins the game when they have eight points and more points than any opponent.",
        "102": "Each player draws four cards at the start of the game, then may mulligan up to two of them.",
        "103": "A unit with damage equal to or greater than its might is killed in the next cleanup.",
        "104": "Tokens are created by spells and abilities and stop existing when they leave the board.",
        "105": "Tokens are created by spells and abilities and stop existing when they leave the board.",
    }
    db["rules"].insert_all(
        [
            {"id": i, "document_id": "v2", "number": n, "text": t, "heading": None, "position": i}
            for i, (n, t) in enumerate(texts.items(), start=1)
        ]
    )
    numbers = {n: i for i, n in enumerate(texts, start=1)}
    cited = [
        (None, "101", "101", "A unit with damage equal to or greater than its Might is killed in the next cleanup."),
        (None, "101", "rule 101", ""),
        (None, "102", "102", "Each player draws four cards at the start of the game, then may mulligan up to two."),
        (None, "099", "099", "A player wins the game when they have eight points and more than any opponent."),
        (None, "098", "098", "Nothing in this rulebook is anything like these words at all, not even close to it."),
        (None, "097", "097", "Tokens are created by spells and abilities and stop existing when they leave the board."),
        (None, "096", "096", ""),
    ]
    read = links.read_quoted(db, "v2", cited, numbers)
    assert read == {"101": (3, "103"), "099": (1, "101")}


def test_a_faq_citation_resolves_to_its_ruling_or_to_nothing(real_connection):
    cited = [
        "faq:2026-08-14#q7",
        "faq:2026-08-14#q999",
        "faq:2026-02-25#c1",  # not a question
        "faq:2026-02-25#q1",  # the event page of that date is not Riot's
        "not a citation",
    ]
    found = faqs.faq_entries(real_connection, "riftbound", cited)
    assert found["faq:2026-08-14#q7"]["anchor"] == "q7" and "Rebuttal" in found["faq:2026-08-14#q7"]["question"]
    assert found["faq:2026-08-14#q7"]["path"] == f"/rulings/{found['faq:2026-08-14#q7']['id']}"
    assert [citation for citation, entry in found.items() if entry is None] == cited[1:]
    assert faqs.faq_entries(real_connection, "runeterra", cited[:1]) == {cited[0]: None}  # another game's FAQs
    # the replay pages' citation rows come from the same look-up
    rows = queries.faq_rulings(real_connection, "riftbound", cited)
    assert {c: row["ruling_id"] for c, row in rows.items()} == {c: e and e["id"] for c, e in found.items()}


def test_a_rule_an_faq_cites_says_it_is_clarified(real_connection):
    (rule_id,) = real_connection.execute(
        "select id from rules where document_id = 'riftbound-core-rules-2026-06-18' and number = '419.4.b'"
    ).fetchone()
    (faq,) = faqs.clarifications(real_connection, rule_id)
    assert faq["title"] == "Vendetta Rules FAQ and Clarifications" and faq["published"] == "2026-08-14"
    assert faq["precedence"] and faq["superseded_by"] is None
    assert [entry["anchor"] for entry in faq["entries"]] == ["q13", "q18"]


def test_faq_rulings_are_searched_like_the_other_rulings(real_connection):
    from rules_db import search

    found = search.search(real_connection, "Abandon flow cost banished", "riftbound")
    questions = [hit.get("title") or hit.get("question") for hit in found["results"] if hit["kind"] == "ruling"]
    assert any("Flow cost" in (question or "") for question in questions[:5]), questions[:5]
