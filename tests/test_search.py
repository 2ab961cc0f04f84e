"""The judges' search (rules_db/search/, /search and /search.json): a question finds its rule,
ruling or card; typos, nicknames and filler words; filters, paging, jumps; hostile and huge
queries. The fixture database for the mechanics, the real one for what a judge types."""

from __future__ import annotations

import html as html_module
import itertools
import re
import sqlite3
from urllib.parse import quote, urlencode

import pytest
import yaml
from servers import get_page, in_process

from rules_db import search_index
from rules_db.queries.common import ANSWER_LINE_CHARACTERS, answer_line
from rules_db.search import answer, index_format, rank, retrieve, snippets, understand, vocabulary
from rules_db.search.rank import BEST_SHARE


@pytest.fixture(scope="module")
def datasette(fixture_db):
    return in_process(fixture_db)


@pytest.fixture(scope="module")
def real(real_db):
    return in_process(real_db)


async def _search(datasette, status=200, **params):
    return (await get_page(datasette, "/search.json?" + urlencode(params), status)).json()


def _keys(data: dict) -> list[tuple]:
    return [(hit["kind"], hit.get("number") or hit["title"]) for hit in data["results"]]


# ---------------------------------------------------------------- fixture database


async def test_a_word_finds_its_rules_newest_version_only_ranked_best_first(datasette):
    data = await _search(datasette, q="recalled")
    found = {(hit["kind"], hit["version"], hit["number"]) for hit in data["results"]}
    assert {("rule", "2025-12-01", "411"), ("rule", "2025-12-01", "411.1"), ("rule", "unversioned", "5.2")} <= found
    assert not any(hit["version"] == "2025-06-02" for hit in data["results"])  # the newest version only
    assert any(hit["kind"] == "ruling" and hit["id"] == 1 for hit in data["results"])
    assert [hit["score"] for hit in data["results"]] == sorted((hit["score"] for hit in data["results"]), reverse=True)
    assert data["total"] == len(data["results"])
    recall = next(hit for hit in data["results"] if hit["number"] == "411")
    assert recall["defines"] == ["Recall"] and recall["heading_path"] == []
    assert next(hit for hit in data["results"] if hit["number"] == "411.1")["heading_path"] == ["Recalls"]
    assert not any(
        snippets.MARK_START in hit["snippet"] or snippets.MARK_END in hit["snippet"] for hit in data["results"]
    )
    assert any("<mark>recalled</mark>" in hit["snippet"] for hit in data["results"])
    html = (await get_page(datasette, "/search?q=recalled")).text
    assert "<mark>recalled</mark>" in html and 'href="/keywords/riftbound/2025-12-01/Recall"' in html
    assert "Recalls" in html  # the heading path of 411.1


async def test_document_text_in_snippets_is_escaped(datasette):
    data = await _search(datasette, q="hostile")
    assert data["results"]
    for hit in data["results"]:
        assert "<script" not in hit["snippet"] and "<img" not in hit["snippet"] and "onerror=" not in hit["snippet"]
    html = (await get_page(datasette, "/search?q=hostile+script+image+written")).text
    results = re.search(r'<ol class="results".*?</ol>', html, re.S).group()
    assert "Hostile" in results and "<script" not in results and "<img" not in results and "onerror" not in results


async def test_game_rulebook_and_version_filters(datasette):
    runeterra = await _search(datasette, q="recalled", game="runeterra")
    assert {hit["game"] for hit in runeterra["results"]} == {"runeterra"}
    old = await _search(datasette, q="recall", game="riftbound", version="2025-06-02")
    assert {hit["number"] for hit in old["results"] if hit["kind"] == "rule"} == {"616", "616.1"}
    tournament = await _search(datasette, q="missed trigger", rulebook="tournament")
    rules = [hit for hit in tournament["results"] if hit["kind"] == "rule"]
    assert rules and {hit["rulebook"] for hit in rules} == {"tournament"}
    assert (await get_page(datasette, "/search?q=missed+trigger")).text.count(
        'href="/rules/riftbound/tournament/2026-07-16/702.2"'
    )
    cards_only = await _search(datasette, q="recalled", kind="card")
    assert cards_only["results"] and {hit["kind"] for hit in cards_only["results"]} == {"card"}


async def test_the_filters_survive_a_new_question_typed_in_the_header(datasette):
    html = (await get_page(datasette, "/search?q=recalled&game=runeterra&kind=rule")).text
    header = re.search(r'<form class="judges-search".*?</form>', html, re.S).group()
    assert '<input type="hidden" name="game" value="runeterra">' in header
    assert '<input type="hidden" name="kind" value="rule">' in header
    assert 'name="version"' not in header  # only the filters chosen
    filters = re.search(r'<form class="search-filters".*?</form>', html, re.S).group()
    assert re.search(r'<option value="runeterra" selected>', filters)


async def test_a_card_nickname_finds_the_card_and_typed_alone_jumps_to_it(datasette):
    data = await _search(datasette, q="zhonyas")
    assert _keys(data)[0] == ("card", "Zhonya's Hourglass")
    assert data["jump_to"] == "/cards/zhonyas-hourglass"
    response = await get_page(datasette, "/search?q=Zhonyas", status=302)
    assert response.headers["location"] == "/cards/zhonyas-hourglass"
    # Named inside a question, the card counts, but the page lists what answers the question.
    question = await _search(datasette, q="is a unit saved by hourglass fully healed")
    assert question["jump_to"] is None and question["results"][0]["kind"] == "ruling"
    await get_page(datasette, "/search?q=is+a+unit+saved+by+hourglass+fully+healed")  # no redirect


