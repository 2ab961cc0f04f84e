"""The semantic stage (rules_db/search/semantic.py, models.py, refine.py, sections.py; rules_db/search_vectors.py):
the dense stage finds a rule through meaning alone, the search answers lexically without it (and says so), the refined
order is bounded and cancelled with its client, and a parent rule shows the sub-rule that answers inside its result.

Every test uses a stand-in encoder (``models.HashingEncoder``, with synonyms the test chooses) or a stand-in
cross-encoder: fast and deterministic, no model loaded.
"""

from __future__ import annotations

import asyncio
import shutil
import threading
import time
from urllib.parse import urlencode

import pytest
import sqlite_utils
from servers import in_process

from datasette_plugins import pages
from rules_db import guard, search_vectors
from rules_db.embedding_store import EmbeddingStore, digest
from rules_db.search import answer, cited, models, refine, semantic

# The judge's words here share nothing with rule 411.1 ("When a unit is recalled, it moves to its owner's base"):
# no document uses them; only the stand-in encoder knows what they mean.
STRANGE_WORDS = {"zorbled": "recalled", "critter": "unit", "homeward": "base"}


@pytest.fixture
def vectors_db(fixture_db, tmp_path, monkeypatch):
    """A copy of the fixture database with the semantic stage's vectors, made by a stand-in encoder."""
    path = tmp_path / "rules.db"
    shutil.copyfile(fixture_db, path)
    models.register(models.HashingEncoder("stand-in-test", synonyms=STRANGE_WORDS))
    monkeypatch.setenv("RULES_DB_ENCODER", "stand-in-test")
    db = sqlite_utils.Database(path)
    report = search_vectors.build(db)
    db.close()
    assert report["encoder"] == "stand-in-test" and report["rows"] > 0
    return path


def test_a_question_sharing_no_word_with_its_rule_finds_it_through_the_dense_stage(vectors_db):
    conn = guard.read_only(vectors_db)
    question = "zorbled critter homeward"
    lexical = answer.search(conn, question, semantic=False)
    assert lexical["results"] == [] and set(lexical["query"]["unknown"]) == set(question.split())
    fused = answer.search(conn, question)
    assert fused["semantic"]["on"] is True
    first = fused["results"][0]
    assert (first["kind"], first["number"], first["version"]) == ("rule", "411.1", "2025-12-01")
    assert first["features"]["dense"] == max(hit["features"].get("dense", 0.0) for hit in fused["results"]) > 0
    # Each row's fused score is kept (the best ruling and card are measured by it), in the order of the results
    assert [hit["features"]["fused"] for hit in fused["results"]] == sorted(
        (hit["features"]["fused"] for hit in fused["results"]), reverse=True
    )
    # Filters hold for the dense rows too: no rule of an older version, none of another game.
    assert all(hit["version"] != "2025-06-02" for hit in fused["results"])
    assert all(hit["game"] == "runeterra" for hit in answer.search(conn, question, game="runeterra")["results"])
    conn.close()


def test_the_fusion_keeps_both_rankings_and_the_lexical_order_on_ties():
    lexical = [(1, 10.0), (2, 5.0), (3, 1.0)]
    assert semantic.fuse(lexical, []) == [1, 2, 3]
    assert semantic.fuse(lexical, [(3, 0.99), (4, 0.95)], dense_weight=100.0) == [3, 4, 1, 2]
    assert semantic.fuse(lexical, [(4, 0.1)]) == [1, 2, 3, 4]  # below the floor: after every lexical row


def test_the_fusion_puts_a_rule_before_a_ruling_or_card_that_scores_a_little_more():
    lexical = [(1, 10.0), (2, 9.0), (3, 5.0)]  # 1 a ruling, 2 and 3 rules
    scores = semantic.fused_scores(lexical, [], rules={2, 3}, rule_prior=0.4)
    assert scores == pytest.approx({1: 1.0, 2: 1.3, 3: 0.9})
    assert semantic.fuse(lexical, [], rules={2, 3}, rule_prior=0.4) == [2, 1, 3]
    assert semantic.fuse(lexical, [], rules={2, 3}, rule_prior=0.0) == [1, 2, 3]  # no prior: the lexical order


