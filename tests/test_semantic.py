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
from rules_db import schema, search_vectors
from rules_db.embedding_store import EmbeddingStore, digest
from rules_db.search import answer, models, refine, semantic

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
    conn = schema.read_only(vectors_db)
    question = "zorbled critter homeward"
    lexical = answer.search(conn, question, semantic=False)
    assert lexical["results"] == [] and set(lexical["query"]["unknown"]) == set(question.split())
    fused = answer.search(conn, question)
    assert fused["semantic"]["on"] is True
    first = fused["results"][0]
    assert (first["kind"], first["number"], first["version"]) == ("rule", "411.1", "2025-12-01")
    assert first["features"]["dense"] == max(hit["features"].get("dense", 0.0) for hit in fused["results"]) > 0
    # Filters hold for the dense rows too: no rule of an older version, none of another game.
    assert all(hit["version"] != "2025-06-02" for hit in fused["results"])
    assert all(hit["game"] == "runeterra" for hit in answer.search(conn, question, game="runeterra")["results"])
    conn.close()


def test_the_fusion_keeps_both_rankings_and_the_lexical_order_on_ties():
    lexical = [(1, 10.0), (2, 5.0), (3, 1.0)]
    assert semantic.fuse(lexical, []) == [1, 2, 3]
    assert semantic.fuse(lexical, [(3, 0.99), (4, 0.95)], dense_weight=100.0) == [3, 4, 1, 2]
    assert semantic.fuse(lexical, [(4, 0.1)]) == [1, 2, 3, 4]  # below the floor: after every lexical row


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
    conn = schema.read_only(fixture_db)
    data = answer.search(conn, "recalled")
    assert data["semantic"]["on"] is False and "without" in data["semantic"]["off_because"]
    assert any(hit["number"] == "411.1" for hit in data["results"])
    conn.close()
    page = await in_process(fixture_db).client.get("/search?" + urlencode({"q": "recalled"}))
    assert page.status_code == 200 and "semantic stage is off" in page.text
    # A database whose encoder this server cannot load (its package missing, say): lexical, and why.
    conn = schema.read_only(vectors_db)
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
    conn = schema.read_only(fixture_db)
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
    conn = schema.read_only(fixture_db)
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
        """Scores each text higher than the one before it, batch after batch: the last candidate first."""

        scored = 0

        def score(self, question, texts):
            self.scored += len(texts)
            return [10.0 * (self.scored - len(texts) + index) for index, _text in enumerate(texts)]

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