async def test_a_rule_number_typed_alone_jumps_and_inside_a_question_comes_first(datasette):
    for query, target in [
        ("626.1.d", "/rules/riftbound/2025-06-02/626.1.d"),
        ("rule 318", "/rules/riftbound/2025-12-01/318"),
        ("443.1.e.", "/rules/riftbound/2025-12-01/443.1.e"),
        ("5.2", "/rules/runeterra/unversioned/5.2"),
    ]:
        response = await get_page(datasette, f"/search?q={quote(query)}", status=302)
        assert response.headers["location"] == target
    assert (await _search(datasette, q="rule 318"))["jump_to"] == "/rules/riftbound/2025-12-01/318"
    data = await _search(datasette, q="is 443.1.e about tank damage")
    assert _keys(data)[0] == ("rule", "443.1.e") and data["query"]["rule_numbers"] == ["443.1.e"]


async def test_fts_syntax_in_a_question_is_only_text(datasette):
    for query in [
        '"unbalanced',
        "NEAR(",
        "NEAR(recall tank, 2)",
        "a OR",
        "*",
        "recall*",
        "-recall",
        "title:recall",
        "(recall",
        "recall)",
        "^recall",
        "recall AND NOT tank",
        "{title body}: recall",
        "''",
        "\\",
        "",
        "   ",
        "\x00recall",
        "💥 recall",
    ]:
        await get_page(datasette, "/search?" + urlencode({"q": query}))
        data = await _search(datasette, q=query)
        assert isinstance(data["results"], list)
    assert (await _search(datasette, q="recall*"))["results"]  # the word still searched
    assert (await _search(datasette, q='"recall'))["results"]


@pytest.mark.parametrize("scored_matches", [retrieve.SCORED_MATCHES, 2])
async def test_paging_reaches_the_last_result(datasette, monkeypatch, scored_matches):
    """Every match once, to the last one; also when more rows match than BM25 ranks (then the rows past the
    re-ranked ones follow in the index's order)."""
    monkeypatch.setattr(retrieve, "SCORED_MATCHES", scored_matches)
    first = await _search(datasette, q="unit damage recall tank cleanup")
    total = first["total"]
    assert total > 5
    seen = []
    for page in range(1, 10):
        data = await _search(datasette, q="unit damage recall tank cleanup", page=page, per_page=2)
        seen += [(hit["kind"], hit["id"]) for hit in data["results"]]
        if not data["results"]:
            break
    assert len(seen) == len(set(seen)) == total  # every match once, and no more
    html = (await get_page(datasette, "/search?" + urlencode({"q": "unit damage recall tank cleanup"}))).text
    assert f"{total} results" in html
    empty = await _search(datasette, q="unit damage recall tank cleanup", page=999)
    assert empty["results"] == [] and empty["total"] == total


async def test_a_huge_question_is_cut_with_a_notice_and_bounded(datasette):
    huge = " ".join(f"recall{n} tank damage" for n in range(1200))  # about 24 kB: under the 32 kB an address may be
    assert len(huge) > 15_000
    data = await _search(datasette, q=huge)
    notices = " ".join(data["query"]["notices"])
    assert f"first {understand.MAX_QUERY_CHARS} characters" in notices
    assert len(data["query"]["concepts"]) <= understand.MAX_CONCEPTS
    repeated = await _search(datasette, q=" ".join(["recall"] * 3000))
    assert [concept["typed"] for concept in repeated["query"]["concepts"]] == ["recall"]
    html = (await get_page(datasette, "/search?" + urlencode({"q": huge}))).text
    assert "characters of the question were searched" in html


def test_common_concepts_find_rows_by_their_headings_when_many_rows_match(monkeypatch):
    """The rarest concepts are sought in every field while together they hold at most SCORED_MATCHES rows;
    the others only in headings and defined terms, so BM25 ranks a bounded number of rows."""
    monkeypatch.setattr(retrieve, "SCORED_MATCHES", 100)
    groups = [
        (weight, rows, f'{{text}} : ("{word}")', f'{{title terms}} : ("{word}")')
        for weight, rows, word in ((5.0, 90, "common"), (9.0, 8, "rare"), (7.0, 30, "middling"))
    ]
    expected = '{text} : ("rare") OR {text} : ("middling") OR {title terms} : ("common")'
    assert retrieve._common_in_headings(groups) == expected
    assert retrieve._common_in_headings([(1.0, 500, "everywhere", "in headings")]) == "in headings"


def test_rows_holding_two_concepts_are_those_of_every_pair(real_connection):
    """``_two_of`` writes "two of these concepts at least" with each concept fewer times than every pair spelled
    out, and matches the same rows."""
    groups = [
        (1.0, 50, '("unit")', ""),
        (2.0, 40, '("damage")', ""),
        (3.0, 30, '("combat")', ""),
        (4.0, 10, '("tank")', ""),
    ]
    expression = retrieve._two_of(groups)
    assert expression.count('("unit")') == 1 and expression.count('("tank")') == 3
    spelled_out = " OR ".join(
        f"({first} AND {second})"
        for first, second in itertools.combinations([group for _weight, _rows, group, _heading in groups], 2)
    )

    def rows(match: str) -> set[int]:
        return {
            row for (row,) in real_connection.execute("select rowid from search_fts where search_fts match ?", [match])
        }

    assert rows(expression) == rows(spelled_out) and rows(expression)


