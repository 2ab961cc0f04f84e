"""Acceptance of the built database (issue: ingest every rule text and ruling)."""

from __future__ import annotations

import shutil

import pytest
import sqlite_utils

RULE_COUNTS = {
    "riftbound-core-rules-2025-06-02": 1340,
    "riftbound-core-rules-2025-12-01": 1794,
    "riftbound-core-rules-2026-06-18": 2381,
    "riftbound-tournament-rules-2026-07-16": 935,
    "runeterra-unofficial-rulebook": 942,
    "rush-of-ikorr-comprehensive-rules-1.1": 683,
    "pox-nora-rules": 58,
}


@pytest.fixture(scope="module")
def db(real_db) -> sqlite_utils.Database:
    return sqlite_utils.Database(real_db)


@pytest.mark.parametrize("document, count", RULE_COUNTS.items())
def test_rule_count_per_document(db, document, count):
    assert db["rules"].count_where("document_id = ?", [document]) == count


@pytest.mark.parametrize("document", RULE_COUNTS)
def test_every_parent_exists_unless_reported_as_orphan(db, document):
    missing = {
        row["number"]
        for row in db.query(
            "select number from rules where document_id = ? and parent_number is not null and parent_id is null",
            [document],
        )
    }
    orphans = {
        row["number"]
        for row in db.query("select number from parse_issues where document_id = ? and kind = 'orphan'", [document])
    }
    assert missing <= orphans
    linked = list(
        db.query(
            "select c.number, c.parent_number, p.number as parent from rules c join rules p on p.id = c.parent_id "
            "where c.document_id = ? and (p.document_id != c.document_id or p.number != c.parent_number)",
            [document],
        )
    )
    assert linked == []


@pytest.mark.parametrize("document", [*RULE_COUNTS, "riftbound-qa-rulings", "riftboundfaq-rulings"])
def test_coverage_and_every_skipped_line_has_a_reason(db, document):
    row = db["documents"].get(document)
    assert row["coverage"] >= 0.995
    skipped = list(db.query("select line, reason from skipped_lines where document_id = ?", [document]))
    assert all(entry["reason"] for entry in skipped)
    assert row["ingested_share"] == pytest.approx(
        1 - len({e["line"] for e in skipped}) / row["nonblank_lines"], abs=1e-6
    )


def _ref(db, document, raw_start):
    return list(
        db.query(
            "select f.number as source, t.number as target, x.status from rule_refs x join rules f on f.id = x.from_rule_id "
            "left join rules t on t.id = x.to_rule_id where x.document_id = ? and x.raw_text like ?",
            [document, raw_start + "%"],
        )
    )


def test_see_rule_518_resolves_to_cleanups(db):
    refs = _ref(db, "riftbound-core-rules-2025-06-02", "See rule 518")
    assert refs and all(ref["target"] == "518" and ref["status"] == "resolved" for ref in refs)
    assert (
        db.execute(
            "select heading from rules where document_id = 'riftbound-core-rules-2025-06-02' and number = '518'"
        ).fetchone()[0]
        == "Cleanups"
    )


def test_references_to_the_unnumbered_combat_rules_resolve(db):
    for target in ("620", "624"):
        refs = [ref for ref in _ref(db, "riftbound-core-rules-2025-06-02", "See rule") if ref["target"] == target]
        assert refs, target
    inferred = db.execute(
        "select inferred from rules where document_id = 'riftbound-core-rules-2025-06-02' and number = '624'"
    ).fetchone()[0]
    assert inferred == 1


def test_ikorr_parenthesised_reference_resolves(db):
    refs = _ref(db, "rush-of-ikorr-comprehensive-rules-1.1", "(8.2)")
    assert refs and {ref["target"] for ref in refs} == {"8.2"}


def test_every_dangling_reference_is_listed(db):
    dangling = list(db.query("select target_number from rule_refs where status = 'dangling' and to_rule_id is null"))
    assert {row["target_number"] for row in dangling} >= {"3.1.1"}  # Ikorr 10.5a cites a rule that does not exist
    assert db["rule_refs"].count_where("status = 'dangling' and to_rule_id is not null") == 0
    assert db["rule_refs"].count_where("status = 'resolved' and to_rule_id is null") == 0


def test_the_riftbound_dangling_reference_report_holds_no_false_alarm(db):
    """No heading ("Step 2: The Combat Damage Step"), letter ("F" of "For more information") or
    word is read as a reference: what is left is the one number no Core Rules version holds."""
    dangling = [
        (row["document_id"], row["number"], row["target_number"])
        for row in db.query(
            "select x.document_id, f.number, x.target_number from rule_refs x join rules f on f.id = x.from_rule_id "
            "where x.status = 'dangling' and x.document_id like 'riftbound-%'"
        )
    ]
    # 502.11 cites 484.8.e (2v2 hands are Private) for a rule that is 489.8.f in v1.4
    assert dangling == [("riftbound-tournament-rules-2026-07-16", "502.11", "484.8.e")]
    assert db["rule_refs"].count_where("document_id like 'riftbound-core-rules-%' and status = 'resolved'") >= 400


def test_riftbound_glossary_keywords_have_their_defining_rule(db):
    rows = list(
        db.query(
            "select k.term, r.number from keywords k join rules r on r.id = k.rule_id "
            "where k.document_id = 'riftbound-core-rules-2025-06-02' and k.kind = 'keyword' order by r.position"
        )
    )
    assert rows[0] == {"term": "Accelerate", "number": "717"}
    assert len(rows) == 13 and rows[-1] == {"term": "Vision", "number": "729"}