def test_a_ruling_that_matches_lends_its_score_to_the_rules_it_cites(vectors_db):
    # Ruling 1 (Hourglass) cites steps 443.1.e and 444 ("The Resolution Step": no word of the question).
    conn = guard.read_only(vectors_db)
    question = "hourglass zhonyas saved fully healed"

    def placed(data: dict) -> dict:
        return {hit["number"]: (place, hit) for place, hit in enumerate(data["results"]) if hit["kind"] == "rule"}

    assert "444" not in placed(answer.search(conn, question, semantic=False))  # the lexical ranking alone: unchanged
    fused = answer.search(conn, question)
    ruling_place = next(
        place for place, hit in enumerate(fused["results"]) if hit["kind"] == "ruling" and hit["id"] == 1
    )
    rules = placed(fused)
    for number in ("443.1.e", "444"):  # the cited rules, in the newest version
        place, hit = rules[number]
        assert hit["version"] == "2025-12-01" and hit["features"]["cited"] > 0
    assert rules["444"][0] <= ruling_place + 3
    # A ruling hidden from the search lends nothing (the benchmark asks its question as one no document holds).
    hidden = placed(answer.search(conn, question, hidden={("ruling", 1)}))
    assert "444" not in hidden or "cited" not in hidden["444"][1]["features"]  # only ruling 1 cites 444
    # Filters hold: no rule of another rulebook than the one asked for, none when only rulings are asked for.
    assert placed(answer.search(conn, question, kind="ruling")) == {}
    conn.close()


def test_lent_scores_share_a_ruling_score_among_its_citations_and_add_up(vectors_db, monkeypatch):
    conn = guard.read_only(vectors_db)
    rows = {number: cited.cited_rows(conn, ruling, {}) for ruling, number in ((1, "one"), (2, "two"))}
    # Ruling 1 cites 443.1.e and 444 of the newest version and 626.1.d.2 of an older one, a number the newest lacks.
    assert len(rows["one"]) == 2 and len(rows["two"]) == 1 and rows["two"][0] in rows["one"]
    assert len(cited.cited_rows(conn, 1, {"version": "2025-06-02"})) == 1  # that version holds 626.1.d.2 only
    # rulings 1 and 2 (search ids 101, 102) in the order, scoring 1.0 and 0.5 of the best 1.0; exponent 1: shared out
    fused, order, rulings = {101: 1.0, 102: 0.5}, [101, 102], {101: 1, 102: 2}
    lent = cited.lent_scores(conn, order, fused, rulings, {}, weight=1.0, rulings_read=2, exponent=1.0)
    assert lent[rows["two"][0]] == pytest.approx(0.5 + 0.5)  # cited by both: the shares add up
    assert sorted(lent.values()) == pytest.approx([0.5, 1.0])
    only_first = cited.lent_scores(conn, order, fused, rulings, {}, weight=1.0, rulings_read=1, exponent=0.0)
    assert sorted(only_first.values()) == pytest.approx([1.0, 1.0])
    assert cited.lent_scores(conn, order, fused, rulings, {"kind": "card"}, weight=1.0) == {}
    conn.close()


def test_a_rebuild_embeds_only_texts_no_build_embedded(fixture_db, tmp_path, monkeypatch):
    """The store keeps vectors by encoder and text: a second build embeds nothing, identical texts are one."""
    calls: list[int] = []

    class Counting(models.HashingEncoder):
        cacheable = True

        def embed(self, texts, *, query=False):
            calls.append(len(texts))
            return super().embed(texts, query=query)

    models.register(Counting("stand-in-counting"))
    monkeypatch.setenv("RULES_DB_ENCODER", "stand-in-counting")
    monkeypatch.setenv("RULES_DB_EMBEDDINGS", str(tmp_path / "store"))
    reports = []
    for attempt in range(2):
        path = tmp_path / f"rules-{attempt}.db"
        shutil.copyfile(fixture_db, path)
        db = sqlite_utils.Database(path)
        reports.append(search_vectors.build(db))
        db.close()
    assert reports[0]["embedded now"] == reports[0]["distinct texts"] < reports[0]["rows"]  # a repeated text once
    assert reports[1]["embedded now"] == 0 and sum(calls) == reports[0]["distinct texts"]
    store = EmbeddingStore("stand-in-counting", 256, tmp_path / "store")
    assert len(store.get([digest("no build embedded this text")])) == 0
    store.close()


async def test_search_works_with_the_semantic_stage_off_and_says_so(fixture_db, vectors_db):
    # A database built before the semantic stage (the fixture's: no vectors).
    conn = guard.read_only(fixture_db)
    data = answer.search(conn, "recalled")
    assert data["semantic"]["on"] is False and "without" in data["semantic"]["off_because"]
    assert any(hit["number"] == "411.1" for hit in data["results"])
    conn.close()
    page = await in_process(fixture_db).client.get("/search?" + urlencode({"q": "recalled"}))
    assert page.status_code == 200 and "semantic stage is off" in page.text
    # A database whose encoder this server cannot load (its package missing, say): lexical, and why.
    conn = guard.read_only(vectors_db)
    models._registered.pop("stand-in-test")
    try:
        models._loaded.pop("stand-in-test", None)
        data = answer.search(conn, "recalled")
        assert data["semantic"]["on"] is False and "stand-in-test" in data["semantic"]["off_because"]
        assert any(hit["number"] == "411.1" for hit in data["results"])
    finally:
        models.register(models.HashingEncoder("stand-in-test", synonyms=STRANGE_WORDS))
        conn.close()