def test_a_question_matching_many_rows_ranks_a_bounded_set(fixture_db, monkeypatch):
    monkeypatch.setattr(retrieve, "SCORED_MATCHES", 2)
    connection = sqlite3.connect(fixture_db)
    filters = {"game": None, "version": None, "kind": None, "rulebook": None}
    query = understand.understand(connection, "unit damage recall tank cleanup in riftbound")
    retrieval = retrieve._retrieval(connection, query, filters)
    assert retrieval.named  # the game named has candidates of its own, bounded too
    total = retrieve._count(connection, retrieval.any, retrieval.rows)
    ranked = retrieve._candidates
    asked = []
    monkeypatch.setattr(retrieve, "_candidates", lambda *args: asked.append(args[1]) or ranked(*args))
    items = rank._ranked(
        connection, query, retrieval, total, rank._ConceptStems(query), rank._Matcher(connection, query)
    )
    assert asked and retrieval.any not in asked and asked[-1] == retrieval.bounded
    assert "{title terms} :" in retrieval.bounded
    assert 0 < len(items) < total


def test_the_query_builder_never_lets_fts_syntax_through(fixture_db):
    connection = sqlite3.connect(fixture_db)
    filters = {"game": "riftbound", "version": None, "kind": None, "rulebook": None}
    query = understand.understand(connection, 'recall" OR tank NEAR(x) -cleanup* {body}: ^hostile')
    retrieval = retrieve._retrieval(connection, query, filters)
    for match in (retrieval.any, retrieval.pairs, retrieval.bounded):
        quoted = re.findall(r'"([^"]*)"', match)
        assert quoted and all(re.fullmatch(r"[^\W_]+(?: [^\W_]+)*", words) for words in quoted)
        outside = re.sub(r'"[^"]*"', "", match)
        assert set(re.findall(r"[^\s():]+", outside)) <= {
            "{title",
            "terms",
            "path",
            "context",
            "body}",
            "AND",
            "OR",
            "facets",
            "current",
            "gameriftbound",
        }
        connection.execute("select count(*) from search_fts where search_fts match ?", [match]).fetchone()


# ---------------------------------------------------------------- real database: what a judge types


async def test_a_question_with_filler_words_finds_its_rule(real):
    data = await _search(real, q="can a unit have two buffs on it at once", game="riftbound")
    assert "can" in data["query"]["ignored"] and "a" in data["query"]["ignored"]
    numbers = [hit["number"] for hit in data["results"][:5]]
    assert "702.3" in numbers or "413.1.b.1" in numbers


async def test_a_typo_is_corrected_and_offered(real):
    data = await _search(real, q="zhonyas hourglas")
    assert data["query"]["corrections"] == [{"typed": "hourglas", "meant": "hourglass"}]
    assert data["query"]["did_you_mean"] == "zhonyas hourglass"
    assert data["results"][0]["kind"] == "card" and data["results"][0]["slug"] == "zhonyas-hourglass"
    html = (await get_page(real, "/search?q=zhonyas+hourglas+ruling+healed")).text
    assert "Showing results for" in html and "zhonyas hourglass ruling healed" in html


async def test_a_real_word_is_never_taken_for_a_typo(real):
    data = await _search(real, q="steals a unit")  # "steals" is English, though no document says it
    assert data["query"]["corrections"] == []


async def test_judge_slang_reaches_the_rules_words(real):
    data = await _search(real, q="does my unit come into play tapped", game="riftbound")
    concept = next(concept for concept in data["query"]["concepts"] if concept["typed"] == "tapped")
    assert "exhaust" in concept["forms"] or "exhaust" in concept["synonyms"]
    # Core Rules v1.4 (the newest): "Units enter the Board exhausted" (142.4 in 2025-12-01), 359.2.c (356.2.c)
    assert {"143.4", "359.2.c"} & {hit["number"] for hit in data["results"][:5]}


def test_a_concept_is_as_common_as_the_commonest_word_it_is_searched_by(real_connection):
    # "dies": the vocabulary expands it to "kill", which the rules say far more often than "die".
    (concept,) = understand.understand(real_connection, "dies").concepts
    rows = dict(real_connection.execute("select term, df from search_terms where term in ('die', 'kill')"))
    assert concept.expansions and rows["kill"] > rows["die"] > 0
    assert concept.rows == max(rows.values())


def test_a_phrase_of_the_vocabulary_matches_across_filler_words(real_connection):
    expansions = vocabulary.vocabulary().expansions
    phrase = next(key for key in expansions if len(key) == 2 and not set(key) & vocabulary.vocabulary().filler)
    query = understand.understand(real_connection, f"{phrase[0]} it {phrase[1]}")
    concept = query.concepts[0]
    assert concept.typed == f"{phrase[0]} it {phrase[1]}" and len(query.concepts) == 1
    assert set(concept.forms + concept.expansions) & {
        form for value in expansions[phrase] for form in [value, *value.split()]
    }
    # Filler at either end is not part of the phrase's span.
    assert understand._phrase_expansions(["the", phrase[0], "it", phrase[1], "it"], {}, expansions) == [(1, 4, phrase)]