def test_ikorr_glossary_terms_have_their_defining_rule(db):
    rows = list(
        db.query(
            "select k.term, r.number from keywords k join rules r on r.id = k.rule_id "
            "where k.document_id = 'rush-of-ikorr-comprehensive-rules-1.1' and k.kind = 'glossary term'"
        )
    )
    assert len(rows) == 63 and all(row["number"].startswith("11.") for row in rows)


def test_a_ruling_that_says_recalled_mentions_recall(db):
    rows = list(
        db.query(
            "select r.position, m.matched_text, k.term, d.version from keyword_mentions m "
            "join keywords k on k.id = m.keyword_id join rulings r on r.id = m.ruling_id "
            "join documents d on d.id = k.document_id where m.matched_text = 'recalled' "
            "and r.document_id = 'riftbound-qa-rulings'"
        )
    )
    assert rows and {row["term"] for row in rows} == {"Recalls"}
    assert {row["version"] for row in rows} == {"2025-12-01"}


def test_riftboundfaq_rulings_mention_the_keywords_of_the_version_they_were_reviewed_against(db):
    versions = {
        row["version"]
        for row in db.query(
            "select distinct d.version from keyword_mentions m join keywords k on k.id = m.keyword_id "
            "join rulings r on r.id = m.ruling_id join documents d on d.id = k.document_id "
            "where r.document_id = 'riftboundfaq-rulings'"
        )
    }
    assert versions == {"2026-06-18"}


def test_rulings_steps_and_nuances_are_counted_exactly(db):
    assert db["rulings"].count_where("document_id = 'riftbound-qa-rulings'") == 50
    assert db["ruling_steps"].count == 161
    assert db["ruling_nuances"].count == 111
    branches = [
        row["branch"]
        for row in db.query(
            "select distinct s.branch from ruling_steps s join rulings r on r.id = s.ruling_id "
            "where r.position = 9 and r.document_id = 'riftbound-qa-rulings' order by s.position"
        )
    ]
    assert branches == ["If Guardian Angel is chosen", "If Zhonya's is chosen"]


def test_full_text_search_is_stemmed(db):
    hits = [
        row["number"]
        for row in db.query(
            "select r.number from rules_fts f join rules r on r.id = f.rowid "
            "where rules_fts match 'recalled' and r.document_id = 'riftbound-core-rules-2025-12-01'"
        )
    ]
    assert "432" in hits or any(number.startswith("432.") for number in hits)


def test_only_one_version_per_rulebook_is_newest(db):
    newest = [
        (row["rulebook_id"], row["id"])
        for row in db.query("select rulebook_id, id from documents where is_newest = 1 order by rulebook_id")
    ]
    assert newest == [
        ("pox-nora-core", "pox-nora-rules"),
        ("riftbound-core", "riftbound-core-rules-2026-06-18"),
        ("riftbound-tournament", "riftbound-tournament-rules-2026-07-16"),
        ("runeterra-core", "runeterra-unofficial-rulebook"),
        ("rush-of-ikorr-core", "rush-of-ikorr-comprehensive-rules-1.1"),
    ]


def test_foreign_keys_hold(db):
    assert list(db.execute("PRAGMA foreign_key_check").fetchall()) == []


def test_every_replay_is_stored_and_every_cited_rule_exists_in_its_version(db):
    from scenarios import library_paths

    replays = list(
        db.query("select r.id, r.verdict, d.version from replays r join documents d on d.id = r.rules_document_id")
    )
    assert len(replays) == len(library_paths())
    missing = list(
        db.query(
            "select s.replay_id, c.number from replay_step_citations c join replay_steps s on s.id = c.step_id "
            "where c.rule_id is null and c.number not like 'faq:%'"  # an official FAQ's entry cites no rule
        )
    )
    assert missing == []
    wrong_version = list(
        db.query(
            "select c.number from replay_step_citations c join replay_steps s on s.id = c.step_id "
            "join replays p on p.id = s.replay_id join rules r on r.id = c.rule_id "
            "where r.document_id != p.rules_document_id or r.number != c.number"
        )
    )
    assert wrong_version == []


_REPLAY_TABLES = ["replay_step_citations", "replay_cards", "replay_steps", "replays"]  # those referring first


def test_replays_stored_in_batches_split_anywhere_give_the_rows_the_build_stored(real_db, tmp_path):
    """A build stores the library's replays batch by batch as they are replayed (``ReplayStore``): however the
    library is split, each row is the same, the steps' ids following on from one batch to the next."""
    from rules_db.replays import ReplayStore, replay_files
    from scenarios import library_paths

    copy = sqlite_utils.Database(shutil.copy(real_db, tmp_path / "rules.db"))
    built = {table: sorted(copy.execute(f"select * from {table}").fetchall()) for table in _REPLAY_TABLES}
    for table in _REPLAY_TABLES:
        copy.execute(f"delete from {table}")
    records, unreadable = replay_files(library_paths())
    assert unreadable == [] and len(records) > 100
    stored = ReplayStore(copy)
    for batch in (records[:1], records[1:100], [], records[100:]):
        stored.add(batch)
    assert {table: sorted(copy.execute(f"select * from {table}").fetchall()) for table in _REPLAY_TABLES} == built
    assert stored.figures()["replays"] == len(records) and stored.figures()["replay steps"] == len(
        built["replay_steps"]
    )


def test_replay_steps_nest_under_their_parents(db):
    orphans = list(
        db.query(
            "select s.id from replay_steps s left join replay_steps p on p.id = s.parent_step_id "
            "where s.depth > 0 and (p.id is null or p.depth != s.depth - 1 or p.replay_id != s.replay_id)"
        )
    )
    assert orphans == []