def test_also_shows_lists_the_sub_rule_holding_the_rarest_concept(fixture_db):
    """Rule 443.1 (combat damage is dealt) heads the rule that says Tank units are dealt damage first (443.1.e) and
    another on lethal damage (443.1.d): asked about combat damage and tank, 443.1's result shows 443.1.e first inside
    it, Tank (the rarest word of the question) highlighted."""
    conn = guard.read_only(fixture_db)
    data = answer.search(conn, "combat damage step tank")
    parent = next(hit for hit in data["results"] if hit["number"] == "443.1")
    assert parent["also_shows"] and parent["also_shows"][0] == 28  # rules.id of 443.1.e
    assert [sub["number"] for sub in parent["also"]][0] == "443.1.e"
    assert "\x02Tank\x03" in parent["also"][0]["snippet"]
    leaf = next(hit for hit in data["results"] if hit["number"] == "443.1.e")
    assert leaf["also_shows"] == []  # a rule that heads none shows none
    conn.close()


async def test_also_shows_in_the_json_and_on_the_page(fixture_db):
    datasette = in_process(fixture_db)
    data = (await datasette.client.get("/search.json?" + urlencode({"q": "combat damage step tank"}))).json()
    parent = next(hit for hit in data["results"] if hit["number"] == "443.1")
    assert parent["also_shows"][0] == 28 and parent["also"][0]["url"].endswith("/443.1.e")
    page = await datasette.client.get("/search?" + urlencode({"q": "combat damage step tank"}))
    assert 'class="also-shows"' in page.text and "<mark>Tank</mark>" in page.text
    assert "&lt;mark&gt;" not in page.text  # escaped once (the best rule's copy shares nothing with the result)


class _SlowCrossEncoder:
    """Scores a batch after ``release`` is set; counts the batches it scored."""

    def __init__(self) -> None:
        self.batches = 0
        self.started = threading.Event()
        self.release = threading.Event()

    def score(self, question, texts):
        self.started.set()
        self.release.wait(10)
        self.batches += 1
        return [float(-index) for index, _text in enumerate(texts)]


async def test_the_refine_request_is_cancelled_when_its_client_leaves(fixture_db, monkeypatch):
    slow = _SlowCrossEncoder()
    monkeypatch.setattr(models, "cross_encoder", lambda: slow)
    monkeypatch.setattr(pages, "REFINER", refine.Refiner(workers=1, waiting=1))
    monkeypatch.setattr(refine, "BATCH", 1)
    datasette = in_process(fixture_db)
    database = await pages.rules_database(datasette)
    conn = guard.read_only(fixture_db)
    found = answer.search(conn, "damage unit tank lethal recalled base combat")
    conn.close()
    assert len(found["results"]) > 2  # several batches to score
    task = asyncio.ensure_future(pages._refined(database, found))
    while not slow.started.is_set():
        await asyncio.sleep(0.01)
    task.cancel()  # what cancellation.cancel_on_disconnect does when the client leaves
    with pytest.raises(asyncio.CancelledError):
        await task
    slow.release.set()
    deadline = time.monotonic() + 10
    while pages.REFINER.running and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert pages.REFINER.running == 0
    assert slow.batches == 1  # the batch running when the client left; none after it
    # The worker is free for the next request, and a full queue answers "busy" at once.
    slow.started.clear()
    found = {**found, "results": list(found["results"])}
    assert await pages._refined(database, found) == "refined"


async def test_refine_gives_the_refined_order(fixture_db, monkeypatch):
    class Reversing:
        """Scores each text higher than the one before it, batch after batch, by more than the fused order's say in
        the refined score (PRIOR_WEIGHT between the first and second): the last candidate first."""

        scored = 0

        def score(self, question, texts):
            self.scored += len(texts)
            step = max(10.0, refine.PRIOR_WEIGHT)
            return [step * (self.scored - len(texts) + index) for index, _text in enumerate(texts)]

    reversing = Reversing()
    monkeypatch.setattr(models, "cross_encoder", lambda: reversing)
    monkeypatch.setattr(pages, "REFINER", refine.Refiner(workers=1, waiting=2))
    datasette = in_process(fixture_db)
    params = {"q": "damage unit tank lethal"}
    first = (await datasette.client.get("/search.json?" + urlencode(params))).json()
    refined = (await datasette.client.get("/search.json?" + urlencode({**params, "refine": "1"}))).json()
    assert refined["refine"] == "refined"
    count = min(refine.CANDIDATES, len(first["results"]))
    before = [(hit["kind"], hit["id"]) for hit in first["results"][:count]]
    after = [(hit["kind"], hit["id"]) for hit in refined["results"][:count]]
    assert sorted(before) == sorted(after) and after[0] == before[-1]


def test_a_full_refiner_answers_busy():
    refiner = refine.Refiner(workers=0, waiting=1)  # no worker takes the queued job
    refiner.submit("q", ["a"])
    with pytest.raises(refine.RefineBusy):
        refiner.submit("q", ["b"])