def test_a_concept_found_only_in_an_example_counts_for_half():
    body = "Your deck can include up to 3 copies. Example: A deck could include a champion unit."
    row = {"game_id": "g", "kind": "ruling", **dict.fromkeys(index_format.FIELDS, ""), "body": body}
    stems: dict[str, str] = {}
    search_index._add_stems([row], stems)
    tagged = set(row["stems"].split())
    text = index_format.STEM_TAGS[index_format.FIELDS.index("body")]
    assert {text + stems["deck"], index_format.EXAMPLE_TAG + stems["deck"]} <= tagged
    assert index_format.EXAMPLE_TAG + stems["champion"] in tagged and text + stems["champion"] not in tagged
    query = understand.Query(
        "deck champion", [understand.Concept("deck", ["deck"]), understand.Concept("champion", ["champion"])]
    )
    query.terms = {word: understand.Term(word, 1, False, stem) for word, stem in stems.items()}
    query.concepts[0].weight, query.concepts[1].weight = 2.0, 3.0
    matched = rank._ConceptStems(query).matched(tuple(tagged), "g", text_credit=1.0)
    assert matched.coverage == pytest.approx((2.0 + rank.EXAMPLE_CREDIT * 3.0) / 5.0)  # "deck": before it too
    assert rank.EXAMPLE_CREDIT < 1
    # Without an example, every word is the text's.
    plain = {**row, "body": body.replace("Example:", "So")}
    search_index._add_stems([plain], stems)
    assert not any(stem.startswith(index_format.EXAMPLE_TAG) for stem in plain["stems"].split())


@pytest.mark.parametrize("game", [None, "riftbound", "runeterra", "rush-of-ikorr", "pox-nora"])
def test_the_rows_searched_by_default_are_sought_by_their_ids(real_connection, game):
    """The index stores the current rows first, game by game, so a search seeks to their ids instead of reading
    the list of every row holding the ``current`` or game token; an index not stored that way filters on tokens."""
    first, last = retrieve._current_rows(real_connection)[game]
    outside = real_connection.execute(
        """select count(*) from search_documents
        where (id between ? and ?) != (current = 1 and (? is null or game_id = ?))""",
        [first, last, game, game],
    ).fetchone()[0]
    assert outside == 0
    filters = {"game": game, "version": None, "kind": "rule", "rulebook": None}
    assert retrieve._filter_expression(filters, by_rowid=True) == "facets : (kindrule)"
    assert (
        retrieve._filter_expression(filters, by_rowid=False)
        == "facets : ("
        + " AND ".join(["current", *([index_format.facet("game", game)] if game else []), "kindrule"])
        + ")"
    )


def test_a_game_the_database_does_not_hold_keeps_nothing_for_it(fixture_db):
    """What a search keeps per database (``queries.lookup_table``) is keyed by the database, never by what a request
    typed: games it does not hold, however many, find nothing and add no kept table."""
    from rules_db.queries import kept

    connection = sqlite3.connect(fixture_db)
    try:
        answer.search(connection, "tank", game="riftbound")
        tables = dict(kept.LOOKUP_TABLES._answers(kept.file_identity(str(fixture_db))))
        for number in range(50):
            assert answer.search(connection, "tank", game=f"no such game {number}")["total"] == 0
        assert dict(kept.LOOKUP_TABLES._answers(kept.file_identity(str(fixture_db)))).keys() == tables.keys()
    finally:
        connection.close()


async def test_a_hit_names_its_game_as_the_home_page_does(datasette):
    """ "Legends of Runeterra", not its URL slug "runeterra", beside each rule found."""
    html = (await get_page(datasette, "/search?q=recalled&game=runeterra")).text
    notes = re.findall(r'<span class="note">([^<]*)</span>', html.split('<ol class="results"', 1)[1])
    assert notes and all(note.startswith("Legends of Runeterra") for note in notes)


async def test_an_empty_search_says_what_to_type(datasette):
    """Search tapped with nothing typed: the page says what the box takes, not a bare form."""
    for path in ("/search", "/search?q=", "/search?q=+++"):
        html = (await get_page(datasette, path)).text
        assert "Ask a question in a player's words, or type a card's name or a rule number" in html.replace(
            "&#39;", "'"
        )
    assert "search-hint" not in (await get_page(datasette, "/search?q=recalled")).text


async def test_a_search_page_reads_the_database_identity_once(datasette, monkeypatch):
    """A question naming several games looks up several kept tables (the vocabulary, the rows of each game): the
    database file's identity they are kept under is read once for the whole request, not at each look-up."""
    from rules_db.queries import kept

    question = "recalled in runeterra, riftbound and pox nora"
    await _search(datasette, q=question)  # the tables built
    reads: list[str] = []
    read = kept.file_identity
    monkeypatch.setattr(kept, "file_identity", lambda file: reads.append(file) or read(file))
    await get_page(datasette, "/search?" + urlencode({"q": question}))
    assert len(reads) == 1


def test_the_first_rule_found_under_a_heading_leads_its_section():
    def rule(row_id, document, section, position, score):
        item = rank._Scored({"id": row_id, "kind": "rule", "document_id": document}, rank=-1.0, score=score)
        item.section, item.position = section, position
        return item

    later, first, alone = (
        rule(1, "core", "Mighty", 9, 5.0),
        rule(2, "core", "Mighty", 8, 4.0),
        rule(3, "core", "Tank", 1, 3.0),
    )
    other_document = rule(4, "old", "Mighty", 1, 2.0)
    rank._with_section_leads([later, first, alone, other_document])
    assert first.features == {"leads": 1.0} and first.score == 4.0 + rank._WEIGHTS["leads"]
    assert later.features == alone.features == other_document.features == {}  # alone in its section: no lead
    assert (later.score, alone.score, other_document.score) == (5.0, 3.0, 2.0)


