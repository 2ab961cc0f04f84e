"""Aliases mined from the documents (rules_db/aliases.py): renamed wording across versions, and the search using them."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import sqlite_utils
from servers import in_process

from rules_db import aliases, schema
from rules_db.search import answer, index_format, rank, retrieve, understand


def _counter(texts: list[str]):
    """How many of the texts say a wording, their punctuation ignored (as the search index's phrase query does)."""

    def uses(wording: str) -> int:
        words = re.escape(" ".join(index_format.WORD.findall(wording)))
        return sum(1 for text in texts if re.search(rf"\b{words}\b", " ".join(index_format.WORD.findall(text.lower()))))

    return uses


def _aligned(*pairs: tuple[str, str]) -> list[tuple[int, str, str, int, str, str]]:
    return [(index, f"{index}.1", f"{index}.2", 100 + index, old, new) for index, (old, new) in enumerate(pairs)]


OLD_RULES = [
    "The Action Phase is where players act.",
    "During your Action Phase, you may play cards.",
    "A unit can take an action at a zone.",
]
NEW_RULES = [
    "The Main Phase is where players act.",
    "During your Main Phase, you may play cards.",
    "A unit can take an action at its zones.",
]


def _renames(old_rules: list[str], new_rules: list[str]) -> set[tuple[str, str]]:
    found = aliases.renames(
        _aligned(*zip(old_rules, new_rules)),
        _counter(old_rules),
        _counter(new_rules),
        {"zone": "zone", "zones": "zone"},
    )
    return {(rewrite.old, rewrite.new) for rewrite in found}


def test_a_wording_rewritten_in_several_rules_and_said_no_more_is_renamed():
    # "action" alone is still said in the new version ("take an action"): the rename is named with the word after it.
    assert _renames(OLD_RULES, NEW_RULES) == {("action phase", "main phase")}


def test_a_wording_rewritten_once_is_an_edit_not_a_rename():
    # Said by two rules of the old version and by none of the new one, but rewritten in only one aligned pair
    # (the other rule was removed): each test's example is blocked by its own filter alone.
    old_rules = [*OLD_RULES, "Cards are played in the Action Phase."]
    found = aliases.renames(
        _aligned((OLD_RULES[0], NEW_RULES[0])), _counter(old_rules), _counter(NEW_RULES), {"zone": "zone"}
    )
    assert found == []


def test_a_wording_the_old_version_said_once_is_not_renamed():
    # One old rule split in two: the rewrite shows in two aligned pairs, but one old rule said it.
    old = "The Action Phase is where players act and play cards."
    new = ["The Main Phase is where players act.", "The Main Phase is where players play cards."]
    found = aliases.renames(_aligned((old, new[0]), (old, new[1])), _counter([old]), _counter(new), {})
    assert found == []


def test_a_wording_the_new_version_still_says_is_not_renamed():
    assert _renames(OLD_RULES, [*NEW_RULES[:2], "A unit in the Action Phase can take an action at its zones."]) == set()


def test_other_forms_of_the_same_words_are_no_rename():
    assert _renames(["Put it in a zone.", "Move it to a zone."], ["Put it in zones.", "Move it to zones."]) == set()


def test_words_added_or_left_out_are_no_rename():
    old = ["Draw a card, for example a spell.", "Discard a card, for example a unit.", "Example text."]
    assert _renames(old, ["Draw a card, e.g. a spell.", "Discard a card, e.g. a unit.", "Text."]) == set()


def test_a_long_rewrite_is_a_rewording_not_a_name():
    old = ["Players then take turns acting in order.", "Players then take turns acting after combat."]
    new = [
        "Everyone alternately plays cards quickly in order.",
        "Everyone alternately plays cards quickly after combat.",
    ]
    assert _renames(old, new) == set()


def test_a_list_reworded_is_no_rename():
    """A wording never spans a separator: merging list items ("Spells, Units" -> "Cards") renames nothing."""
    old = ["It can be present on Spells, Units, Rune Abilities.", "It is present on Spells, Units, Rune Abilities."]
    new = ["It can be present on Cards, Rune Abilities.", "It is present on Cards, Rune Abilities."]
    assert _renames(old, new) == set()
    assert _renames([text.replace(",", "") for text in old], [text.replace(",", "") for text in new])


def test_a_wording_renamed_back_is_no_alias():
    rows = [
        {"game_id": "g", "alias": "pending", "term": "staged"},
        {"game_id": "g", "alias": "staged", "term": "pending"},
    ]
    assert [(row["alias"], row["term"]) for row in aliases._chained(rows)] == [("staged", "pending")]


def test_a_wording_renamed_twice_stands_for_its_last_name():
    rows = [
        {"game_id": "g", "alias": "pending", "term": "staged"},
        {"game_id": "g", "alias": "staged", "term": "queued"},
        {"game_id": "h", "alias": "static", "term": "passive"},
    ]
    assert {(row["alias"], row["term"]) for row in aliases._chained(rows)} == {
        ("pending", "queued"),
        ("staged", "queued"),
        ("static", "passive"),
    }


def test_a_vetoed_alias_is_left_out(tmp_path, monkeypatch):
    vetoes = tmp_path / "alias_vetoes.yaml"
    vetoes.write_text("vetoed:\n  - {game: g, alias: Action  Phase, term: main phase}\n", encoding="utf-8")
    monkeypatch.setattr(aliases, "VETO_FILE", vetoes)
    mined = [
        {"game_id": "g", "alias": "action phase", "term": "main phase", "source": "renamed"},
        {"game_id": "g", "alias": "static", "term": "passive", "source": "renamed"},
    ]
    monkeypatch.setattr(aliases, "renamed", lambda db: [dict(row, rules=2, rule_id=None, evidence="") for row in mined])
    db = sqlite_utils.Database(memory=True)
    schema.create(db)
    db["games"].insert({"id": "g", "name": "G"})
    assert aliases.build(db) == 1
    assert [(row["alias"], row["term"]) for row in db["search_aliases"].rows] == [("static", "passive")]


def test_the_bundled_vetoes_are_readable():
    assert isinstance(aliases.vetoes(), set)


# ---------------------------------------------------------------- on the bundled rulebooks


def test_renames_are_mined_from_the_bundled_versions_with_their_evidence(real_connection):
    rows = real_connection.execute(
        """select a.game_id, a.alias, a.term, a.rules, a.evidence, d.is_newest from search_aliases a
        join rules r on r.id = a.rule_id join documents d on d.id = r.document_id where a.source = 'renamed'"""
    ).fetchall()
    assert rows, "three versions of the Riftbound Core Rules rename some of their terms"
    for _game, alias, term, rules, evidence, _newest in rows:
        assert rules >= aliases.RECURRING and "→" in evidence and alias != term
    # the rule each alias names is of a newer version than some version that said the alias
    assert any(newest for *_rest, newest in rows)


def test_a_judge_using_an_older_versions_words_finds_the_newest_rule(real_connection):
    """Each renamed wording, asked in the game it was renamed in, finds rules of the newest version that say the
    new name: the old wording is said by none of them."""
    renames = real_connection.execute("select game_id, alias, term from search_aliases where source = 'renamed'")
    for game, alias, term in renames.fetchall():
        found = answer.search(real_connection, alias, game=game)["results"][:5]
        rules = [hit for hit in found if hit["kind"] == "rule"]
        texts = [
            " ".join(index_format.WORD.findall(text.lower()))
            for (text,) in real_connection.execute(
                f"""select coalesce(heading, '') || ' ' || coalesce(text, '') from rules
                where id in ({",".join("?" * len(rules))})""",
                [hit["id"] for hit in rules],
            )
        ]
        named = _stems_of(real_connection, term)
        assert any(named <= _stems_of(real_connection, text) for text in texts), (alias, term, found)


def _stems_of(conn, text: str) -> set[str]:
    words = index_format.WORD.findall(text.lower())
    if not words:
        return set()
    stems = dict(
        conn.execute(
            f"select term, stem from search_terms where term in ({','.join('?' * len(words))})", words
        ).fetchall()
    )
    return {stems.get(word) or word for word in words}


async def test_the_search_page_says_an_older_wording_is_renamed(real_db, real_connection):
    """The judge sees their older words named as such, with the newest name searched too and the evidence; in
    another game's search, where nothing renamed them, nothing is said."""
    datasette = in_process(real_db)
    game, alias, term, evidence = real_connection.execute(
        "select game_id, alias, term, evidence from search_aliases where source = 'renamed' order by rules desc"
    ).fetchone()
    data = (await datasette.client.get("/search.json?" + urlencode({"q": f"two {alias} at once"}))).json()
    assert [(note["typed"], note["term"], note["game"]) for note in data["query"]["renamed"]] == [(alias, term, game)]
    page = (await datasette.client.get("/search?" + urlencode({"q": alias, "game": game}))).text
    assert f"“{alias}” is an older wording" in page and f"now say “{term}”" in page and html.escape(evidence) in page
    other = real_connection.execute("select id from games where id != ? order by id", [game]).fetchone()[0]
    data = (await datasette.client.get("/search.json?" + urlencode({"q": alias, "game": other}))).json()
    assert data["query"]["renamed"] == []


def test_searching_every_game_an_alias_counts_only_for_the_rows_of_its_game(real_connection):
    """Asked with no game filter, a renamed wording's newest name finds and credits the rows of the game that
    renamed it only: a row of another game saying the new name but not the old wording is neither found nor
    credited for it, in its stems or its text; the same row read as the renaming game's is."""
    renames = real_connection.execute("select game_id, alias, term from search_aliases where source = 'renamed'")
    every_game = {"game": None, "version": None, "kind": None, "rulebook": None}
    checked = 0
    for game, alias, term in renames.fetchall():
        saying_term = real_connection.execute(
            """select d.id, d.game_id, d.body from search_documents d join search_fts f on f.rowid = d.id
            where search_fts match ? and d.current and d.game_id != ?""",
            [f'{{body}} : "{term}" NOT {{title terms path context body}} : "{alias}"', game],
        ).fetchall()
        shown = {hit["id"] for hit in answer.search(real_connection, alias)["results"]}
        assert not shown & {row_id for row_id, *_rest in saying_term}, (alias, term)
        query = understand.understand(real_connection, alias)
        [index] = [index for index, concept in enumerate(query.concepts) if term in concept.expansions]
        retrieval = retrieve._retrieval(real_connection, query, every_game)
        found = {
            row_id for row_id, _rank in retrieve._candidates(real_connection, retrieval.any, retrieval.rows, 10**6)
        }
        stems, matcher = rank._ConceptStems(query), rank._Matcher(real_connection, query)
        for row_id, other, body in saying_term:
            row = rank._scoring_rows(real_connection, [row_id])[row_id]
            assert row_id not in found
            assert index not in stems.matched(row.stems, other, 1.0).found["b:"]
            assert index in stems.matched(row.stems, game, 1.0).found["b:"]
            assert all(concept != index for *_span, _credit, concept in matcher.find(body, other))
            assert any(concept == index for *_span, _credit, concept in matcher.find(body, game))
            checked += 1
    assert checked, "Rush of Ikorr's rules say 'passive', a term Riftbound renamed 'static' to"