def test_a_rule_is_credited_with_what_the_rules_found_under_its_heading_hold():
    def rule(row_id, document, section, found):
        item = rank._Scored({"id": row_id, "kind": "rule", "document_id": document}, rank=-1.0, section=section)
        item.found = {"h:": {}, "p:": found, "b:": {}}
        return item

    weights = [3.0, 1.0]  # the question's two concepts
    topic, case, stray = (
        rule(1, "core", "Recalls", {0: 1.0}),
        rule(2, "core", "Recalls", {1: 0.5}),
        rule(3, "core", "Tokens", {1: 1.0}),
    )
    rank._with_section_coverage([topic, case, stray], weights)
    assert topic.features["section"] == case.features["section"] == (3.0 * 1.0 + 1.0 * 0.5) / 4.0
    assert stray.features["section"] == 1.0 / 4.0  # alone under its heading: what it holds itself
    assert topic.score == rank._WEIGHTS["section"] * topic.features["section"]


async def test_a_card_named_in_a_ruling_question_brings_the_ruling(real, real_connection):
    data = await _search(real, q="GA equipped and hourglass out, unit dies in combat, which one happens")
    first = data["results"][0]
    assert first["kind"] == "ruling" and "Guardian Angel" in first["title"]
    assert data["best"]["card"]["slug"] in {"guardian-angel", "zhonyas-hourglass"}


async def test_the_game_named_in_a_question_comes_first(real):
    data = await _search(real, q="what happens to a card drawn with a full hand in LoR")
    assert data["results"][0]["game"] == "runeterra"


def test_a_game_named_in_a_question_has_candidates_of_its_own(real_connection):
    # Another game's rules say "goes first" more often: without its own candidates, Pox Nora's rows never compete.
    question = "who goes first in pox nora"
    query = understand.understand(real_connection, question)
    unfiltered = {"game": None, "version": None, "kind": None, "rulebook": None}
    retrieval = retrieve._retrieval(real_connection, query, unfiltered)
    assert retrieval.named == [retrieve._current_rows(real_connection)["pox-nora"]]
    assert retrieve._retrieval(real_connection, query, {**unfiltered, "game": "pox-nora"}).named == []
    assert answer.search(real_connection, question)["results"][0]["game"] == "pox-nora"


async def test_a_phrase_only_in_a_cards_current_wording_finds_it(real, real_connection):
    row = real_connection.execute(
        "select slug, ability_text, current_text from cards where current_text != ability_text order by id limit 1"
    ).fetchone()
    slug, printed, current = row
    printed_words = set(re.findall(r"[^\W_]+", printed.lower()))
    new_words = [word for word in re.findall(r"[^\W_]+", current.lower()) if word not in printed_words]
    assert new_words, "the erratum adds no word"
    data = await _search(real, q=" ".join(new_words[:3]) + " " + slug.replace("-", " "), kind="card")
    assert slug in [hit["slug"] for hit in data["results"][:3]]


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Wagering [Disqualification]: Tournament attendees may not wager.", "Wagering [Disqualification]"),
        ("Neutral Open: There is no Showdown or Combat in progress.", "Neutral Open"),
        ("Looking at Extra Cards [Warning]: While taking a game action ...", "Looking at Extra Cards [Warning]"),
        ("Units have multiple Intrinsic Properties unique to them: Tag, Might.", None),  # a sentence, not a label
        ("This section may contain:", None),
        ("A Very Long Capitalised Phrase That Goes On And On: text", None),  # more than a few words
        ("No colon here at all.", None),
        (None, None),
    ],
)
def test_a_rule_opening_with_a_label_is_named_by_it(text, label):
    assert search_index.rule_label(text) == label


async def test_a_labelled_rule_is_found_by_its_label(real, real_connection):
    """The Tournament Rules name each infraction before a colon; the search finds the rule by that name
    before its sub-rules, and a label many rules open with ("Example:") names none of them."""
    data = await _search(real, q="penalty for looking at extra cards")
    first = data["results"][0]
    assert (first["kind"], first["title"]) == ("rule", "Looking at Extra Cards [Warning]")
    examples = real_connection.execute(
        "select count(*) from search_documents where kind = 'rule' and title = 'Example'"
    ).fetchone()[0]
    assert examples == 0


def test_an_infraction_rule_is_found_by_its_penalty(real_connection):
    """A rule that defines an infraction (the infractions table) is indexed with the infraction and its penalty
    among the terms it defines, so "what penalty" reaches it whatever its label says ("... [Warning]")."""
    rows = real_connection.execute(
        """select d.id, i.penalty from infractions i join search_documents d on d.kind = 'rule' and d.ref_id = i.rule_id
        where d.title not like '%penalty%'"""
    ).fetchall()
    assert rows
    query = understand.understand(real_connection, "penalty infraction")
    concepts = rank._ConceptStems(query)
    scoring = rank._scoring_rows(real_connection, [row_id for row_id, _penalty in rows])
    for row_id, penalty in rows:
        assert concepts.matched(scoring[row_id].stems, scoring[row_id].game_id, 1.0).heading == 1.0
        terms = real_connection.execute("select terms from search_documents where id = ?", [row_id]).fetchone()[0]
        assert search_index.penalty_phrase(penalty) in terms


@pytest.mark.parametrize(
    ("penalty", "phrase"),
    [
        ("Warning", "Warning penalty"),
        ("Game Loss", "Game Loss penalty"),
        ("Warning or Match Loss", "Warning or Match Loss penalty"),
        ("No Penalty", "No Penalty"),
        ("Minor penalty", "Minor penalty"),
        ("Penalty Box", "Penalty Box penalty"),
    ],
)
def test_a_penalty_is_named_a_penalty_once(penalty, phrase):
    assert search_index.penalty_phrase(penalty) == phrase


def test_no_infraction_is_indexed_with_penalty_twice(real_connection):
    """Every infraction's terms name its penalty, and none says "penalty penalty" (the "[No Penalty]" label)."""
    rows = real_connection.execute(
        """select d.terms, i.penalty from infractions i join search_documents d on d.kind = 'rule' and d.ref_id = i.rule_id"""
    ).fetchall()
    assert any(penalty == "No Penalty" for _terms, penalty in rows)
    for terms, penalty in rows:
        assert penalty in terms
        assert not re.search(r"\bpenalty\s+penalty\b", terms, re.IGNORECASE), terms


async def test_the_best_ruling_and_card_beside_the_rules_answer_nearly_as_well(real):
    """A ruling or card is offered as the best of its kind only when it scores near the top result; a
    ruling sharing one word with a question on a tournament penalty is not offered."""
    data = await _search(real, q="zhonyas hourglas")
    assert data["best"]["card"]["slug"] == "zhonyas-hourglass"
    for question in ("penalty for looking at extra cards", "what happens to the gear attached to a unit that dies"):
        data = await _search(real, q=question)
        top = data["results"][0]["score"]
        assert all(hit["score"] >= rank.BEST_SHARE * top for hit in data["best"].values())
    data = await _search(real, q="penalty for looking at extra cards")
    assert set(data["best"]) == {"rule"}


@pytest.mark.parametrize(
    "question", ["how do additional costs work", "what is the additional cost of this spell", "what is the trash"]
)
def test_a_question_in_the_games_own_words_asks_no_form(real_connection, question):
    """A form is asked by how a judge phrases the dispute, not by a word the rules use for a thing ("additional
    cost" is a kind of cost, not a question of limits)."""
    assert not understand.understand(real_connection, question).forms


@pytest.mark.parametrize(
    "form, asking, answer_word",
    [
        ("permission", "can't I rearrange the cards in my trash", "may"),
        ("limit", "a player channeled runes twice", "once"),
    ],
)
def test_a_question_of_a_form_favours_texts_that_answer_that_form(real_connection, form, asking, answer_word):
    """Asking whether something is allowed favours texts that allow, forbid or require; asking which comes first
    favours texts that order; a question that asks neither gives no credit."""
    asking = understand.understand(real_connection, asking)
    telling = understand.understand(real_connection, "what is the trash")
    assert form in asking.forms and not telling.forms

    def rule_whose_stems(condition: str) -> int:
        return real_connection.execute(
            f"select id from search_documents where kind = 'rule' and current = 1 and {condition} limit 1"
        ).fetchone()[0]

    answer_stems = search_index.stem_words(sorted(vocabulary.vocabulary().question_forms[form].answered_by))
    answering = rule_whose_stems(f"' ' || stems || ' ' like '% b:{answer_stems[answer_word]} %'")
    describing = rule_whose_stems(
        " and ".join(
            f"' ' || stems || ' ' not like '% {tag}{stem} %'" for tag in ("h:", "b:") for stem in answer_stems.values()
        )
    )
    for query, expected in ((asking, {answering: 1.0, describing: 0.0}), (telling, {answering: 0.0, describing: 0.0})):
        rows = [(answering, -1.0), (describing, -1.0)]
        scored = rank._scored(real_connection, query, rows, rank._ConceptStems(query))
        assert {item.document["id"]: item.features["form"] for item in scored} == expected


def test_a_question_of_two_forms_favours_texts_that_answer_both(real_connection):
    """ "can I score twice" asks whether it is allowed and how often: a text that says "may ... only once"
    answers both, a text that only says "may" half of it."""
    query = understand.understand(real_connection, "can a player score twice")
    assert query.forms == {"permission", "limit"}
    limit_words = sorted(vocabulary.vocabulary().question_forms["limit"].answered_by)
    stems = search_index.stem_words(["may", *limit_words])

    def rule_holding(held: list[str], lacking: list[str]) -> int:
        conditions = [f"' ' || stems || ' ' like '% b:{stems[word]} %'" for word in held]
        conditions += [
            f"' ' || stems || ' ' not like '% {tag}{stems[word]} %'" for word in lacking for tag in ("h:", "b:")
        ]
        return real_connection.execute(
            f"select id from search_documents where kind = 'rule' and current = 1 and {' and '.join(conditions)} limit 1"
        ).fetchone()[0]

    both = rule_holding(["may", "once"], [])
    permission_only = rule_holding(["may"], limit_words)
    scored = rank._scored(real_connection, query, [(both, -1.0), (permission_only, -1.0)], rank._ConceptStems(query))
    assert {item.document["id"]: item.features["form"] for item in scored} == {both: 1.0, permission_only: 0.5}


def test_a_long_ruling_question_counts_its_words_for_less(real_connection):
    """A ruling's question longer than three in four asks about many things in passing: the judge's words found in
    it count for less, by how much longer it is; a short ruling question and a rule's heading count in full."""
    long_question = rank._long_ruling_question(real_connection)
    ids = [row_id for (row_id,) in real_connection.execute("select id from search_documents where kind = 'ruling'")]
    rulings = rank._scoring_rows(real_connection, ids)
    lengths = [row.heading_words for row in rulings.values()]
    assert sum(length <= long_question for length in lengths) >= 0.75 * len(lengths) > 0
    longest_id = max(rulings, key=lambda row_id: rulings[row_id].heading_words)
    longest = rulings[longest_id]
    assert longest.heading_words > long_question
    title = real_connection.execute("select title from search_documents where id = ?", [longest_id]).fetchone()[0]
    query = understand.understand(real_connection, title)
    concepts = rank._ConceptStems(query)
    (scored,) = rank._scored(real_connection, query, [(longest_id, -1.0)], concepts)
    in_full = concepts.matched(longest.stems, longest.game_id, rank._TEXT_CREDIT["ruling"]).heading
    assert in_full > 0
    assert scored.features["heading"] == pytest.approx(in_full * long_question / longest.heading_words)
    short = next(row for row in rulings.values() if row.heading_words <= long_question)
    assert rank._heading_credit(short, long_question) == 1.0


@pytest.mark.parametrize("question", ["i can't attack with it", "why cant i play this spell", "can’t block"])
def test_a_negation_the_judge_types_is_searched_not_dropped(real_connection, question):
    """ "can't" is read as "cant" (apostrophes dropped), a word no document uses: the vocabulary says it is
    "cannot", so the question keeps its negation and no word is reported unknown."""
    query = understand.understand(real_connection, question)
    assert query.unknown == []
    assert any("cannot" in concept.forms + concept.expansions for concept in query.concepts)


def test_a_negative_contraction_is_not_corrected_into_another_word(real_connection):
    """ "won't" read as "wont" is a negation left out, not a typo of "won" (which would search for winning)."""
    query = understand.understand(real_connection, "it won't resolve")
    assert [concept.typed for concept in query.concepts] == ["resolve"] and "wont" in query.ignored


def test_a_card_holding_a_word_of_the_question_in_its_name_is_not_held_back(real_connection):
    """A question that neither names a card nor asks for one holds cards back, unless a card's name holds one of its
    words: "the fan that kills itself" describes Overzealous Fan without naming it whole."""
    named, other = real_connection.execute(
        "select id, title from search_documents where kind = 'card' and title like '% %' order by id limit 2"
    ).fetchall()
    name_word = max(index_format.WORD.findall(named[1].lower()), key=len)
    other_words = set(index_format.WORD.findall(other[1].lower()))
    assert name_word not in other_words
    query = understand.understand(real_connection, f"does {name_word} resolve")
    assert not query.wants_card and not query.card_only
    scored = rank._scored(real_connection, query, [(named[0], -1.0), (other[0], -1.0)], rank._ConceptStems(query))
    assert {item.document["id"]: item.features["unasked_card"] for item in scored} == {named[0]: 0.0, other[0]: 1.0}


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("spell that swaps the might of two units", True),
        ("the spell that deals 1 to everything at reaction speed", True),  # "the" as the question's first word
        ("the hourglass gear that saves a unit from dying", True),
        ("which unit can attack twice", True),
        ("what happens to the gear attached to a unit that dies", False),  # a game object it describes
        ("can i move a unit that was played this turn", False),
        ("do i need to score every battlefield that turn", False),
    ],
)
def test_a_card_intent_phrase_after_a_describing_word_describes_an_object(real_connection, question, asks):
    """ "unit that" asks for a card at the question's head, not in "... attached to a unit that dies", where a
    describing word ("a", "the", "every") stands right before it: cards are held back there."""
    assert understand.understand(real_connection, question).wants_card is asks


def test_every_word_of_the_vocabulary_is_read_as_a_word():
    """YAML reads an unquoted on, off, yes or no as a boolean: such a word would silently be "false"."""

    def values(node):
        if isinstance(node, dict):
            yield from node
            for value in node.values():
                yield from values(value)
        elif isinstance(node, list):
            for value in node:
                yield from values(value)
        else:
            yield node

    read = list(values(yaml.safe_load(vocabulary.VOCABULARY_FILE.read_text(encoding="utf-8"))))
    assert read and not any(isinstance(value, bool) for value in read)


@pytest.mark.parametrize("question", ["when does stun wear off", "does unspent energy carry over", "i put down a unit"])
def test_the_particle_of_a_phrasal_verb_is_not_searched(real_connection, question):
    """ "off", "over", "down" after a verb ("wear off") carry no meaning of their own: searched, they weigh as
    rare words and favour rules that say them in another sense ("go off", "over the top")."""
    query = understand.understand(real_connection, question)
    assert set(query.ignored) & {"off", "over", "down"}
    assert not {"off", "over", "down"} & {concept.typed for concept in query.concepts}


@pytest.mark.parametrize(
    ("typed", "as_written"),
    [
        ("whats the penalty for drawing extra cards", "what's the penalty for drawing extra cards"),
        ("doesnt it die", "doesn’t it die"),
        ("youre attacking there", "you're attacking there"),
    ],
)
def test_a_contraction_typed_without_its_apostrophe_is_no_typo(real_connection, typed, as_written):
    """ "whats" is "what's" with its apostrophe dropped: the filler word "what", not a typo offered back to the judge
    ("did you mean: what the penalty"); the question searches what it searches with the apostrophe."""
    query, written = understand.understand(real_connection, typed), understand.understand(real_connection, as_written)
    assert query.corrections == [] and written.corrections == []
    assert [concept.forms for concept in query.concepts] == [concept.forms for concept in written.concepts]


def test_a_text_in_two_fields_is_stemmed_under_each_fields_tag():
    """The index reads each distinct text once, but a text standing in two fields (a heading that is also a
    sibling's path, a ruling's question in its body) gives each field its own tagged stems."""
    text = "attacking units"
    first = {"game_id": "g", "kind": "ruling", **dict.fromkeys(index_format.FIELDS, ""), "title": text}
    second = {**first, "title": "", "body": text}
    stems: dict[str, str] = {}
    search_index._add_stems([first, second], stems)
    heading, body = (
        index_format.STEM_TAGS[index_format.FIELDS.index("title")],
        index_format.STEM_TAGS[index_format.FIELDS.index("body")],
    )
    assert set(first["stems"].split()) == {heading + stems[word] for word in ("attacking", "units")}
    assert set(second["stems"].split()) == {body + stems[word] for word in ("attacking", "units")}


def test_a_rows_stems_are_its_fields_tagged_stems_sorted_as_strings():
    """A row's stems are joined tag by tag (search_index._TAGGED_FIELDS): the result must be exactly every field's
    tagged stems, distinct and sorted as whole strings, whatever the tags are ("h:" after "b:", before "p:")."""
    row = {
        "game_id": "g",
        "kind": "ruling",
        "title": "Zebra attacks",
        "terms": "apple",
        "path": "Combat ; Attacking",
        "context": "moves",
        "body": "an apple attacks a zebra and moves",
    }
    stems: dict[str, str] = {}
    search_index._add_stems([row], stems)
    expected = {
        tag + stems[word]
        for tag, field in zip(index_format.STEM_TAGS, index_format.FIELDS)
        for word in search_index._words(row[field])
        if word in stems
    }
    assert row["stems"].split() == sorted(expected)


async def test_the_best_ruling_and_card_sit_below_the_first_result_only_when_they_match(real, real_connection):
    """Issue 34: the best rule first, the best ruling and card right below it (never above the results), each
    ruling with its answer in one line; a question no ruling or card answers nearly as well shows none."""
    data = await _search(real, q="how does stun work")
    first = data["results"][0]
    assert first["kind"] == "rule"
    shown = {(hit["kind"], hit["id"]) for hit in data["results"][:3]}
    picks = [hit for kind, hit in data["best"].items() if kind != "rule" and (hit["kind"], hit["id"]) not in shown]
    assert {hit["kind"] for hit in picks} == {"ruling", "card"}
    assert all(hit["score"] >= BEST_SHARE * first["score"] for hit in picks)
    html = (await get_page(real, "/search?q=how+does+stun+work")).text
    results = html.index('<ol class="results">')
    assert "Also answering" not in html and html.index('class="best-answers"') > results
    items = re.findall(r'<li class="(result result-\w+|best-answers)"', html[results:])
    assert items[:2] == [f"result result-{first['kind']}", "best-answers"]
    ruling = next(hit for hit in picks if hit["kind"] == "ruling")
    (text,) = real_connection.execute("select ruling from rulings where id = ?", [ruling["id"]]).fetchone()
    line = html_module.unescape(_answer_line_shown(html, ruling["id"]))
    assert line and line == answer_line(text) and len(line) <= ANSWER_LINE_CHARACTERS + 1 and text.startswith(line[:20])
    question = "what happens when I draw with a full hand"  # no ruling or card scores half the first result
    data = await _search(real, q=question)
    assert set(data["best"]) == {"rule"}
    assert 'class="best-answers"' not in (await get_page(real, "/search?" + urlencode({"q": question}))).text


def _answer_line_shown(html: str, ruling_id: int) -> str:
    """The one-line answer shown under the ruling's link on a page."""
    match = re.search(
        rf'href="/rulings/{ruling_id}">[^<]*</a>(?:\s*<span class="note">[^<]*</span>)?'
        r'<div class="ruling-answer">([^<]*)</div>',
        html,
    )
    return match.group(1) if match else ""


def test_a_rulings_answer_line_is_its_first_sentence_without_its_bullet_cut_at_a_word():
    assert answer_line("- Yes. It stays.\nMore text") == "Yes."
    assert answer_line("\n\nNo, because (rule 354.1) it moved. Then more.") == "No, because (rule 354.1) it moved."
    long = answer_line("word " * 100)
    assert long.endswith("word…") and len(long) <= ANSWER_LINE_CHARACTERS + 1
    assert answer_line(None) == "" and answer_line("") == ""


async def test_a_cards_rulings_show_their_answers_under_their_questions(real, real_connection):
    slug, ruling_id, text = real_connection.execute(
        """select c.slug, g.id, g.ruling from card_mentions m join cards c on c.id = m.card_id
        join rulings g on g.id = m.ruling_id order by c.slug, g.position limit 1"""
    ).fetchone()
    html = (await get_page(real, f"/cards/{slug}")).text
    assert html_module.unescape(_answer_line_shown(html, ruling_id)) == answer_line(text) != ""
